import { resolve } from "node:path";
import { findConfig, resolveConfigFile } from "../config/load.js";
import { toInterError, type InterError } from "../core/errors.js";
import { selectTasks } from "../engine/graph/build-graph.js";
import type { Graph } from "../engine/graph/task.js";
import { expandGlobs, isGlob, toProjectPath } from "../engine/graph/files.js";
import { plainReporter } from "../engine/graph/progress.js";
import { finished, finishedData, idsWith, type TaskOutcome, type TaskStatus } from "../engine/graph/outcome.js";
import type { Reporter } from "../engine/graph/scheduler.js";
import { InputWatcher, type WatchSet } from "../engine/graph/watcher.js";
import type { BundleData } from "../pipeline/bundle.js";
import type { InspectData } from "../pipeline/inspect.js";
import { executeGraph } from "./execute-graph.js";
import { INITIAL, transition, type WatchInput, type WatchState } from "./watch-state.js";
import { openProject, type Project } from "./project.js";
import { count } from "../core/plural.js";

export interface WatchOptions {
  cwd?: string;
  config?: string;
  /** The task ids to build, from the (re)loaded graph. */
  select(graph: Graph): string[];
  /** Applied to every (re)loaded project before it builds: command-line overrides of the config. */
  prepare?(project: Project): void;
  json: boolean;
  concurrency: number;
  force: boolean;
  remote: "auto" | "off" | "only";
}

/** One line of `--json` watch output (NDJSON on stdout). */
export type WatchEvent =
  | { event: "cycle-start"; cycle: number; changed: string[] }
  | { event: "task"; cycle: number; id: string; status: TaskStatus; durationMs: number }
  /** As soon as the bundle exists, before inspection: the new candidate's sha256. */
  | { event: "candidate"; cycle: number; sha256: string; file: string }
  | {
      event: "cycle-end";
      cycle: number;
      status: "ok" | "failed" | "cancelled";
      durationMs: number;
      ran: string[];
      cached: string[];
      failed: string[];
      candidate: string | null;
      certification: string | null;
      error: { code: string; message: string; suggestion: string } | null;
      watching: number;
    }
  | { event: "stopped"; signal: string };

const short = (sha: string) => `sha256:${sha.slice(0, 12)}…`;

/** Every file the selected tasks depend on, from the graph's input globs and the cache's records of what they read. */
async function watchSetOf(project: Project, ids: string[]): Promise<WatchSet> {
  const { root } = project.loaded;
  const tasks = ids.map((id) => project.graph.tasks.get(id)!);
  const patterns = [...new Set(tasks.flatMap((t) => t.inputs))];
  const files = new Set([project.loaded.file, ...project.loaded.sources]);
  for (const matches of (await expandGlobs(root, patterns)).values())
    for (const f of matches) files.add(resolve(root, f));
  // A plain path that does not exist yet is still an input: its appearance starts a cycle.
  for (const p of patterns) if (!isGlob(p)) files.add(resolve(root, p));
  const produced = new Set<string>();
  for (const id of ids) {
    const record = project.store.latestRecord(id);
    if (!record) continue;
    for (const path of Object.keys(record.key.reads ?? {})) files.add(resolve(root, path));
    for (const output of record.outputs) produced.add(resolve(root, output.path));
  }
  for (const p of produced) files.delete(p);
  return { root, files, globs: patterns.filter(isGlob), produced };
}

/** A cycle's task events: JSON lines with --json, else the plain reporter's lines; each candidate as it is made. */
function cycleReporter(
  n: number,
  json: boolean,
  out: (event: WatchEvent) => void,
  say: (line: string) => void,
  outcomes: TaskOutcome[],
): Reporter {
  const text = plainReporter();
  return {
    begin: () => {},
    taskStarted: (id) => json || text.taskStarted(id),
    taskLog: (id, line) => json || text.taskLog(id, line),
    taskFinished: (outcome) => {
      outcomes.push(outcome);
      if (json)
        out({
          event: "task",
          cycle: n,
          id: outcome.id,
          status: outcome.status,
          durationMs: Math.round(outcome.durationMs),
        });
      else text.taskFinished(outcome);
      const bundle = outcome.id === "bundle" && finished(outcome) ? (outcome.data as BundleData) : undefined;
      if (bundle && json) out({ event: "candidate", cycle: n, sha256: bundle.candidate, file: bundle.file });
      else if (bundle) say(`  candidate ${short(bundle.candidate)} (${bundle.file})`);
    },
  };
}

/** How a cycle ended: a `cycle-end` event with --json, else one line, and what is watched next. */
function reportCycleEnd(
  cycle: {
    n: number;
    cancelled: boolean;
    stopping: boolean;
    error: InterError | undefined;
    outcomes: TaskOutcome[];
    durationMs: number;
    watching: number;
  },
  json: boolean,
  out: (event: WatchEvent) => void,
  say: (line: string) => void,
): void {
  const { n, cancelled, error, outcomes, durationMs, watching } = cycle;
  const status = cancelled ? "cancelled" : error ? "failed" : "ok";
  const of = (s: TaskStatus) => idsWith(outcomes, s);
  const bundle = finishedData(outcomes, "bundle") as BundleData | undefined;
  const inspect = finishedData(outcomes, "inspect") as InspectData | undefined;
  if (json) {
    out({
      event: "cycle-end",
      cycle: n,
      status,
      durationMs,
      ran: of("ran"),
      cached: of("cached"),
      failed: of("failed"),
      candidate: bundle?.candidate ?? null,
      certification: inspect?.level ?? null,
      error: error && !cancelled ? { code: error.code, message: error.message, suggestion: error.suggestion } : null,
      watching,
    });
  } else if (cancelled) {
    say(cycle.stopping ? "■ build stopped" : "■ build cancelled: inputs changed while it ran; starting again");
  } else {
    const counts = `ran ${of("ran").join(", ") || "nothing"}; ${of("cached").length} cached; ${durationMs} ms`;
    if (error) say(`✖ ${error.code}: ${error.message}\n  → ${error.suggestion}\n  (${counts})`);
    else
      say(
        `✔ ${bundle ? `candidate ${short(bundle.candidate)}` : "done"}${inspect ? `, certified ${inspect.level}` : ""} — ${counts}`,
      );
    say(`inter: watching ${count(watching, "file")} for changes…`);
  }
}

/**
 * `--watch`: build once, then rebuild after each burst of changes to the inputs. A change during a build cancels it
 * (finished tasks keep their records) and starts the next, so the last build always saw the files as they are. Errors
 * are shown and the watch goes on; Ctrl-C stops it (exit 130).
 */
export async function watchBuild(options: WatchOptions): Promise<number> {
  // Nothing to watch without a config: a usage error before any event, not a state to wait in.
  resolveConfigFile(resolve(options.cwd ?? process.cwd()), options.config);
  const out = (event: WatchEvent) => process.stdout.write(`${JSON.stringify(event)}\n`);
  const say = (line: string) => options.json || process.stderr.write(`${line}\n`);
  // The state machine (cli/watch-state.ts) decides; this loop only carries out its effects and waits.
  let state: WatchState = INITIAL;
  let current: AbortController | undefined;
  let wake: (() => void) | undefined;
  const feed = (input: WatchInput) => {
    const result = transition(state, input);
    if (result.state.kind === "stopping" && state.kind !== "stopping")
      say("\ninter: stopping the watch (press Ctrl-C again to quit at once)");
    state = result.state;
    for (const effect of result.effects) {
      if (effect === "exit-now") process.exit(130);
      if (effect === "abort-build") current?.abort();
    }
    wake?.();
  };
  const watcher = new InputWatcher((paths) => feed({ kind: "changed", paths }));
  let lastSet: WatchSet | undefined;

  const onSignal = (signal: NodeJS.Signals) => feed({ kind: "signal", signal });
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const cycle = async (n: number, changed: string[]) => {
    const started = performance.now();
    const root = lastSet?.root ?? resolve(options.cwd ?? process.cwd());
    const shown = changed.map((p) => toProjectPath(root, p));
    if (options.json) out({ event: "cycle-start", cycle: n, changed: shown });
    else say(n === 1 ? "inter: building, then watching the inputs (Ctrl-C to stop)" : `── ${shown.join(", ")} changed`);
    const outcomes: TaskOutcome[] = [];
    const reporter = cycleReporter(n, options.json === true, out, say, outcomes);
    let error: InterError | undefined;
    let project: Project | undefined;
    const controller = new AbortController();
    current = controller;
    try {
      project = await openProject({ cwd: options.cwd, config: options.config });
      options.prepare?.(project);
      const ids = options.select(project.graph);
      lastSet = await watchSetOf(project, selectTasks(project.graph, ids));
      // Watching before building: a save during this build is seen, cancels it and starts the next.
      await watcher.update(lastSet);
      if (!controller.signal.aborted)
        await executeGraph(project, ids, {
          json: true,
          concurrency: options.concurrency,
          force: options.force && n === 1,
          signal: controller.signal,
          reporter,
          remote: options.remote,
        });
    } catch (caught) {
      error = toInterError(caught);
      if (!project) {
        // The config did not load: watch what it was made of last time, and the file itself, until it is fixed.
        const file = options.config
          ? resolve(options.cwd ?? process.cwd(), options.config)
          : findConfig(options.cwd ?? process.cwd());
        lastSet = {
          root: lastSet?.root ?? root,
          files: new Set([...(lastSet?.files ?? []), ...(file ? [file] : [])]),
          globs: lastSet?.globs ?? [],
          produced: lastSet?.produced ?? new Set(),
        };
        await watcher.update(lastSet);
      }
    } finally {
      current = undefined;
    }
    if (project && !error) {
      // What the tasks read this time ($ref'd files) joins the watched set.
      lastSet = await watchSetOf(project, selectTasks(project.graph, options.select(project.graph)));
      await watcher.update(lastSet);
    }
    reportCycleEnd(
      {
        n,
        cancelled: controller.signal.aborted,
        stopping: state.kind === "stopping",
        error,
        outcomes,
        durationMs: Math.round(performance.now() - started),
        watching: lastSet?.files.size ?? 0,
      },
      options.json === true,
      out,
      say,
    );
  };

  try {
    let n = 0;
    await cycle(++n, []);
    feed({ kind: "cycle-done" });
    for (;;) {
      const now: WatchState = state;
      if (now.kind === "stopping") break;
      if (now.kind === "watching" || now.kind === "running") {
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
        continue;
      }
      const changed = [...new Set(now.changed)].sort();
      feed({ kind: "start" });
      await cycle(++n, changed);
      feed({ kind: "cycle-done" });
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await watcher.close();
  }
  const stopped = state as WatchState;
  if (options.json) out({ event: "stopped", signal: stopped.kind === "stopping" ? stopped.signal : "SIGINT" });
  return 130;
}
