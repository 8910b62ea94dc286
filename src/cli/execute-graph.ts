import { join } from "node:path";
import { initHasher } from "../core/hash.js";
import { acquireLock } from "../engine/cache/lock.js";
import type { RemoteSummary } from "../engine/cache/remote.js";
import { remoteSettings } from "../engine/cache/remote-settings.js";
import { LocalCache } from "../engine/cache/cache.js";
import { StatIndex } from "../engine/cache/stat-index.js";
import { TieredCache } from "../engine/cache/tiered.js";
import { withReads } from "../engine/graph/key.js";
import { ERROR_CODES, InterError, type ErrorCode } from "../core/errors.js";
import { selectTasks } from "../engine/graph/build-graph.js";
import { liveReporter, plainReporter, silentReporter, summaryLine } from "../engine/graph/progress.js";
import { failures, tally, type TaskOutcome, type TaskStatus } from "../engine/graph/outcome.js";
import { runTasks, type Reporter } from "../engine/graph/scheduler.js";
import type { Project } from "./project.js";
import { INTER_BUILD } from "../core/version.js";
import { count as counted } from "../core/plural.js";

export interface GraphRun {
  tasks: TaskOutcome[];
  /** How many tasks ended in each status (every status, zero or not), of how many, in how long. */
  summary: { total: number } & Record<TaskStatus, number> & { durationMs: number };
  /** Present when a remote cache was used: hits, misses, uploads, errors and the one warning. */
  remote?: RemoteSummary;
  /** Present when the cache folder refused writes (read-only, full): why this run's results were not kept. */
  cache?: { warning: string };
}

const LOCK_TIMEOUT_MS = 30 * 60 * 1000;

async function pickReporter(json: boolean): Promise<Reporter & { done?(): Promise<void> }> {
  if (json) return silentReporter;
  // A pseudo-terminal without a size (some CI runners, `script`) would wrap the live list at width 0.
  if (process.stderr.isTTY && process.stderr.columns > 0 && !process.env.CI) return liveReporter();
  return plainReporter();
}

/**
 * Runs the requested tasks and their dependencies under the project lock. Ctrl-C (or SIGTERM) aborts running tasks,
 * waits for them to stop, keeps every finished record, and ends with INTERRUPTED (exit 130).
 */
export interface ExecuteOptions {
  json: boolean;
  concurrency: number;
  force: boolean;
  /** Set by a caller that owns the signals (watch mode): it aborts the run, and Ctrl-C is left to it. */
  signal?: AbortSignal;
  /** Instead of the terminal's or --json's reporter. */
  reporter?: Reporter;
  /** "off" (--no-remote), "only" (--remote-only: no local hits); default: use the remote cache when configured. */
  remote?: "auto" | "off" | "only";
}

export async function executeGraph(project: Project, requested: string[], options: ExecuteOptions): Promise<GraphRun> {
  const started = performance.now();
  const ids = selectTasks(project.graph, requested);
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    if (!options.json)
      process.stderr.write("\ninter: interrupting — stopping running tasks (press Ctrl-C again to quit at once)\n");
    controller.abort();
  };
  const external = options.signal;
  if (external) {
    if (external.aborted) controller.abort();
    else external.addEventListener("abort", () => controller.abort(), { once: true });
  } else {
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  }

  const lock = await acquireLock(join(project.stateDir, "lock"), {
    signal: controller.signal,
    timeoutMs: LOCK_TIMEOUT_MS,
    onWait: (pid) =>
      options.json ||
      process.stderr.write(`inter: waiting for another inter process (pid ${pid}) working in this project…\n`),
  });
  let outcomes: TaskOutcome[];
  let cacheWarning: string | undefined;
  const settings = options.remote === "off" ? undefined : remoteSettings(project.loaded.config.cache?.remote);
  if (options.remote === "only" && !settings) {
    lock.release();
    throw new InterError(
      "USAGE_ERROR",
      "--remote-only needs a remote cache, and none is configured.",
      "Set cache.remote.url in the config or INTER_REMOTE_CACHE_URL.",
    );
  }
  // Loaded only when a remote is configured: a local no-op build stays as small as it was.
  const remote = settings ? new (await import("../engine/cache/remote.js")).RemoteCache(settings) : undefined;
  try {
    await initHasher();
    const statIndex = StatIndex.load(project.cacheDir);
    const reporter: Reporter & { done?(): Promise<void> } = options.reporter ?? (await pickReporter(options.json));
    try {
      const local = new LocalCache(project.store, project.loaded.root, statIndex);
      const cache =
        remote || options.remote === "only"
          ? new TieredCache(local, remote, {
              remoteOnly: options.remote === "only",
              withReads: (step, reads) => withReads(project.loaded.root, statIndex, step, reads),
            })
          : local;
      outcomes = await runTasks({
        loaded: project.loaded,
        graph: project.graph,
        ids,
        cache,
        statIndex,
        interVersion: INTER_BUILD,
        concurrency: options.concurrency,
        force: options.force,
        signal: controller.signal,
        reporter,
      });
    } finally {
      await reporter.done?.();
      cacheWarning = project.store.unwritable ?? statIndex.save();
      await remote?.flush();
    }
  } finally {
    lock.release();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }

  const durationMs = Math.round(performance.now() - started);
  const counts = tally(outcomes);
  const run: GraphRun = {
    tasks: outcomes.map((o) => ({ ...o, durationMs: Math.round(o.durationMs) })),
    summary: { total: outcomes.length, ...counts, durationMs },
    ...(remote ? { remote: remote.summary } : {}),
    ...(cacheWarning ? { cache: { warning: cacheWarning } } : {}),
  };
  if (!options.json) {
    if (remote?.summary.warning) process.stderr.write(`⚠ ${remote.summary.warning}\n`);
    if (cacheWarning) process.stderr.write(`⚠ ${cacheWarning}\n`);
    process.stderr.write(`${summaryLine(outcomes, durationMs)}\n`);
    if (remote)
      process.stderr.write(
        `remote cache ${remote.summary.url}: ${counted(remote.summary.hits, "hit")}, ${counted(remote.summary.misses, "miss", "misses")}, ${counted(remote.summary.uploads, "upload")}, ${counted(remote.summary.errors, "error")}\n`,
      );
  }

  if (controller.signal.aborted) {
    throw new InterError(
      "INTERRUPTED",
      "Interrupted; finished tasks were recorded in the cache.",
      "Run the same command again to continue where it stopped.",
      { ...run },
    );
  }
  const failed = failures(outcomes);
  if (failed.length) {
    const first = failed[0]!.error;
    // Bad input stays a usage-class error (exit 2) even when a task is what noticed it, and a service that would not
    // start stays SERVICE_FAILED, an evaluation whose every attempt was a harness error EVAL_NOT_JUDGED, a full disk
    // DISK_FULL: the harness's, the user's or the machine's to fix, not the candidate's.
    const kept =
      first.code in ERROR_CODES &&
      (ERROR_CODES[first.code as ErrorCode] === 2 ||
        ["SERVICE_FAILED", "EVAL_NOT_JUDGED", "DISK_FULL", "NOT_WRITABLE"].includes(first.code));
    const code: ErrorCode = kept ? (first.code as ErrorCode) : "TASK_FAILED";
    const names = failed.map((f) => f.id).join(", ");
    throw new InterError(
      code,
      failed.length === 1
        ? first.message
        : `${counted(failed.length, "task")} failed (${names}); first: ${first.message}`,
      first.suggestion,
      { failed: failed.map((f) => f.id), ...first.details, ...run },
    );
  }
  return run;
}
