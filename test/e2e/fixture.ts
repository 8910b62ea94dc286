import { cpSync } from "node:fs";
import { config, inter, makeProject, nodeCommand, perFile, tempDir, writeFiles } from "../helpers.js";

/** Appends the task name to runs.log, so tests see which commands really executed. */
const mark = (name: string) => `require("fs").appendFileSync("runs.log", "${name}\\n");`;

export const GEN = `${mark("gen")} const fs = require("fs"); fs.mkdirSync("out", { recursive: true }); const parts = fs.readdirSync("src").sort().map((f) => fs.readFileSync("src/" + f, "utf8")); fs.writeFileSync("out/gen.txt", parts.join(""));`;
export const PACK = `${mark("pack")} const fs = require("fs"); fs.writeFileSync("out/pack.txt", fs.readFileSync("out/gen.txt", "utf8").toUpperCase());`;
export const LINT = `${mark("lint")}`;

export function tasksBody(extra = "", pack = PACK): string {
  return `{
    gen: { command: ${nodeCommand(GEN)}, inputs: ["src/*.txt"], outputs: ["out/gen.txt"] },
    pack: { command: ${nodeCommand(pack)}, deps: ["gen"], outputs: ["out/pack.txt"] },
    lint: { command: ${nodeCommand(LINT)}, inputs: ["src/*.txt"], env: ["LINT_LEVEL"] },
    ${extra}
  }`;
}

export function projectConfig(tasks = tasksBody()): string {
  return config(`{
  product: { name: "Rooms", binary: "rooms" },
  inputs: { openapi: "inputs/openapi.yaml", context: "inputs/context.md" },
  tasks: ${tasks},
}`);
}

export function makeBaseProject(overrides: Record<string, string> = {}): string {
  return makeProject({
    "intermesh.config.ts": projectConfig(),
    "inputs/openapi.yaml": "openapi: 3.1.0\ninfo: { title: Rooms, version: 1.0.0 }\npaths: {}\n",
    "inputs/context.md": "# Rooms\n",
    "src/a.txt": "alpha\n",
    "src/b.txt": "beta\n",
    ...overrides,
  });
}

export const runs = (log: string) => log.split("\n").filter(Boolean);

const template = perFile(async () => {
  const dir = makeBaseProject();
  const result = await inter(dir, ["build"]);
  if (result.exitCode !== 0) throw new Error(`the template build failed: ${result.stdout}${result.stderr}`);
  return dir;
});

/**
 * A copy of a base project that was built once (cold) in this test file, with its local cache, dist/ and outputs: for
 * tests of what the next build does, not of the cold build itself (a cold build is most of a test's CPU). The first
 * test that asks builds the template; it is only read afterwards, and each test owns its copy. `extra` files are
 * written into the copy, after the template's build.
 */
export async function builtBaseProject(extra: Record<string, string> = {}): Promise<string> {
  const copy = tempDir();
  cpSync(await template(), copy, { recursive: true });
  writeFiles(copy, extra);
  return copy;
}
