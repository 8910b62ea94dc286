import { FILLER, isNoise } from "../verbs.js";
import { kebab, singular } from "../word-forms.js";
import { POSTED_READ, READ_VERBS, WRITE_VERBS } from "../../../core/verbs.js";
import { onItem, type Draft } from "./draft.js";
import { isParam, paramName, segmentsOf, tokensOf } from "./path-words.js";

/** Which of a draft's words can tell it apart from others wanting its name, and which draft keeps the plain name. */

/** Tokens of a draft's qualifiers that can tell it apart: not noise, not filler, not already in its name. */
export function distinguishing(d: Draft, path: string[]): Draft["qualifiers"] {
  return telling(d, path).filter((q) => !FILLER.has(q.token) && q.token !== "user" && q.token !== "users");
}

/**
 * Words that can tell a command apart at all: whole words (no camelCase pieces), not said in the name already, not
 * noise except "all" (`delete-all` beside `delete`), never a CRUD or read verb (`get-list` says "get" twice).
 */
export function telling(d: Draft, path: string[]): Draft["qualifiers"] {
  const said = new Set(tokensOf(path).flatMap((t) => [t, singular(t)]));
  // After a CRUD action, "list" or "update" would say the kind of operation twice (`get-list`); after `follow`,
  // "list" is a noun ("Follow a list of users"). A word that opens with the verb says it twice too
  // (`update-updatewebhooks`).
  const verb = path[path.length - 1]!.split("-")[0]!;
  // A posted read's `request` (the method's word, not its texts') is a CRUD word too: `request-get` would put the
  // read back.
  const crud = READ_VERBS.has(verb) || WRITE_VERBS.has(verb) || (verb === POSTED_READ && d.actionFrom === "method");
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
export const restatesVerb = (token: string, verb: string) =>
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
export const saysNothing = (q: { token: string; from: string }) =>
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

/**
 * When every operation of a group has words of its own, the one the plain verb means keeps the plain name: an item's
 * (`droplets delete` by id beside `delete-tag`) for a verb that acts on one, the collection's for `list` and `create`.
 * -1 when that does not pick exactly one.
 */
export function canonical(group: Draft[], path: string[]): number {
  const verb = path[path.length - 1]!;
  const itemVerb = ["get", "update", "replace", "delete"].includes(verb);
  if (!itemVerb && verb !== "list" && verb !== "create") return -1;
  const fits = group.flatMap((d, i) => (onItem(d) === itemVerb ? [i] : []));
  if (fits.length === 1) return fits[0]!;
  // Items by several keys (`/Contacts/{ContactID}` beside `/Contacts/{ContactNumber}`): the one by its id.
  const byId = fits.filter((i) => isIdParam(segmentsOf(group[i]!.op.path).at(-1) ?? "", path[0]!));
  return byId.length === 1 ? byId[0]! : -1;
}

/** Whether a path parameter is the resource's own id: `{id}`, `{contact_id}`, `{ContactID}` under `contacts`. */
function isIdParam(segment: string, resource: string): boolean {
  if (!isParam(segment)) return false;
  const name = kebab(paramName(segment));
  const own = singular(resource.split("-").pop() ?? "");
  return name === "id" || name === `${own}-id` || name === `${resource}-id`;
}
