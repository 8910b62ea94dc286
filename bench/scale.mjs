// A generated description of 20,000 operations (test/products/big-openapi.mjs): the cold build to a certified
// candidate timed from outside (start to exit), the size of the CLI's root --help, and one call of the generated CLI
// against `node -e 0` in one interleaved run. Budgets (issue 18): build ≤ 30 s, root help ≤ 64 KiB, a call ≤ 1.5×.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BIG_BRIEF, bigDocument } from "../test/products/big-openapi.mjs";
import { compare, interBin, printTable, timeOnce } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const project = mkdtempSync(join(tmpdir(), "inter-bench-scale-"));
writeFileSync(join(project, "openapi.json"), JSON.stringify(bigDocument(20_000)));
writeFileSync(join(project, "context.md"), BIG_BRIEF);
writeFileSync(
  join(project, "intermesh.config.ts"),
  `import { defineConfig } from "intermesh";\nexport default defineConfig({ product: { name: "Big", binary: "big" }, inputs: { openapi: "openapi.json", context: "context.md" }, targets: { cli: { outDir: "dist" } } });\n`,
);
mkdirSync(join(project, "node_modules"));
symlinkSync(repo, join(project, "node_modules/intermesh"));

const build = timeOnce(["node", interBin(repo), "build"], {
  cwd: project,
  env: { ...process.env, CI: "true" },
});
const receipt = JSON.parse(readFileSync(join(project, "dist/receipt.json"), "utf8"));
console.log(
  `cold build of 20,000 operations to a candidate certified ${receipt.certification.level}: ${(build.wall / 1000).toFixed(1)} s wall (whole process) — budget ≤ 30 s ${build.wall <= 30_000 ? "met" : "MISSED"}`,
);

const prefix = mkdtempSync(join(tmpdir(), "inter-bench-scale-install-"));
execFileSync(
  "npm",
  ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", prefix, join(project, "dist/cli.tgz")],
  { stdio: "ignore" },
);
const big = join(prefix, "node_modules/.bin/big");
const env = { ...process.env, BIG_API_KEY: "bench" };
const help = execFileSync(big, ["--help"], { env }).length;
console.log(`root --help: ${(help / 1024).toFixed(1)} KiB — budget ≤ 64 KiB ${help <= 64 * 1024 ? "met" : "MISSED"}`);

const call = [big, "area150", "part20", "get", "--record-id", "rec_1", "--dry-run"];
const medians = compare(
  {
    "node -e 0": () => timeOnce(["node", "-e", "0"]),
    "big <group> <part> get --dry-run": () => timeOnce(call, { env }),
    "big --help": () => timeOnce([big, "--help"], { env }),
  },
  { runs: 21 },
);
printTable("a 20,000-operation CLI, one call", medians, "node -e 0");
const ratio = medians["big <group> <part> get --dry-run"].wall / medians["node -e 0"].wall;
console.log(`  budget (wall) one call: ≤ 1.50× → ${ratio.toFixed(2)}× ${ratio <= 1.5 ? "met" : "MISSED"}`);
