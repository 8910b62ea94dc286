import { safeReads } from "../cache/safe-paths.js";
import { join } from "node:path";
import { toolVersions, type Fingerprint, type FingerprintKey } from "../cache/fingerprint.js";
import { isAbsolute } from "node:path";
import { xxh } from "../../core/hash.js";
import type { StatIndex } from "../cache/stat-index.js";
import { fingerprintOf } from "../cache/fingerprint.js";
import { expandGlobs } from "./files.js";
import type { DepResult, TaskSpec } from "./task.js";
import { canonicalJson } from "../../core/hash.js";

/** The fingerprint key of a task as things stand on disk now, given what its dependencies produced. */
async function keyFor(
  task: TaskSpec,
  root: string,
  statIndex: StatIndex,
  interVersion: string,
  deps: Record<string, string>,
): Promise<FingerprintKey> {
  const inputs: Record<string, string> = {};
  for (const paths of (await expandGlobs(root, task.inputs)).values()) {
    for (const path of paths) inputs[path] = statIndex.hash(join(root, path), "xxh")!;
  }
  const env: Record<string, string | null> = {};
  for (const name of envNames(task.env)) env[name] = process.env[name] === undefined ? null : xxh(process.env[name]!);
  return { task: task.id, impl: task.impl, config: task.config, inputs, deps, env, tool: toolVersions(interVersion) };
}

/** The variables a task's env names: each name as is, and for `PREFIX_*` every variable set with that prefix. */
function envNames(names: string[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    if (!name.endsWith("*")) out.add(name);
    else for (const key of Object.keys(process.env)) if (key.startsWith(name.slice(0, -1))) out.add(key);
  }
  return [...out].sort();
}

export function hashReads(root: string, statIndex: StatIndex, reads: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of [...reads].sort())
    out[path] = statIndex.hash(isAbsolute(path) ? path : join(root, path), "xxh") ?? "missing";
  return out;
}

export interface TaskKey {
  /** Fingerprint of the declared key alone: files read last time are filed under it. */
  base: Fingerprint;
  key: FingerprintKey;
  fingerprint: Fingerprint;
}

/**
 * The complete key: the declared one plus the files the last run with that declared key reported reading. The one
 * place a task's key is computed: the scheduler and `inter explain` both call it.
 */
export async function taskKey(
  task: TaskSpec,
  root: string,
  statIndex: StatIndex,
  readsOf: (taskId: string, base: string) => string[] | undefined,
  interVersion: string,
  deps: Record<string, string>,
): Promise<TaskKey> {
  const declared = await keyFor(task, root, statIndex, interVersion, deps);
  const base = fingerprintOf(declared);
  const reads = readsOf(task.id, base);
  // A stored list that names a folder or a device (written by an older inter from a remote) is ignored: the task runs
  // again and writes a list of its own.
  const key =
    reads && safeReads(root, reads, true) ? { ...declared, reads: hashReads(root, statIndex, reads) } : declared;
  return { base, key, fingerprint: key !== declared ? fingerprintOf(key) : base };
}

/** What a task's fingerprint sees of each dependency: its whole digest, or the hash of the part the task uses. */
export function dependencyDigests(
  task: TaskSpec,
  results: Map<string, { result: DepResult; digest: string }>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dep of task.deps) {
    const done = results.get(dep)!;
    const view = task.uses?.[dep];
    out[dep] = view ? xxh(canonicalJson(view(done.result) ?? null)) : done.digest;
  }
  return out;
}

/** A key step with the hashes of the files a list names joined in (how a remote's list of read files refines a key). */
export function withReads(
  root: string,
  statIndex: StatIndex,
  step: { base: Fingerprint; key: FingerprintKey },
  reads: string[],
): TaskKey {
  const key = { ...step.key, reads: hashReads(root, statIndex, reads) };
  return { base: step.base, key, fingerprint: fingerprintOf(key) };
}
