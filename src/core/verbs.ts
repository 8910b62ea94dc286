/**
 * The verb table: which words of a command's name read, which write and which destroy. One table for the designer
 * (src/stages/design/), the inspection's judgement of names (src/stages/inspect/misleading-names.ts) and the naming
 * checker of the tests, so the rule a name is made by and the rule it is judged by say the same words.
 */

/**
 * Verbs that only read and verbs that only write, for the rule that an action agrees with its method
 * (docs/naming.md, "The action agrees with the method"): a DELETE is never named with a read verb, a GET never with a
 * write verb. "return" and "check" are in neither: the method decides what they mean.
 */
export const READ_VERBS: ReadonlySet<string> = new Set([
  "get",
  "list",
  "show",
  "read",
  "view",
  "fetch",
  "retrieve",
  "find",
  "search",
  "describe",
  "query",
  "lookup",
  "obtain",
  "enumerate",
  "browse",
]);
export const WRITE_VERBS: ReadonlySet<string> = new Set([
  "create",
  "add",
  "update",
  "replace",
  "modify",
  "edit",
  "patch",
  "delete",
  "remove",
  "insert",
  "erase",
  "destroy",
  "overwrite",
  "upsert",
  "make",
  "set",
]);

/** HTTP method words: never a command's word (a POST is not an action a user asks for). */
export const HTTP_METHOD_WORDS: ReadonlySet<string> = new Set(["post", "put", "patch", "head", "options", "trace"]);
/**
 * The method words that say nothing in a name (`postUsers`, a tag "PUT"). Not "options": descriptions use it for things
 * (Jumpseller's "Product Options", EC2's DHCP options, Jira's "Issue custom field options"), hardly ever for the method.
 */
export const NOISE_METHOD_WORDS: ReadonlySet<string> = new Set([...HTTP_METHOD_WORDS].filter((w) => w !== "options"));

/**
 * The verb of a POST only its description says reads (docs/naming.md, "The action agrees with the method"): a request
 * of what it answers, which may make it. The method gives it, like `create`; search counts it a read.
 */
export const POSTED_READ = "request";

/**
 * Whether an action named POSTED_READ is one (a read posted: its text opens with another verb, "Get the information
 * for …"), not a request its text states ("Requests an additional dedicated IP", "Request a refund"), which writes.
 */
export function isPostedRead(action: string, text: string | undefined): boolean {
  const words = action.split("-");
  const verb = words[0] === "bulk" || words[0] === "batch" ? words[1] : words[0];
  return verb === POSTED_READ && !/^\W*request(s|ed|ing)?\b/i.test(text ?? "");
}

/** The read verbs a name on a write method may carry only where the document itself names the call a read. */
export const PLAIN_READS: ReadonlySet<string> = new Set(["get", "list", "show", "read", "view", "fetch", "retrieve"]);

/**
 * Words of actions that destroy, undo or take back (docs/generated-cli.md, "Safety"): a command whose action says
 * one — in its name, or as the verb its summary opens with — is destructive in any method (needs `--yes`; MCP's
 * `destructiveHint` and call_destructive), as is every DELETE. A document overrides it per operation with
 * `x-cli-destructive: true|false`.
 */
export const DESTRUCTIVE_WORDS: ReadonlySet<string> = new Set([
  "cancel",
  "revoke",
  "purge",
  "destroy",
  "remove",
  "reset",
  "terminate",
  "archive",
  "disable",
  "void",
  "wipe",
  "erase",
  "refund",
]);
