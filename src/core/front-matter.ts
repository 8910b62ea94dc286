import { parse } from "yaml";

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
