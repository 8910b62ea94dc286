import { memoized } from "../../core/memo.js";
import { clip, lead, plainText } from "./plain-text.js";

/**
 * What help shows of a description (docs/generated-cli.md, "Discovery"): a command's first sentences within
 * COMMAND_TEXT characters, a flag's within FLAG_TEXT; the whole text, when there is more, is the entry's `details`,
 * which `--describe` prints (and help points to). DETAILS_TEXT bounds even that.
 */
export const COMMAND_TEXT = 300;
export const FLAG_TEXT = 200;
const GROUP_TEXT = 300;
export const DETAILS_TEXT = 16 * 1024;

/** A help line and, when the document says more, the full plain text. */
export interface Described {
  description: string;
  details?: string;
}

const bounded = (text: string) => clip(text, DETAILS_TEXT);
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** A command's description from its operation: the summary (else the description's lead), and the rest as details. */
export function commandText(op: { summary?: string; description?: string; method: string; path: string }): Described {
  const summary = oneLine(plainText(op.summary));
  const description = plainText(op.description);
  if (summary) {
    const short = lead(summary, COMMAND_TEXT);
    const more = [short.cut ? summary : "", description && oneLine(description) !== summary ? description : ""]
      .filter(Boolean)
      .join("\n\n");
    return { description: short.text, ...(more ? { details: bounded(more) } : {}) };
  }
  if (description) {
    const short = lead(description, COMMAND_TEXT);
    if (short.text) return { description: short.text, ...(short.cut ? { details: bounded(description) } : {}) };
  }
  return { description: `${op.method.toUpperCase()} ${op.path}` };
}

/** A flag's description as plain text, its lead within FLAG_TEXT and the rest as details. */
export function flagText(raw: string | undefined): Partial<Described> {
  return raw ? flagTextOf(raw) : {};
}

/** Kept per text: one answer is shared by every flag that says it (and read, never changed). */
const flagTextOf = memoized((raw: string): Partial<Described> => {
  const text = plainText(raw);
  if (!text) return {};
  const short = lead(text, FLAG_TEXT);
  return { description: short.text, ...(short.cut ? { details: bounded(text) } : {}) };
});

/** A group's (or the product's) description: plain text; a group's on one line within GROUP_TEXT. */
const groupText = (raw: string) => clip(oneLine(plainText(raw)), GROUP_TEXT);
const productText = (raw: string) => plainText(raw);

interface Texts {
  product: { description: string };
  groups: Array<{ name: string; description: string }>;
  commands: Array<{ flags: Array<{ description?: string; details?: string }> }>;
}

/**
 * The design's descriptions as an agent reads them: product and group descriptions as plain text, each flag's as a
 * lead within FLAG_TEXT with the full text as `details`. Command descriptions are made plain where they are drafted
 * (`commandText`). Plain text stays as it is, so a document that writes plain descriptions designs the same CLI.
 */
export function plainTexts<T extends Texts>(caps: T): T {
  return {
    ...caps,
    product: { ...caps.product, description: productText(caps.product.description) },
    groups: caps.groups.map((g) => ({ ...g, description: groupText(g.description) || g.name })),
    commands: plainCommands(caps.commands),
  };
}

/**
 * Made plain by the array they came in: a watch cycle after a brief edit designs with the same (cached) command plan,
 * and gets the same array back, which writing capabilities.json and emit recognise without comparing its megabytes.
 */
const plainByPlan = new WeakMap<object, unknown>();

function plainCommands<C extends Texts["commands"]>(commands: C): C {
  const known = plainByPlan.get(commands) as C | undefined;
  if (known) return known;
  const plain = commands.map((c) => ({
    ...c,
    flags: c.flags.map((f) => {
      if (f.description === undefined || f.details !== undefined) return f;
      const text = flagText(f.description);
      if (text.description)
        return { ...f, description: text.description, ...(text.details ? { details: text.details } : {}) };
      const { description: _d, ...rest } = f;
      return rest;
    }),
  })) as C;
  plainByPlan.set(commands, plain);
  return plain;
}
