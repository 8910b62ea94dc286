import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import { noteSha256, sha256Fed } from "../core/hash.js";
import { jsonPieces } from "../core/json-pieces.js";
import { isPlainJson } from "../core/plain-json.js";
import { joinText, readTextFile, type Text } from "../core/text-io.js";
import type { TaskContext } from "../engine/graph/task.js";

/**
 * Deterministic JSON files: two-space indent and a final newline, so equal plans are equal bytes. Plain data is
 * written from its pieces as they are made (core/json-pieces.ts), anything else from JSON.stringify's text.
 */
export function writeJson(root: string, path: string, value: unknown): void {
  writeFileAtomic(join(root, path), isPlainJson(value) ? jsonPieces(value, 2) : [JSON.stringify(value, null, 2), "\n"]);
}

/**
 * What this process wrote for a later task, by absolute path, with the text's sha256: the task that reads a file next
 * takes the value it was written from, or else parses the text, rather than reading the file back (a large
 * description's models are 50–80 MB; reading one back costs about as much as parsing it, and a parsed copy is as
 * many objects again for the collector). Each is taken by its first reader, or replaced when the file is written
 * again, so at most one per file is held.
 */
const handedOver = new Map<string, { sha256: string } & ({ value: unknown } | { text: string | readonly string[] })>();

/** Writes the text, hashing the bytes as they are written, and keeps what the first dependent will take. */
function writeHandingOver(file: string, text: Text, kept: { value: unknown } | { text: string | readonly string[] }) {
  handedOver.delete(file);
  const digest = sha256Fed((hash) => writeFileAtomic(file, text, undefined, hash));
  noteSha256(file, digest);
  handedOver.set(file, { sha256: digest, ...kept });
}

/**
 * Writes JSON text (made by the caller: compact, pretty or assembled) for the tasks that depend on this one, and keeps
 * it for the first of them that runs in this process. `value`, when given, is what the text was made from: it is kept
 * instead of the text when parsing the text would give back a value no reader can tell from it (`plain`, which a
 * caller that knows may say: core/plain-json.ts); the writer must not change it afterwards, as readers must not.
 */
export function writeJsonForDependents(
  root: string,
  path: string,
  text: string | readonly string[],
  value?: unknown,
  plain = value !== undefined && isPlainJson(value),
): void {
  writeHandingOver(join(root, path), text, plain ? { value } : { text });
}

/**
 * An intermediate result under BUILD_DIR: compact, as deterministic as writeJson and a third the time for the
 * few-MB models of a large description (they are read by the next task, not by people). Plain data is written from
 * its pieces (core/json-pieces.ts) and handed over as itself.
 */
export function writeBuildJson(root: string, path: string, value: unknown): void {
  const file = join(root, path);
  if (isPlainJson(value)) return writeHandingOver(file, jsonPieces(value, 0), { value });
  const text = [JSON.stringify(value), "\n"];
  writeHandingOver(file, text, { text });
}

/** Parsed dependency outputs by content: watch cycles and sibling tasks read the same few-MB plans again and again. */
const parsed = new Map<string, unknown>();
const PARSED_KEPT = 8;

/**
 * Reads a JSON output of a dependency (present on disk: hits restore outputs before dependents run). The value is
 * shared by every task that reads the same content in this process, so tasks treat it as read-only. What its task
 * wrote in this process (the value, or the text) is taken instead of the file only when its sha256 is the one the
 * cache recorded for the file: the same bytes, so the same value.
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
  const value = (
    written?.sha256 !== entry.sha256
      ? JSON.parse(readTextFile(file))
      : "value" in written
        ? written.value
        : JSON.parse(joinText(written.text))
  ) as T;
  parsed.set(key, value);
  if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  return value;
}
