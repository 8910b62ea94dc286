import { existsSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * test/global-setup.ts clears what a caller may have exported (run e.g. with `ROOMS_API_KEY=x CI=true FORCE_COLOR=1
 * HOME=/tmp/h npx vitest run test/unit/environment.test.ts`): tests set what they depend on themselves.
 */
describe("the suite's environment", () => {
  it("holds none of the variables inter, its generated CLIs, CI or colour switches would read from the caller", () => {
    const inherited = Object.keys(process.env).filter((name) =>
      /^(ROOMS_|AGENT_CLI_|INTER_|INTERMESH_|ANTHROPIC_|OPENAI_|GITHUB_|XDG_)|^(CI|NO_COLOR|FORCE_COLOR)$/.test(name),
    );
    expect(inherited).toEqual([]);
  });

  it("has a HOME of the run's own, beside its temporary folder, never the user's", () => {
    const home = process.env.HOME!;
    expect(home).not.toBe(userInfo().homedir);
    expect(existsSync(home)).toBe(true);
    expect(dirname(home)).toBe(dirname(tmpdir()));
  });
});
