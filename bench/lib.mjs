// Shared helpers for benchmarks: wall-clock medians of whole commands, measured interleaved in one run so that
// machine noise hits every contender alike.
import { spawnSync } from "node:child_process";

export function timeOnce(argv, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"], ...options });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs each contender `runs` times, round-robin, after `warmup` rounds; returns median ms per name. */
export function compare(contenders, { runs = 25, warmup = 3 } = {}) {
  const samples = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const [name, run] of Object.entries(contenders)) {
      const ms = run();
      if (i >= warmup) samples[name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

export function printTable(title, medians, baseline) {
  console.log(`\n${title}`);
  for (const [name, ms] of Object.entries(medians)) {
    console.log(`  ${name.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / medians[baseline]).toFixed(2)}× ${baseline}`);
  }
}
