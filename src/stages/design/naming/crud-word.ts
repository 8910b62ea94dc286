import type { Operation } from "../../openapi/model.js";
import { BATCH_WORDS, operationIdTokens, type StatedAction } from "../verbs.js";
import { kebab, singular } from "../word-forms.js";
import { HTTP_METHOD_WORDS } from "../../../core/verbs.js";
import { isParam, paramName, segmentsOf, SELECTOR_PARAM } from "./path-words.js";

/** The CRUD word of an operation from what it does: its method, its path's shape and what it answers with. */

/**
 * The response an operation answers with when it succeeds: the first 2xx, else the `2XX` range (Microsoft Graph
 * declares only that), else `default`. A code says more than its range (OpenAPI's Responses Object).
 */
export function successResponse(op: Operation) {
  return (
    op.responses.find((r) => /^2\d\d$/.test(r.status)) ??
    op.responses.find((r) => /^2XX$/i.test(r.status)) ??
    op.responses.find((r) => r.status === "default")
  );
}

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

/** The last word of a parameter that names one item: `{id}`, `{ContactNumber}`, `{username}`, `{slug}`. */
const NAMES_ONE = /^(id|ids|uuid|guid|sid|key|number|no|code|name|slug|username|email|handle|login|ref|hash|sha)$/;

/** One item or many: what a read operation returns, from its path and response shape. */
export function readWord(op: Operation, lastSegment: string): "get" | "list" {
  const shape = successResponse(op);
  if (shape?.shape === "array") return "list";
  // A read over another method (`POST /service_points/list`, "List Service Points"): its path is no collection or
  // item, so its answer and its own words decide.
  if (op.method !== "get") return shape?.listField || saysList(op, lastSegment) ? "list" : "get";
  const segments = segmentsOf(op.path);
  // `/boards/{filter}` lists the boards a filter picks; `/cards/{id}/{field}` gets one field of one card.
  if (SELECTOR_PARAM.test(lastSegment)) return /^\{fields?\}$/i.test(lastSegment) ? "get" : "list";
  // One item by its id, however the answer wraps it (Xero answers GET /Contacts/{ContactNumber} with `{Contacts: [it]}`).
  // A parameter that picks rather than names (`/reports/{entity_type}`, `/mostviewed/{section}/{time-period}`), or a key
  // after another parameter (`/segments/{projectKey}/{environmentKey}`), leaves it to the answer.
  if (isParam(lastSegment)) {
    const last = kebab(paramName(lastSegment)).split("-").pop()!;
    const picks = !NAMES_ONE.test(last) || (last !== "id" && isParam(segments[segments.length - 2] ?? ""));
    return shape?.listField && picks ? "list" : "get";
  }
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
export function answers(op: Operation): "many" | "one" | undefined {
  const shape = successResponse(op);
  if (shape?.shape === "array") return "many";
  if (shape?.shape !== "object") return undefined;
  // A wrapper answered for one id (`GET /countries/{id}` as `{meta, results: [it]}`) may hold the one item.
  if (shape.listField)
    return !isParam(segmentsOf(op.path).at(-1) ?? "") &&
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
export const BATCH_TOO = new Set([...HTTP_METHOD_WORDS, ...BATCH_WORDS]);
export const leadingWord = (text: string, skipped: ReadonlySet<string> = HTTP_METHOD_WORDS) =>
  operationIdTokens(text).find((t) => !skipped.has(t));

/** A summary that says it answers a list: "Get the list of …", "Returns all …". */
const LIST_SAID = /(list of|lists of|all (the )?[a-z]+s)/i;

const PAGING_PARAMS =
  /^(limit|offset|page|page_?size|per_?page|page_?token|cursor|starting_after|max_?results|top|skip)$/i;

/** The CRUD word of a resource-shaped operation: its method and whether it acts on one item or the collection. */
export function crudWord(op: Operation, family: StatedAction["family"] | undefined, lastSegment: string): string {
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
