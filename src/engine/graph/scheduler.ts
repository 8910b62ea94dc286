import { lstatSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import {
  describeChange,
  diffKeys,
  fingerprintOf,
  type Change,
  type Digest,
  type FingerprintKey,
} from "../cache/fingerprint.js";
import { canonicalJson, xxh } from "../../core/hash.js";
import type { StatIndex } from "../cache/stat-index.js";
import type { Cache } from "../cache/cache.js";
import type { OutputEntry, TaskRecord } from "../cache/store.js";
import type { LoadedConfig } from "../../config/types.js";
import { InterError, toInterError } from "../../core/errors.js";
import { expandGlobs, toProjectPath } from "./files.js";
import { dependencyDigests, hashReads, taskKey } from "./key.js";
import { finished, type CachedOutcome, type RanOutcome, type TaskOutcome } from "./outcome.js";
import type { DepResult, Graph, TaskSpec } from "./task.js";

export interface Reporter {
  begin(ids: string[]): void;
  taskStarted(id: string): void;
  taskLog(id: string, line: string): void;
  taskFinished(outcome: TaskOutcome): void;
}

export interface RunOptions {
  loaded: LoadedConfig;
  graph: Graph;
  ids: string[];
  /** Where hits come from and runs are kept (local, remote, or both in tiers): the scheduler sees only this. */
  cache: Cache;
  statIndex: StatIndex;
  interVersion: string;
  concurrency: number;
  force: boolean;
  signal: AbortSignal;
  reporter: Reporter;
}

const LOG_TAIL = 60;

export async function runTasks(options: RunOptions): Promise<TaskOutcome[]> {
  const { graph, ids, reporter, signal } = options;
  const outcomes = new Map<string, TaskOutcome>();
  const results = new Map<string, { result: DepResult; digest: string }>();
  const pending = new Set(ids);
  const running = new Map<string, Promise<void>>();
  reporter.begin(ids);

  const finish = (outcome: TaskOutcome) => {
    outcomes.set(outcome.id, outcome);
    reporter.taskFinished(outcome);
  };

  while (pending.size || running.size) {
    for (const id of [...pending]) {
      const task = graph.tasks.get(id)!;
      const failedDep = task.deps.find((d) => {
        const done = outcomes.get(d);
        return done !== undefined && !finished(done);
      });
      if (signal.aborted) {
        pending.delete(id);
        finish({ id, status: "interrupted", durationMs: 0, warnings: [] });
        continue;
      }
      if (failedDep) {
        pending.delete(id);
        finish({ id, status: "skipped", durationMs: 0, blockedBy: failedDep, warnings: [] });
        continue;
      }
      if (running.size >= options.concurrency) break;
      if (!task.deps.every((d) => results.has(d))) continue;
      pending.delete(id);
      const started = performance.now();
      const work = executeTask(task, options, results).then(
        (done) => {
          results.set(id, { result: done.result, digest: done.digest });
          finish(done.outcome);
        },
        (error) => {
          const durationMs = performance.now() - started;
          if (signal.aborted) {
            // What a task says as it is stopped (a killed child, INTERRUPTED) is the abort's doing, not its own error.
            finish({ id, status: "interrupted", durationMs, warnings: [] });
            return;
          }
          const err = toInterError(error);
          finish({
            id,
            status: "failed",
            durationMs,
            error: { code: err.code, message: err.message, suggestion: err.suggestion, details: err.details },
            warnings: [],
          });
        },
      );
      running.set(
        id,
        work.finally(() => running.delete(id)),
      );
    }
    if (running.size) await Promise.race(running.values());
    else if (pending.size) throw new Error(`scheduler stalled on ${[...pending].join(", ")}`);
  }
  return ids.map((id) => outcomes.get(id)!);
}

function digestOf(outputs: OutputEntry[], data: unknown): Digest {
  return xxh(canonicalJson({ outputs: outputs.map((o) => [o.path, o.sha256, o.mode]), data })) as Digest;
}

function whyRan(options: RunOptions, task: TaskSpec, key: FingerprintKey): Change[] {
  if (options.force) return [{ kind: "forced" }];
  if (task.cache === false) return [{ kind: "uncached" }];
  const before = options.cache.latest(task.id);
  if (!before) return [{ kind: "first-run" }];
  const changes = diffKeys(before.key, key);
  return changes.length ? changes : [{ kind: "first-run" }];
}

async function executeTask(
  task: TaskSpec,
  options: RunOptions,
  results: Map<string, { result: DepResult; digest: string }>,
): Promise<{ outcome: RanOutcome | CachedOutcome; result: DepResult; digest: string }> {
  const started = performance.now();
  const depDigests = dependencyDigests(task, results);
  const {
    base,
    key: keyBefore,
    fingerprint: fingerprintBefore,
  } = await taskKey(
    task,
    options.loaded.root,
    options.statIndex,
    (id, b) => options.cache.readsOf(id, b),
    options.interVersion,
    depDigests,
  );
  let key = keyBefore;
  let fingerprint = fingerprintBefore;

  if (!options.force && task.cache !== false) {
    const hit = await options.cache.lookup(task.id, { base, key, fingerprint });
    if (hit) {
      const { record } = hit;
      options.cache.markLatest(task.id, hit.fingerprint);
      return {
        outcome: {
          id: task.id,
          status: "cached",
          source: hit.source,
          durationMs: performance.now() - started,
          fingerprint: hit.fingerprint,
          warnings: record.warnings,
          data: record.data,
          outputs: record.outputs.map((o) => o.path),
        },
        result: { data: record.data, outputs: record.outputs },
        digest: record.digest,
      };
    }
  }

  const reasons = whyRan(options, task, key).map(describeChange);
  options.reporter.taskStarted(task.id);
  const tail: string[] = [];
  const deps: Record<string, DepResult> = {};
  for (const dep of task.deps) deps[dep] = results.get(dep)!.result;
  let returned;
  try {
    returned = await task.run({
      root: options.loaded.root,
      slice: task.config,
      signal: options.signal,
      deps,
      inputs: key.inputs,
      force: options.force === true,
      interVersion: options.interVersion,
      log: (line) => {
        tail.push(line);
        if (tail.length > LOG_TAIL) tail.shift();
        options.reporter.taskLog(task.id, line);
      },
    });
  } catch (error) {
    const err = toInterError(error);
    const internal = err.code === "INTERNAL_ERROR";
    throw new InterError(
      internal ? "TASK_FAILED" : err.code,
      internal ? `Task ${task.id} failed: ${err.message.replace(/^Unexpected internal error: /, "")}` : err.message,
      err.suggestion,
      { ...err.details, task: task.id, ...(tail.length ? { log: tail } : {}) },
    );
  }
  if (options.signal.aborted)
    throw new InterError(
      "INTERRUPTED",
      `Task ${task.id} was interrupted.`,
      "Run the command again; finished tasks are cached.",
    );

  let reads: string[] | undefined;
  if (returned.reads?.length) {
    reads = [
      ...new Set(
        returned.reads.map((r) =>
          isAbsolute(r) && !relative(options.loaded.root, r).startsWith("..")
            ? toProjectPath(options.loaded.root, r)
            : r,
        ),
      ),
    ].sort();
    key = { ...key, reads: hashReads(options.loaded.root, options.statIndex, reads) };
    fingerprint = fingerprintOf(key);
  }
  const outputs = await collectOutputs(task, options);
  const data = returned.data ?? null;
  const warnings = returned.warnings ?? [];
  const digest = digestOf(outputs, data);
  const record: TaskRecord = {
    schema: 1,
    task: task.id,
    fingerprint,
    key,
    createdAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    outputs,
    data,
    warnings,
    digest,
  };
  // An uncached task's record stays local (for `inter explain`); nothing of it is shared.
  options.cache.save(record, base, reads, task.cache !== false);
  return {
    outcome: {
      id: task.id,
      status: "ran",
      durationMs: performance.now() - started,
      fingerprint,
      reasons,
      warnings,
      data,
      outputs: outputs.map((o) => o.path),
    },
    result: { data, outputs },
    digest,
  };
}

async function collectOutputs(task: TaskSpec, options: RunOptions): Promise<OutputEntry[]> {
  const { root } = options.loaded;
  const paths = [...new Set([...(await expandGlobs(root, task.outputs)).values()].flat())].sort();
  return paths.map((path) => {
    const abs = join(root, path);
    options.statIndex.forget(abs);
    const { sha256, size } = options.cache.keep(abs);
    return { path, sha256, size, mode: lstatSync(abs).mode & 0o777 };
  });
}
