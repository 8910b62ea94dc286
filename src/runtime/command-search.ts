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
import { americanSpelling } from "../core/spelling.js";
import { compareText } from "../core/text-order.js";
import { isPostedRead } from "../core/verbs.js";
import {
  EMAIL,
  IMPLIED,
  INTENT,
  PHRASAL,
  QUESTIONS,
  RELATED,
  SHORT,
  STOP,
  SYNONYMS,
  VALUE_KINDS,
  WEB_ADDRESS,
  type Kind,
} from "./search-words.js";

/** Where emit writes the serialized index inside the package. */
export const SEARCH_INDEX_FILE = "mcp/search-index.json";

const FIELDS = [
  "words",
  "summary",
  "phrasings",
  "details",
  "tags",
  "operation",
  "params",
  "answers",
  "related",
] as const;
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
  answers: 0.3,
};

const normal = (word: string) => {
  const stemmed = stem(word);
  return SHORT[stemmed] ? stem(SHORT[stemmed]) : stemmed;
};

/** How much a mapped verb weighs against a word the agent typed. */
const SYNONYM_BOOST = 0.6;
/** How much a word of related meaning weighs against the word the agent typed ("server" for an instance). */
const RELATED_BOOST = 0.5;
/** How much a word a request's value implies weighs. */
const VALUE_BOOST = 0.4;
/** The answer's fields indexed for a read, in the answer's order: the rest are deeper or rarer. */
const MAX_ANSWER_FIELDS = 40;
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
  let w = americanSpelling(word);
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

/**
 * What the index reads of a command: a manifest's command, or the designer's before it is one (Skill linking asks the
 * search too: stages/design/task-search.ts).
 */
export type Indexable = Pick<Command, "name" | "path" | "description" | "details" | "phrasings" | "hidden"> & {
  operation: Pick<Command["operation"], "method" | "path" | "operationId">;
  flags: ReadonlyArray<{ flag: string }>;
  output?: { fields?: readonly string[] };
};

/** A command's kind: its method, and the verb its name ends in where the method says little (POST, PUT, PATCH). */
function kindOf(command: Indexable): Kind {
  const method = command.operation.method.toUpperCase();
  if (method === "GET" || method === "HEAD") return "read";
  if (method === "DELETE") return "delete";
  const action = command.path[command.path.length - 1]!;
  const verb = action.split("-")[0]!;
  if (DELETE_VERBS.has(verb)) return "delete";
  if (READ_VERBS.has(verb) || isPostedRead(action, command.description)) return "read";
  if (UPDATE_VERBS.has(verb) || method === "PATCH") return "update";
  return method === "POST" ? "create" : "update";
}

function docOf(
  command: Indexable,
  groups: ReadonlyMap<string, string>,
  related: ((text: string) => string) | undefined,
): Doc {
  const group = command.path[0]!;
  const kind = kindOf(command);
  return {
    id: command.name,
    kind,
    related: related ? related(`${command.path.join(" ")} ${command.description}`) : "",
    phrasings: command.phrasings?.join("\n") ?? "",
    words: command.path.join(" "),
    summary: command.description,
    details: command.details ?? "",
    tags: `${group} ${groups.get(group) ?? ""}`,
    operation: `${command.operation.operationId ?? ""} ${command.operation.path.replace(/\{[^}]*\}/g, " ")}`,
    params: command.flags.map((f) => f.flag).join(" "),
    // What a question asks for is a field of what a read answers ("what's the public IP of …").
    answers: command.output?.fields?.slice(0, MAX_ANSWER_FIELDS).join(" ") ?? "",
  };
}

/** The index of a CLI's visible commands: built by emit, serialized with JSON.stringify. */
export function indexCommands(
  commands: readonly Indexable[],
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

/**
 * The brief's tasks, as the commands their Skills do them with: each Skill's name (its task's title, "void-an-invoice")
 * stands for the first command it links, the one that does the task's action. Built at the first search from the
 * manifest (a few dozen names): the index of the commands is begun before the Skills are planned, so it holds none.
 */
export interface TaskIndex {
  index: MiniSearch<{ id: string; title: string }>;
  commands: ReadonlyMap<string, string>;
}

export function indexTasks(skills: ReadonlyArray<{ name: string; commands?: readonly string[] }>): TaskIndex {
  const index = new MiniSearch<{ id: string; title: string }>({
    fields: ["title"],
    idField: "id",
    tokenize,
    processTerm: indexTerm,
  });
  const commands = new Map<string, string>();
  for (const skill of skills) {
    const first = skill.commands?.[0];
    if (!first) continue;
    index.add({ id: skill.name, title: skill.name.replace(/-\d+$/, "").replace(/-/g, " ") });
    commands.set(skill.name, first);
  }
  return { index, commands };
}

/** A task's title names what its command does as much as the command's own name does: it weighs as its words. */
const TASK_BOOST = BOOST.words;

/** An index emit serialized (SEARCH_INDEX_FILE). */
export const loadIndex = (json: string): MiniSearch<Doc> => MiniSearch.loadJSON<Doc>(json, OPTIONS);

interface QueryWord {
  terms: Map<string, number>;
  /** Whether a command must say it to count as matching the word (the share of words matched scales the score). */
  counts: boolean;
  /** Terms of related meaning only (RELATED): a command named by one of them is named otherwise than asked. */
  near?: ReadonlySet<string>;
}

/**
 * A query's words, each with the terms it stands for: itself (stemmed) at full weight, its alternatives below it, and
 * what it implies as a word of its own that does not count. Agents ask verb first, then the thing, then where or how
 * ("move card to list"): each later word weighs a little less.
 */
function queryWords(query: string): QueryWord[] {
  const words = [...new Set(actionFirst(plainVerbs(query)).filter((w) => !STOP.has(w)))];
  const seen = new Set<string>();
  return words
    .flatMap((word, i): QueryWord[] => {
      const weight = 1 / (1 + POSITION_DECAY * i);
      const key = normal(word);
      // A word said twice, or in two forms ("meeting meetings"), counts once.
      if (seen.has(key)) return [];
      seen.add(key);
      const terms = new Map<string, number>([[key, weight]]);
      for (const synonym of SYNONYMS[word] ?? [])
        if (!terms.has(normal(synonym))) terms.set(normal(synonym), SYNONYM_BOOST * weight);
      const near = new Set<string>();
      for (const related of RELATED[word] ?? [])
        if (!terms.has(normal(related))) {
          terms.set(normal(related), RELATED_BOOST * weight);
          near.add(normal(related));
        }
      const implied = new Map((IMPLIED[word] ?? []).map((v) => [normal(v), SYNONYM_BOOST * weight] as const));
      return [{ terms, counts: true, near }, ...(implied.size ? [{ terms: implied, counts: false }] : [])];
    })
    .concat(valueWords(query));
}

/**
 * What a request's values are, as words a command may say of them ("set API_KEY=abc" names an environment variable,
 * "point api.example.com at 203.0.113.10" a domain and an IP address): each adds to a command that says it and counts
 * as no word the command must match.
 */
function valueWords(query: string): QueryWord[] {
  const kinds = new Map<string, number>();
  for (const [pattern, words] of [...VALUE_KINDS, ...QUESTIONS])
    if (pattern.test(query)) for (const w of words) kinds.set(normal(w), VALUE_BOOST);
  return kinds.size ? [{ terms: kinds, counts: false }] : [];
}

const plainVerbs = (query: string): string =>
  PHRASAL.reduce((text, [phrase, verb]) => text.replace(phrase, verb), withoutValues(query));

/**
 * A request's values are not words of what to do: addresses, URLs, amounts, dates, numbers and ids ("add
 * bob@example.com", "point api.example.com at 203.0.113.10", "refund $25", "job 9912", "se-28529731") are left out,
 * as are quoted names.
 */
const withoutValues = (query: string): string =>
  query
    .replace(EVERY_EMAIL, " ")
    .replace(EVERY_WEB_ADDRESS, " ")
    .replace(/["“][^"”]*["”]/g, " ")
    .replace(/\b[a-z0-9-]+(\.[a-z0-9-]+)+\.[a-z]{2,}\b/gi, " ")
    .replace(/[$€£]\s?\d[\d,.]*/g, " ")
    .replace(/[#!]?\b[a-z]*[-_]?\d[\w.:/-]*/gi, " ");

const EVERY_EMAIL = new RegExp(EMAIL.source, "g");
const EVERY_WEB_ADDRESS = new RegExp(WEB_ADDRESS.source, "gi");

function intentOf(query: string): Kind | undefined {
  const words = tokenize(plainVerbs(query));
  for (const [i, word] of words.entries()) {
    // "is", "has", "do" ask a question only where they open it ("is the invoice paid?"); inside a sentence they
    // describe ("the site is down …, bounce it").
    if (i > 0 && AUXILIARY.has(word)) continue;
    const kind = INTENT[word];
    if (kind) return kind;
  }
  return /\?\s*$/.test(query) ? "read" : undefined;
}

/**
 * The word an order opens with where no word says what it asks: a noun used as the verb ("tag main as v2.1.0", "ping
 * this URL when …") asks for one to be made, when the API says that word. A request that opens with someone's thing
 * ("carol's mailbox …") or a name the API never says ("John …") asks nothing by it.
 */
function orderingNoun(query: string): string | undefined {
  const first = /^\s*([a-z]+)\b(?!['\u2019])/i.exec(query)?.[1]?.toLowerCase();
  return first && !STOP.has(first) && !/\?\s*$/.test(query) ? first : undefined;
}

const AUXILIARY = new Set("is are was were has have had do does did".split(" "));

/** Where a request's clauses part: punctuation, and a dash between words. */
const CLAUSE = /[,;:!?()\u2013\u2014]+|\.(?:\s|$)|\s-\s/;

/**
 * A request's words, the clause that says what to do first: people give the circumstances, then the action ("the key
 * we leaked this morning, kill it"), and the action's words are the ones a command is named with.
 */
function actionFirst(text: string): string[] {
  const clauses = text.split(CLAUSE).map(tokenize);
  const acting = clauses.findIndex((words) =>
    words.some((word, i) => !(AUXILIARY.has(word) && i > 0) && INTENT[word] && INTENT[word] !== "read"),
  );
  return acting > 0 ? [...clauses[acting]!, ...clauses.filter((_, i) => i !== acting).flat()] : clauses.flat();
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

/**
 * Whether a request asks for one item or for several: "all", "which" or a plural asks for several ("what sites do I
 * have?", "the binaries of build 2051"); else a value names one ("is INV-0042 paid?", "the IP of web-01").
 */
function howMany(query: string): "one" | "many" | undefined {
  const plain = withoutValues(query);
  const words = tokenize(plain).filter((w) => !STOP.has(w) && !AUXILIARY.has(w));
  if (
    words.some((w) => /^(all|every|which)$/.test(w) || (w.length > 3 && /[^s]s$/.test(w) && !/(ss|us|is|ys)$/.test(w)))
  )
    return "many";
  return plain.replace(/\s+/g, " ").trim() !== query.replace(/\s+/g, " ").trim() ? "one" : undefined;
}

/** How much a read of one item yields to a list where several are asked for, and the other way round. */
const CARDINALITY = 0.9;
const cardinalityFit = (asked: "one" | "many" | undefined, name: string | undefined): number => {
  const verb = name?.split(" ").pop()?.split("-")[0];
  if (!asked || !verb) return 1;
  if (asked === "many" && verb === "get") return CARDINALITY;
  if (asked === "one" && (verb === "list" || verb === "search")) return CARDINALITY;
  return 1;
};

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
function rankCommands(
  index: MiniSearch<Doc>,
  query: string,
  tasks?: TaskIndex,
): Array<{ command: string; score: number }> {
  const words = queryWords(query);
  const counted = words.filter((w) => w.counts).length;
  if (!counted) return [];
  let asked = intentOf(query);
  const kinds = new Map<string, Kind>();
  const names = new Map<string, string>();
  // Every term the query stands for: a command's name words outside it make the command more than was asked.
  const said = new Set(words.flatMap((w) => [...w.terms.keys()].filter((t) => !w.near?.has(t))));
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
  const noun = asked ? undefined : orderingNoun(query);
  const nounTerm = noun && indexTerm(noun);
  if (nounTerm && scores(nounTerm).size) asked = "create";
  const byTask = (term: string): Array<[string, number]> =>
    tasks
      ? tasks.index
          .search(term, { tokenize: (text) => [text], processTerm: (t) => t, prefix: term.length >= 4 })
          .map((r) => [tasks.commands.get(String(r.id))!, r.score * TASK_BOOST])
      : [];
  const total = new Map<string, { score: number; matched: number }>();
  for (const word of words) {
    const best = new Map<string, number>();
    for (const [term, weight] of word.terms) {
      for (const [id, score] of scores(term)) best.set(id, Math.max(best.get(id) ?? 0, score * weight));
      for (const [id, score] of byTask(term)) best.set(id, Math.max(best.get(id) ?? 0, score * weight));
    }
    for (const [id, score] of best) {
      const t = total.get(id) ?? { score: 0, matched: 0 };
      t.score += score;
      if (word.counts) t.matched++;
      total.set(id, t);
    }
  }
  // Where no command says a word the request asks for, the ones its values point to ("AWS_REGION=…": an environment
  // variable) are better than no answer.
  const someMatch = [...total.values()].some((t) => t.matched > 0);
  const many = howMany(query);
  return [...total.entries()]
    .filter(([, t]) => t.matched > 0 || !someMatch)
    .map(([command, t]) => ({
      command,
      score:
        ((t.score * (t.matched || 0.5)) / counted) *
        kindFit(asked, kinds.get(command)) *
        cardinalityFit(many, names.get(command)) *
        UNSAID ** unsaid(names.get(command), said),
    }))
    .sort((a, b) => b.score - a.score || compareText(a.command, b.command));
}

/** The names of the commands that best match the query, best first. */
export const searchIndex = (index: MiniSearch<Doc>, query: string, tasks?: TaskIndex): string[] =>
  rankCommands(index, query, tasks).map((r) => r.command);
