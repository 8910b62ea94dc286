import { requestPathOf } from "../../core/path-key.js";
import { wordTable } from "../../core/word-table.js";
import { americanSpelling } from "../../core/spelling.js";
import { RELATED } from "../../runtime/search-words.js";
import type { Brief, BriefTask } from "./context.js";
import { memoized } from "../../core/memo.js";
import { isPostedRead } from "../../core/verbs.js";
import { kebab, singular } from "./word-forms.js";
import { searchFirst } from "./task-search.js";
import type { CommandSpec, SkillLink, SkillPlan, SkillsPlan } from "./types.js";
import { compareText } from "../../core/text-order.js";

/** Plurals no suffix rule makes ("Delete a person" is `people delete`). */
const IRREGULAR = wordTable({ people: "person", children: "child", men: "man", women: "woman" });

/** Stems by word: every command's flags and summary say the same few thousand words again. */
const stems = memoized(stemOf);

const STOP = new Set(
  "a an and are as at be by can do for from has have how i if in into is it its me my of on or our so that the their them then there these they this to up us was we what when which who will with you your should must not no all any each new want wants need needs one get set".split(
    " ",
  ),
);

/**
 * Words for kinds of action, in plain English and in the verbs APIs use; nothing here names a product's nouns. A task
 * whose title says it undoes something never links a command that creates one.
 */
const ACTIONS: Record<string, Action> = wordTable(
  Object.fromEntries(
    Object.entries({
      read: "find search look list show see view check browse report know review count export fetch retrieve read lookup inspect audit monitor summarize summarise which available",
      create:
        "create add make open register submit start schedule reserve post issue invite upload enroll generate buy purchase order pay checkout send deploy publish share attach log take launch provision copy clone duplicate import grant give email notify",
      // Archiving or disabling keeps the thing: a change of state, not a removal.
      update:
        "update change edit modify rename move replace adjust extend reschedule patch assign mark archive unarchive deactivate disable enable activate close reopen resolve complete finish acknowledge lock unlock merge approve suspend pause resume restore block unblock ban unban mute unmute freeze unfreeze hide unhide pin unpin follow unfollow verify confirm accept",
      undo: "cancel return undo revoke remove delete withdraw release end stop refund unsubscribe terminate void unassign unregister unpublish unshare detach disconnect decline reject clear purge wipe erase destroy",
    }).flatMap(([action, words]) => words.split(" ").map((w) => [stem(w), action as Action])),
  ),
);
export type Action = "read" | "create" | "update" | "undo";
/** The plain verbs of a kind of action: a command named by one does the plain thing, not a job of its own. */
const CRUD_WORDS = new Set(
  "get list create update replace delete insert add new remove edit patch set".split(" ").map((w) => stem(w)),
);

/**
 * A light suffix stemmer, so a noun and its verb share a stem ("bookings", "booking", "booked" → "book";
 * "availability", "available" → "avail"). Short words are left alone.
 */
function stem(word: string): string {
  return stems(word);
}

function stemOf(word: string): string {
  let w = IRREGULAR[word] ?? singular(americanSpelling(word));
  for (const [suffix, keep] of [
    ["ability", 4],
    ["ibility", 4],
    ["able", 4],
    ["ible", 4],
    ["ation", 4],
    ["ing", 3],
    ["ed", 3],
    // Not "-er": it made "customer" custom, "container" contain, "transfer" transf.
    ["ment", 4],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= keep) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "cancelled" → "cancell" → "cancel"; "stopped" → "stopp" → "stop".
  if (/([^aeiou])\1$/.test(w) && w.length > 3 && !/(ss|ll)$/.test(word.replace(/(ed|ing)$/, ""))) w = w.slice(0, -1);
  return w.replace(/ll$/, "l");
}

/** Words and each pair of neighbours ("area 7" is not "7 area"): pairs tell apart commands made of the same words. */
function termsOf(text: string): string[] {
  return termsOfWords(knownTokens(text));
}

function termsOfWords(words: readonly string[]): string[] {
  return [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
}

/**
 * Tokens by text, the kept array itself, for callers that only read it: every task is scored against every command,
 * whose names give the same words each time.
 */
const knownTokens: (text: string) => readonly string[] = memoized(tokensOf);

/** Words of a text, stemmed; numbers count ("area 7" and "area7" both give area, 7). A new array each call. */
function tokens(text: string): string[] {
  return [...knownTokens(text)];
}

function tokensOf(text: string): string[] {
  return kebab(text.replace(/([A-Za-z])(\d)/g, "$1 $2").replace(/(\d)([A-Za-z])/g, "$1 $2"))
    .split("-")
    .filter((t) => (t.length > 1 || /^\d$/.test(t)) && !STOP.has(t))
    .map((t) => (/^\d+$/.test(t) ? t : stem(t)));
}

/** A term of a command: how strongly the command says it, and where (the reason for a link names this). */
interface Term {
  weight: number;
  where: string;
}

/** One place a command says words: its words in order, their weight, and where they come from. */
interface Source {
  words: readonly string[];
  weight: number;
  where: string;
}

/** Where a command's words come from, weakest first: a word takes the weight of the strongest place that says it. */
function sourcesOf(command: CommandSpec): Source[] {
  const at = (text: string | undefined, weight: number, where: string): Source => ({
    words: knownTokens(text ?? ""),
    weight,
    where,
  });
  return [
    // The flags' words in order, as tokenizing their names joined by spaces gives them: each name is tokenized once
    // for every command that has the flag (the same few hundred names across thousands of commands).
    { words: command.flags.flatMap((f) => knownTokens(f.flag)), weight: 0.25, where: "a flag" },
    at(command.operation.path.replace(/\{[^}]*\}/g, " "), 1, "the path"),
    at(command.operation.operationId, 1, "the operationId"),
    at(command.description, 1.5, "the summary"),
    at(command.path.slice(1, -1).join(" "), 2, "the command name"),
    at(command.path.slice(0, -1).join(" "), 2, "the command name"),
    at(command.path[command.path.length - 1]!.replace(/-\d+$/, ""), 2, "the action"),
    at(command.path[0], 3, "the resource"),
  ];
}

/** Read verbs a write method is named by only where its document says it reads (not `show`: Stream's un-hide). */
const NAMED_READS = new Set(["get", "list", "fetch", "retrieve"]);

/** What a command does, from its method, its action word and its help line. */
const commandAction = (command: CommandSpec): Action =>
  actionOf(command.operation.method, command.path[command.path.length - 1]!, command.description);

/**
 * What a command does, from its HTTP method, the last word of its name (`update`, `label-void`) and its help line
 * (a `request` whose text opens with a read reads).
 */
export function actionOf(method: string, last: string, text?: string): Action {
  method = method.toUpperCase();
  if (method === "GET" || method === "HEAD") return "read";
  if (method === "DELETE") return "undo";
  const verb = last.replace(/-\d+$/, "");
  // A write method named `get` or `list` is one its document calls a read (docs/naming.md): "Query channels".
  if (isPostedRead(verb, text) || NAMED_READS.has(verb.split("-")[0]!)) return "read";
  // A verb of its own after the method's plain one says what it does: `create-cancel` cancels, `create-assign` assigns.
  const words = verb.split("-").map(stem);
  // Not a plural: `create-rejects` exports rejects, it rejects nothing.
  const second = verb.split("-")[1];
  const own =
    (words[0] === "create" || words[0] === "update") && second && !/[^s]s$/.test(second)
      ? ACTIONS[words[1]!]
      : undefined;
  const said = own ?? words.map((w) => ACTIONS[w]).find(Boolean);
  if (said && said !== "read") return said;
  return method === "POST" && verb === "create" ? "create" : method === "POST" ? (said ?? "create") : "update";
}

/** The texts of a task that linking reads, with the weight of each: every word a task can be linked by is in one. */
const taskTexts = (task: BriefTask): Array<[string, number]> => [
  [task.rules.join(" "), 0.5],
  [`${task.situation} ${task.outcome}`, 1],
  [task.title, 2],
];

interface TaskWords {
  words: Map<string, number>;
  /** What the title acts on: the word after its verb ("List the cards on a board" → card). */
  object?: string;
  /** The title's verb when it is a word for a kind of action ("list"): it names the action, never a resource. */
  verb?: string;
  /** The kinds of action the title asks for; empty when its verb is the product's own word ("lend", "book"). */
  actions: Set<Action>;
  /** The task speaks of many things at once. */
  many: boolean;
  /** The thing it acts on is a word the API names its commands by (not the task's own word: "meeting" for events). */
  named: boolean;
  /** It adds the thing to another, or takes it out ("Add a tester to a group", "Remove a user from a team"). */
  relation: boolean;
  /** The title's own verb (not a plain one) when some command's action opens with it: `channels mute` for "Mute". */
  doer?: string;
  /** Whether a word names another resource of the API than the thing the task acts on. */
  other?: (word: string) => boolean;
  /** What a relation adds it to or takes it from ("group"), when it does. */
  container?: string;
}

/**
 * What a task's title asks to do, as its verbs say it — the first word, and one after "and" or "then" ("Find and void
 * an invoice") — never a noun that is also a verb ("Close an issue" issues nothing). Empty when no verb is a word for
 * a kind of action ("Lend a book": the product's own word).
 */
export function titleActions(title: string): Set<Action> {
  const verbs = [
    tokens(title)[0],
    ...[...title.matchAll(/\b(?:and|then)\s+([a-z]+)/gi)].map((m) => stem(m[1]!.toLowerCase())),
  ];
  return new Set(verbs.map((w) => (w ? ACTIONS[plainVerb(w)] : undefined)).filter((a): a is Action => !!a));
}

/** The verb a task's title opens with, as linking reads it ("Reactivate a bounced address" → activate). */
export function titleVerb(title: string): string | undefined {
  const first = tokens(title)[0];
  return first && plainVerb(first);
}

/**
 * The nouns a verb names as linking stems them, the verb itself first: "lock" a lock, "pay" a payment, "deploy" a
 * deployment, "activate" an activation, "approve" an approval.
 */
export function verbNouns(verb: string): string[] {
  const base = verb.replace(/e$/, "");
  return [...new Set([verb, ...[`${verb}ment`, `${base}ion`, `${base}ation`, `${base}al`].map(stem)])];
}

/** Words of the same or a close meaning, as linking stems them ("account" → user, profile). */
const relatedOf = (word: string): readonly string[] => (relatedStems ??= stemRelated())[word] ?? [];
let relatedStems: Record<string, string[]> | undefined;
function stemRelated(): Record<string, string[]> {
  const table: Record<string, string[]> = wordTable();
  for (const [word, others] of Object.entries(RELATED))
    table[stem(word)] = [...new Set([...(table[stem(word)] ?? []), ...others.map(stem)])];
  return table;
}

/** Whether a verb is a plain one of its kind (get, create, add …) or reads: it names no job of its own. */
export const isPlainVerb = (verb: string): boolean => CRUD_WORDS.has(verb) || ACTIONS[verb] === "read";

/** A text's words as linking reads them: split, stemmed, without the words that say nothing. */
export const nameWords = (text: string): readonly string[] => knownTokens(text);

/**
 * The thing a task's title acts on as its words say it, with the words of the same meaning: the head of the phrase
 * after its verb ("Cancel an unpaid order": order), or what follows a possessive ("Report a room's bookings").
 */
export function titleThing(title: string): { word: string; related: readonly string[] } | undefined {
  const owned = /^\s*\S+\s+(?:(?:a|an|the|my|our|your|their|each|every|one)\s+)*[\w-]+['’]s\s+([\w-]+)/i.exec(
    title,
  )?.[1];
  const word = owned ? tokens(owned)[0] : tokens(nounPhrase(title)).pop();
  return word ? { word, related: relatedOf(word) } : undefined;
}

/** A verb as its kind of action is listed: "reactivate", "resend" are activate and send again. */
const plainVerb = (word: string): string =>
  !ACTIONS[word] && word.startsWith("re") && ACTIONS[word.slice(2)] ? word.slice(2) : word;

/**
 * Title words count double: the title is the clearest statement of the job. A title whose verb is the product's own
 * word ("Lend a book") takes its kind of action from the commands that use that word in their name or summary,
 * when they agree on one.
 */
function taskWords(task: BriefTask, commands: CommandSpec[], terms: Array<Map<string, Term>>): TaskWords {
  const words = new Map<string, number>();
  for (const [text, weight] of taskTexts(task))
    for (const w of termsOf(text)) words.set(w, Math.max(words.get(w) ?? 0, weight));
  const title = tokens(task.title);
  // What the task asks to do is said by its verbs — the first word, and one after "and" or "then" ("Find and void an
  // invoice") — never by a noun that is also a verb ("Close an issue" issues nothing).
  const actions = titleActions(task.title);
  const verb = title[0] && plainVerb(title[0]);
  // "Reactivate a bounced address": the command that does it is named `activate`.
  if (verb && verb !== title[0]) words.set(verb, Math.max(words.get(verb) ?? 0, 2));
  const actionVerb = verb && ACTIONS[verb] ? verb : undefined;
  // After a product's own verb ("Book a trip") the thing acted on is what the verb names (bookings), not the next word.
  // "Report a room's bookings": what the title acts on follows the possessive.
  const owned = /^\s*\S+\s+(?:(?:a|an|the|my|our|your|their|each|every|one)\s+)*[\w-]+['’]s\s+([\w-]+)/i.exec(
    task.title,
  )?.[1];
  // The thing is the word of the phrase after the verb that names most of the API's commands: "Cancel an unpaid order"
  // acts on orders, "Create a customer billing account" on accounts, "Merge an approved pull request" on pulls. A verb
  // of its own that names a resource names the thing ("Deploy a build": deployments, "Send an email": sending).
  const phrase = tokens(nounPhrase(task.title));
  const naming = (w: string) =>
    terms.filter((t) => ["the resource", "the command name"].includes(t.get(w)?.where ?? "")).length;
  const mostNamed = (words: readonly string[]) =>
    words.reduce<[string | undefined, number]>(
      (best, w) => {
        const n = naming(w);
        return n && n >= best[1] ? [w, n] : best;
      },
      [undefined, 0],
    )[0];
  // Where the API names the thing otherwise ("Disable an account" on an API of users), a word of the same meaning
  // that names its commands is the thing (the rings search uses: src/runtime/search-words.ts).
  // The phrase's head names it ("an SMS campaign": campaigns) unless the API names its commands by another of its
  // words far more ("a pull request": pulls, though a few commands say "requested").
  const head = phrase[phrase.length - 1];
  const most = mostNamed(phrase);
  const headNamed = head ? naming(head) : 0;
  const resource =
    (head && headNamed && headNamed * 8 >= naming(most ?? head) ? head : undefined) ??
    most ??
    mostNamed(relatedOf(head ?? ""));
  // A resource its verb's noun opens (`deployment`, `sending-api`), not one it qualifies (`schedule-assignment`).
  // "Pay an invoice" makes a payment, "Lock a file" a lock: the noun may be the verb's own or one made of it.
  const nouns =
    actionVerb && !CRUD_WORDS.has(actionVerb) && ACTIONS[actionVerb] !== "read" ? verbNouns(actionVerb) : [];
  const verbNoun = nouns.find((noun) =>
    commands.some((c, i) => terms[i]!.get(noun)?.where === "the resource" && tokens(c.path[0]!)[0] === noun),
  );
  const verbNamed = !!verbNoun;
  // Where no word of it names a resource, the phrase's last word is the thing ("Delete an outdated file": file).
  const object =
    actionVerb && title.length > 1
      ? owned
        ? tokens(owned)[0]
        : verbNoun
          ? verbNoun
          : (resource ?? phrase[phrase.length - 1] ?? title[1])
      : undefined;
  // A verb no kind of action lists that commands are named by ("Merge a pull request": `pulls merge`) does what they
  // do, when they agree, whatever else says the word (`pulls-merge check`, a resource named by it).
  if (!actions.size && verb) {
    // The action opens with the verb (`merge`, `send-email`), not names its object (`list-ignores`).
    const acting = commands.filter(
      (c, i) => terms[i]!.get(verb)?.where === "the action" && tokens(c.path[c.path.length - 1]!)[0] === verb,
    );
    const kinds = new Set(acting.map((c) => commandAction(c)));
    if (kinds.size === 1) actions.add([...kinds][0]!);
  }
  // A verb that is the name of a resource ("Book a trip": bookings) makes one of them where the API makes them (a
  // plain create); where it does not ("Track a package": tracking get, start, stop), it asks about it.
  const named = verb ? commands.filter((_, i) => terms[i]!.get(verb)?.where === "the resource") : [];
  if (!actions.size && verb && named.length) {
    actions.add(named.some((c) => c.path[c.path.length - 1] === "create") ? "create" : "read");
    words.set(verb, 3);
  }
  if (!actions.size && verb) {
    const using = commands.filter((_, i) =>
      ["the summary", "the action", "the command name"].includes(terms[i]!.get(verb)?.where ?? ""),
    );
    const kinds = new Set(using.map(commandAction));
    if (kinds.size === 1) actions.add([...kinds][0]!);
  }
  // Making the thing the verb names is doing it: a lock locks, a payment pays, a deployment deploys.
  if (verbNamed) actions.add("create");
  // What the task acts on ("Find trips between two stations": trips) counts most.
  const acted = object ?? title[1];
  if (acted) words.set(acted, Math.max(words.get(acted) ?? 0, 3));
  const many = MANY.test(`${task.title} ${task.situation} ${task.outcome}`);
  // "Add a tester to the beta group", "Remove a user from a team": the thing and where it goes (the phrase's head).
  const into = RELATING.has(verb ?? "") ? /\b(?:to|from|into|onto)\s+(.*)$/i.exec(task.title)?.[1] : undefined;
  const container = into ? tokens(nounPhrase(`to ${into}`)).pop() : undefined;
  const thing = object ? [object, ...relatedOf(object)] : [];
  const resources = resourceWordsOf(commands);
  const other = (w: string) => resources.has(w) && !thing.includes(w);
  // Not a light verb, whose meaning is in what follows ("Mark an order as shipped": shipping it).
  const doer =
    verb && !isPlainVerb(verb) && !LIGHT_VERBS.has(verb) && commands.some((c) => doesVerb(c, verb, other))
      ? verb
      : undefined;
  return {
    ...(doer ? { doer } : {}),
    other,
    relation: !!container,
    ...(container ? { container } : {}),
    words,
    actions,
    many,
    named: !!object && (object === resource || verbNamed),
    ...(object ? { object } : {}),
    ...(actionVerb ? { verb: actionVerb } : {}),
  };
}

interface Scored {
  name: string;
  score: number;
  /** The task's words the command says, where and how much each adds; the reason is told from these (reasonOf). */
  matched: Array<{ word: string; where: string; part: number }>;
  action: Action;
  /** What discounted it, as the reason ends ("; a read, the task asks to undo"); "" when nothing did. */
  why: string;
  /** Words of its name the task never says, and an action of its own the task never asks for: more than it needs. */
  extra: number;
  /** It acts on what the task acts on (or the task's title names no object). */
  onObject: boolean;
  /**
   * A rule judged it to do another job than the task's: on many at once, making the container the task puts a thing in,
   * another verb than one the API has for the task's, undoing it, deleting another thing. Not which thing it acts on:
   * where the task's words and the command's differ, the command search's words of related meaning may know better.
   */
  another: boolean;
}

const ACTION_PLACES = new Set(["the action", "the summary"]);
/**
 * The words a title's verb acts on: after the verb, up to a preposition, a conjunction or a clause, or a second article
 * ("Cancel an order the customer no longer wants": order).
 */
function nounPhrase(title: string): string {
  const words = (title.replace(/^\s*\S+/, "").split(PHRASE_END)[0] ?? "").trim().split(/\s+/);
  // A particle belongs to the verb: "Power off a server", "Set up a webhook".
  const start = words.findIndex((w, i) => !DETERMINER.test(w) && !(i === 0 && PARTICLE.test(w)));
  if (start < 0) return "";
  // A second article, or a participle after the noun ("a time entry logged by mistake", "a lead met at a fair").
  const end = words.findIndex((w, i) => i > start && (DETERMINER.test(w) || PARTICIPLE.test(w)));
  const phrase = words.slice(start, end < 0 ? undefined : end);
  // A gerund after the noun that goes on to an object or a clause ("orders waiting to be shipped", "an update
  // announcing the release") is a verb of its own; "a team meeting", "a billing account" name the thing.
  const last = phrase[phrase.length - 1]!;
  if (
    phrase.length > 1 &&
    /^[a-z]{3,}ing$/i.test(last) &&
    new RegExp(`\\b${last}\\s+(?:the|a|an|to|for|on|in|at|with|from|by|this|that|our|my|their|your|its)\\b`, "i").test(
      title,
    )
  )
    phrase.pop();
  return phrase.join(" ");
}

/**
 * Whether a command does what a verb says: its action opens with it (`channels mute`, `tasks create-assign` after the
 * method's plain word), or it adds or makes the thing the verb names (`projects ignore add`), not names it as its
 * object (`projects list-ignores`).
 */
function doesVerb(command: CommandSpec, verb: string, other?: (word: string) => boolean): boolean {
  const last = tokens(command.path[command.path.length - 1]!.replace(/-\d+$/, ""));
  const at = last[0] === verb ? 0 : (last[0] === "create" || last[0] === "update") && last[1] === verb ? 1 : -1;
  // On the task's thing: `users disable-credential-types` disables credentials (another resource of the API), not
  // the user "Disable a user" names; `sms cancel-message` cancels an SMS.
  if (at >= 0) return !other || !last.slice(at + 1).some(other);
  return (
    CRUD_WORDS.has(last[0] ?? "") && last.length === 1 && tokens(command.path.slice(0, -1).join(" ")).includes(verb)
  );
}

/** The words commands are named by before their action, by command list: every task of a brief asks the same. */
const resourceWords = new WeakMap<CommandSpec[], ReadonlySet<string>>();
function resourceWordsOf(commands: CommandSpec[]): ReadonlySet<string> {
  let words = resourceWords.get(commands);
  if (!words)
    resourceWords.set(commands, (words = new Set(commands.flatMap((c) => tokens(c.path.slice(0, -1).join(" "))))));
  return words;
}

const LIGHT_VERBS = new Set(["mark", "set", "make", "turn", "put", "give", "take"].map(stem));

/** Verbs that put a thing into another or take it out: the command that does it names both. */
const RELATING = new Set(
  "add remove assign unassign attach detach invite move link unlink enroll subscribe unsubscribe".split(" ").map(stem),
);

const PARTICLE = /^(off|up|down|out|back|away|over)$/i;
/** Past participles: a regular one of six letters or more ("logged"; not "speed", "feed"), or a common irregular one. */
const PARTICIPLE =
  /^(?:[a-z]{4,}ed|met|spent|left|sold|made|done|sent|given|taken|paid|built|bought|lost|found|held|kept|seen|shown|written|told)$/i;

const DETERMINER = /^(a|an|the|this|that|these|those|my|our|your|their|his|her|its|each|every|some|any)$/i;
/** Verbs that remove the thing itself, which a DELETE does; other undoing (refund, cancel, void) may not. */
const REMOVAL = new Set(["delete", "remove", "erase", "destroy", "purge", "wipe", "clear"].map((w) => stem(w)));

/** Where the phrase a title's verb acts on ends: a preposition, a conjunction, a clause. */
const PHRASE_END =
  /\b(?:for|to|with|from|in|on|of|by|at|as|into|onto|before|after|between|under|over|via|that|which|who|when|where|so|and|then|but)\b|[,;:.(]/i;

/** The thing a command acts on: its sub-resource's last word (also when folded into the action), else its resource's. */
const actedOn = (command: CommandSpec) =>
  tokens(
    (command.path.length === 3 ? command.path[1] : command.nameSource?.collapsed ? command.path[1] : command.path[0])!,
  ).pop();

/** Whether one verb undoes another: unlock → lock, deactivate → activate, disconnect → connect (and back). */
const isUndoing = (word: string, verb: string): boolean => undoes(word, verb) || undoes(verb, word);
/** A prefix that undoes an action verb of its own kind ("dispatch" is no undone `patch`, "design" no undone sign). */
const undoes = (word: string, base: string): boolean =>
  !!ACTIONS[base] && !CRUD_WORDS.has(base) && ["un", "de", "dis"].some((p) => word === p + base);

/** What scoring reads of a command whatever the task: worked out once per command, not once per task and command. */
interface CommandFacts {
  action: Action;
  /** The words of its name before the action. */
  names: readonly string[];
  /** The words of its action that are not CRUD words. */
  ownVerb: readonly string[];
  /** The words of its last name part, as it is. */
  last: readonly string[];
  target: string | undefined;
  /** Its action works on many at once (`close-all`, `bulk-delete`, `batch-update`). */
  bulk: boolean;
  /** The words of its path, without parameters (`/lists/{id}/contacts`: list, contact). */
  along: readonly string[];
}

const BULK = /(^|-)(all|bulk|batch|multiple|mass|many)(-|$)/;
/** A task that speaks of many things at once ("Close all alerts", "every", "in bulk"). */
const MANY = /\b(all|every|bulk|batch|multiple|many|each)\b/i;

function commandFacts(command: CommandSpec): CommandFacts {
  const last = command.path[command.path.length - 1]!;
  return {
    action: commandAction(command),
    names: tokens(command.path.slice(0, -1).join(" ")),
    ownVerb: tokens(last.replace(/-\d+$/, "")).filter((w) => !CRUD_WORDS.has(w)),
    last: tokens(last),
    target: actedOn(command),
    bulk: BULK.test(last),
    along: tokens(command.operation.path.replace(/\{[^}]*\}/g, " ")),
  };
}

function score(
  task: TaskWords,
  command: CommandSpec,
  terms: Map<string, Term>,
  facts: CommandFacts,
  idf: (word: string) => number,
): Scored {
  let total = 0;
  const matched: Scored["matched"] = [];
  for (const [w, weight] of task.words) {
    const term = terms.get(w);
    if (!term) continue;
    // "List the cards": "list" says what to do; on Trello it is also a resource, which the task does not mean. A verb
    // of its own is what it names ("Deploy a build": deployments).
    if (w === task.verb && (CRUD_WORDS.has(w) || ACTIONS[w] === "read") && !ACTION_PLACES.has(term.where)) continue;
    const part = term.weight * weight * idf(w);
    total += part;
    matched.push({ word: w, where: term.where, part });
  }
  const { action, names, target } = facts;
  // Each word of the command's name the task never says makes it more specific than asked ("pulls comments update"
  // for "Close a pull request"): the most general command that fits ranks first.
  const unsaid = names.filter((w) => !task.words.has(w)).length;
  // An action of its own the task never says ("merge" for "Close a pull request") is a different job than the plain
  // CRUD word: a light touch, enough to rank `pulls update` before `pulls merge` where all else is equal.
  const ownVerb = facts.ownVerb.filter((w) => !task.words.has(w)).length;
  let factor = 0.8 ** unsaid * 0.95 ** ownVerb;
  let why = "";
  let another = false;
  // "List the cards on a board" acts on cards: `card board get` (a card's board) is another job than
  // `board cards list`, though it says the same words. Adding one to the other or taking it out ("Remove a user from
  // a group") is either's: `users groups delete` and `groups members delete` both do it.
  if (
    task.relation &&
    target &&
    task.words.has(target) &&
    names.includes(task.object ?? "") &&
    // Into one that exists: `contact-lists create` (POST /lists) makes a list, it adds no contact to one.
    /\{[^}]+\}/.test(command.operation.path)
  ) {
    // a membership of the two things the task names: no discount
  } else if (task.relation && target === task.container && !/\{[^}]+\}/.test(command.operation.path))
    [factor, why, another] = [factor * 0.3, `; it makes a ${target}, the task puts a ${task.object} in one`, true];
  else if (task.object && target && target !== task.object && task.words.has(target) && names.includes(task.object))
    [factor, why] = [factor * 0.6, `; it acts on ${target}, the task on ${task.object}`];
  else if (task.object && !names.includes(task.object) && !facts.last.includes(task.object))
    [factor, why] = [factor * 0.6, `; the task acts on ${task.object}, which it does not name`];
  // `contact-groups list` names contacts and acts on groups: "Find a contact" is the contacts' own command's.
  // `channels create-call` makes a call, `task-instances list-links` lists links: a thing its action names, not the
  // resource the task names, is another job than one of the resource's own names (`task-instances list`).
  else if (task.object && target && target !== task.object && target !== task.verb && !facts.last.includes(task.object))
    [factor, why] = [
      factor * (names.includes(target) ? 0.8 : 0.6),
      `; it acts on ${target}, the task on ${task.object}`,
    ];
  // "Mute a channel" is `channels mute` where the API has it, not another job on channels (`channels create-call`).
  // Reads stay: they find what the verb acts on (`rooms find-availability` before `bookings create`).
  if (task.doer && action !== "read" && !doesVerb(command, task.doer, task.other))
    [factor, why, another] = [factor * 0.6, `${why}; it does not ${task.doer}, which commands of the API do`, true];
  // "Create an account" is `users create`, not `users send-execute-actions-email`: a plain verb asks for the plain
  // job, not one with a verb of its own.
  const opening = facts.last[0];
  if (
    task.verb &&
    opening &&
    !facts.last.includes(task.verb) &&
    !CRUD_WORDS.has(opening) &&
    ACTIONS[opening] &&
    ACTIONS[opening] !== "read" &&
    [...task.actions].some((a) => a !== "read")
  )
    [factor, why, another] = [factor * 0.6, `${why}; it does ${opening}, the task says ${task.verb}`, true];
  // "Remove a user from the contractors group" is `users groups delete`, not `users remove-logout`.
  if (
    task.container &&
    !names.includes(task.container) &&
    !facts.last.includes(task.container) &&
    !facts.along.includes(task.container)
  )
    [factor, why] = [factor * 0.8, `${why}; it does not name the ${task.container}`];
  // A command that acts on many at once (`alerts close-all`) is another job than the one thing a task names.
  if (facts.bulk && !task.many)
    [factor, why, another] = [factor * 0.5, `${why}; it acts on many at once, the task on one`, true];
  // A DELETE of another thing than the task names undoes nothing of it ("Refund an order" is no `order-refs delete`).
  if (
    command.operation.method.toUpperCase() === "DELETE" &&
    task.object &&
    task.named &&
    target !== task.object &&
    !(task.verb && REMOVAL.has(task.verb))
  )
    [factor, why, another] = [factor * 0.3, `${why}; it deletes ${target}, the task acts on ${task.object}`, true];
  // "Lock a file" is never `users unlock`, nor "Activate a user" `users deactivate`: the action undoes the task's verb.
  if (task.verb && facts.last.some((w) => isUndoing(w, task.verb!)))
    [factor, why, another] = [0, `${why}; it undoes what the task asks (${task.verb})`, true];
  // A removal is linked only to a task that undoes, or that its own name says ("Purge the cache": `cache purge`).
  if (action === "undo" && !task.actions.has("undo") && !(task.verb && facts.last.includes(task.verb)))
    [factor, why] = [0, "; it removes, and the task does not undo"];
  else if (task.actions.size && !task.actions.has(action)) {
    // Undoing never links a create; a read may still serve a write task (find before you change), at a discount.
    if (action === "create" && task.actions.has("undo") && !task.actions.has("create"))
      [factor, why] = [0, "; it creates, and the task undoes"];
    else if (action === "read")
      [factor, why] = [factor * 0.6, `${why}; a ${action}, the task asks to ${[...task.actions].join("/")}`];
    else [factor, why] = [factor * 0.35, `${why}; it does ${action}, the task asks to ${[...task.actions].join("/")}`];
  }
  return {
    name: command.name,
    score: Math.round(total * factor * 100) / 100,
    matched,
    action,
    why,
    extra: unsaid + ownVerb,
    onObject: !task.object || target === task.object,
    another,
  };
}

/** Why a command scored as it did: its strongest words and where it says them, its action, what discounted it. */
function reasonOf({ matched, action, why }: Scored): string {
  const words = [...matched]
    .sort((a, b) => b.part - a.part)
    .slice(0, 5)
    .map((m) => `${m.word} (${m.where})`)
    .join(", ");
  return `${words ? `matched ${words}` : "no shared words"}; action ${action}${why}`;
}

const MAX_COMMANDS = 6;
const MAX_NOT_FOR = 8;
const MIN_SCORE = 2;
/** How many of linking's best candidates the command search ranks for a task (their index is made per task). */
const SEARCHED = 100;

/**
 * What linking needs of the commands, the same for every task: where each command says a word, and how many commands
 * say it. Only the words some task says are indexed (`learn`): a brief says far fewer words than a large CLI's
 * commands say between them, so indexing every word of every command was most of linking. A word's entry for a
 * command, and how rare it is, depend on that word alone, so words learnt later leave the earlier ones' entries as
 * they were, and links already made stay right.
 */
interface CommandIndex {
  visible: CommandSpec[];
  sources: Source[][];
  /** Each command's terms among the words learnt so far. */
  terms: Array<Map<string, Term>>;
  facts: CommandFacts[];
  /** How many commands say each word learnt so far. */
  df: Map<string, number>;
  /** How rare a word is among the commands (0 for a word none says). */
  idf(word: string): number;
}

/** Indexes by plan: a watch cycle that changes only the brief links its tasks against the same commands. */
const indexes = new WeakMap<CommandSpec[], CommandIndex>();

function indexCommands(commands: CommandSpec[]): CommandIndex {
  const known = indexes.get(commands);
  if (known) return known;
  const visible = commands.filter((c) => !c.hidden);
  const df = new Map<string, number>();
  const index: CommandIndex = {
    visible,
    sources: visible.map(sourcesOf),
    terms: visible.map(() => new Map()),
    facts: visible.map(commandFacts),
    df,
    // Words most commands share (the product's own name, "api") say little about which command a task needs.
    idf: (word) => {
      const n = df.get(word);
      return n ? Math.log(1 + visible.length / n) : 0;
    },
  };
  indexes.set(commands, index);
  return index;
}

/**
 * Indexes the words and pairs of neighbouring words ("area 7" is not "7 area") in `vocabulary` that the index does not
 * know yet. A pair is only looked for where both its words are being learnt, so no pair text is made for the others.
 */
function learn(index: CommandIndex, vocabulary: Iterable<string>): void {
  const words = new Set<string>();
  const pairs = new Map<string, Set<string>>();
  for (const term of vocabulary) {
    if (index.df.has(term)) continue;
    index.df.set(term, 0);
    const space = term.indexOf(" ");
    if (space < 0) words.add(term);
    else {
      const first = term.slice(0, space);
      let seconds = pairs.get(first);
      if (!seconds) pairs.set(first, (seconds = new Set()));
      seconds.add(term.slice(space + 1));
    }
  }
  if (!words.size && !pairs.size) return;
  for (let i = 0; i < index.visible.length; i++) {
    const terms = index.terms[i]!;
    const learnt: string[] = [];
    for (const { words: said, weight, where } of index.sources[i]!) {
      // One entry per source: terms are only read.
      let entry: Term | undefined;
      const set = (term: string) => {
        const had = terms.get(term);
        if ((had?.weight ?? 0) < weight) terms.set(term, (entry ??= { weight, where }));
        if (!had) learnt.push(term);
      };
      for (let j = 0; j < said.length; j++) {
        const word = said[j]!;
        if (words.has(word)) set(word);
        if (j > 0 && pairs.get(said[j - 1]!)?.has(word)) set(`${said[j - 1]} ${word}`);
      }
    }
    for (const term of learnt) index.df.set(term, index.df.get(term)! + 1);
  }
}

/**
 * Links by command index and by the words of the task that linking reads: a brief edit in watch mode re-links only
 * the tasks it changed (moving a task, or editing the intro, re-links none). Callers get their own copies.
 */
const linksByIndex = new WeakMap<CommandIndex, Map<string, ReturnType<typeof linkTask>>>();
const LINKS_KEPT = 10_000;

function linkCommands(
  task: BriefTask,
  index: CommandIndex,
  groups: ReadonlyArray<{ name: string; description: string }>,
): ReturnType<typeof linkTask> {
  let known = linksByIndex.get(index);
  if (!known) linksByIndex.set(index, (known = new Map()));
  const key = JSON.stringify([task.title, task.situation, task.outcome, task.rules]);
  let result = known.get(key);
  if (!result) {
    if (known.size >= LINKS_KEPT) known.clear();
    known.set(key, (result = linkTask(task, index, groups)));
  }
  return { commands: [...result.commands], finders: [...result.finders], links: result.links.map((l) => ({ ...l })) };
}

/** The commands that serve a task, most relevant first, with the reasons of the best candidates (linked or not). */
function linkTask(
  task: BriefTask,
  { visible, terms, facts, idf }: CommandIndex,
  groups: ReadonlyArray<{ name: string; description: string }>,
): { commands: string[]; finders: string[]; links: SkillLink[] } {
  const words = taskWords(task, visible, terms);
  let scored = visible
    .map((c, i) => score(words, c, terms[i]!, facts[i]!, idf))
    .sort((a, b) => b.score - a.score || compareText(a.name, b.name));
  // A task that changes something is done by a command that does: the best such command leads, however many reads
  // share the task's words ("Close an issue" is `issues update`, not the list of issues a merge would close). Undoing
  // may be a change of state (a void or a close is often an update).
  const does = (c: Scored) => words.actions.has(c.action) || (words.actions.has("undo") && c.action === "update");
  const write = [...words.actions].some((a) => a !== "read")
    ? scored.find((c) => c.action !== "read" && c.score >= MIN_SCORE && does(c))
    : undefined;
  if (write && write !== scored[0]) scored = [write, ...scored.filter((c) => c !== write)];
  const best = scored[0]?.score ?? 0;
  // The best command, and beside it only those the task needs as much: on the thing the task acts on, and nothing in
  // their names it does not say (`meetings polls delete` is not part of "Cancel a meeting").
  const linked = scored
    .filter((c, i) => c.score >= MIN_SCORE && c.score >= best * 0.5 && (i === 0 || (c.extra === 0 && c.onObject)))
    .slice(0, MAX_COMMANDS);
  // The reads that find the ids the write takes: the lists of the collections its path names items of.
  const finders: string[] = [];
  if (write && linked[0] === write) {
    const found = findersOf(
      visible.find((c) => c.name === write.name)!,
      visible,
    )
      .map((f) => scored.find((c) => c.name === f.name))
      .filter((c): c is Scored => !!c && !linked.includes(c));
    linked.splice(1, 0, ...found);
    linked.length = Math.min(linked.length, MAX_COMMANDS);
    finders.push(...found.filter((c) => linked.includes(c)).map((c) => c.name));
  }
  // What the command search ranks first for the title, beside what linking found: the search reads how people phrase
  // a request, and on briefs written blind the two together link the task's action far more often than either alone
  // (docs/context.md). The search ranks linking's best candidates only (an index of a large API's every command per
  // brief cost a cold build more than linking itself). Only a command linking's own reading finds ground for too, that does the kind of thing the title
  // asks, and a removal only of the thing the task acts on (the search's first removal for "Delete an outdated file"
  // may remove users); not where linking found nothing (the brief's writer is told to name the task's resources).
  const grounded = new Set(
    scored
      .slice(0, SEARCHED)
      .filter((c) => c.score >= MIN_SCORE)
      .map((c) => c.name),
  );
  const first = linked.length
    ? searchFirst(
        visible.filter((c) => grounded.has(c.name)),
        task.title,
        groups,
      )
    : undefined;
  const searched = first === undefined ? undefined : scored.find((c) => c.name === first);
  const agrees = (c: Scored) =>
    c.score >= MIN_SCORE &&
    !c.another &&
    (c.action === "undo" ? words.actions.has("undo") && c.onObject : !words.actions.size || does(c));
  const added = searched && !linked.includes(searched) && agrees(searched) ? searched : undefined;
  if (added) {
    if (linked.length === MAX_COMMANDS) linked.pop();
    linked.push(added);
  }
  const names = new Set(linked.map((c) => c.name));
  const shown = scored.slice(0, Math.max(linked.length + 3, 5));
  if (added && !shown.includes(added)) shown.push(added);
  const links = shown
    .filter((c) => c.score > 0 || names.has(c.name))
    .map((c) => ({
      command: c.name,
      score: c.score,
      linked: names.has(c.name),
      reason: c === added ? `${reasonOf(c)}; the command search ranks it first for the title` : reasonOf(c),
    }));
  return { commands: linked.map((c) => c.name), finders: finders.filter((f) => names.has(f)), links };
}

/**
 * The commands that list the items a command's path names by id, nearest first: for PUT /projects/{id}/issues/{iid},
 * GET /projects/{id}/issues, then GET /projects. At most two.
 */
function findersOf(command: CommandSpec, commands: CommandSpec[]): CommandSpec[] {
  const { path } = requestPathOf(command.operation.path);
  const found: CommandSpec[] = [];
  const params = [...path.matchAll(/\/\{[^}]+\}/g)].reverse();
  for (const param of params) {
    const collection = path.slice(0, param.index);
    const list = commands.find(
      (c) => c.operation.method === "GET" && c.operation.path === collection && c.name !== command.name,
    );
    if (list) found.push(list);
    if (found.length === 2) break;
  }
  return found;
}

/** Abbreviations whose full stop ends no sentence ("e.g.", "i.e.", "etc.", "vs."). */
const ABBREVIATION =
  /(^|[\s(])(e\.g|i\.e|etc|vs|cf|approx|incl|min|max|no|nr|st|mr|mrs|ms|dr|fig|ca|resp|esp|[a-z])\.$/i;

/**
 * The first sentence: up to a full stop, question or exclamation mark that ends one (followed by a space and not closing
 * an abbreviation, nor inside brackets), else the whole text.
 */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  let depth = 0;
  for (let i = 0; i < flat.length; i++) {
    const c = flat[i]!;
    if (c === "(" || c === "[") depth++;
    else if ((c === ")" || c === "]") && depth > 0) depth--;
    else if (
      /[.!?]/.test(c) &&
      depth === 0 &&
      (i === flat.length - 1 || flat[i + 1] === " ") &&
      !(c === "." && ABBREVIATION.test(flat.slice(0, i + 1)))
    )
      return flat.slice(0, i + 1);
  }
  return flat;
}

/** Text within `max` characters, cut after its last whole sentence that fits (a word only when no sentence does). */
function sentencesWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = "";
  let rest = text;
  while (rest) {
    const next = firstSentence(rest);
    if ((kept ? `${kept} ${next}` : next).length > max) break;
    kept = kept ? `${kept} ${next}` : next;
    rest = rest.slice(rest.indexOf(next) + next.length).trim();
    if (next === rest) break;
  }
  return kept || `${text.slice(0, max - 4).replace(/\s+\S*$/, "")}…`;
}
const noBrackets = (text: string) => text.replace(/[<>]/g, "");

function describe(task: BriefTask, others: Array<{ name: string; title: string }>, product: string): string {
  // A situation that already says "Use when …" is not said twice.
  const situation = firstSentence(task.situation || task.title).replace(/^use (this )?when\s+/i, "");
  const parts = [`Use when ${situation.replace(/^[A-Z]/, (c) => c.toLowerCase())}`];
  if (task.outcome) parts.push(`Outcome: ${firstSentence(task.outcome)}`);
  if (others.length)
    parts.push(`Not for: ${others.map((o) => `${o.title.toLowerCase()} (skill ${o.name})`).join("; ")}.`);
  else parts.push(`Not for work outside ${product}.`);
  let text = noBrackets(parts.map((p) => (/[.!?]$/.test(p) ? p : `${p}.`)).join(" "));
  text = sentencesWithin(text, 1024);
  return text;
}

function skillName(title: string, taken: Set<string>): string {
  const base = (kebab(title) || "task").slice(0, 64).replace(/-+$/, "");
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 64 - String(n).length - 1).replace(/-+$/, "")}-${n}`;
  taken.add(name);
  return name;
}

export function planSkills(
  brief: Brief,
  commands: CommandSpec[],
  productName: string,
  groups: ReadonlyArray<{ name: string; description: string }> = [],
): { plan: SkillsPlan; warnings: string[] } {
  const warnings: string[] = [];
  if (!brief.description)
    warnings.push(
      "context.md has no product description: add a paragraph under the top `# <Product>` heading saying what the product is and who uses it",
    );
  if (!brief.tasks.length)
    warnings.push(
      "context.md has no tasks: add `## Tasks and scenarios` with one `### <task>` (or one `- <task>` list item) per job users do; no Skills are planned until then",
    );
  const taken = new Set<string>();
  const named = brief.tasks.map((t) => ({ task: t, name: skillName(t.title, taken) }));
  const index = indexCommands(commands);
  learn(
    index,
    brief.tasks.flatMap((task) => [
      ...taskTexts(task).flatMap(([text]) => termsOf(text)),
      ...tokens(task.title).slice(0, 1).map(plainVerb).flatMap(verbNouns),
      ...tokens(task.title).flatMap(relatedOf),
    ]),
  );
  const skills: SkillPlan[] = named.map(({ task, name }) => {
    const { commands: linked, finders, links } = linkCommands(task, index, groups);
    for (const u of task.unknownLabels)
      warnings.push(
        `task "${task.title}" (context.md line ${u.line}): the part labelled "${u.label}" is not a situation, outcome or rules label, so it was read as part of the situation; use "Expected outcome:" or "Rules:" if it is one of those`,
      );
    if (!task.outcome)
      warnings.push(
        `task "${task.title}" (context.md line ${task.line}) has no "Expected outcome:"; agents and evaluations need one`,
      );
    if (!linked.length)
      warnings.push(
        `task "${task.title}" (context.md line ${task.line}) matches no command; name the resources and actions it involves`,
      );
    // "Not for" names a few other Skills, not all: a brief of thousands of tasks would make every description hold all.
    const others: Array<{ name: string; title: string }> = [];
    for (const n of named) {
      if (others.length >= MAX_NOT_FOR) break;
      if (n.name !== name) others.push({ name: n.name, title: n.task.title });
    }
    return {
      name,
      title: task.title,
      description: describe(task, others, productName),
      situation: task.situation,
      outcome: task.outcome,
      rules: [...task.rules],
      commands: linked,
      ...(finders.length ? { finders } : {}),
      links,
    };
  });
  return {
    plan: { product: { name: brief.title || productName, description: brief.description }, rules: brief.rules, skills },
    warnings,
  };
}
