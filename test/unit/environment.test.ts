import { existsSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { KEPT_VARIABLES } from "../global-setup.js";

/**
 * test/global-setup.ts keeps of the caller's environment only what KEPT_VARIABLES names (run this file with e.g.
 * `ROOMS_API_KEY=x LINT_LEVEL=strict CI=true FORCE_COLOR=1 HOME=/tmp/h` exported): tests set what they depend on.
 */
/** What vite and vitest set in a worker, after the global setup ran. */
const SET_IN_WORKER = ["BASE_URL", "DEV", "FORCE_TTY", "MODE", "PROD", "SSR"];

describe("the suite's environment", () => {
  it("holds nothing the caller exported for inter, its CLIs, fixtures, CI or colour, only what it keeps", () => {
    const inherited = Object.keys(process.env).filter(
      (name) => !KEPT_VARIABLES.test(name) && !SET_IN_WORKER.includes(name),
    );
    expect(inherited.sort()).toEqual(["HOME", "TMPDIR"]);
    // Every Node the suite starts would parse the bundle it names (test/global-setup.ts says why it is dropped).
    expect(process.env.NODE_EXTRA_CA_CERTS).toBeUndefined();
  });

  it("has a HOME of the run's own, beside its temporary folder, never the user's", () => {
    const home = process.env.HOME!;
    expect(home).not.toBe(userInfo().homedir);
    expect(existsSync(home)).toBe(true);
    expect(dirname(home)).toBe(dirname(tmpdir()));
  });
});
