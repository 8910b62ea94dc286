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

const FIELDS = ["words", "summary", "phrasings", "details", "tags", "operation", "params", "related"] as const;
type Field = (typeof FIELDS)[number];
/**
 * Command words weigh most, then the summary; the long description, tag and parameters only break ties. `related`:
 * words of the same meaning as the command's own (synonyms from a lexical resource, which emit adds: see
 * indexCommands), below the words the command says itself. `phrasings`: requests in users' words a design model
 * wrote for the command (the reviewed overlay's), just below its summary.
 */
const BOOST: Record<Field, number> = {
  words: 4,
  summary: 2,
  phrasings: 1.5,
  operation: 1,
  tags: 1,
  related: 0.8,
  details: 0.4,
  params: 0.3,
};

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
  // What people add when they ask an agent, which no command is named for.
  "just",
  "actually",
  "really",
  "right",
  "now",
  "today",
  "tomorrow",
  "yesterday",
  "tonight",
  "morning",
  "afternoon",
  "evening",
  "week",
  "anymore",
  "again",
  "already",
  "still",
  "need",
  "needs",
  "want",
  "wants",
  "let",
  "us",
  "them",
  "they",
  "their",
  "he",
  "she",
  "his",
  "her",
  "him",
  "don",
  "doesn",
  "isn",
  "can",
  "t",
  "s",
  "m",
  "re",
  "ll",
  "ve",
  "d",
  "so",
  "if",
  "as",
  "was",
  "were",
  "been",
  "about",
  "there",
  "here",
  "thing",
  "things",
  "stuff",
  "kind",
  "sure",
  "please",
  "could",
  "would",
  "should",
  "also",
  "too",
  "ok",
  "okay",
  "hey",
  "thanks",
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
 * A word as the index keeps it. Commands say the same few thousand words again and again (Graph beta's commands say
 * `select`, `expand` and `top` in every list's flags), so each word's answer is worked out once per process.
 */
const indexTerm = memoized((term: string): string | null => (STOP.has(term) ? null : normal(term)));

const OPTIONS = {
  fields: [...FIELDS],
  storeFields: ["kind", "words"],
  idField: "id",
  tokenize,
  processTerm: indexTerm,
};

/** What a command does, as a request's verb can ask for it: read, create, change, or remove or undo. */
type Kind = "read" | "create" | "update" | "delete";

interface Doc extends Record<Field, string> {
  id: string;
  kind: Kind;
}

/** Verbs of names that remove or undo, and of names that only read, whatever the method (a POST `cancel`, `search`). */
const DELETE_VERBS = new Set(
  "delete remove cancel void revoke destroy erase purge terminate stop disable deactivate unsubscribe unassign unregister detach unlink reject decline block ban kill drop withdraw refund unpublish uninstall archive close".split(
    " ",
  ),
);
const READ_VERBS = new Set(
  "get list search find query lookup count export preview estimate calculate validate check retrieve fetch read show view describe download".split(
    " ",
  ),
);
const UPDATE_VERBS = new Set(
  "update edit modify set replace patch change rename move mark assign enable reschedule upsert lock unlock reopen resume pause".split(
    " ",
  ),
);

/** A command's kind: its method, and the verb its name ends in where the method says little (POST, PUT, PATCH). */
function kindOf(command: Command): Kind {
  const method = command.operation.method.toUpperCase();
  if (method === "GET" || method === "HEAD") return "read";
  if (method === "DELETE") return "delete";
  const verb = command.path[command.path.length - 1]!.split("-")[0]!;
  if (DELETE_VERBS.has(verb)) return "delete";
  if (READ_VERBS.has(verb)) return "read";
  if (UPDATE_VERBS.has(verb) || method === "PATCH") return "update";
  return method === "POST" ? "create" : "update";
}

function docOf(
  command: Command,
  groups: ReadonlyMap<string, string>,
  related: ((text: string) => string) | undefined,
): Doc {
  const group = command.path[0]!;
  return {
    id: command.name,
    kind: kindOf(command),
    related: related ? related(`${command.path.join(" ")} ${command.description}`) : "",
    phrasings: command.phrasings?.join("\n") ?? "",
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
  // Words of the same meaning as a text's (emit's lexical resource, stages/emit/related-words.ts); a package indexed
  // at run time, without it, finds commands by their own words only.
  related?: (text: string) => string,
): MiniSearch<Doc> {
  const described = new Map(groups.map((g) => [g.name, g.description]));
  const index = new MiniSearch<Doc>(OPTIONS);
  const docs = commands.filter((c) => !c.hidden).map((c) => docOf(c, described, related));
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
  const words = [...new Set(tokenize(plainVerbs(query)).filter((w) => !STOP.has(w)))];
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
 * English phrasal verbs, as the one word a command would be named with: "tear down the droplet" asks to delete it,
 * "spin up a server" to create one. Replaced in the query before it is split into words.
 */
const PHRASAL: Array<[RegExp, string]> = Object.entries({
  "tear down": "delete",
  "take down": "delete",
  "get rid of": "delete",
  "wipe out": "delete",
  "throw away": "delete",
  "call off": "cancel",
  "back out of": "cancel",
  "spin up": "create",
  "set up": "create",
  "stand up": "create",
  "put together": "create",
  "sign up": "register",
  "kick off": "start",
  "fire off": "send",
  "send out": "send",
  "shut down": "stop",
  "shut off": "disable",
  "turn off": "disable",
  "switch off": "disable",
  "turn on": "enable",
  "switch on": "enable",
  "look up": "find",
  "look at": "show",
  "find out": "show",
  "pull up": "show",
  "top up": "add",
  "hook up": "connect",
  "log in": "login",
  "sign in": "login",
  "log out": "logout",
  "sign out": "logout",
  "roll back": "rollback",
}).map(([phrase, verb]) => [new RegExp(`\\b${phrase.replace(/ /g, "\\s+")}\\b`, "gi"), verb]);
const plainVerbs = (query: string): string =>
  PHRASAL.reduce((text, [phrase, verb]) => text.replace(phrase, verb), withoutValues(query));

/**
 * A request's values are not words of what to do: addresses, URLs, amounts, dates, numbers and ids ("add
 * bob@example.com", "point api.example.com at 203.0.113.10", "refund $25", "job 9912", "se-28529731") are left out,
 * as are quoted names.
 */
const withoutValues = (query: string): string =>
  query
    .replace(/\b[\w.+-]+@[\w-]+\.[\w.-]+\b/g, " ")
    .replace(/\bhttps?:\/\/\S+/gi, " ")
    .replace(/["“][^"”]*["”]/g, " ")
    .replace(/\b[a-z0-9-]+(\.[a-z0-9-]+)+\.[a-z]{2,}\b/gi, " ")
    .replace(/[$€£]\s?\d[\d,.]*/g, " ")
    .replace(/[#!]?\b[a-z]*[-_]?\d[\w.:/-]*/gi, " ");

/**
 * What a request asks to do, from its first word that says it ("cancel my subscription": delete), else a question's
 * form ("what …", "did …", "…?": read); undefined when it says neither.
 */
const INTENT: Record<string, Kind> = Object.fromEntries(
  Object.entries({
    read: "show list find get see check view fetch read retrieve lookup search browse count export download what which who whom whose how when where why whats did does do is are was were has have any many much",
    create:
      "create add make new schedule book register buy purchase order send invite start launch provision upload generate issue post submit open publish enroll subscribe",
    update:
      "update change edit modify rename move set mark assign enable reschedule replace patch adjust switch edit lock unlock reopen resume pause extend upgrade downgrade",
    delete:
      "delete remove cancel void revoke destroy erase purge terminate stop disable deactivate unsubscribe unassign unregister detach unlink reject decline block ban kill drop withdraw refund unpublish uninstall archive close",
  }).flatMap(([kind, words]) => words.split(" ").map((w) => [w, kind as Kind])),
);
function intentOf(query: string): Kind | undefined {
  for (const word of tokenize(plainVerbs(query))) {
    const kind = INTENT[word];
    if (kind) return kind;
  }
  return /\?\s*$/.test(query) ? "read" : undefined;
}

/**
 * How well a command's kind fits what the request asks: a read for a question, a removal for "cancel". A change of
 * state may undo (a void or a close is often an update), and a create may be how an API records one (a refund).
 */
function kindFit(asked: Kind | undefined, kind: Kind | undefined): number {
  if (!asked || !kind || asked === kind) return 1;
  if (asked === "read" || kind === "read") return 0.6;
  if ((asked === "delete" && kind === "update") || (asked === "update" && kind !== "create")) return 0.85;
  return 0.7;
}

/** How much each word of a command's name the query does not say lowers it: the plainest command that fits first. */
const UNSAID = 0.85;
const unsaid = (name: string | undefined, said: ReadonlySet<string>): number =>
  name ? tokenize(name).filter((w) => !STOP.has(w) && !said.has(normal(w))).length : 0;

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
  const asked = intentOf(query);
  const kinds = new Map<string, Kind>();
  const names = new Map<string, string>();
  // Every term the query stands for: a command's name words outside it make the command more than was asked.
  const said = new Set(words.flatMap((w) => [...w.terms.keys()]));
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
          .map((r) => {
            if (r.kind) kinds.set(String(r.id), r.kind as Kind);
            if (typeof r.words === "string") names.set(String(r.id), r.words);
            return [String(r.id), r.score];
          }),
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
    .map(([command, t]) => ({
      command,
      score:
        ((t.score * t.matched) / counted) *
        kindFit(asked, kinds.get(command)) *
        UNSAID ** unsaid(names.get(command), said),
    }))
    .sort((a, b) => b.score - a.score || compareText(a.command, b.command));
}

/** The names of the commands that best match the query, best first. */
export const searchIndex = (index: MiniSearch<Doc>, query: string): string[] =>
  rankCommands(index, query).map((r) => r.command);
