import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import { sha256 } from "../core/hash.js";
import { readTextFile } from "../core/text-io.js";
import type { TaskContext } from "../engine/graph/task.js";

/** Deterministic JSON files: two-space indent and a final newline, so equal plans are equal bytes. */
export function writeJson(root: string, path: string, value: unknown): void {
  writeFileAtomic(join(root, path), `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The texts of the JSON files this process wrote for a later task, by absolute path, with their sha256: the task that
 * reads one next parses the text rather than reading the file back (a large description's models are 50–80 MB, and
 * reading one back costs about as much as parsing it). Each is taken by its first reader, or replaced when the file is
 * written again, so at most one text per file is held.
 */
const handedOver = new Map<string, { text: string; sha256: string }>();

/**
 * Writes JSON text (made by the caller: compact, pretty or assembled) for the tasks that depend on this one, and keeps
 * it for the first of them that runs in this process.
 */
export function writeJsonForDependents(root: string, path: string, text: string): void {
  const file = join(root, path);
  handedOver.delete(file);
  writeFileAtomic(file, text);
  handedOver.set(file, { text, sha256: sha256(text) });
}

/**
 * An intermediate result under BUILD_DIR: compact, as deterministic as writeJson and a third the time for the
 * few-MB models of a large description (they are read by the next task, not by people).
 */
export function writeBuildJson(root: string, path: string, value: unknown): void {
  writeJsonForDependents(root, path, `${JSON.stringify(value)}\n`);
}

/** Parsed dependency outputs by content: watch cycles and sibling tasks read the same few-MB plans again and again. */
const parsed = new Map<string, unknown>();
const PARSED_KEPT = 8;

/**
 * Reads a JSON output of a dependency (present on disk: hits restore outputs before dependents run). The value is
 * shared by every task that reads the same content in this process, so tasks treat it as read-only. The text its task
 * wrote in this process is parsed instead of the file only when its sha256 is the one the cache recorded for the file:
 * the same bytes, so the same value.
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
  const file = join(ctx.root, path);
  const written = handedOver.get(file);
  handedOver.delete(file);
  const value = JSON.parse(written?.sha256 === entry.sha256 ? written.text : readTextFile(file)) as T;
  parsed.set(key, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return value;
}
