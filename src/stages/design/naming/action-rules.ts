import type { Operation } from "../../openapi/model.js";
import { firstSentence, operationIdTokens, textTokens, verbBase } from "../verbs.js";
import { HTTP_METHOD_WORDS, PLAIN_READS, POSTED_READ, READ_VERBS, WRITE_VERBS } from "../../../core/verbs.js";
import { senses } from "../../wordnet.js";
import { answers, BATCH_TOO, crudWord, leadingWord, readWord } from "./crud-word.js";
import { awsRpcMethod, FORMAT_SUFFIX, isParam, rpcVerbAt } from "./path-words.js";

/** What an action rule reads: the operation, its action's verb and the verb its texts state. */
interface ActionCase {
  op: Operation;
  verb: string;
  /** Where the verb stands in the action: 1 after a leading `bulk` or `batch` (`bulk-get`), else 0. */
  at: number;
  lastSegment: string;
  /** The verb the operation's texts state, if they state one. */
  stated: string | undefined;
  /** The resource the name is of: a call named by it (`POST /echo`) would say it twice. */
  resource: string | undefined;
}

/** One correction of an action against its method. */
interface ActionRule {
  name: string;
  /** The verb the action takes instead, or undefined where the rule does not apply. */
  word: (c: ActionCase) => string | undefined;
  /** Why, as the name's source says it (`action.reason`). */
  reason: (c: ActionCase, word: string) => string;
}

/** Verbs that bring something into being: a DELETE that says one was described by copy and paste. */
const MAKING = new Set(["create", "add", "make", "insert", "generate"]);

const WRITE_METHODS = new Set<Operation["method"]>(["post", "put", "patch"]);

/**
 * The call a path ends in: its last segment's last part after `#`, `=`, `.` or `:`, without a format
 * (`/#X-Amz-Target=…GetItem`, `/clusters/{c}/listKeys`, `…:search`, `/exports/list.json` → list); none after an id.
 */
function endingCall(path: string): string {
  const last = path.replace(FORMAT_SUFFIX, "").split("/").pop() ?? "";
  return isParam(last) ? "" : (last.split(/[#=.:]/).pop() ?? "");
}

/** A verb that names a read: `obtain` says what the caller receives, `check` reads. */
const readVerb = (verb: string | undefined) =>
  !!verb && verb !== "obtain" && (READ_VERBS.has(verb) || verb === "check");

/**
 * Whether the document names a write-method call a read: the first verb of its operationId or of the call its path
 * ends in is a read verb. A summary's "Get a token" over POST is no such word: a summary says what the caller
 * receives, the method what the call does.
 */
function documentSaysRead(op: Operation, verb: string): boolean {
  // An AWS method's verb may follow a scope (`AdminGetDevice`), as the designer reads it for the name (path-words.ts):
  // where that is the name's verb, the method says it.
  const aws = awsRpcMethod(op.path);
  const awsTokens = aws ? operationIdTokens(aws, true) : [];
  return (
    (readVerb(verb) && awsTokens[rpcVerbAt(awsTokens)] === verb) ||
    [op.operationId ?? "", endingCall(op.path)].some((text) => readVerb(verbBase(leadingWord(text, BATCH_TOO) ?? "")))
  );
}

/**
 * The action the call a write-method path ends in opens with, when it is no read (`…/regenerateApiKeys` under an
 * operationId `…_ListRegenerateApiKeys`): what the call does, whatever its texts call the answer.
 */
function pathWrite(op: Operation): string | undefined {
  // A method's name of several words (`regenerateApiKeys`, `on-confirm`); one word alone is as often a noun
  // (`/returns`, `/matches`, `/block`).
  const words = operationIdTokens(endingCall(op.path), true).filter((t) => !BATCH_TOO.has(t));
  const verb = words.length > 1 ? verbBase(words[0]!, true) : undefined;
  if (!verb || readVerb(verb) || verb === "obtain") return undefined;
  // As often a compound noun (`backupStatus`, `downloadUrl`, `orderImpact`): only a verb the texts open with too.
  const said = [op.summary, op.description && firstSentence(op.description)].map((t) =>
    verbBase(textTokens(t ?? "")[0] ?? ""),
  );
  return said.includes(verb) ? verb : undefined;
}

/**
 * The verb a POST's own call opens with — its operationId's words, else the call its path ends in — where that is no
 * read: `analyse-message-credit-cost`, `calculate_rates`, `/auth/login`, `/transactions/sync`. A call of one word is
 * named by it where it is a verb the designer knows or WordNet's only sense of it is a verb; in a call of several words, a first word WordNet gives more senses
 * as a noun or an adjective (`order_impact`, `live_session_token`) is its object, not its action, unless the texts open
 * with it.
 */
function ownCallVerb(op: Operation): string | undefined {
  // `#overload=stream` tells one of a path's bodies from another: no call.
  const calls = [op.operationId ?? "", endingCall(op.path.replace(/#overload=.*$/, ""))];
  const said = [op.summary, op.description && firstSentence(op.description)].map((t) =>
    verbBase(textTokens(t ?? "")[0] ?? ""),
  );
  for (const [i, call] of calls.entries()) {
    const words = operationIdTokens(call, true).filter((t) => !HTTP_METHOD_WORDS.has(t));
    const first = words[0];
    // Where an operationId names the call, a path's last words are its object (`policyCheck…` at `…/createUser`).
    if (!first || (i === 1 && words.length > 1 && op.operationId)) continue;
    const known = verbBase(first, true);
    // Mostly a verb: more senses as one than as a noun, and none as an adjective (`compare`, `calculate`; not `order`,
    // `live`, `free`).
    const [verbSenses, nounSenses, adjSenses] = (["verb", "noun", "adj"] as const).map((pos) => senses(pos, first));
    const mostlyVerb = verbSenses! > nounSenses! && adjSenses === 0;
    const onlyVerb = verbSenses! > 0 && nounSenses! + adjSenses! === 0;
    const verb =
      words.length === 1
        ? (known ?? (onlyVerb ? first : undefined))
        : mostlyVerb
          ? first
          : said.includes(known)
            ? known
            : undefined;
    if (verb) return readVerb(verb) || PLAIN_READS.has(verb) ? undefined : verb;
  }
  return undefined;
}

/**
 * The write its operationId names (`createCreditNoteHistory`, `CREATE_IdealMerchantTransaction_for_User` → create),
 * where a summary says otherwise.
 */
function operationIdWrite(op: Operation): string | undefined {
  // A verb in capitals before the rest (`CREATE_…`) is the call's own; another prefix names a service (`Accounts_…`).
  const capital = /^([A-Z]{2,})_/.exec(op.operationId ?? "")?.[1];
  const verb = capital ? verbBase(capital, true) : verbBase(leadingWord(op.operationId ?? "") ?? "");
  return verb && WRITE_VERBS.has(verb) ? verb : undefined;
}

/**
 * Whether a POST's summary names it a read ("Get the backup status"): with its operationId and path, the texts that
 * name a call. A description that opens with a read only says what is answered.
 */
function summarySaysRead(op: Operation): boolean {
  const tokens = textTokens(op.summary ?? "");
  const verb = verbBase((BATCH_TOO.has(tokens[0] ?? "") ? tokens[1] : tokens[0]) ?? "");
  return readVerb(verb) || verb === "return";
}

/** A read its answer's schema contradicts: one item where it says `list`, a list where it says `get`. */
const answered = ({ op, verb }: ActionCase, word: string) =>
  `the schema of ${op.method.toUpperCase()} ${op.path}'s answer is ${word === "get" ? "one item" : "a list"}: "${word}", not "${verb}"`;

/** A verb the method cannot do: `because` says what the method does instead. */
const cannot = ({ op, verb }: ActionCase, because: string) =>
  `${op.method.toUpperCase()} ${op.path} cannot ${verb}: ${because}, so the action is its CRUD word`;

/**
 * The action agrees with the method's effect (docs/naming.md): a DELETE is never named as a read or a making, a GET
 * never as a write. A PUT or PATCH is never a plain read (`get`, `list`), nor a POST whose operationId names a write
 * (`createCreditNoteHistory` under a summary copied from its GET), unless the document names the call a read itself
 * (its operationId or the RPC method its path ends in: `ListFindings` over POST, `/listKeys`). A POST the document only
 * says reads takes the verb its texts state where that is no plain read ("Query diagnostic engine" → `query`, "Obtain
 * a token" → `obtain-token`), or its own call's verb, keeps a read its summary states ("Get a list of available
 * payment methods", its query in the body), else is a `request` (POSTED_READ): a read would say it changes nothing,
 * `create` that it makes something. A verb that reads both ways is decided by the method: "Return a lent copy" on a DELETE
 * ends the loan (`return`), "Returns the user" on a GET reads; "Sets" on a GET names a set of things.
 *
 * In order: the first rule that gives a word corrects the action.
 */
export const ACTION_RULES: readonly ActionRule[] = [
  {
    name: "delete-says-return",
    word: ({ op, verb, stated }) =>
      op.method === "delete" && stated === "return" && verb !== "return" ? "return" : undefined,
    reason: ({ op }) => `DELETE ${op.path} says "return": on a DELETE it ends something, it does not read`,
  },
  {
    name: "delete-never-reads-or-makes",
    word: ({ op, verb }) =>
      op.method === "delete" && (READ_VERBS.has(verb) || MAKING.has(verb)) ? "delete" : undefined,
    reason: (c) => cannot(c, "a DELETE removes"),
  },
  {
    name: "get-never-writes",
    word: ({ op, verb, lastSegment }) =>
      op.method === "get" && WRITE_VERBS.has(verb) ? readWord(op, lastSegment) : undefined,
    reason: (c) => cannot(c, "a GET only reads"),
  },
  {
    name: "get-list-answering-one",
    word: ({ op, verb }) => (op.method === "get" && verb === "list" && answers(op) === "one" ? "get" : undefined),
    reason: answered,
  },
  {
    name: "get-answering-many",
    word: ({ op, verb, at }) =>
      op.method === "get" && verb === "get" && at === 0 && answers(op) === "many" ? "list" : undefined,
    reason: answered,
  },
  {
    name: "write-named-by-its-path",
    word: ({ op, verb }) => (WRITE_METHODS.has(op.method) && PLAIN_READS.has(verb) ? pathWrite(op) : undefined),
    reason: ({ op, verb }, word) =>
      `${op.method.toUpperCase()} ${op.path} ends in the call it makes ("${word}"): it does that, it does not ${verb}`,
  },
  {
    name: "write-never-plain-read",
    word: ({ op, verb, lastSegment }) =>
      WRITE_METHODS.has(op.method) && PLAIN_READS.has(verb) && !documentSaysRead(op, verb)
        ? (operationIdWrite(op) ?? (op.method === "post" ? undefined : crudWord(op, undefined, lastSegment)))
        : undefined,
    reason: (c) => cannot(c, `a ${c.op.method.toUpperCase()} writes and its document never names it a read`),
  },
  {
    name: "post-named-by-its-stated-verb",
    word: ({ op, verb, stated }) => {
      if (op.method !== "post" || !PLAIN_READS.has(verb) || documentSaysRead(op, verb)) return undefined;
      const own = stated && verbBase(stated);
      // "Returns …" says what the caller receives, like "Gets"; "Queries", "Obtains", "Describes" say what it does.
      return own && !PLAIN_READS.has(own) && own !== "return" ? own : undefined;
    },
    reason: ({ op, verb }, word) =>
      `POST ${op.path} is no read by its operationId or path, and its texts say "${word}": it does that, it does not ${verb}`,
  },
  {
    name: "post-named-by-its-own-call",
    word: ({ op, verb, resource }) => {
      if (op.method !== "post" || !PLAIN_READS.has(verb) || documentSaysRead(op, verb)) return undefined;
      const own = ownCallVerb(op);
      return own === resource ? undefined : own;
    },
    reason: ({ op, verb }, word) =>
      `POST ${op.path} is the call "${word}" by its own name: it does that, it does not ${verb}`,
  },
  {
    name: "post-read-only-by-its-description",
    word: ({ op, verb }) =>
      op.method === "post" && PLAIN_READS.has(verb) && !documentSaysRead(op, verb) && !summarySaysRead(op)
        ? POSTED_READ
        : undefined,
    reason: ({ op, verb, stated }) =>
      `POST ${op.path} is no read by its operationId, path or summary, only its description says "${stated ?? verb}": a request made by posting, which may make what it answers`,
  },
];

/** The action with its verb corrected by the first of ACTION_RULES that gives a word, and why; undefined if it agrees. */
export function agreeWithMethod(
  op: Operation,
  action: string,
  lastSegment: string,
  stated: string | undefined,
  resource?: string,
): { action: string; reason: string } | undefined {
  const tokens = action.split("-");
  const at = tokens[0] === "bulk" || tokens[0] === "batch" ? 1 : 0;
  const c: ActionCase = { op, verb: tokens[at] ?? "", at, lastSegment, stated, resource };
  for (const rule of ACTION_RULES) {
    const word = rule.word(c);
    if (!word) continue;
    // The verb said once: `validate-number-validate` is `validate-number`. A posted read's `request` is no verb the
    // texts said: a "request" among its words is its object (`access-request`).
    const rest = tokens.slice(at + 1).filter((t) => t !== word || word === POSTED_READ);
    const next = [...tokens.slice(0, at), word, ...rest].filter((t, i, all) => t !== all[i - 1]);
    return { action: next.join("-"), reason: rule.reason(c, word) };
  }
  return undefined;
}
