import { config, makeProject, nodeCommand } from "../helpers.js";

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
