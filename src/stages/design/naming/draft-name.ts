import type { Operation } from "../../openapi/model.js";
import type { NameSource } from "../types.js";
import {
  actionOf,
  derivedFrom,
  firstSentence,
  isNoise,
  operationIdTokens,
  textTokens,
  verbBase,
  type StatedAction,
} from "../verbs.js";
import { kebab, singular } from "../word-forms.js";
import { HTTP_METHOD_WORDS, POSTED_READ } from "../../../core/verbs.js";
import { listed } from "../../wordnet.js";
import { agreeWithMethod } from "./action-rules.js";
import { BATCH_TOO, crudWord } from "./crud-word.js";
import type { Draft } from "./draft.js";
import {
  isParam,
  paramName,
  pathQueryKeys,
  pathWords,
  rpcVerbAt,
  SELECTOR_PARAM,
  segmentsOf,
  tokensOf,
} from "./path-words.js";
import { resourceIndex, unspelledTagRest } from "./resources.js";

/** An operation's first name: its action from what it states, its sub-resource from its path, its telling words. */

/** The action an operation states, and where it says so: summary, operationId, RPC method name, description. */
/** A text that is a path: words, parameters and slashes, no spaces. */
const PATH_LIKE = /^\/?[\w{}.:-]+(?:\/[\w{}.:-]*)+$/;
/** A deprecation note where a description would say what the operation does ("Use v4 instead", "Deprecated (use …)"). */
const DEPRECATION_NOTE = /^(deprecated\b|use\b.*\binstead\b)/i;

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
    // A summary that is the path again (Magento's "order/{orderId}/refund") states no action: "order" is no verb there.
    if (!text || (!exact && PATH_LIKE.test(text.trim()))) continue;
    // It names a verb ("use") that is not the operation's.
    if (from === "description" && DEPRECATION_NOTE.test(text.trim())) continue;
    const words = tokens(text);
    // `PostAccounts`, `PutUser`: an identifier that opens with an HTTP method word was generated from the method.
    if (exact && HTTP_METHOD_WORDS.has(words[0] ?? "")) continue;
    const action = actionOf(words, exact);
    if (action) return { action, from, text };
  }
  return undefined;
}

/**
 * The words that may tell a command apart from others of the same name, most telling first: a selector in the path,
 * the stated action's object, the summary, the operationId, the path's words and parameters, the description.
 */
function qualifiersOf(
  op: Operation,
  stated: ReturnType<typeof statedAction>,
  words: ReturnType<typeof pathWords>["words"],
  segments: readonly string[],
  lastSegment: string,
): Draft["qualifiers"] {
  const textTokensOf = (t?: string) => (t ? textTokens(t) : []);
  const qualifiers: Draft["qualifiers"] = [];
  const push = (tokens: readonly string[], from: NonNullable<NameSource["qualifier"]>["from"]) => {
    for (const token of tokens) if (!qualifiers.some((q) => q.token === token)) qualifiers.push({ token, from });
  };
  // `/boards/{filter}` beside `/boards`: the filtered list.
  if (SELECTOR_PARAM.test(lastSegment)) push([/^\{filters?\}$/i.test(lastSegment) ? "filtered" : "field"], "path");
  // A query written into the path is what tells `/current?lat={lat}&lon={lon}` from `/current?city={city}`.
  push(
    pathQueryKeys(op.path).flatMap((k) => kebab(k).split("-")),
    "path",
  );
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
      .flatMap((s) => kebab(paramName(s)).split("-"))
      .filter((t) => t !== "id"),
    "path",
  );
  push(textTokensOf(op.description ? firstSentence(op.description) : undefined), "description");
  return qualifiers;
}

export function draftName(
  op: Operation,
  resource: string,
  resourceFrom: NameSource["resource"]["from"],
  dropped: string[],
): Draft {
  const { words, rpc } = pathWords(op);
  const segments = segmentsOf(op.path);
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
  if ((lastRest?.last || lastRest?.beforeParam) && pathSaysAction(op, lastRest.word)) {
    // POST …/builds/{id}/erase "Erase build", …/artifacts/keep "Keep the artifacts", /statuses/destroy/{id}
    // "Destroys the status": the path's last word is the action its texts open with, whether or not it is a verb the
    // designer knows, and whatever CRUD it restates.
    action = lastRest.word;
    actionFrom = "path";
    rest = rest.slice(0, -1);
  } else if (stated && !stated.action.family) {
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
    // A verb after a scope (`AdminGetDevice`): the verb is the action, the scope one of its words. A verb only
    // WordNet knows (`AssumeRole`) is the action as it is said.
    const verbAt = rpcVerbAt(tokens);
    const at = actionOf(tokens, true) ? 0 : Math.max(0, verbAt);
    const own: StatedAction | undefined =
      actionOf(tokens.slice(at), true) ??
      (verbAt === at && tokens[at] ? { word: tokens[at]!, object: tokens.slice(at + 1) } : undefined);
    const said = new Set(resource.split("-").flatMap((t) => [t, singular(t)]));
    const object = (own ? [...own.object, ...tokens.slice(0, at)] : tokens).filter(
      (t) => !said.has(t) && !said.has(singular(t)) && !isNoise(t),
    );
    const verb = own
      ? own.word === "list"
        ? "list"
        : own.family
          ? crudWord(op, own.family, lastSegment)
          : own.word
      : crudWord(op, undefined, lastSegment);
    // `getList` lists: its "list" is the verb, not its object.
    action = [verb, ...object.filter((t) => t !== verb)].slice(0, 4).join("-");
    actionFrom = "path";
    rest = [];
  }

  const agreed = agreeWithMethod(op, action, lastSegment, stated?.action.word, resource);
  const agreedWords = agreed?.action.split("-") ?? [];
  const agreedVerb = BATCH_TOO.has(agreedWords[0]!) && agreedWords[1] ? agreedWords[1] : agreedWords[0];
  // A verb that is the resource's own name (`POST /support/echo` → `echo echo`) would say it twice: the name stands,
  // but for a posted read, whose plain read would mislead more than the stutter.
  if (agreed && (agreedVerb !== resource || agreedVerb === POSTED_READ)) {
    // The path word that is now the verb is no sub-resource (`/phone/number/validate` → phone validate-number); a
    // posted read's `request` came from no path, and a path's "request" is its object (`/access-request/info.json`).
    if (agreedVerb !== POSTED_READ)
      rest = rest
        .map((w) => (w.word.endsWith(`-${agreedVerb}`) ? { ...w, word: w.word.slice(0, -agreedVerb!.length - 1) } : w))
        .filter((w) => w.word !== agreedVerb);
    action = agreed.action;
    actionFrom = "method";
    actionReason = agreed.reason;
  }

  const sub = rest
    .map((w) => w.word)
    // A letter names no sub-resource (Discourse's `/t/{id}` for topics, `/u/{username}` for users), nor does the
    // action's own verb (`/admin/users/list/{flag}` lists users: `users list`, not `users list list`).
    .filter(
      (w) => !(w === resource || singular(w) === singular(resource) || /^[a-z]$/.test(w) || w === action.split("-")[0]),
    )
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

/**
 * Whether a write's path ends in the words its summary (or, without one, its description) opens with, a verb first
 * (`reconstruct`, `refuel`, `cherry-pick`; a title such as "Phone playback" names a thing).
 */
function pathSaysAction(op: Operation, word: string): boolean {
  if (op.method !== "post" && op.method !== "put" && op.method !== "patch") return false;
  const said = word.split("-");
  if (BATCH_TOO.has(said[0]!)) return false;
  // Said as the verb ("Erase", "Destroys", "Retweets") by the summary, else the description's first sentence; by the
  // operationId's words whole only where neither says anything (its last part alone, `update_account_state` → state,
  // names no action).
  const text = op.summary ?? (op.description ? firstSentence(op.description) : undefined);
  const opening = text ? textTokens(text) : op.operationId ? operationIdTokens(op.operationId, true) : [];
  if (!said.every((w, i) => opening[i] === w || (i === said.length - 1 && inflected(opening[i], w)))) return false;
  if (verbBase(said[0]!, true)) return true;
  // A word WordNet lists as a verb only, or one an object follows ("Refuel the ship"); "Phone playback", "Equal risk
  // contributions" open with a noun.
  const verb = listed("verb", word) ? word : listed("verb", said[0]!) ? said[0]! : undefined;
  return !!verb && (!listed("noun", verb) || DETERMINERS.has(opening[said.length] ?? ""));
}

/** A verb's third person or past (`destroys`, `retweeted`, `closed`): a description says what the call does so. */
const inflected = (token: string | undefined, verb: string) =>
  !!token && [`${verb}s`, `${verb}es`, `${verb}d`, `${verb}ed`].includes(token);

const DETERMINERS = new Set("a an the this that these those all my your our its their every each one".split(" "));

/** Whether the operation's own words mention a path word (its first six letters, so "availability" ~ "available"). */
function mentions(op: Operation, word: string): boolean {
  const said = [
    ...textTokens(op.summary ?? ""),
    ...(op.operationId ? operationIdTokens(op.operationId) : []),
    ...textTokens(op.description ? firstSentence(op.description) : ""),
  ];
  return word.split("-").some((w) => said.some((s) => s.slice(0, 6) === w.slice(0, 6)));
}
