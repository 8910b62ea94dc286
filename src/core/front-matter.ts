import { isMap, isNode, isScalar, parse, parseDocument } from "yaml";

/**
 * The one reader of a Markdown file's YAML front matter (SKILL.md, rules/*.md): inspection, the trigger evaluation and
 * the candidate reader all see the same values, block scalars (`description: >-`) and quoting included.
 */
export type FrontMatter =
  | { kind: "none" }
  | { kind: "invalid"; message: string }
  | { kind: "mapping"; data: Record<string, unknown>; body: string };

const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)([\s\S]*)$/;

export function readFrontMatter(text: string): FrontMatter {
  const match = BLOCK.exec(text);
  if (!match) return { kind: "none" };
  let parsed: unknown;
  try {
    parsed = parse(match[1]!);
  } catch (error) {
    return { kind: "invalid", message: `not valid YAML: ${(error as Error).message.split("\n")[0]}` };
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    return { kind: "invalid", message: "not a mapping" };
  return { kind: "mapping", data: parsed as Record<string, unknown>, body: match[2]! };
}

/** A string field of the front matter, or undefined when there is none (or it is not a string). */
export function frontMatterText(front: FrontMatter, key: string): string | undefined {
  const value = front.kind === "mapping" ? front.data[key] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * The text with one top-level field of its front matter set to `value` (written as a JSON string, which is valid
 * YAML), every other byte as it was: the field is found by the YAML parser, so a block scalar (`description: >-` and
 * its indented lines) is replaced whole. `lines` is the field's first line and the line after it (0-based) in the old
 * text. Undefined when there is no front matter or no such field.
 */
export function withFrontMatterField(
  text: string,
  key: string,
  value: string,
): { text: string; lines: [number, number] } | undefined {
  const match = BLOCK.exec(text);
  if (!match) return undefined;
  const start = text.indexOf(match[1]!);
  const document = parseDocument(match[1]!);
  const map = document.contents;
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  const from = isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
  const to = isNode(pair?.value) ? pair.value.range?.[1] : undefined;
  if (from === undefined || to === undefined) return undefined;
  // A block scalar's value ends after its line break: the field's own text stops before it.
  const end = start + (match[1]!.slice(from, to).endsWith("\n") ? to - 1 : to);
  const next = `${text.slice(0, start + from)}${key}: ${JSON.stringify(value)}${text.slice(end)}`;
  const lineOf = (offset: number) => text.slice(0, offset).split("\n").length - 1;
  return { text: next, lines: [lineOf(start + from), lineOf(end) + 1] };
}
