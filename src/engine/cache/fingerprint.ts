import { canonicalJson, xxh } from "../../core/hash.js";

/** Everything that can change a task's output. Stored in its record so `inter explain` can diff two runs. */
export interface FingerprintKey {
  task: string;
  /** Bumped when a built-in task's implementation changes what it writes. */
  impl: string;
  /** The slice of the config this task reads. */
  config: unknown;
  /** Input files (project-relative path → content hash): renames and swapped contents both change the key. */
  inputs: Record<string, string>;
  /** Files the previous run with the same declared key reported reading (path → content hash or "missing"). */
  reads?: Record<string, string>;
  /** Dependencies by id → digest of what they produced (outputs and data). */
  deps: Record<string, string>;
  /** Declared environment variables → hash of their value (or null when unset); values are never stored. */
  env: Record<string, string | null>;
  tool: { inter: string; node: string; platform: string; arch: string };
}

/**
 * A task's fingerprint: the hash of its whole key. Branded, so a content hash, a digest or an arbitrary string cannot
 * be passed where a fingerprint is meant without saying so.
 */
export type Fingerprint = string & { readonly __kind: "fingerprint" };

/** What dependents see of a task: a hash over its outputs and result data. */
export type Digest = string & { readonly __kind: "digest" };

export function fingerprintOf(key: FingerprintKey): Fingerprint {
  return xxh(canonicalJson(key)) as Fingerprint;
}

export function toolVersions(interVersion: string): FingerprintKey["tool"] {
  return { inter: interVersion, node: process.version, platform: process.platform, arch: process.arch };
}

export type Change =
  | { kind: "first-run" }
  | { kind: "forced" }
  | { kind: "uncached" }
  | { kind: "implementation"; from: string; to: string }
  | { kind: "input"; path: string; change: "added" | "removed" | "modified" }
  | { kind: "config"; field: string }
  | { kind: "dependency"; task: string }
  | { kind: "env"; name: string }
  | { kind: "tool"; name: string; from: string; to: string };

/** What differs between the key of an earlier record and a later one, most specific first. */
export function diffKeys(before: FingerprintKey, after: FingerprintKey): Change[] {
  const changes: Change[] = [];
  if (before.impl !== after.impl) changes.push({ kind: "implementation", from: before.impl, to: after.impl });
  for (const path of union(before.inputs, after.inputs)) {
    const a = before.inputs[path];
    const b = after.inputs[path];
    if (a === b) continue;
    changes.push({ kind: "input", path, change: a === undefined ? "added" : b === undefined ? "removed" : "modified" });
  }
  const readsBefore = before.reads ?? {};
  const readsAfter = after.reads ?? {};
  for (const path of union(readsBefore, readsAfter)) {
    const a = readsBefore[path];
    const b = readsAfter[path];
    if (a === b || a === undefined || b === undefined) continue;
    changes.push({ kind: "input", path, change: b === "missing" ? "removed" : a === "missing" ? "added" : "modified" });
  }
  for (const field of diffFields(before.config, after.config, "")) changes.push({ kind: "config", field });
  for (const task of union(before.deps, after.deps)) {
    if (before.deps[task] !== after.deps[task]) changes.push({ kind: "dependency", task });
  }
  for (const name of union(before.env, after.env)) {
    if (before.env[name] !== after.env[name]) changes.push({ kind: "env", name });
  }
  for (const name of ["inter", "node", "platform", "arch"] as const) {
    if (before.tool[name] !== after.tool[name])
      changes.push({ kind: "tool", name, from: before.tool[name], to: after.tool[name] });
  }
  return changes;
}

function union(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

function diffFields(a: unknown, b: unknown, path: string): string[] {
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    return union(a, b).flatMap((k) => diffFields(a[k], b[k], path ? `${path}.${k}` : k));
  }
  return canonicalJson(a) === canonicalJson(b) ? [] : [path || "(whole config slice)"];
}

export function describeChange(change: Change): string {
  switch (change.kind) {
    case "first-run":
      return "no earlier record of this task";
    case "forced":
      return "--force was given";
    case "uncached":
      return "it is not hermetic, so it runs whenever it is asked for";
    case "implementation":
      return `task implementation changed (${change.from} → ${change.to})`;
    case "input":
      return `input ${change.path} ${change.change}`;
    case "config":
      return `config field ${change.field} changed`;
    case "dependency":
      return `dependency ${change.task} produced different output`;
    case "env":
      return `environment variable ${change.name} changed`;
    case "tool":
      return `${change.name} changed (${change.from} → ${change.to})`;
  }
}
