/**
 * `JSON.stringify(value, null, indent)` and a final newline, as pieces made while they are read (core/text-io.ts: Text):
 * the value's members and their members one by one, each deeper value whole. For a large value (a description's
 * models, a receipt of 22,000 commands) no text of its size is ever made: JSON.stringify's own text of many megabytes
 * is a rope that is copied whole the first time it is read, and held until the last of it is written; these pieces
 * are written as they come and collected young.
 *
 * Only for plain JSON (core/plain-json.ts): there every member is written, in Object.keys order, and nothing is
 * replaced, so the pieces join to exactly JSON.stringify's text.
 */

/** How deep the value is taken apart: a top-level member's elements (a plan's commands) are the pieces. */
const SPLIT_DEPTH = 2;

export function* jsonPieces(value: unknown, indent: 0 | 2, depth = 0): Generator<string> {
  yield* valuePieces(value, indent, depth);
  if (depth === 0) yield "\n";
}

/** `value` as it reads `depth` levels into a document: with indentation, every line after its first indented so. */
function* valuePieces(value: unknown, indent: 0 | 2, depth: number): Generator<string> {
  if (depth >= SPLIT_DEPTH || value === null || typeof value !== "object") {
    yield indent ? indented(value, depth) : JSON.stringify(value);
    return;
  }
  const inner = indent ? `\n${"  ".repeat(depth + 1)}` : "";
  const close = indent ? `\n${"  ".repeat(depth)}` : "";
  if (Array.isArray(value)) {
    if (!value.length) return yield "[]";
    for (let i = 0; i < value.length; i++) {
      yield `${i ? "," : "["}${inner}`;
      yield* valuePieces(value[i], indent, depth + 1);
    }
    return yield `${close}]`;
  }
  const keys = Object.keys(value);
  if (!keys.length) return yield "{}";
  for (let i = 0; i < keys.length; i++) {
    yield `${i ? "," : "{"}${inner}${JSON.stringify(keys[i])}:${indent ? " " : ""}`;
    yield* valuePieces((value as Record<string, unknown>)[keys[i]!], indent, depth + 1);
  }
  yield `${close}}`;
}

/**
 * JSON.stringify(value, null, 2) as it reads `depth` levels in: cut from the text of the value wrapped in `depth`
 * arrays, which JSON.stringify indents so itself (indenting the value's own text would make another copy of it).
 */
export function indented(value: unknown, depth: number): string {
  if (depth === 0 || value === null || typeof value !== "object") return JSON.stringify(value, null, 2);
  let wrapped = value;
  for (let i = 0; i < depth; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  // Each wrapping array opens with "[\n" and its indentation, and closes with "\n", its indentation and "]".
  const before = 4 * depth + depth * (depth - 1);
  const after = 2 * depth + depth * (depth - 1);
  return text.slice(before, text.length - after);
}
