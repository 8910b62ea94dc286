import { pushTo } from "../../core/group.js";
import type { Operation, OperationModel } from "../openapi/model.js";
import { finalWords, lastResortWords, saysAll } from "./last-resort.js";
import { kebab, singular } from "./word-forms.js";
import type { NameSource } from "./types.js";
import {
  actionOf,
  derivedFrom,
  FILLER,
  firstSentence,
  isNoise,
  operationIdTokens,
  textTokens,
  verbBase,
  type StatedAction,
} from "./verbs.js";
import { HTTP_METHOD_WORDS, PLAIN_READS, READ_VERBS, WRITE_VERBS } from "../../core/verbs.js";
import { count } from "../../core/plural.js";

/**
 * Command names from what each operation says it does (docs/generated-cli.md, "Names"): noun first, the action the
 * operation states (its summary, operationId or description), CRUD words only for resource-shaped operations.
 * Every choice is recorded in a NameSource, so a reviewer sees which words came from where.
 */

/** Path segments that version or scope an API rather than name a resource: v1, v2beta1, 2010-04-01, api, rest. */
const VERSION_SEGMENT = /^(v\d+([._]\d+)*([a-z]+\d*)?|\d+([._-]\d+)*|api|rest)$/i;
/** A trailing file extension on a path segment (`/statuses/show.json`) is a format, not an RPC method. */
const FORMAT_SUFFIX = /\.(json|xml|csv|txt|html|yaml|yml|atom|rss)$/i;
const MAX_NAME_LENGTH = 48;
/** A group word longer than this may lose words so that its commands fit MAX_NAME_LENGTH. */
const MAX_GROUP_LENGTH = 24;

/** A word without its noise tokens (stop words, versions, HTTP method words); "" when nothing else is left. */
const clean = (word: string) =>
  word
    .split("-")
    .filter((t) => t && !isNoise(t))
    .join("-");
/**
 * A wire name as words: `idLabels` → labels, `idBoard` → board, `cartId` → cart. The `id` says the API takes ids
 * there; the command is about the labels.
 */
const wireWords = (word: string) => {
  const tokens = word.split("-");
  const kept = tokens.filter((t) => t !== "id");
  return kept.length ? kept.join("-") : word;
};
const isParam = (segment: string) => /^\{[^}]+\}$/.test(segment);

interface PathWord {
  word: string;
  /** Follows a path parameter (`/bookings/{id}/cancel`): an action or sub-collection of one item. */
  afterParam: boolean;
  /** A parameter follows: the word names a collection of items. */
  beforeParam: boolean;
  last: boolean;
}

interface Draft {
  op: Operation;
  resource: string;
  resourceFrom: NameSource["resource"]["from"];
  sub: string;
  action: string;
  actionFrom: NameSource["action"]["from"];
  actionText?: string;
  /** Why the action is not the verb the operation states (it contradicted the method). */
  actionReason?: string;
  /** The verb names the resource itself (GET /search "Search for items", POST /bookings "Book a room"). */
  verbIsResource?: string;
  /** Words that may tell this command apart from others of the same name, most telling first. */
  qualifiers: Array<{ token: string; from: NonNullable<NameSource["qualifier"]>["from"] }>;
  /** The words after the stated verb ("Get User's Saved Albums" → user, saved, albums). */
  object: string[];
  explicit?: string[];
  dropped: string[];
}

/** The response an operation answers with when it succeeds (the first 2xx, else `default`). */
export function successResponse(op: Operation) {
  return op.responses.find((r) => /^2\d\d$/.test(r.status)) ?? op.responses.find((r) => r.status === "default");
}

/**
 * A trailing path parameter that picks which items or which field a read returns (`/boards/{filter}`,
 * `/cards/{id}/{field}`): a flag of the read, not an item's id.
 */
const SELECTOR_PARAM = /^\{(filter|filters|field|fields)\}$/i;

/**
 * A literal path word after an item that names one thing (`/cards/{id}/board`, `/users/{id}/status`): singular, not a
 * collection of the item's (`/cards/{id}/stickers`).
 */
const singularWord = (segment: string) => {
  const tokens = kebab(segment).split("-");
  // `membersInvited` is the invited members: a plural anywhere makes it a collection.
  return (
    /^[a-z]{3,}$/.test(tokens[tokens.length - 1] ?? "") && tokens.every((t) => singular(t) === t && !t.endsWith("s"))
  );
};

/** One item or many: what a read operation returns, from its path and response shape. */
function readWord(op: Operation, lastSegment: string): "get" | "list" {
  const shape = successResponse(op);
  if (shape?.shape === "array") return "list";
  // A read over another method (`POST /service_points/list`, "List Service Points"): its path is no collection or
  // item, so its answer and its own words decide.
  if (op.method !== "get") return shape?.listField || saysList(op, lastSegment) ? "list" : "get";
  const segments = op.path.split("/").filter(Boolean);
  // `/boards/{filter}` lists the boards a filter picks; `/cards/{id}/{field}` gets one field of one card.
  if (SELECTOR_PARAM.test(lastSegment)) return /^\{fields?\}$/i.test(lastSegment) ? "get" : "list";
  // One item by its id, however the answer wraps it (Xero answers GET /Contacts/{ContactNumber} with `{Contacts: [it]}`).
  if (isParam(lastSegment)) return "get";
  if (shape?.listField) return "list";
  // GET /cards/{id}/board: the one board a card is on.
  if (segments.length > 1 && isParam(segments[segments.length - 2]!) && singularWord(lastSegment)) return "get";
  // A collection path that pages (`/browse/categories?limit=…`) lists, whatever wraps its items.
  if (op.parameters.some((p) => p.in === "query" && PAGING_PARAMS.test(p.name))) return "list";
  // "Get the list of system hooks" on /hooks: the summary says a list of the collection its path names.
  if (LIST_SAID.test(op.summary ?? "") && !singularWord(lastSegment) && !isParam(lastSegment)) return "list";
  if (shape?.shape === "object") return "get";
  // No answer described: a path that names one thing (`/version`, `/user`) gets it; a plural (`/hooks`) lists.
  if (singularWord(lastSegment)) return "get";
  return op.method === "get" ? "list" : "get";
}

/**
 * What a read answers by its schema alone: `many` (an array, or a list beside paging fields), `one` (a record whose
 * fields hold no list or object), or undefined where the schema does not settle it.
 */
function answers(op: Operation): "many" | "one" | undefined {
  const shape = successResponse(op);
  if (shape?.shape === "array") return "many";
  if (shape?.shape !== "object") return undefined;
  // A wrapper answered for one id (`GET /countries/{id}` as `{meta, results: [it]}`) may hold the one item.
  if (shape.listField)
    return !isParam(op.path.split("/").pop() ?? "") &&
      (shape.wrapperProperties ?? []).some((p) => /(^|\.)(next|cursor|has_?more|total|page|offset)/i.test(p))
      ? "many"
      : undefined;
  const types = Object.values(shape.propertyTypes ?? {});
  return types.length && !types.some((t) => t.type === "array" || t.type === "object") ? "one" : undefined;
}

/** Whether an operation's own words open with "list": its summary, its operationId's verb or its path's last word. */
function saysList(op: Operation, lastSegment: string): boolean {
  return (
    /^lists?\b/i.test(op.summary ?? "") ||
    leadingWord(op.operationId ?? "") === "list" ||
    lastSegment.toLowerCase() === "list"
  );
}

/**
 * The first word of an operationId or an RPC method's name that is no HTTP method word (nor, with `BATCH_TOO`, a
 * batch word): where such a name says its verb (`PostCustomersCreate`, `BatchGetItems`).
 */
const BATCH_TOO = new Set([...HTTP_METHOD_WORDS, "batch", "bulk"]);
const leadingWord = (text: string, skipped: ReadonlySet<string> = HTTP_METHOD_WORDS) =>
  operationIdTokens(text).find((t) => !skipped.has(t));

/** A summary that says it answers a list: "Get the list of …", "Returns all …". */
const LIST_SAID = /(list of|lists of|all (the )?[a-z]+s)/i;

const PAGING_PARAMS =
  /^(limit|offset|page|page_?size|per_?page|page_?token|cursor|starting_after|max_?results|top|skip)$/i;

/** The CRUD word of a resource-shaped operation: its method and whether it acts on one item or the collection. */
function crudWord(op: Operation, family: StatedAction["family"] | undefined, lastSegment: string): string {
  if (family === "read") return readWord(op, lastSegment);
  if (family) return family;
  switch (op.method) {
    case "get":
      return readWord(op, lastSegment);
    case "post":
      return isParam(lastSegment) ? "update" : "create";
    case "put":
      return "replace";
    case "patch":
      return "update";
    case "delete":
      return "delete";
    case "head":
      return "check";
    default:
      return "call";
  }
}

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
function pathWords(op: Operation): { words: PathWord[]; rpc?: { resource: string[]; action: string } } {
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

/** The action an operation states, and where it says so: summary, operationId, RPC method name, description. */
function statedAction(
  op: Operation,
  rpcAction: string | undefined,
): { action: StatedAction; from: NameSource["action"]["from"]; text: string } | undefined {
  const sources: Array<[NameSource["action"]["from"], string | undefined, (t: string) => readonly string[], boolean]> =
    [
      ["summary", op.summary, textTokens, false],
      ["operationId", op.operationId, operationIdTokens, true],
      ["path", rpcAction, operationIdTokens, true],
      ["description", op.description ? firstSentence(op.description) : undefined, textTokens, false],
    ];
  for (const [from, text, tokens, exact] of sources) {
    if (!text) continue;
    const words = tokens(text);
    // `PostAccounts`, `PutUser`: an identifier that opens with an HTTP method word was generated from the method.
    if (exact && HTTP_METHOD_WORDS.has(words[0] ?? "")) continue;
    const action = actionOf(words, exact);
    if (action) return { action, from, text };
  }
  return undefined;
}

const tokensOf = (words: string[]) => words.flatMap((w) => w.split("-")).filter(Boolean);

/** The resource an operation belongs to before names are cleaned: its first tag, else its first path word. */
function rawResource(op: Operation): { resource: string; from: NameSource["resource"]["from"]; dropped: string[] } {
  const raw = op.tags[0] ? kebab(op.tags[0]) : "";
  const tag = clean(raw);
  if (tag) return { resource: tag, from: "tag", dropped: raw.split("-").filter((t) => isNoise(t)) };
  const { words } = pathWords(op);
  return { resource: words[0]?.word || "api", from: "path", dropped: [] };
}

/**
 * Where the resource stands in the path: the word sharing the most of its words (`alpha-sender` in
 * `/Services/{Sid}/AlphaSenders`, `tollfree-verification` in `/Tollfree/Verifications`), the last on a tie.
 */
function resourceIndex(words: PathWord[], resource: string): number {
  const mine = new Set(resource.split("-").map(singular));
  let best = -1;
  let bestScore = 0;
  words.forEach((w, i) => {
    const tokens = w.word.split("-").map(singular);
    const shared = tokens.filter((t) => mine.has(t)).length;
    // The resource itself first (`accounts` before `bank-accounts`), then a path word made only of the resource's
    // words (`reservations` of "Réservations de salle"), then one sharing half of them.
    const exact = singular(w.word) === singular(resource) || w.word === resource;
    const score = exact ? 3 : shared === tokens.length ? 2 : shared / Math.max(mine.size, 1);
    if (shared && score >= 0.5 && score >= bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * The path words that say what an operation acts on when its tag is not in the path (Spotify's "Tracks" on
 * `/audio-features/{id}`, "Users" on `/me/top/artists`): those after the last item the path names
 * (`/Services/{Sid}/Compliance` → compliance), the collection itself when the path ends at its item, and otherwise
 * all but a leading namespace (`/me`, `/browse`).
 */
function unspelledTagRest(words: PathWord[]): PathWord[] {
  // The last word's own id (`/Services/{Sid}/Compliance/Usa2p/{Sid}`) does not make it a parent.
  const lastItem = words
    .slice(0, -1)
    .map((w) => w.beforeParam)
    .lastIndexOf(true);
  if (lastItem >= 0) return words.slice(lastItem + 1);
  return words.length > 1 ? words.slice(1) : words;
}

/**
 * The words that may tell a command apart from others of the same name, most telling first: a selector in the path,
 * the stated action's object, the summary, the operationId, the path's words and parameters, the description.
 */
function qualifiersOf(
  op: Operation,
  stated: ReturnType<typeof statedAction>,
  words: ReturnType<typeof pathWords>["words"],
  segments: string[],
  lastSegment: string,
): Draft["qualifiers"] {
  const textTokensOf = (t?: string) => (t ? textTokens(t) : []);
  const qualifiers: Draft["qualifiers"] = [];
  const push = (tokens: readonly string[], from: NonNullable<NameSource["qualifier"]>["from"]) => {
    for (const token of tokens) if (!qualifiers.some((q) => q.token === token)) qualifiers.push({ token, from });
  };
  // `/boards/{filter}` beside `/boards`: the filtered list.
  if (SELECTOR_PARAM.test(lastSegment)) push([/^\{filters?\}$/i.test(lastSegment) ? "filtered" : "field"], "path");
  if (stated) push(stated.action.object, stated.from as "summary" | "operationId" | "description" | "path");
  push(textTokensOf(op.summary), "summary");
  if (op.operationId) {
    const idTokens = operationIdTokens(op.operationId);
    push(verbBase(idTokens[0] ?? "") ? idTokens.slice(1) : idTokens, "operationId");
    // A service-prefixed id says more before its last part (`extras_tags_bulk_partial_update`: partial).
    push(operationIdTokens(op.operationId, true), "operationId");
  }
  push(tokensOf(words.map((w) => w.word)), "path");
  // Words clean() drops from a path but that tell one operation from another (`/members/{id}/all`).
  push(
    segments
      .filter((s) => !isParam(s))
      .flatMap((s) => kebab(s).split("-"))
      .filter((t) => t === "all"),
    "path",
  );
  push(
    segments
      .filter(isParam)
      .flatMap((s) => kebab(s.slice(1, -1)).split("-"))
      .filter((t) => t !== "id"),
    "path",
  );
  push(textTokensOf(op.description ? firstSentence(op.description) : undefined), "description");
  return qualifiers;
}

function draftName(
  op: Operation,
  resource: string,
  resourceFrom: NameSource["resource"]["from"],
  dropped: string[],
): Draft {
  const { words, rpc } = pathWords(op);
  const segments = op.path.split("/").filter(Boolean);
  const lastSegment = segments[segments.length - 1] ?? "";
  const at = resourceIndex(words, resource);
  let rest = at >= 0 ? words.slice(at + 1) : resourceFrom === "path" ? words.slice(1) : unspelledTagRest(words);
  const explicit = op.cli.name?.split(/\s+/).map(kebab).filter(Boolean);

  const stated = statedAction(op, rpc?.action);
  let action: string;
  let actionFrom: NameSource["action"]["from"];
  let verbIsResource: string | undefined;
  let actionReason: string | undefined;
  const lastRest = rest[rest.length - 1];
  if (stated && !stated.action.family) {
    action = stated.action.word;
    actionFrom = stated.from;
    const verb = action.split("-").pop()!;
    // The verb names a path word (`PUT /me/player/pause` "Pause playback", `PUT …/followers` "Follow"): it is the
    // action, not a sub-resource.
    const related = rest.findIndex((w) => derivedFrom(w.word, verb) || w.word === action);
    const lastWord = rest[rest.length - 1]?.word ?? "";
    if (related >= 0 && related === rest.length - 1) {
      dropped.push(rest[related]!.word);
      rest = rest.slice(0, related);
    } else if (lastWord.split("-")[0] === verb && lastWord.includes("-")) {
      // An RPC-style path word that is the action itself (`/pet/findByStatus` "Finds pets by status" → find-status).
      action = [...action.split("-").slice(0, -1), lastWord].join("-");
      rest = rest.slice(0, -1);
    } else if (lastRest && !lastRest.afterParam && rest.length && !mentions(op, lastRest.word)) {
      // A trailing word the operation never mentions (`/me/albums/contains` "Check saved albums") says how the
      // path was laid out, not what the command acts on.
      dropped.push(lastRest.word);
      rest = rest.slice(0, -1);
    }
    if (!rest.length && !/^un/.test(verb) && (derivedFrom(singular(resource), verb) || derivedFrom(resource, verb))) {
      // POST /bookings "Book a room", GET /search "Search for items": the verb is the resource's own name.
      verbIsResource = verb;
      action = crudWord(op, undefined, lastSegment);
      actionFrom = "method";
    }
  } else if (stated?.action.family) {
    // "List billing invoices" lists, whatever its response looks like: a `get-list` would say it twice.
    action =
      stated.action.word === "list" && op.method === "get" ? "list" : crudWord(op, stated.action.family, lastSegment);
    actionFrom = stated.from;
    const verb = action;
    // `/users/list` is the action said in the path; `/cards/{id}/list` is the list a card is on, a resource.
    if (lastRest?.last && !lastRest.afterParam && (lastRest.word === verb || lastRest.word === stated.action.word)) {
      dropped.push(lastRest.word);
      rest = rest.slice(0, -1);
    } else if (
      lastRest?.last &&
      lastRest.word.includes("-") &&
      [verb, stated.action.word].includes(lastRest.word.split("-")[0]!)
    ) {
      // `/user/createWithArray` "Creates list of users…": the path word is the action, said in full.
      action = [verb, ...lastRest.word.split("-").slice(1)].join("-");
      rest = rest.slice(0, -1);
    }
  } else if (
    lastRest?.last &&
    lastRest.afterParam &&
    verbBase(lastRest.word) === lastRest.word &&
    op.method !== "get"
  ) {
    // POST /charges/{id}/capture: an action on one item, named by its path.
    action = lastRest.word;
    actionFrom = "path";
    rest = rest.slice(0, -1);
  } else {
    action = crudWord(op, undefined, lastSegment);
    actionFrom = "method";
  }
  if (HTTP_METHOD_WORDS.has(action)) action = crudWord(op, undefined, lastSegment);
  if (rpc) {
    // An RPC method name is the action in full (`setDefaultChannels` → set-default-channels, `history` →
    // get-history): its object words are what a caller knows it by.
    const tokens = operationIdTokens(rpc.action);
    const own = actionOf(tokens, true);
    const said = new Set(resource.split("-").flatMap((t) => [t, singular(t)]));
    const object = (own ? own.object : tokens).filter((t) => !said.has(t) && !said.has(singular(t)) && !isNoise(t));
    const verb = own
      ? own.word === "list"
        ? "list"
        : own.family
          ? crudWord(op, own.family, lastSegment)
          : own.word
      : crudWord(op, undefined, lastSegment);
    action = [verb, ...object].slice(0, 4).join("-");
    actionFrom = "path";
    rest = [];
  }

  const agreed = agreeWithMethod(op, action, lastSegment, stated?.action.word);
  if (agreed) {
    action = agreed.action;
    actionFrom = "method";
    actionReason = agreed.reason;
  }

  const sub = rest
    .map((w) => w.word)
    .filter((w) => !(w === resource || singular(w) === singular(resource)))
    .join("-");
  const qualifiers = qualifiersOf(op, stated, words, segments, lastSegment);

  return {
    op,
    resource,
    resourceFrom,
    sub,
    action,
    actionFrom,
    ...(stated ? { actionText: stated.text } : {}),
    ...(actionReason ? { actionReason } : {}),
    ...(verbIsResource ? { verbIsResource } : {}),
    qualifiers,
    object: stated?.action.object ?? [],
    ...(explicit?.length ? { explicit } : {}),
    dropped,
  };
}

/** Verbs that bring something into being: a DELETE that says one was described by copy and paste. */
const MAKING = new Set(["create", "add", "make", "insert", "generate"]);

/**
 * The action agrees with the method's effect (docs/naming.md): a DELETE is never named as a read or a making, a GET
 * never as a write. A PUT or PATCH is never a plain read (`get`, `list`), nor a POST whose operationId names a write
 * (`createCreditNoteHistory` under a summary copied from its GET), unless the document names the call a read itself
 * (its operationId or the RPC method its path ends in: `ListFindings` over POST, `/listKeys`). A POST the document only
 * says reads ("Get a list of available payment methods", its query in the body) keeps the read its texts state:
 * `create` would mislead more. A verb that reads both ways is decided by the method: "Return a lent copy" on a DELETE
 * ends the loan (`return`), "Returns the user" on a GET reads; "Sets" on a GET names a set of things.
 */
function agreeWithMethod(
  op: Operation,
  action: string,
  lastSegment: string,
  stated: string | undefined,
): { action: string; reason: string } | undefined {
  const tokens = action.split("-");
  const at = tokens[0] === "bulk" || tokens[0] === "batch" ? 1 : 0;
  const verb = tokens[at] ?? "";
  let word: string | undefined;
  if (op.method === "delete" && stated === "return" && verb !== "return") word = "return";
  else if (op.method === "delete" && (READ_VERBS.has(verb) || MAKING.has(verb))) word = "delete";
  else if (op.method === "get" && WRITE_VERBS.has(verb)) word = readWord(op, lastSegment);
  else if (op.method === "get" && verb === "list" && answers(op) === "one") word = "get";
  else if (op.method === "get" && verb === "get" && at === 0 && answers(op) === "many") word = "list";
  else if (WRITE_METHODS.has(op.method) && PLAIN_READS.has(verb) && !documentSaysRead(op))
    word = operationIdWrite(op) ?? (op.method === "post" ? undefined : crudWord(op, undefined, lastSegment));
  if (!word) return undefined;
  const next = [...tokens.slice(0, at), word, ...tokens.slice(at + 1)].filter((t, i, all) => t !== all[i - 1]);
  const reason =
    word === "return"
      ? `DELETE ${op.path} says "return": on a DELETE it ends something, it does not read`
      : verb === "get" || verb === "list"
        ? `the schema of ${op.method.toUpperCase()} ${op.path}'s answer is ${word === "get" ? "one item" : "a list"}: "${word}", not "${verb}"`
        : `${op.method.toUpperCase()} ${op.path} cannot ${verb}: ${op.method === "delete" ? "a DELETE removes" : op.method === "get" ? "a GET only reads" : `a ${op.method.toUpperCase()} writes and its document never names it a read`}, so the action is its CRUD word`;
  return { action: next.join("-"), reason };
}

const WRITE_METHODS = new Set<Operation["method"]>(["post", "put", "patch"]);

/**
 * Whether the document names a write-method call a read: the first verb of its operationId or of the RPC method its
 * path ends in (`/#X-Amz-Target=…GetItem`, `/clusters/{c}/listKeys`, `…:search`) is a read verb. A summary's "Get a
 * token" over POST is no such word: a summary says what the caller receives, the method what the call does.
 */
function documentSaysRead(op: Operation): boolean {
  const rpc = op.path.split(/[/#=.:]/).pop() ?? "";
  return [op.operationId ?? "", rpc].some((text) => {
    const verb = verbBase(leadingWord(text, BATCH_TOO) ?? "");
    return !!verb && verb !== "obtain" && (READ_VERBS.has(verb) || verb === "check");
  });
}

/** The write its operationId names (`createCreditNoteHistory` → create), where a summary says otherwise. */
function operationIdWrite(op: Operation): string | undefined {
  const verb = verbBase(leadingWord(op.operationId ?? "") ?? "");
  return verb && WRITE_VERBS.has(verb) ? verb : undefined;
}

/** Whether the operation's own words mention a path word (its first six letters, so "availability" ~ "available"). */
function mentions(op: Operation, word: string): boolean {
  const said = [
    ...textTokens(op.summary ?? ""),
    ...(op.operationId ? operationIdTokens(op.operationId) : []),
    ...textTokens(op.description ? firstSentence(op.description) : ""),
  ];
  return word.split("-").some((w) => said.some((s) => s.slice(0, 6) === w.slice(0, 6)));
}

/**
 * Resource names lose what every one of them shares (`messaging-v1-alpha-sender` → `alpha-sender`), version tokens
 * and stop words, and the product's own name where more words remain.
 */
/** More operations than one group's help can show an agent within its budget (runtime/help.ts, DESCRIBE_BYTES). */
const WIDE_TAG = 60;

/**
 * A tag over more than WIDE_TAG operations whose paths never name it (Xero's "Accounting" over /Invoices, /Contacts,
 * … — 224 operations) is a product area, not a resource: its operations take the resource their paths begin with, so
 * `invoices update`, not `accounting invoices update` in a group of hundreds. A tag the paths name (GitHub's `repos`
 * over /repos/…) is the resource already, and stays.
 */
function splitWideTags(
  resources: Array<{
    op: Operation;
    resource: string;
    from: NameSource["resource"]["from"];
    dropped: string[];
    explicit?: boolean;
  }>,
): void {
  const byTag = new Map<string, typeof resources>();
  for (const r of resources) if (r.from === "tag" && !r.explicit) pushTo(byTag, r.resource, r);
  for (const [tag, members] of byTag) {
    if (members.length <= WIDE_TAG) continue;
    const words = members.map((r) => pathWords(r.op).words);
    const first = words.map((w) => w[0]?.word);
    if (first.some((w) => !w) || new Set(first).size < 2) continue;
    if (words.filter((w) => resourceIndex(w, tag) >= 0).length * 2 >= members.length) continue;
    members.forEach((r, i) => Object.assign(r, { resource: first[i]!, from: "path", dropped: [] }));
  }
}

function cleanResources(
  drafts: Array<{ resource: string; dropped: string[]; explicit?: unknown }>,
  productWords: Set<string>,
): void {
  for (const d of drafts) {
    const kept = wireWords(clean(d.resource));
    if (kept && kept !== d.resource)
      d.dropped.push(...d.resource.split("-").filter((t) => !kept.split("-").includes(t)));
    d.resource = kept || d.resource;
  }
  const names = [...new Set(drafts.filter((d) => !d.explicit).map((d) => d.resource))];
  if (names.length > 1) {
    const split = names.map((n) => n.split("-"));
    let shared = 0;
    while (split.every((s) => s.length > shared + 1 && s[shared] === split[0]![shared])) shared++;
    if (shared) {
      for (const d of drafts) {
        if (d.explicit) continue;
        d.dropped.push(...d.resource.split("-").slice(0, shared));
        d.resource = d.resource.split("-").slice(shared).join("-");
      }
    }
  }
  for (const d of drafts) {
    const tokens = d.resource.split("-");
    if (tokens.length > 1 && productWords.has(tokens[0]!)) {
      d.dropped.push(tokens[0]!);
      d.resource = tokens.slice(1).join("-");
    }
  }
}

function basePath(d: Draft): string[] {
  if (d.explicit) return d.explicit.length === 1 ? [d.resource, d.explicit[0]!] : d.explicit.slice(0, 3);
  const sub = clean(d.sub);
  return [d.resource, ...(sub ? [sub] : []), d.action];
}

/** Tokens of a draft's qualifiers that can tell it apart: not noise, not filler, not already in its name. */
function distinguishing(d: Draft, path: string[]): Draft["qualifiers"] {
  return telling(d, path).filter((q) => !FILLER.has(q.token) && q.token !== "user" && q.token !== "users");
}

/**
 * Words that can tell a command apart at all: whole words (no camelCase pieces), not said in the name already, not
 * noise except "all" (`delete-all` beside `delete`), never a CRUD or read verb (`get-list` says "get" twice).
 */
function telling(d: Draft, path: string[]): Draft["qualifiers"] {
  const said = new Set(tokensOf(path).flatMap((t) => [t, singular(t)]));
  // After a CRUD action, "list" or "update" would say the kind of operation twice (`get-list`); after `follow`,
  // "list" is a noun ("Follow a list of users"). A word that opens with the verb says it twice too
  // (`update-updatewebhooks`).
  const verb = path[path.length - 1]!.split("-")[0]!;
  const crud = READ_VERBS.has(verb) || WRITE_VERBS.has(verb);
  return d.qualifiers.filter(
    (q) =>
      (q.token === "all" || !isNoise(q.token)) &&
      !said.has(q.token) &&
      !said.has(singular(q.token)) &&
      /^[a-z][a-z0-9]{1,19}$/.test(q.token) &&
      !(crud && CRUD_TOKENS.has(q.token)) &&
      !restatesVerb(q.token, verb) &&
      !saysNothing(q),
  );
}

/** A word that opens with the verb says it twice (`update-updatewebhooks`, `delete-deleting`). */
const restatesVerb = (token: string, verb: string) =>
  token !== verb &&
  (token.startsWith(verb) || (verb.length > 3 && verb.endsWith("e") && token.startsWith(verb.slice(0, -1))));

/**
 * Words that say nothing of what an operation does ("Delete an Existing Droplet", "This endpoint …"): a name word
 * only where the path or the operationId names them (`create-dev-endpoint`, `StartSingleWirelessDeviceImportTask`).
 */
const EMPTY_WORDS = new Set([
  "existing",
  "single",
  "specific",
  "specified",
  "particular",
  "given",
  "certain",
  "unique",
  "endpoint",
]);
const saysNothing = (q: { token: string; from: string }) =>
  EMPTY_WORDS.has(q.token) && q.from !== "path" && q.from !== "operationId";

/** Words that only say which kind of operation it is. */
const CRUD_TOKENS = new Set([
  ...READ_VERBS,
  ...WRITE_VERBS,
  "gets",
  "lists",
  "updates",
  "creates",
  "deletes",
  "entity",
]);

/** Whether an operation acts on one item (its path ends at a parameter) rather than on its collection. */
const onItem = (d: Draft) => isParam(d.op.path.split("/").filter(Boolean).pop() ?? "");

/**
 * When every operation of a group has words of its own, the one the plain verb means keeps the plain name: an item's
 * (`droplets delete` by id beside `delete-tag`) for a verb that acts on one, the collection's for `list` and `create`.
 * -1 when that does not pick exactly one.
 */
function canonical(group: Draft[], path: string[]): number {
  const verb = path[path.length - 1]!;
  const itemVerb = ["get", "update", "replace", "delete"].includes(verb);
  if (!itemVerb && verb !== "list" && verb !== "create") return -1;
  const fits = group.flatMap((d, i) => (onItem(d) === itemVerb ? [i] : []));
  if (fits.length === 1) return fits[0]!;
  // Items by several keys (`/Contacts/{ContactID}` beside `/Contacts/{ContactNumber}`): the one by its id.
  const byId = fits.filter((i) => isIdParam(group[i]!.op.path.split("/").pop() ?? "", path[0]!));
  return byId.length === 1 ? byId[0]! : -1;
}

/** Whether a path parameter is the resource's own id: `{id}`, `{contact_id}`, `{ContactID}` under `contacts`. */
function isIdParam(segment: string, resource: string): boolean {
  if (!isParam(segment)) return false;
  const name = kebab(segment.slice(1, -1));
  const own = singular(resource.split("-").pop() ?? "");
  return name === "id" || name === `${own}-id` || name === `${resource}-id`;
}

/** Word sets to try, shortest and most telling first: the strong words in order, then each weak word, then pairs. */
function* qualifierChoices(
  strong: Draft["qualifiers"],
  weak: Draft["qualifiers"],
  structural: Draft["qualifiers"],
): Generator<Draft["qualifiers"]> {
  // What the summary, operationId and path say comes before what a description says in passing ("Each user can have
  // a maximum of two…" is no name for "Get a user's TSP account").
  const said = (list: Draft["qualifiers"]) => list.filter((q) => q.from !== "description");
  const told = said(strong);
  for (let k = 1; k <= Math.min(3, told.length); k++) yield told.slice(0, k);
  for (const q of told.slice(1)) yield [q];
  for (const q of said(weak)) if (!told.some((s) => s.token === q.token)) yield [q];
  for (let k = 1; k <= Math.min(3, strong.length); k++) yield strong.slice(0, k);
  const all = [...strong, ...weak.filter((w) => !strong.some((s) => s.token === w.token))].slice(0, 12);
  for (const q of all) yield [q];
  // A collection beside its items, when no word of its own says more: `delete-all`; a wire name of ids: `add-id`.
  for (const q of structural) yield [q];
  for (let a = 0; a < all.length; a++) for (let b = a + 1; b < all.length; b++) yield [all[a]!, all[b]!];
}

const withQualifier = (path: string[], words: string[]) => [
  ...path.slice(0, -1),
  [path[path.length - 1], ...words].join("-"),
];

export interface Named {
  path: string[];
  source: NameSource;
}

type Qualifier = { words: string[]; from: NonNullable<NameSource["qualifier"]>["from"]; with: string[] };
type NamingReport = (note: {
  kind: "collision" | "renamed-resource";
  command?: string;
  operation: string;
  message: string;
}) => void;

/** The names given so far: which draft holds each, and each draft's path and what told it apart. */
class Claims {
  readonly taken = new Map<string, Draft>();
  readonly chosen = new Map<Draft, { path: string[]; qualifier?: Qualifier }>();

  claim(d: Draft, path: string[], qualifier?: Qualifier): void {
    this.taken.set(path.join(" "), d);
    this.chosen.set(d, { path, ...(qualifier ? { qualifier } : {}) });
  }
}

/** Each operation's first name: its resource cleaned of product words and built-ins, its action from its texts. */
function draftsOf(
  operations: Operation[],
  model: Pick<OperationModel, "source">,
  productName: string,
  reserved: Set<string>,
  report: NamingReport,
): Draft[] {
  const resources = operations.map((op) => ({ op, ...rawResource(op), ...(op.cli.name ? { explicit: true } : {}) }));
  const productWords = new Set(
    [...kebab(productName).split("-"), kebab(model.source.title).split("-")[0] ?? ""].filter((w) => w.length > 2),
  );
  splitWideTags(resources);
  cleanResources(resources, productWords);
  for (const r of resources) {
    if (reserved.has(r.resource)) {
      report({
        kind: "renamed-resource",
        operation: r.op.id,
        message: `"${r.resource}" is a built-in command of every generated CLI, so the resource is "api-${r.resource}"`,
      });
      r.resource = `api-${r.resource}`;
    }
  }
  return resources.map((r) => draftName(r.op, r.resource, r.from, r.dropped));
}

const lastSegmentOf = (d: Draft) => d.op.path.split("/").filter(Boolean).pop() ?? "";

/**
 * The word a draft's method says, where it tells it from the rest of its group: a PUT and a PATCH that both say
 * "update" (the PUT replaces); a PATCH beside a PUT that both say "create" (`CreateOrUpdate` beside `Update`), or a PUT
 * on an item beside a POST on its collection (the PATCH or the PUT updates); a HEAD beside a GET (`check`); two reads,
 * one on a collection and one on its items (the collection's is `list`, the item's `get`).
 */
function methodWordOf(d: Draft, group: Draft[]): string | undefined {
  // An item is `{id}` after a plural word; a singular sub-resource (`/cards/{id}/board`) and a selector
  // (`…/{field}`) are not a collection and its items.
  const reads = (x: Draft) =>
    x.op.method === "get" &&
    (x.action === "get" || x.action === "list") &&
    (onItem(x)
      ? !SELECTOR_PARAM.test(lastSegmentOf(x))
      : singular(kebab(lastSegmentOf(x))) !== kebab(lastSegmentOf(x)));
  if (d.action === "update" && d.op.method === "put" && group.some((x) => x.op.method !== "put")) return "replace";
  if (d.op.method === "head" && group.some((x) => x.op.method !== "head")) return "check";
  if (
    (d.op.method === "patch" && d.action !== "update" && group.some((x) => x.op.method === "put")) ||
    (d.op.method === "put" &&
      onItem(d) &&
      d.action !== "update" &&
      group.some((x) => x.op.method === "post" && !onItem(x)))
  )
    return "update";
  if (!(reads(d) && group.some((x) => x !== d && reads(x) && onItem(x) !== onItem(d)))) return undefined;
  if (onItem(d)) return d.action === "get" || answers(d.op) === "many" ? undefined : "get";
  return d.action === "list" || answers(d.op) === "one" ? undefined : "list";
}

/** Names the drafts of a group that their method's own word tells apart; they leave the group. */
function nameByMethod(name: string, group: Draft[], base: string[], claims: Claims, byName: Map<string, Draft[]>) {
  for (const d of [...group]) {
    const word = methodWordOf(d, group);
    const attempt = word && !d.explicit ? [...base.slice(0, -1), word] : undefined;
    if (!attempt || claims.taken.has(attempt.join(" ")) || byName.has(attempt.join(" "))) continue;
    d.action = word!;
    d.actionFrom = "method";
    d.actionReason = `${d.op.method.toUpperCase()} beside ${group
      .filter((x) => x !== d)
      .map((x) => x.op.method.toUpperCase())
      .join(", ")} on "${name}": the method's own word tells them apart`;
    claims.claim(d, attempt);
    group.splice(group.indexOf(d), 1);
  }
}

/** What a group's drafts say beyond its name, and which of them keeps the plain name (-1: none). */
interface GroupWords {
  own: Draft["qualifiers"][];
  /** Words the path's shape gives where no word differs: `-all` on a collection beside items, `-id` on a wire name. */
  shape: (d: Draft) => Draft["qualifiers"];
  plain: number;
}

function groupWords(name: string, group: Draft[], base: string[], claims: Claims): GroupWords {
  const lists = group.map((d) => distinguishing(d, base));
  // Words every colliding operation says tell none of them apart.
  const common = new Set(lists[0]!.map((q) => q.token).filter((t) => lists.every((l) => l.some((q) => q.token === t))));
  const own = lists.map((l) => l.filter((q) => !common.has(q.token)));
  // The operation whose statement adds nothing to the name keeps it plain (`albums list` "Get several albums"
  // beside `albums list-saved` "Get the user's saved albums").
  const stated = own.map((l, i) => l.filter((q) => group[i]!.object.includes(q.token)));
  // Failing that, the one whose path and id add nothing (`/stores/{id}` beside `/merchants/{m}/stores/{id}`).
  // When several have nothing to add, the first in the document keeps it and the others are numbered.
  const onlyEmpty = (lists: Draft["qualifiers"][]) =>
    lists.filter((l) => !l.length).length === 1 ? lists.findIndex((l) => !l.length) : -1;
  // DELETE /users/{id}/schedulers beside DELETE /users/{id}/schedulers/{schedulerId}: the one on the collection
  // acts on all of it, and says so (`delete-all`); the one on an item keeps the plain name.
  const onCollection = (d: Draft) =>
    !onItem(d) &&
    d.op.method !== "get" &&
    d.op.method !== "post" &&
    group.some((x) => x !== d && onItem(x) && x.op.method === d.op.method);
  const wireId = (d: Draft) =>
    d.op.path.split("/").some((s) => /^id[A-Z]/.test(s)) &&
    group.some((x) => x !== d && !x.op.path.split("/").some((s) => /^id[A-Z]/.test(s)));
  const shape = (d: Draft): Draft["qualifiers"] => [
    ...(onCollection(d) ? [{ token: "all", from: "path" as const }] : []),
    ...(wireId(d) ? [{ token: "id", from: "path" as const }] : []),
  ];
  const bare = own.findIndex((l, i) => !l.length && !shape(group[i]!).length);
  const plain = claims.taken.has(name)
    ? -1
    : onlyEmpty(stated) >= 0
      ? onlyEmpty(stated)
      : onlyEmpty(own) >= 0
        ? onlyEmpty(own)
        : bare >= 0
          ? bare
          : own.some((l) => !l.length)
            ? own.findIndex((l) => !l.length)
            : canonical(group, base);
  return { own, shape, plain };
}

/** One group's names: by method where that tells, the plain name to one, words of their own to the others. */
function nameGroup(
  name: string,
  group: Draft[],
  claims: Claims,
  byName: Map<string, Draft[]>,
  report: NamingReport,
): void {
  if (group.length === 1 && !claims.taken.has(name)) {
    claims.claim(group[0]!, basePath(group[0]!));
    return;
  }
  const base = basePath(group[0]!);
  nameByMethod(name, group, base, claims, byName);
  if (!group.length) return;
  if (group.length === 1 && !claims.taken.has(name)) {
    claims.claim(group[0]!, base);
    return;
  }
  const words = groupWords(name, group, base, claims);
  // What each of the group tells, once: a name thousands of operations want is asked of every one for every one.
  const told = new Map<Draft, Set<string>>();
  const tellingTokens = (x: Draft) => {
    let tokens = told.get(x);
    if (!tokens) told.set(x, (tokens = new Set(telling(x, base).map((q) => q.token))));
    return tokens;
  };
  const others = group
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.i === words.plain ? -1 : b.i === words.plain ? 1 : 0));
  for (const { d, i } of others) {
    if (i === words.plain) claims.claim(d, base);
    else qualify(d, words.own[i]!, words.shape(d), { name, group, base, claims, byName, report, tellingTokens });
  }
}

interface GroupContext {
  name: string;
  group: Draft[];
  base: string[];
  claims: Claims;
  byName: Map<string, Draft[]>;
  report: NamingReport;
  tellingTokens: (x: Draft) => Set<string>;
}

/**
 * A name of its own for a draft that does not keep the plain one: its most telling words first; failing those, any
 * whole word its texts say and the others' do not; then the method's word (PUT from PATCH, HEAD from GET); then a
 * version or any word of its texts; then a name handed over by one that says more; a number only when nothing differs.
 */
function qualify(d: Draft, own: Draft["qualifiers"], structural: Draft["qualifiers"], ctx: GroupContext): void {
  const { name, group, base, claims, byName, report } = ctx;
  const collidesWith = group.filter((x) => x !== d).map((x) => `${x.op.method.toUpperCase()} ${x.op.path}`);
  const free = (attempt: string[]) => !claims.taken.has(attempt.join(" ")) && !byName.has(attempt.join(" "));
  let path: string[] | undefined;
  let used: Draft["qualifiers"] = [];
  const weak = telling(d, base).filter(
    (q) => q.token !== "id" && q.token !== "ids" && !group.every((x) => x === d || ctx.tellingTokens(x).has(q.token)),
  );
  for (const words of qualifierChoices(own, weak, structural)) {
    const attempt = withQualifier(
      base,
      words.map((q) => q.token),
    );
    if (free(attempt)) {
      path = attempt;
      used = words;
      break;
    }
  }
  if (!path) path = byMethodWord(d, base, claims, byName);
  if (!path && !d.explicit) {
    const found = lastResort(d, group, base, free);
    if (found) ({ path, used } = found);
  }
  if (!path && !d.explicit) {
    const handed = handOver(d, ctx, free);
    if (handed) ({ path, used } = handed);
  }
  // Then the same two with every word of the texts, however short or common (`get-me`).
  if (!path && !d.explicit) {
    const found = lastResort(d, group, base, free, finalWords) ?? handOver(d, ctx, free, finalWords);
    if (found) ({ path, used } = found);
  }
  if (!path) {
    for (let n = 2; ; n++) {
      const attempt = withQualifier(base, [String(n)]);
      if (!claims.taken.has(attempt.join(" "))) {
        path = attempt;
        break;
      }
    }
  }
  claims.claim(d, path, { words: used.map((q) => q.token), from: used[0]?.from ?? "path", with: collidesWith });
  report({
    kind: "collision",
    command: path.join(" "),
    operation: d.op.id,
    message: `"${name}" is wanted by ${count(group.length, "operation")}; ${d.op.method.toUpperCase()} ${d.op.path} is "${path.join(" ")}"${used.length ? ` (its own words: ${used.map((q) => q.token).join(", ")})` : " (nothing in its description differs)"}`,
  });
}

/** The method's own word tells PUT from PATCH and HEAD from GET when their descriptions say the same. */
function byMethodWord(d: Draft, base: string[], claims: Claims, byName: Map<string, Draft[]>): string[] | undefined {
  const byMethod = crudWord(d.op, undefined, d.op.path.split("/").pop() ?? "");
  if (
    byMethod === d.action ||
    d.explicit ||
    !((d.action === "update" && byMethod === "replace") || d.op.method === "head")
  )
    return undefined;
  const attempt = [...base.slice(0, -1), byMethod];
  if (claims.taken.has(attempt.join(" ")) || byName.has(attempt.join(" "))) return undefined;
  d.action = byMethod;
  d.actionFrom = "method";
  return attempt;
}

/**
 * The last resort before a number: a version or any word of one operation's texts that the others' lack (`wordsOf`:
 * last-resort.ts's lastResortWords, then its finalWords).
 */
function lastResort(
  d: Draft,
  group: Draft[],
  base: string[],
  free: (attempt: string[]) => boolean,
  wordsOf: typeof lastResortWords = lastResortWords,
): { path: string[]; used: Draft["qualifiers"] } | undefined {
  const rest = group.filter((x) => x !== d).map((x) => x.op);
  const verb = base[base.length - 1]!.split("-")[0]!;
  for (const told of wordsOf(d.op, rest, base)) {
    if (told.words.some((token) => restatesVerb(token, verb) || saysNothing({ token, from: told.from }))) continue;
    const attempt = withQualifier(base, told.words);
    if (free(attempt)) return { path: attempt, used: told.words.map((token) => ({ token, from: told.from })) };
  }
  return undefined;
}

/**
 * Nothing of its own: every word it says, another of the group says too. One whose name says no more than this one's
 * words (the plain name, or `get-extended` for `ExtendedDatabase…` beside `ExtendedServer…`) but which says more hands
 * its name over and takes one more of its words (`get-extended-database`), so neither is numbered.
 */
function handOver(
  d: Draft,
  ctx: GroupContext,
  free: (attempt: string[]) => boolean,
  wordsOf: typeof lastResortWords = lastResortWords,
): { path: string[]; used: Draft["qualifiers"] } | undefined {
  const { name, group, claims, report } = ctx;
  for (const holder of group) {
    const held = claims.chosen.get(holder);
    if (holder === d || !held || holder.explicit || !saysAll(d.op, held.qualifier?.words ?? [])) continue;
    const told = wordsOf(holder.op, [d.op], held.path).find((t) => free(withQualifier(held.path, t.words)));
    if (!told) continue;
    const moved = withQualifier(held.path, told.words);
    const used = (held.qualifier?.words ?? []).map((token) => ({ token, from: held.qualifier!.from }));
    claims.taken.delete(held.path.join(" "));
    claims.claim(holder, moved, {
      words: [...(held.qualifier?.words ?? []), ...told.words],
      from: told.from,
      with: group.filter((x) => x !== holder).map((x) => `${x.op.method.toUpperCase()} ${x.op.path}`),
    });
    report({
      kind: "collision",
      command: moved.join(" "),
      operation: holder.op.id,
      message: `"${name}" is wanted by ${count(group.length, "operation")}; ${holder.op.method.toUpperCase()} ${holder.op.path} is "${moved.join(" ")}" (its own words: ${told.words.join(", ")})`,
    });
    return { path: held.path, used };
  }
  return undefined;
}

/** A sub-resource of one command is no group: `player devices list` → `player list-devices`. Returns those merged. */
function collapseLoneSubs(claims: Claims): Set<Draft> {
  const under = new Map<string, number>();
  for (const { path } of claims.chosen.values())
    if (path.length === 3) under.set(path.slice(0, 2).join(" "), (under.get(path.slice(0, 2).join(" ")) ?? 0) + 1);
  const collapsed = new Set<Draft>();
  for (const [d, entry] of claims.chosen) {
    const { path } = entry;
    if (d.explicit || path.length !== 3 || under.get(path.slice(0, 2).join(" ")) !== 1) continue;
    const said = new Set(path[0]!.split("-").flatMap((t) => [t, singular(t)]));
    const subTokens = path[1]!.split("-");
    const ownTokens = subTokens.filter((t) => !said.has(t) && !said.has(singular(t)));
    // Tokens said twice in a row (`create` + `create-array`) are said once.
    const joined = [...path[2]!.split("-"), ...(ownTokens.length ? ownTokens : subTokens)].filter(
      (t, i, all) => t !== all[i - 1],
    );
    const merged = [path[0]!, joined.join("-")];
    if (claims.taken.has(merged.join(" ")) || merged[1]!.length > 40) continue;
    claims.taken.delete(path.join(" "));
    claims.taken.set(merged.join(" "), d);
    entry.path = merged;
    collapsed.add(d);
  }
  return collapsed;
}

/** Where each word of a draft's final name came from. */
function sourceOf(d: Draft, entry: { path: string[]; qualifier?: Qualifier }, collapsed: boolean): NameSource {
  const { path } = entry;
  if (d.explicit)
    return {
      resource: { word: path[0]!, from: "x-cli-name" },
      action: { word: path[path.length - 1]!, from: "x-cli-name", text: d.op.cli.name! },
    };
  return {
    resource: {
      word: path[0]!,
      from: d.resourceFrom,
      ...(d.resourceFrom === "tag" ? { text: d.op.tags[0]! } : { text: d.op.path }),
    },
    ...(path.length === 3 ? { sub: { word: path[1]!, from: "path" as const, text: d.op.path } } : {}),
    action: {
      word: d.action,
      from: d.actionFrom,
      ...(d.actionText
        ? { text: d.actionText }
        : d.actionFrom === "method"
          ? { text: `${d.op.method.toUpperCase()} ${d.op.path}` }
          : {}),
      ...(d.actionReason ? { reason: d.actionReason } : {}),
    },
    ...(entry.qualifier
      ? {
          qualifier: {
            words: entry.qualifier.words.join("-") || path[path.length - 1]!,
            from: entry.qualifier.from,
            reason: `told apart from ${entry.qualifier.with.join(", ")}`,
          },
        }
      : {}),
    ...(collapsed ? { collapsed: true } : {}),
    ...(d.dropped.length ? { dropped: [...new Set(d.dropped)] } : {}),
  };
}

/**
 * Assigns every operation a unique command path. Explicit `x-cli-name`s first; names several operations want are told
 * apart by the words in which their own descriptions differ (never HTTP method words); a numeric suffix only when
 * nothing differs — always reported.
 */
export function nameOperations(
  operations: Operation[],
  model: Pick<OperationModel, "source">,
  productName: string,
  reserved: Set<string>,
  report: NamingReport,
): Map<Operation, Named> {
  const drafts = draftsOf(operations, model, productName, reserved, report);
  const claims = new Claims();
  const byName = new Map<string, Draft[]>();
  for (const d of [...drafts.filter((x) => x.explicit), ...drafts.filter((x) => !x.explicit)])
    pushTo(byName, basePath(d).join(" "), d);
  for (const [name, group] of byName) nameGroup(name, group, claims, byName, report);
  const collapsed = collapseLoneSubs(claims);
  // Sub-resources shorten first, alike for all their commands; then actions; a group only where its own word is long
  // and a name still runs over.
  shortenSubs(claims.chosen, claims.taken);
  for (const d of drafts) claims.chosen.get(d)!.path = shorten(claims.chosen.get(d)!.path, claims.taken, d);
  shortenGroups(claims.chosen, claims.taken);
  const out = new Map<Operation, Named>();
  for (const d of drafts) {
    const entry = claims.chosen.get(d)!;
    out.set(d.op, { path: entry.path, source: sourceOf(d, entry, collapsed.has(d)) });
  }
  return out;
}

/**
 * A sub-resource whose commands run over MAX_NAME_LENGTH loses the words its group already says, then middle words,
 * the same for every command under it (`phone-numbers` stays one sub-resource of its group), while every new name is
 * free.
 */
function shortenSubs(chosen: Map<Draft, { path: string[] }>, taken: Map<string, Draft>): void {
  const bySub = new Map<string, Array<[Draft, { path: string[] }]>>();
  for (const [d, e] of chosen)
    if (e.path.length === 3 && !d.explicit) pushTo(bySub, e.path.slice(0, 2).join(" "), [d, e]);
  for (const entries of bySub.values()) {
    const [group, sub] = entries[0]![1].path as [string, string];
    const longest = (word: string) => Math.max(...entries.map(([, e]) => [group, word, e.path[2]].join(" ").length));
    const free = (word: string) =>
      entries.every(([d, e]) => {
        const owner = taken.get([group, word, e.path[2]].join(" "));
        return !owner || owner === d;
      });
    let word = sub;
    while (longest(word) > MAX_NAME_LENGTH) {
      const tokens = word.split("-");
      // "classification" is said by `classifications-files`: a word and its plural are one.
      const said = new Set(group.split("-").map(singular));
      const unsaid = tokens.filter((t) => !said.has(singular(t)));
      const candidates = [
        ...(unsaid.length && unsaid.length < tokens.length ? [unsaid.join("-")] : []),
        ...tokens.slice(1, -1).map((_, j) => tokens.filter((__, k) => k !== j + 1).join("-")),
      ];
      const next = candidates.find(free);
      if (!next) break;
      word = next;
    }
    if (word === sub) continue;
    for (const [d, e] of entries) {
      taken.delete(e.path.join(" "));
      e.path = [group, word, e.path[2]!];
      taken.set(e.path.join(" "), d);
    }
  }
}

/**
 * A group whose commands run over MAX_NAME_LENGTH loses words of its own name, the same for every command under it
 * (one tag stays one group), while no other group has that name.
 */
function shortenGroups(chosen: Map<Draft, { path: string[] }>, taken: Map<string, Draft>): void {
  const byGroup = new Map<string, Array<[Draft, { path: string[] }]>>();
  for (const [d, e] of chosen) pushTo(byGroup, e.path[0]!, [d, e]);
  const names = new Set(byGroup.keys());
  for (const [group, entries] of byGroup) {
    // `financial-connections` says what its commands are about; only a tag's long compound is worth losing words of.
    if (entries.some(([d]) => d.explicit) || group.length <= MAX_GROUP_LENGTH) continue;
    let tokens = group.split("-");
    const longest = () => Math.max(...entries.map(([, e]) => [tokens.join("-"), ...e.path.slice(1)].join(" ").length));
    // Middle words first, the earliest that leaves a name no other group has (`article-configuration-item-…-child`),
    // then leading ones (`issue-field-configurations` → `field-configurations`).
    while (longest() > MAX_NAME_LENGTH) {
      const middles = tokens.slice(1, -1).map((_, j) => tokens.filter((__, k) => k !== j + 1));
      const next = [...middles, tokens.length > 1 ? tokens.slice(1) : undefined].find(
        (t) => t && !names.has(t.join("-")),
      );
      if (!next) break;
      tokens = next;
    }
    const word = tokens.join("-");
    if (word === group) continue;
    names.add(word);
    for (const [d, e] of entries) {
      taken.delete(e.path.join(" "));
      e.path = [word, ...e.path.slice(1)];
      taken.set(e.path.join(" "), d);
    }
  }
}

/**
 * Names still over MAX_NAME_LENGTH lose words of their action while they stay unique: first tokens another word of the
 * name already says, then middle tokens; the action's verb always stays. Groups and sub-resources shorten alike for all
 * their commands (shortenSubs, shortenGroups).
 */
function shorten(path: string[], taken: Map<string, Draft>, d: Draft): string[] {
  let current = path;
  const free = (next: string[]) => !taken.has(next.join(" ")) || taken.get(next.join(" ")) === d;
  while (current.join(" ").length > MAX_NAME_LENGTH) {
    const candidates: string[][] = [];
    current.forEach((word, i) => {
      const tokens = word.split("-");
      // The group is the tag's and a sub-resource is its commands' alike (shortenSubs): only the action shortens here.
      if (tokens.length < 2 || i === 0 || (i === 1 && current.length === 3)) return;
      const elsewhere = new Set(current.filter((_, j) => j !== i).flatMap((w) => w.split("-")));
      const seen = new Set<string>();
      // The action's verb (the last word's first token) always stays.
      const deduped = tokens.filter(
        (t, k) => (i === current.length - 1 && k === 0) || (!elsewhere.has(t) && !seen.has(t) && seen.add(t)),
      );
      if (deduped.length && deduped.length < tokens.length)
        candidates.push(current.map((w, j) => (j === i ? deduped.join("-") : w)));
    });
    const byLength = current
      .map((_, i) => i)
      .filter((i) => i === current.length - 1)
      .sort((a, b) => current[b]!.length - current[a]!.length);
    for (const i of byLength) {
      const tokens = current[i]!.split("-");
      // Any middle token, the earliest first: among thousands of similar names (Microsoft Graph) the first may be taken.
      for (let k = 1; k < tokens.length - 1; k++)
        candidates.push(current.map((w, j) => (j === i ? tokens.filter((_, m) => m !== k).join("-") : w)));
      if (tokens.length === 2 && i < current.length - 1)
        candidates.push(current.map((w, j) => (j === i ? tokens[1]! : w)));
    }
    const next = candidates.find(free);
    if (!next) break;
    taken.delete(current.join(" "));
    taken.set(next.join(" "), d);
    current = next;
  }
  return current;
}
