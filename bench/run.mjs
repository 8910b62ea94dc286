// Runs every benchmark in turn. Each prints its own ratios against a baseline measured in the same run.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";

const only = process.argv[2];
for (const file of readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith(".mjs") && !["run.mjs", "lib.mjs", "wire-corpus-shapes.mjs"].includes(f))
  // The wire corpus is a correctness harness of several minutes, not a timing: run only when named.
  .filter((f) => f !== "wire-corpus.mjs" || only?.includes("wire"))
  .sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n=== ${file}`);
  execFileSync("node", [new URL(file, import.meta.url).pathname], { stdio: "inherit" });
}
