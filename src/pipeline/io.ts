import { readFileSync, statSync, type BigIntStats } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import { toPlainJson } from "../core/json-plain.js";
import type { TaskContext } from "../engine/graph/task.js";

/** Deterministic JSON files: two-space indent and a final newline, so equal plans are equal bytes. */
export function writeJson(root: string, path: string, value: unknown): void {
  writeFileAtomic(join(root, path), `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * An intermediate result under BUILD_DIR: compact, as deterministic as writeJson and a third the time for the
 * few-MB models of a large description (they are read by the next task, not by people). Dependants in this process
 * get `value` itself (see writeSharedJson).
 */
export function writeBuildJson(root: string, path: string, value: unknown): void {
  writeSharedJson(root, path, value, `${JSON.stringify(value)}\n`);
}

/** A value written this process, by file, with the file's identity as written: handed over while the file is that. */
const written = new Map<string, { value: object; file: string }>();

/** Inode, size and change time in nanoseconds: any write to the file, or another file in its place, changes it. */
function identity(file: string): string | undefined {
  let stat: BigIntStats;
  try {
    stat = statSync(file, { bigint: true });
  } catch {
    return undefined;
  }
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/**
 * Writes `text`, the JSON of `value`, and hands `value` to the dependants that read this output in this process
 * (readDepJson): a cold build parses none of its own intermediate files. The value is made what parsing the file
 * would give (core/json-plain.ts); one that cannot be is not handed over, and its readers parse the file as before.
 * The caller must not change `value` afterwards.
 */
export function writeSharedJson(root: string, path: string, value: unknown, text: string): void {
  const abs = join(root, path);
  writeFileAtomic(abs, text);
  written.delete(abs);
  const plain = toPlainJson(value);
  const file = plain && identity(abs);
  if (plain && file) written.set(abs, { value: plain, file });
}

/** Parsed dependency outputs by content: watch cycles and sibling tasks read the same few-MB plans again and again. */
const parsed = new Map<string, unknown>();
const PARSED_KEPT = 8;

function remember(key: string, value: unknown): void {
  parsed.set(key, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
}

/**
 * Reads a JSON output of a dependency (present on disk: hits restore outputs before dependents run). The value is
 * shared by every task that reads the same content in this process, and with the task that wrote it, so tasks treat
 * it as read-only. A value known for these bytes stays the one handed out: readers that keep work by the identity of
 * what they read (a watch cycle that designs the same commands again) keep it.
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
  const abs = join(ctx.root, path);
  const mine = written.get(abs);
  written.delete(abs);
  // The scheduler hashed the file after the task wrote it; untouched since, its bytes are those of the value.
  const value = mine && mine.file === identity(abs) ? (mine.value as T) : (JSON.parse(readFileSync(abs, "utf8")) as T);
  remember(key, value);
  return value;
}
