// Design stage on large real documents: a cold build (empty cache) and a rebuild after a one-line context.md edit,
// with peak memory, for GitHub's full REST description (~1,200 operations) and a 400-operation slice of it.
// Budgets: cold build of ~400 operations under 5 s and 300 MiB; a context edit re-runs no OpenAPI work.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { githubDocument, githubProject, interBin, median, operationCount, slice } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const inter = interBin(repo);
const env = { ...process.env, CI: "true" };

/** Wall time and peak resident memory of one `inter run bundle --json` (up to the candidate) or `inter build --json`. */
function build(dir, args = ["run", "bundle"]) {
  const started = process.hrtime.bigint();
  const result = spawnSync("/usr/bin/time", ["-f", "%M", "node", inter, ...args, "--json"], {
    cwd: dir,
    env,
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(result.stdout + result.stderr);
  const peakKiB = Number(result.stderr.trim().split("\n").pop());
  const tasks = Object.fromEntries(JSON.parse(result.stdout).data.tasks.map((t) => [t.id, t.status]));
  return { ms, peakMiB: peakKiB / 1024, tasks };
}

const full = githubDocument();
const sliced = slice(full, 400);
const nodeBaseline = median(
  Array.from({ length: 10 }, () => {
    const t = process.hrtime.bigint();
    execFileSync("node", ["-e", "0"]);
    return Number(process.hrtime.bigint() - t) / 1e6;
  }),
);
console.log(`node -e 0: ${nodeBaseline.toFixed(1)} ms (baseline of this run)`);

for (const [name, document, ops] of [
  ["github-400", sliced, sliced.count],
  ["github-full", full, operationCount(full)],
]) {
  const dir = githubProject(name, document);
  const colds = [];
  for (let i = 0; i < 3; i++) {
    rmSync(join(dir, ".intermesh"), { recursive: true, force: true });
    colds.push(build(dir));
  }
  const edits = [];
  for (let i = 0; i < 5; i++) {
    const brief = readFileSync(join(dir, "context.md"), "utf8");
    writeFileSync(join(dir, "context.md"), brief.replace(/^Rooms( \(edit \d+\))? is/m, `Rooms (edit ${i}) is`));
    edits.push(build(dir));
  }
  const cold = median(colds.map((c) => c.ms));
  const peak = Math.max(...colds.map((c) => c.peakMiB));
  const edit = median(edits.map((e) => e.ms));
  const reran = [
    ...new Set(
      edits.flatMap((e) =>
        Object.entries(e.tasks)
          .filter(([, s]) => s === "ran")
          .map(([id]) => id),
      ),
    ),
  ];
  rmSync(join(dir, ".intermesh"), { recursive: true, force: true });
  const full = build(dir, ["build"]);
  console.log(`\n${name} (${ops} operations)`);
  console.log(
    `  cold build to the candidate (inter run bundle, median of 3): ${cold.toFixed(0)} ms  (${(cold / nodeBaseline).toFixed(1)}× node -e 0)  peak ${peak.toFixed(0)} MiB`,
  );
  console.log(
    `  new candidate after a context.md edit:                      ${edit.toFixed(0)} ms  re-ran: ${reran.join(", ")}`,
  );
  console.log(
    `  cold full inter build (with inspection):                    ${full.ms.toFixed(0)} ms  peak ${full.peakMiB.toFixed(0)} MiB`,
  );
  if (name === "github-400")
    console.log(
      `  budget: cold < 5000 ms → ${cold < 5000 ? "met" : "MISSED"}; peak < 300 MiB → ${peak < 300 ? "met" : "MISSED"}; OpenAPI re-parsed on edit → ${reran.includes("openapi") ? "YES (MISSED)" : "no (met)"}`,
    );
  rmSync(dir, { recursive: true, force: true });
}
