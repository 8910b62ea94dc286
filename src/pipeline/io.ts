import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import type { TaskContext } from "../engine/graph/task.js";

/** Deterministic JSON files: two-space indent and a final newline, so equal plans are equal bytes. */
export function writeJson(root: string, path: string, value: unknown): void {
  writeFileAtomic(join(root, path), `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * An intermediate result under BUILD_DIR: compact, as deterministic as writeJson and a third the time for the
 * few-MB models of a large description (they are read by the next task, not by people).
 */
export function writeBuildJson(root: string, path: string, value: unknown): void {
  writeFileAtomic(join(root, path), `${JSON.stringify(value)}\n`);
}

/** Parsed dependency outputs by content: watch cycles and sibling tasks read the same few-MB plans again and again. */
const parsed = new Map<string, unknown>();
const PARSED_KEPT = 8;

/**
 * Reads a JSON output of a dependency (present on disk: hits restore outputs before dependents run). The value is
 * shared by every task that reads the same content in this process, so tasks treat it as read-only.
 */
export function readDepJson<T>(ctx: TaskContext, dep: string, path: string): T {
  const entry = ctx.deps[dep]?.outputs.find((o) => o.path === path);
  if (!entry) throw new Error(`dependency ${dep} did not produce ${path}`);
  const key = `${ctx.root}\0${path}\0${entry.sha256}`;
  if (parsed.has(key)) {
    const value = parsed.get(key);
    parsed.delete(key);
    parsed.set(key, value);
    return value as T;
  }
  const value = JSON.parse(readFileSync(join(ctx.root, path), "utf8")) as T;
  parsed.set(key, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return value;
}
