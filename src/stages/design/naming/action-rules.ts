import type { Operation } from "../../openapi/model.js";
import { verbBase } from "../verbs.js";
import { PLAIN_READS, READ_VERBS, WRITE_VERBS } from "../../../core/verbs.js";
import { answers, BATCH_TOO, crudWord, leadingWord, readWord } from "./crud-word.js";

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
export function agreeWithMethod(
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
