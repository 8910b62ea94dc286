import type { Operation } from "../../openapi/model.js";
import { isNoise } from "../verbs.js";
import { kebab } from "../word-forms.js";

/** An operation's path as words: its literal segments without versions, formats, generated ids or noise. */

/** Path segments that version or scope an API rather than name a resource: v1, v2beta1, 2010-04-01, api, rest. */
const VERSION_SEGMENT = /^(v\d+([._]\d+)*([a-z]+\d*)?|\d+([._-]\d+)*|api|rest)$/i;
/** A trailing file extension on a path segment (`/statuses/show.json`) is a format, not an RPC method. */
export const FORMAT_SUFFIX = /\.(json|xml|csv|txt|html|yaml|yml|atom|rss)$/i;

/** A word without its noise tokens (stop words, versions, HTTP method words); "" when nothing else is left. */
export const clean = (word: string) =>
  word
    .split("-")
    .filter((t) => t && !isNoise(t))
    .join("-");
/**
 * A wire name as words: `idLabels` → labels, `idBoard` → board, `cartId` → cart. The `id` says the API takes ids
 * there; the command is about the labels.
 */
export const wireWords = (word: string) => {
  const tokens = word.split("-");
  const kept = tokens.filter((t) => t !== "id");
  return kept.length ? kept.join("-") : word;
};
export const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);

export interface PathWord {
  word: string;
  /** Follows a path parameter (`/bookings/{id}/cancel`): an action or sub-collection of one item. */
  afterParam: boolean;
  /** A parameter follows: the word names a collection of items. */
  beforeParam: boolean;
  last: boolean;
}

/**
 * A trailing path parameter that picks which items or which field a read returns (`/boards/{filter}`,
 * `/cards/{id}/{field}`): a flag of the read, not an item's id.
 */
export const SELECTOR_PARAM = /^\{(filter|filters|field|fields)\}$/i;

/**
 * A part of a path segment that is an identifier, not a word: a generated id (`6VMVochwUWo` in
 * `/securityClassification-6VMVochwUWo`: letters of both cases and digits that split into fragments, unlike
 * `oauth2Callback`), a hex hash or a UUID. No name is made of it.
 */
const HEX_ID = /^(?:[0-9a-f]{12,}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$/i;
const generatedId = (part: string) =>
  HEX_ID.test(part) ||
  (/^[A-Za-z0-9]{8,}$/.test(part) &&
    /\d/.test(part) &&
    /[A-Z]/.test(part) &&
    /[a-z]/.test(part) &&
    kebab(part)
      .split("-")
      .filter((t) => t.length <= 2).length >= 2);

function withoutIds(segment: string): string {
  if (HEX_ID.test(segment)) return "";
  const parts = segment.split(/([-_.])/);
  const kept: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    if (generatedId(parts[i]!)) continue;
    if (kept.length) kept.push(parts[i - 1]!);
    kept.push(parts[i]!);
  }
  return kept.join("");
}

/** Literal path words after version prefixes, an RPC method (`/chat.postMessage`) split off the last one. */
export function pathWords(op: Operation): { words: PathWord[]; rpc?: { resource: string[]; action: string } } {
  const segments = op.path.split("/").filter(Boolean);
  const out: PathWord[] = [];
  let rpc: { resource: string[]; action: string } | undefined;
  segments.forEach((segment, i) => {
    if (isParam(segment)) return;
    const plain = withoutIds(segment.replace(FORMAT_SUFFIX, ""));
    if (!plain) return;
    const last = i === segments.length - 1;
    const afterParam = i > 0 && isParam(segments[i - 1]!);
    const beforeParam = i < segments.length - 1 && isParam(segments[i + 1]!);
    const dot = plain.lastIndexOf(".");
    if (last && dot > 0 && /^[A-Za-z][\w.-]*\.[A-Za-z]\w*$/.test(plain)) {
      // `/admin.teams.settings.setName`: the method's owner is one resource word, `admin-teams-settings`.
      rpc = {
        resource: [clean(plain.slice(0, dot).split(".").map(kebab).join("-"))].filter(Boolean),
        action: plain.slice(dot + 1),
      };
      for (const word of rpc.resource) out.push({ word, afterParam, beforeParam: false, last: false });
      return;
    }
    if (!out.length && VERSION_SEGMENT.test(plain)) return;
    const word = wireWords(clean(kebab(plain)));
    if (word) out.push({ word, afterParam, beforeParam, last });
  });
  if (out.length > 1 || rpc)
    while (out.length && VERSION_SEGMENT.test(out[0]!.word) && (out.length > 1 || rpc)) out.shift();
  return { words: out, ...(rpc ? { rpc } : {}) };
}

export const tokensOf = (words: string[]) => words.flatMap((w) => w.split("-")).filter(Boolean);
