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

/** Each breach the check reported: its rule and the file it starts from. */
const breaches = (output: string) =>
  [...output.matchAll(/error ([\w-]+): (\S+)/g)].map(([, rule, from]) => `${rule}: ${from}`).sort();

// One tree that must pass and one holding a breach of each kind, each named by its rule and its file: every rule is
// shown to fire on its own breach and on nothing else, in two runs of depcruise rather than one per breach (each run
// loads TypeScript, about 2.5 s of CPU).
describe("the layer rule", () => {
  const clean = {
    "src/core/errors.ts": "export const E = 1;\n",
    "src/config/types.ts": "export const C = 1;\n",
    "src/engine/graph/scheduler.ts": 'import { E } from "../../core/errors.js";\nexport const S = E;\n',
    "src/cli/main.ts": 'import { S } from "../engine/graph/scheduler.js";\nexport const M = S;\n',
    // The generated CLI's runtime imports core only; a layer above it may import it, though it sits below config.
    "src/runtime/main.ts": 'import { E } from "../core/errors.js";\nexport const R = E;\n',
    "src/stages/design/names.ts": 'import { R } from "../../runtime/main.js";\nexport const N = R;\n',
  };

  it("passes imports that point down, and a runtime that imports core only", async () => {
    const result = await check(clean);
    expect(result.ok, result.output).toBe(true);
  });

  it("fails one that points up, a cycle, a file outside every layer, and a runtime that imports inter's config", async () => {
    const result = await check({
      ...clean,
      "src/engine/graph/scheduler.ts": 'import { M } from "../../cli/main.js";\nexport const S = 1 + Number(M);\n',
      "src/cli/main.ts": "export const M = 1;\n",
      "src/core/a.ts": 'import { B } from "./b.js";\nexport const A = B;\n',
      "src/core/b.ts": 'import { A } from "./a.js";\nexport const B = A;\n',
      "src/misc/helper.ts": 'import { E } from "../core/errors.js";\nexport const H = E;\n',
      "src/runtime/main.ts": 'import { C } from "../config/types.js";\nexport const R = C;\n',
    });
    expect(result.ok).toBe(false);
    expect(breaches(result.output), result.output).toEqual([
      "engine-imports-upward: src/engine/graph/scheduler.ts",
      "every-file-has-a-layer: src/misc/helper.ts",
      "no-cycles: src/core/a.ts",
      "runtime-imports-core-only: src/runtime/main.ts",
    ]);
  });
});
