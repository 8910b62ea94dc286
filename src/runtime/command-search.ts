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
import { memoized } from "../core/memo.js";
import type { Command, Group } from "./manifest.js";
import { compareText } from "../core/text-order.js";

/** Where emit writes the serialized index inside the package. */
export const SEARCH_INDEX_FILE = "mcp/search-index.json";

const FIELDS = ["words", "summary", "details", "tags", "operation", "params"] as const;
type Field = (typeof FIELDS)[number];
/** Command words weigh most, then the summary; the long description, tag and parameters only break ties. */
const BOOST: Record<Field, number> = { words: 4, summary: 2, operation: 1, tags: 1, details: 0.4, params: 0.3 };

const STOP = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "for",
  "in",
  "on",
  "at",
  "with",
  "by",
  "from",
  "into",
  "and",
  "or",
  "is",
  "are",
  "be",
  "it",
  "its",
  "this",
  "that",
  "my",
  "our",
  "your",
  "me",
  "i",
  "we",
  "you",
  "please",
  "how",
  "do",
  "can",
  "which",
  "what",
  "some",
  "api",
  "v1",
  "v2",
  "v3",
]);

/**
 * Words agents use for what commands call otherwise, as the raw words (before stemming): each stands for the verbs
 * the designer names commands with. A word and its alternatives are one word of the query — a command that says any
 * of them matches it (the word itself weighs most) — so "cancel a subscription" finds `subscriptions delete`.
 */
const SYNONYMS: Record<string, string[]> = {
  schedule: ["create"],
  book: ["create", "booking"],
  make: ["create"],
  new: ["create"],
  open: ["create"],
  post: ["create"],
  submit: ["create"],
  generate: ["create"],
  insert: ["create", "add"],
  start: ["create"],
  send: ["create"],
  upload: ["create"],
  issue: ["create"],
  set: ["update"],
  create: ["add"],
  add: ["create"],
  register: ["registrant", "registration", "add"],
  enrol: ["enrollment", "registrant", "add"],
  enroll: ["enrollment", "registrant", "add"],
  invite: ["invitation", "add"],
  subscribe: ["subscription", "add"],
  join: ["add"],
  attach: ["attachment", "add"],
  assign: ["assignee", "assignment", "add", "update"],
  grant: ["add"],
  follow: ["follower", "add"],
  move: ["update"],
  change: ["update"],
  edit: ["update"],
  modify: ["update"],
  rename: ["update"],
  reschedule: ["update"],
  patch: ["update"],
  replace: ["update"],
  archive: ["close", "update"],
  close: ["update"],
  update: ["edit", "set"],
  mark: ["update"],
  toggle: ["update"],
  enable: ["update"],
  disable: ["update"],
  remove: ["delete"],
  delete: ["remove"],
  cancel: ["delete"],
  destroy: ["delete"],
  erase: ["delete"],
  drop: ["delete"],
  unregister: ["delete", "remove"],
  unsubscribe: ["delete", "remove"],
  detach: ["remove", "delete"],
  revoke: ["delete"],
  kick: ["remove"],
  unassign: ["remove", "delete"],
  show: ["get"],
  fetch: ["get"],
  view: ["get"],
  read: ["get"],
  retrieve: ["get"],
  lookup: ["get"],
  see: ["get"],
  detail: ["get"],
  details: ["get"],
  info: ["get"],
  describe: ["get"],
  check: ["get"],
  inspect: ["get"],
  find: ["list", "search", "get"],
  all: ["list"],
  browse: ["list"],
  every: ["list"],
  enumerate: ["list"],
  search: ["list"],
  query: ["list", "search"],
  which: ["list"],
};

/**
 * What a word implies beside itself: "comment on an issue" names the comment and asks to create one; "register for a
 * webinar" names the registrant and asks to add one. These add to a command's score when it says them, without
 * counting as words of the query the command must match.
 */
const IMPLIED: Record<string, string[]> = {
  comment: ["create", "add"],
  reply: ["create", "add"],
  register: ["add", "create"],
  enrol: ["add", "create"],
  enroll: ["add", "create"],
  invite: ["add"],
  subscribe: ["add", "create"],
  attach: ["add", "create"],
  upload: ["add"],
  tag: ["add"],
  label: ["add"],
  pin: ["add"],
  bookmark: ["add"],
  react: ["add"],
  star: ["add"],
  rename: ["name"],
  assign: ["add"],
  follow: ["add"],
  book: ["create"],
  schedule: ["create"],
};

/**
 * Short forms and their long ones, compared after stemming: "repos" and "repository" are one word to search. Both the
 * index and the query use the long form.
 */
const SHORT: Record<string, string> = {
  repo: "repository",
  org: "organization",
  app: "application",
  config: "configuration",
  info: "information",
  msg: "message",
  env: "environment",
  dir: "directory",
  doc: "document",
  spec: "specification",
  stat: "statistic",
  auth: "authentication",
  admin: "administrator",
  pr: "pull",
};
const normal = (word: string) => {
  const stemmed = stem(word);
  return SHORT[stemmed] ? stem(SHORT[stemmed]) : stemmed;
};

/** How much a mapped verb weighs against a word the agent typed. */
const SYNONYM_BOOST = 0.6;
/** How much less each next word of a query weighs. */
const POSITION_DECAY = 0.15;

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
function stem(word: string): string {
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

/**
 * A word as the index keeps it. Commands say the same few thousand words again and again (Graph beta's 22,000 say
 * `select`, `expand` and `top` in every list's flags), so each word's answer is worked out once per process.
 */
const indexTerm = memoized((term: string): string | null => (STOP.has(term) ? null : normal(term)));

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
export function indexCommands(
  commands: readonly Command[],
  groups: readonly Pick<Group, "name" | "description">[],
  // Told now and then how many of the visible commands are indexed so far (emit's worker reports it to the one
  // waiting for it: stages/emit/search-index.ts).
  onIndexed?: (done: number) => void,
): MiniSearch<Doc> {
  const described = new Map(groups.map((g) => [g.name, g.description]));
  const index = new MiniSearch<Doc>(OPTIONS);
  const docs = commands.filter((c) => !c.hidden).map((c) => docOf(c, described));
  if (!onIndexed) index.addAll(docs);
  else
    for (let i = 0; i < docs.length; i++) {
      index.add(docs[i]!);
      if (i % 256 === 255) onIndexed(i + 1);
    }
  return index;
}

/** An index emit serialized (SEARCH_INDEX_FILE). */
export const loadIndex = (json: string): MiniSearch<Doc> => MiniSearch.loadJSON<Doc>(json, OPTIONS);

interface QueryWord {
  terms: Map<string, number>;
  /** Whether a command must say it to count as matching the word (the share of words matched scales the score). */
  counts: boolean;
}

/**
 * A query's words, each with the terms it stands for: itself (stemmed) at full weight, its alternatives below it, and
 * what it implies as a word of its own that does not count. Agents ask verb first, then the thing, then where or how
 * ("move card to list"): each later word weighs a little less.
 */
function queryWords(query: string): QueryWord[] {
  const words = [...new Set(tokenize(query).filter((w) => !STOP.has(w)))];
  const seen = new Set<string>();
  return words.flatMap((word, i): QueryWord[] => {
    const weight = 1 / (1 + POSITION_DECAY * i);
    const key = normal(word);
    // A word said twice, or in two forms ("meeting meetings"), counts once.
    if (seen.has(key)) return [];
    seen.add(key);
    const terms = new Map<string, number>([[key, weight]]);
    for (const synonym of SYNONYMS[word] ?? [])
      if (!terms.has(normal(synonym))) terms.set(normal(synonym), SYNONYM_BOOST * weight);
    const implied = new Map((IMPLIED[word] ?? []).map((v) => [normal(v), SYNONYM_BOOST * weight] as const));
    return [{ terms, counts: true }, ...(implied.size ? [{ terms: implied, counts: false }] : [])];
  });
}

/**
 * The commands that best match the query, best first, with their scores. MiniSearch scores each term (BM25 over the
 * boosted fields, with prefix and fuzzy matches weighing less); a query word counts by its best term, so a command
 * that says both "delete" and "remove" is not counted twice for one word; and a command that matches more of the
 * query's words ranks above one that matches fewer (the share of words matched multiplies the sum).
 */
function rankCommands(index: MiniSearch<Doc>, query: string): Array<{ command: string; score: number }> {
  const words = queryWords(query);
  const counted = words.filter((w) => w.counts).length;
  if (!counted) return [];
  const byTerm = new Map<string, Map<string, number>>();
  const scores = (term: string) => {
    let found = byTerm.get(term);
    if (!found) {
      found = new Map(
        index
          .search(term, {
            // The term is ours already: split, stemmed and normalized above.
            tokenize: (text) => [text],
            processTerm: (t) => t,
            boost: BOOST,
            prefix: term.length >= 4,
            fuzzy: term.length >= 6 ? 0.15 : false,
            weights: { prefix: 0.3, fuzzy: 0.1 },
          })
          .map((r) => [String(r.id), r.score]),
      );
      byTerm.set(term, found);
    }
    return found;
  };
  const total = new Map<string, { score: number; matched: number }>();
  for (const word of words) {
    const best = new Map<string, number>();
    for (const [term, weight] of word.terms)
      for (const [id, score] of scores(term)) best.set(id, Math.max(best.get(id) ?? 0, score * weight));
    for (const [id, score] of best) {
      const t = total.get(id) ?? { score: 0, matched: 0 };
      t.score += score;
      if (word.counts) t.matched++;
      total.set(id, t);
    }
  }
  return [...total.entries()]
    .filter(([, t]) => t.matched > 0)
    .map(([command, t]) => ({ command, score: (t.score * t.matched) / counted }))
    .sort((a, b) => b.score - a.score || compareText(a.command, b.command));
}

/** The names of the commands that best match the query, best first. */
export const searchIndex = (index: MiniSearch<Doc>, query: string): string[] =>
  rankCommands(index, query).map((r) => r.command);
