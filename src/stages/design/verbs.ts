/**
 * The words a command name is made of: which words are verbs an operation can state, which are CRUD words in
 * disguise, and which carry no meaning in a name (docs/generated-cli.md, "Names").
 */

import { wordTable } from "../../core/word-table.js";
import { camelParts } from "../../core/camel-words.js";
import { memoized } from "../../core/memo.js";
import { NOISE_METHOD_WORDS } from "../../core/verbs.js";

/**
 * Verbs API descriptions open their summaries with (read off the first words of about 80,000 summaries of public
 * descriptions), in their base form. A first word not listed here is not taken for a verb: "Player state" names
 * a thing, and a noun must not become a command's action.
 */
const VERBS = new Set(
  `abort accept acknowledge activate add aggregate allocate analyze anonymize append apply approve archive assign associate attach
  audit authenticate authorize autocomplete backup ban batch block book borrow bootstrap broadcast build bulk calculate call cancel capture
  change charge check checkout claim classify clean clear clone close collect comment commit compare complete compose compute confirm
  connect consume convert copy count create deactivate decline decode decrement decrypt delete deliver demote deny deploy describe
  detach detect disable disconnect discover dismiss dispatch download downgrade draft duplicate echo edit embed enable encode encrypt
  end enqueue enroll enumerate erase estimate evaluate execute expire explain export extend extract fail favorite favourite fetch
  filter finalize find flag flush follow force fork forward freeze generate geocode get give grant handle hide hold identify ignore
  import increment index infer initialize initiate insert inspect install invalidate invite invoke issue join kick label launch leave lend
  like link list load lock login logout lookup mark match merge migrate mint modify move mute notify obtain open optimize order
  overwrite parse patch pause pay perform pin ping place play poll post predict preview print process promote provision publish
  purchase purge push put query queue rank rate read reactivate rebuild reboot recalculate receive recognize reconcile record recover
  redeem redeliver redirect refresh refund regenerate register reindex reject release reload remove rename render renew reopen reorder
  repeat replace reply report request rerequest rerun resend reserve reset resize resolve restart restore restrict resume retire retrieve retry
  return reverse review revoke rollback rotate run save scan schedule score search seek select send set settle share show shuffle
  sign simulate skip snooze sort split star start stop store stream submit subscribe suggest summarize suspend swap sync tag terminate
  test toggle track train transcribe transfer transform translate trigger truncate unarchive unassign unban unblock undelete undo
  unfavorite unfollow unfreeze unhide uninstall unlink unlock unmute unpin unpublish unregister unrestrict unsnooze unstar unsubscribe unsuspend
  untag unwatch update upgrade upload upsert use validate verify view vote wait watch withdraw write`.split(/\s+/),
);

/** Verbs that only restate what the HTTP method and path shape already say; the command takes the CRUD word instead. */
const CRUD_FAMILY: Record<string, "read" | "create" | "update" | "replace" | "delete"> = wordTable({
  get: "read",
  fetch: "read",
  retrieve: "read",
  read: "read",
  return: "read",
  show: "read",
  obtain: "read",
  view: "read",
  list: "read",
  enumerate: "read",
  describe: "read",
  query: "read",
  create: "create",
  make: "create",
  update: "update",
  modify: "update",
  edit: "update",
  change: "update",
  patch: "update",
  replace: "replace",
  overwrite: "replace",
  delete: "delete",
  erase: "delete",
});

/** Words that may stand before the verb ("Bulk update users", "Permanently delete a file"). */
const LEAD_MODIFIERS = new Set([
  "bulk",
  "batch",
  "partially",
  "fully",
  "permanently",
  "asynchronously",
  "async",
  "deprecated",
  "experimental",
  "beta",
  "internal",
]);
/** Of those, the ones a name keeps with its verb (`users bulk-update`); before a verb they are no verb themselves. */
export const BATCH_WORDS: ReadonlySet<string> = new Set(["bulk", "batch"]);

/** What a verb that is an HTTP method word means when an operation states it ("Post a message", `chat.postMessage`). */
const METHOD_VERB_MEANING = wordTable({ post: "send", put: "set", patch: "update" });

/** Function words: nothing a name needs (`get-a-list-of-current-users` → `list-current-users`). */
const STOP_WORDS = new Set(
  `a an the of for to by with in on and or from at into onto as is are be been being was were its it this that these those via per
  if whether than then so such your my our their his her them they you we me i which who whom whose what when where how all any
  some each every either neither both no not only own same just do does did can could should would will may might must has have had`.split(
    /\s+/,
  ),
);
/** Words that say how many or which, not what: left out of a name's distinguishing words. */
const FILLER = new Set([
  "several",
  "multiple",
  "many",
  "single",
  "one",
  "given",
  "specific",
  "specified",
  "particular",
  "existing",
  "certain",
  "details",
  "detail",
  "information",
  "info",
  "data",
  "object",
  "objects",
  "record",
  "records",
  "item",
  "items",
  "entry",
  "entries",
  "new",
  "id",
  "ids",
  "using",
  "based",
  "about",
  "detailed",
  "also",
]);

const VERSION_TOKEN = /^(v\d+([a-z]+\d*)?|\d+)$/;

/** A token of a name that says nothing there: a stop word, a version or an HTTP method word. */
export const isNoise = (token: string) =>
  STOP_WORDS.has(token) || VERSION_TOKEN.test(token) || NOISE_METHOD_WORDS.has(token);

/** The base form of an inflected verb: "retrieves" → retrieve, "queries" → query, "searches" → search. */
export function verbBase(word: string, exact = false): string | undefined {
  const w = word
    .toLowerCase()
    .replace(/[^a-z-]/g, "")
    .replace(/^re-/, "re");
  if (exact) return VERBS.has(w) ? w : undefined;
  const candidates = [w];
  if (w.endsWith("ies")) candidates.push(`${w.slice(0, -3)}y`);
  if (w.endsWith("es")) candidates.push(w.slice(0, -2));
  if (w.endsWith("s")) candidates.push(w.slice(0, -1));
  return candidates.find((c) => VERBS.has(c));
}

export interface StatedAction {
  /** The action as a name word ("save", "bulk-update", "send"). */
  word: string;
  /** The verb's family when it only restates a CRUD operation. */
  family?: (typeof CRUD_FAMILY)[string];
  /** The words after the verb, as kebab tokens (what it acts on). */
  object: string[];
}

/**
 * Lowercase word tokens of a text, with HTML tags and Markdown links reduced to their words. Naming asks for the same
 * summary and first sentence three or four times for each operation (its action, its qualifiers, what it mentions, the
 * last resort's words), each answer a dozen passes over the text: the answers are kept, and only read.
 */
export const textTokens: (text: string) => readonly string[] = memoized(wordTokens);

function wordTokens(text: string): readonly string[] {
  // A summary that is an identifier (`updateWebhooks()`, as generated documents have) has an identifier's words.
  const identifier = /^\s*([A-Za-z][A-Za-z0-9_]*)(\(\))?\s*$/.exec(text);
  if (identifier && /[a-z][A-Z]/.test(identifier[1]!)) return operationIdTokens(identifier[1]!, true);
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/&[a-z]+;/g, " ")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/['’]s\b/g, "")
    .replace(/['’]/g, "")
    .split(/[^A-Za-z0-9-]+/)
    .flatMap((w) => w.split(/-+/))
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * The action a text (a summary, a description's first sentence) opens with, if it opens with a verb. `exact`: the
 * words are an identifier's (`conversations.replies`, `listUsers`), where an inflected word is a noun, not a verb.
 */
export function actionOf(tokens: readonly string[], exact = false): StatedAction | undefined {
  let i = 0;
  const kept: string[] = [];
  // A version before the verb ("V3 Get Payments for Payout") is no verb and says nothing of the action.
  while (i < tokens.length - 1 && VERSION_TOKEN.test(tokens[i]!)) i++;
  while (i < tokens.length - 1 && LEAD_MODIFIERS.has(tokens[i]!) && !verbBase(tokens[i]!)) i++;
  while (i < tokens.length - 1 && LEAD_MODIFIERS.has(tokens[i]!)) {
    // "Bulk" is itself listed as a verb ("Bulk the …" does not occur); before another verb it is a modifier.
    if (!verbBase(tokens[i + 1]!)) break;
    if (BATCH_WORDS.has(tokens[i]!)) kept.push(tokens[i]!);
    i++;
  }
  const base = tokens[i] ? verbBase(tokens[i]!, exact) : undefined;
  if (!base) return undefined;
  const family = CRUD_FAMILY[base];
  const meaning = METHOD_VERB_MEANING[base] && !family ? METHOD_VERB_MEANING[base]! : base;
  const word = [...kept, meaning].join("-");
  return { word, ...(family && !kept.length ? { family } : {}), object: tokens.slice(i + 1) };
}

/** The first sentence of a description: where a document without summaries says what an operation does. */
export function firstSentence(text: string): string {
  const plain = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const end = plain.search(/[.!?](\s|$)|\n/);
  return (end >= 0 ? plain.slice(0, end) : plain).slice(0, 200);
}

/**
 * An operationId's words, verb first when it has one: `Accounts_ListByGroup` → list by group, `repos/get` → get,
 * `CreateAlphaSender` → create alpha sender. The part after the last separator is the action in service-prefixed ids.
 */
export function operationIdTokens(operationId: string, whole = false): readonly string[] {
  return (whole ? wholeIdWords : idWords)(operationId);
}

// Kept like textTokens' answers: naming reads an operationId's words four or five times.
const idWords = memoized((operationId) => idTokens(operationId, false));
const wholeIdWords = memoized((operationId) => idTokens(operationId, true));

function idTokens(generated: string, whole: boolean): string[] {
  const operationId = generated.replace(GENERATED_HASH, "");
  // A version or date after the action (`GetRealtimeLogConfig2020_05_31`) is no part of it.
  const parts = operationId
    .split(/[/._:]+/)
    .filter(Boolean)
    .filter((p, i, all) => !/^\d+$/.test(p) || all.slice(i).some((q) => !/^\d+$/.test(q)));
  const last =
    !whole && parts.length > 1 && parts[parts.length - 1]!.length > 1 ? parts[parts.length - 1]! : operationId;
  // Split as path words are (`getLinodeIPs` → ips, `getOAuthToken` → oauth, `IoTSpaces` → iot), so a name reads an
  // identifier one way wherever it stands.
  const tokens = camelParts(last)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((t) => t.toLowerCase());
  return joinPrefixes(tokens);
}

/**
 * A hash a generator appended to keep ids apart (Graph's `…As.microsoft.graph.user-e6f4`): hex digits, a letter and a
 * digit among them, after a last dash. No word (`Dec2Bin` keeps its `dec2`).
 */
const GENERATED_HASH = /-(?=[a-f]*\d)(?=\d*[a-f])[0-9a-f]{4,8}$/;

/** Prefixes camelCase splits off a word (`unAssign`, `reSend`): they are one word, `unassign`, not `un` and `assign`. */
const PREFIXES = new Set(["un", "re", "pre", "de", "dis", "sub"]);
function joinPrefixes(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const next = tokens[i + 1];
    if (PREFIXES.has(tokens[i]!) && next && /^[a-z]{3,}$/.test(next)) {
      out.push(`${tokens[i]}${next}`);
      i++;
    } else out.push(tokens[i]!);
  }
  return out;
}

/** Whether a noun comes from a verb: book → bookings, follow → followers, search → searches. */
export function derivedFrom(noun: string, verb: string): boolean {
  if (!noun || !verb) return false;
  if (noun === verb) return true;
  // unfollow → followers, unsubscribe → subscriptions: the undoing verb acts on the same thing.
  if (/^un[a-z]{3,}/.test(verb) && derivedFrom(noun, verb.slice(2))) return true;
  const stem = verb.endsWith("e") ? verb.slice(0, -1) : verb;
  return (
    noun.startsWith(stem) &&
    /^(e?s|e?rs?|ings?|e?ments?|e?ions?|ations?|als?|ing)?$/.test(noun.slice(stem.length)) &&
    noun.length - stem.length <= 6
  );
}

export { FILLER };
