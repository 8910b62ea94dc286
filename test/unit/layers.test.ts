import { execa } from "execa";
import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, writeFiles, tempDir } from "../helpers.js";

// The direction rule (.dependency-cruiser.cjs) on a small tree: it must pass a clean one and fail each kind of breach,
// or `npm run check:layers` would prove nothing.
async function check(files: Record<string, string>) {
  const dir = tempDir("inter-layers-");
  cpSync(join(REPO, ".dependency-cruiser.cjs"), join(dir, ".dependency-cruiser.cjs"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { module: "nodenext", moduleResolution: "nodenext", allowImportingTsExtensions: false },
    }),
  );
  writeFiles(dir, files);
  const result = await execa(
    join(REPO, "node_modules/.bin/depcruise"),
    ["src", "--config", ".dependency-cruiser.cjs", "--output-type", "err"],
    { cwd: dir, reject: false },
  );
  return { ok: result.exitCode === 0, output: `${result.stdout}${result.stderr}` };
}

describe("the layer rule", () => {
  it("passes imports that point down and fails one that points up, a cycle, and a file outside every layer", async () => {
    const clean = {
      "src/core/errors.ts": "export const E = 1;\n",
      "src/engine/graph/scheduler.ts": 'import { E } from "../../core/errors.js";\nexport const S = E;\n',
      "src/cli/main.ts": 'import { S } from "../engine/graph/scheduler.js";\nexport const M = S;\n',
    };
    expect((await check(clean)).ok).toBe(true);

    const upward = await check({
      ...clean,
      "src/engine/graph/scheduler.ts": 'import { M } from "../../cli/main.js";\nexport const S = 1 + Number(M);\n',
      "src/cli/main.ts": "export const M = 1;\n",
    });
    expect(upward.ok).toBe(false);
    expect(upward.output).toContain("engine-imports-upward");

    const cycle = await check({
      ...clean,
      "src/core/a.ts": 'import { B } from "./b.js";\nexport const A = B;\n',
      "src/core/b.ts": 'import { A } from "./a.js";\nexport const B = A;\n',
    });
    expect(cycle.ok).toBe(false);
    expect(cycle.output).toContain("no-cycles");

    const stray = await check({
      ...clean,
      "src/misc/helper.ts": 'import { E } from "../core/errors.js";\nexport const H = E;\n',
    });
    expect(stray.ok).toBe(false);
    expect(stray.output).toContain("every-file-has-a-layer");
  });

  it("keeps the generated CLI's runtime to core: it may not import inter's config, though config sits below stages", async () => {
    const runtime = {
      "src/core/errors.ts": "export const E = 1;\n",
      "src/config/types.ts": "export const C = 1;\n",
      "src/runtime/main.ts": 'import { E } from "../core/errors.js";\nexport const R = E;\n',
      "src/stages/design/names.ts": 'import { R } from "../../runtime/main.js";\nexport const N = R;\n',
    };
    expect((await check(runtime)).ok).toBe(true);
    const reaching = await check({
      ...runtime,
      "src/runtime/main.ts": 'import { C } from "../config/types.js";\nexport const R = C;\n',
    });
    expect(reaching.ok).toBe(false);
    expect(reaching.output).toContain("runtime-imports-core-only");
  });
});
