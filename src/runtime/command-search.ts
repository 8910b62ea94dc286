/**
 * Ranked full-text search over a CLI's commands, for the MCP server's dynamic toolset (docs/generated-cli.md, "MCP
 * server"). MiniSearch does the indexing and BM25 ranking: it is small, has no dependencies, serializes its index as
 * JSON (emit writes it into the package, so a search costs no indexing at start), and takes per-field boosts and
 * prefix and fuzzy matching. What is ours is the text: command words, summaries, descriptions, the group's name and
 * description (the document's tag), the operation id and path, parameter names — cut at camelCase and punctuation,
 * reduced by a light English stemmer, and, in queries, verbs the way agents say them mapped to the verbs commands
 * are named with (schedule → create, register → add, move → update, remove → delete …).
 */
import MiniSearch from "minisearch";
import type { Command, Group } from "./manifest.js";

/** Where emit writes the serialized index inside the package. */
export const SEARCH_INDEX_FILE = "mcp/search-index.json";

const FIELDS = ["words", "summary", "details", "tags", "operation", "params"] as const;
type Field = (typeof FIELDS)[number];
/** Command words weigh most, then the summary; the long description, tag and parameters only break ties. */
const BOOST: Record<Field, number> = { words: 4, summary: 2, operation: 1, tags: 1, details: 0.4, params: 0.3 };

const STOP = new Set(["a", "an", "the", "to", "of", "for", "in", "on", "at", "with", "by", "from", "into", "and", "or", "is", "are", "be", "it", "its", "this", "that", "my", "our", "your", "me", "i", "we", "you", "please", "how", "do", "can", "which", "what", "some", "api", "v1", "v2", "v3"]);

/**
 * Words agents use for what commands call otherwise, as the raw words (before stemming). Each maps to the verbs the
 * designer names commands with; the word itself is searched too, at full weight, and the mapped verbs below it.
 */
const SYNONYMS: Record<string, string[]> = {
  schedule: ["create"], book: ["create"], make: ["create"], new: ["create"], open: ["create"], post: ["create"], submit: ["create"], generate: ["create"], insert: ["create", "add"], start: ["create"], send: ["create", "send"], upload: ["create", "upload"], issue: ["create"], set: ["update", "set"],
  create: ["add"], add: ["create"],
  register: ["add", "create", "registrant"], enrol: ["add", "create"], enroll: ["add", "create"], invite: ["add", "create", "invitation"], subscribe: ["add", "create", "subscription"], join: ["add"], attach: ["add"], assign: ["add", "update"], grant: ["add", "create"], follow: ["add"],
  move: ["update"], change: ["update"], edit: ["update"], modify: ["update"], rename: ["update"], reschedule: ["update"], patch: ["update"], replace: ["update", "replace"], archive: ["update", "archive"], close: ["update", "close"], update: ["edit"], mark: ["update"], toggle: ["update"], enable: ["update"], disable: ["update"],
  remove: ["delete"], delete: ["remove"], cancel: ["delete", "cancel"], destroy: ["delete"], erase: ["delete"], drop: ["delete"], unregister: ["delete", "remove"], unsubscribe: ["delete", "remove"], detach: ["remove", "delete"], revoke: ["delete"], kick: ["remove"], unassign: ["remove", "delete"],
  show: ["get"], fetch: ["get"], view: ["get"], read: ["get"], retrieve: ["get"], lookup: ["get"], see: ["get"], detail: ["get"], details: ["get"], info: ["get"], describe: ["get"], check: ["get"], inspect: ["get"],
  find: ["list", "search", "get"], all: ["list"], browse: ["list"], every: ["list"], enumerate: ["list"], search: ["list", "search"], query: ["list", "search"], which: ["list"],
};
/** How much a mapped verb weighs against a word the agent typed. */
const SYNONYM_BOOST = 0.6;

/** Words of a text: split at punctuation and camelCase (`getMeetingById` → get, meeting, by, id), lower-cased. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A light English stemmer: plurals and -ing/-ed/-e endings, so "meetings", "scheduling", "scheduled" and "schedule"
 * meet. Light on purpose: names of things (status, address, business) must keep their ends.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is|ys)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}

const indexTerm = (term: string) => (STOP.has(term) ? null : stem(term));

const OPTIONS = {
  fields: [...FIELDS],
  idField: "id",
  tokenize,
  processTerm: indexTerm,
};

interface Doc extends Record<Field, string> {
  id: string;
}

function docOf(command: Command, groups: ReadonlyMap<string, string>): Doc {
  const group = command.path[0]!;
  return {
    id: command.name,
    words: command.path.join(" "),
    summary: command.description,
    details: command.details ?? "",
    tags: `${group} ${groups.get(group) ?? ""}`,
    operation: `${command.operation.operationId ?? ""} ${command.operation.path.replace(/\{[^}]*\}/g, " ")}`,
    params: command.flags.map((f) => f.flag).join(" "),
  };
}

/** The index of a CLI's visible commands: built by emit, serialized with JSON.stringify. */
export function indexCommands(commands: readonly Command[], groups: readonly Pick<Group, "name" | "description">[]): MiniSearch<Doc> {
  const described = new Map(groups.map((g) => [g.name, g.description]));
  const index = new MiniSearch<Doc>(OPTIONS);
  index.addAll(commands.filter((c) => !c.hidden).map((c) => docOf(c, described)));
  return index;
}

/** An index emit serialized (SEARCH_INDEX_FILE). */
export const loadIndex = (json: string): MiniSearch<Doc> => MiniSearch.loadJSON<Doc>(json, OPTIONS);

/** A query's terms: each word stemmed at full weight, the verbs it stands for below it. */
function queryTerms(query: string): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (term: string, weight: number) => {
    if (!STOP.has(term)) terms.set(stem(term), Math.max(terms.get(stem(term)) ?? 0, weight));
  };
  for (const word of tokenize(query)) {
    add(word, 1);
    for (const synonym of SYNONYMS[word] ?? []) add(synonym, SYNONYM_BOOST);
  }
  return terms;
}

/** The names of the commands that best match the query, best first. */
export function searchIndex(index: MiniSearch<Doc>, query: string): string[] {
  const terms = queryTerms(query);
  if (!terms.size) return [];
  const results = index.search([...terms.keys()].join(" "), {
    // The terms are ours already: split, stemmed and weighted above.
    tokenize: (text) => text.split(" "),
    processTerm: (term) => term,
    boost: BOOST,
    boostTerm: (term) => terms.get(term) ?? 1,
    prefix: (term) => term.length >= 4,
    fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
    weights: { prefix: 0.3, fuzzy: 0.1 },
    combineWith: "OR",
  });
  return results.map((r) => String(r.id));
}
