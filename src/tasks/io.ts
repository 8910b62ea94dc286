import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import type { TaskContext } from "../graph/task.js";

/** Where built-in tasks keep intermediate results (cached and restored like any output). */
export const BUILD_DIR = ".intermesh/build";

/** Deterministic JSON files: two-space indent and a final newline, so equal plans are equal bytes. */
export function writeJson(root: string, path: string, value: unknown): void {
  writeFileAtomic(join(root, path), `${JSON.stringify(value, null, 2)}\n`);
}

/** Reads a JSON output of a dependency (present on disk: hits restore outputs before dependents run). */
export function readDepJson<T>(ctx: TaskContext, dep: string, path: string): T {
  const entry = ctx.deps[dep]?.outputs.find((o) => o.path === path);
  if (!entry) throw new Error(`dependency ${dep} did not produce ${path}`);
  return JSON.parse(readFileSync(join(ctx.root, path), "utf8")) as T;
}
