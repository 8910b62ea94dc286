/**
 * The words of command search (command-search.ts): what a request says that no command is named for, the verbs agents
 * use for the verbs commands are named with, phrasal verbs, short forms, and the words of the same or related meaning
 * that API documents and their users say differently. Data only: the ranking is command-search.ts's.
 */
import { wordTable } from "../core/word-table.js";

/** What a command does, as a request's verb can ask for it: read, create, change, or remove or undo. */
export type Kind = "read" | "create" | "update" | "delete";

export const STOP = new Set([
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
export const SYNONYMS: Record<string, string[]> = wordTable({
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
  kill: ["cancel", "stop", "delete"],
  stop: ["cancel", "disable", "pause"],
  wipe: ["purge", "clear", "delete"],
  revert: ["rollback", "restore"],
  undo: ["rollback", "revert", "delete"],
  rerun: ["retry", "rebuild"],
  rebuild: ["build", "retry", "create"],
  redeploy: ["deploy", "retry", "create"],
  resend: ["send", "retry"],
  reinstall: ["install"],
  freeze: ["lock", "pause"],
  unfreeze: ["unlock", "resume"],
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
});

/**
 * What a word implies beside itself: "comment on an issue" names the comment and asks to create one; "register for a
 * webinar" names the registrant and asks to add one. These add to a command's score when it says them, without
 * counting as words of the query the command must match.
 */
export const IMPLIED: Record<string, string[]> = wordTable({
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
  monthly: ["subscription", "plan", "recurring"],
  weekly: ["subscription", "plan", "recurring"],
  yearly: ["subscription", "plan", "recurring"],
  annual: ["subscription", "plan", "recurring"],
  recurring: ["subscription", "plan"],
});

/**
 * Short forms and their long ones, compared after stemming: "repos" and "repository" are one word to search. Both the
 * index and the query use the long form.
 */
export const SHORT: Record<string, string> = wordTable({
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
  envvar: "variable",
});
/**
 * English phrasal verbs, as the one word a command would be named with: "tear down the droplet" asks to delete it,
 * "spin up a server" to create one. Replaced in the query before it is split into words.
 */
export const PHRASAL: Array<[RegExp, string]> = Object.entries({
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
  "run again": "retry",
  "try again": "retry",
  "start over": "restart",
  "give back": "refund",
  "pay back": "refund",
  "money back": "refund",
  "put back": "restore",
  "lock out": "block",
  "clear out": "purge",
  "back up": "backup",
  "sign off on": "approve",
  "never mind": "cancel",
  "no longer need": "delete",
  "done with": "delete",
  "hold off on": "cancel",
  // Not a making: "make sure nobody can push to main" asks for a rule.
  "make sure": "ensure",
})
  .map(([phrase, verb]): [RegExp, string] => [
    new RegExp(`\\b${particle(phrase).replace(/ /g, "\\s+")}\\b`, "gi"),
    verb,
  ])
  .concat([
    // Tenses the phrases above do not take: "opted out", "logged in", "clocked out", "goes down".
    [/\bopt(?:s|ed)?\s+out\b/gi, "unsubscribe"],
    [/\b(?:logged|signed)\s+(?:in|into|on)\b/gi, "login"],
    [/\bclock(?:s|ed)?\s+(?:in|out)\b/gi, "shift"],
    [/\b(?:go|goes|going|went)\s+down\b/gi, "uptime"],
    // "get HTTPS working on our domain", "get the site running": make it work, not read it.
    [/\bget\s+(?:[\w-]+\s+){1,3}(?:working|running|going)\b/gi, "enable"],
  ]);

/**
 * A two-word phrasal verb takes its object between its words too: "take it down", "call the meeting off", "run it
 * again" (a pronoun, or an article and one word).
 */
function particle(phrase: string): string {
  const words = phrase.split(" ");
  if (words.length !== 2) return phrase;
  return `${words[0]} (?:(?:it|them|this|that|him|her|everything|(?:the|a|an|this|that|my|our|his|her|their) [a-z0-9-]+) )?${words[1]}`;
}
/**
 * What a request asks to do, from its first word that says it ("cancel my subscription": delete), else a question's
 * form ("what …", "did …", "…?": read); undefined when it says neither.
 */
export const INTENT: Record<string, Kind> = wordTable(
  Object.fromEntries(
    Object.entries({
      read: "show list find get see check view fetch read retrieve lookup search browse count export download what which who whom whose how when where why whats did does do is are was were has have any many much",
      create:
        "create add make new schedule book register buy purchase order send invite start launch provision upload generate issue post submit open publish enroll subscribe",
      update:
        "update change edit modify rename move set mark assign enable reschedule replace patch adjust switch edit lock unlock reopen resume pause extend upgrade downgrade",
      delete:
        "delete remove cancel void revoke destroy erase purge terminate stop disable deactivate unsubscribe unassign unregister detach unlink reject decline block ban kill drop withdraw refund unpublish uninstall archive close",
    }).flatMap(([kind, words]) => words.split(" ").map((w) => [w, kind as Kind])),
  ),
);

/** An email address and a web address, as a request's values hold them (left out of its words, and read as values). */
export const EMAIL = /\b[\w.+-]+@[\w-]+\.[\w.-]+\b/;
export const WEB_ADDRESS = /\bhttps?:\/\/\S+/i;

/**
 * What a request's values say they are (command-search.ts's valueWords): matched on the request as typed, before its
 * values are left out.
 */
export const VALUE_KINDS: Array<[RegExp, string[]]> = [
  [EMAIL, ["email"]],
  [WEB_ADDRESS, ["url"]],
  [/\b\d{1,3}(\.\d{1,3}){3}\b/, ["ip", "address"]],
  [/(^|\s)(?![\w.+-]*@)[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(?=[\s,.;:!?)]|$)/i, ["domain"]],
  [/\b[A-Z][A-Z0-9]*(_[A-Z0-9]+)+\b|\b[A-Z][A-Z0-9_]{2,}=/, ["environment", "variable"]],
  [/[$€£]\s?\d|\b\d+(\.\d+)?\s?(usd|eur|gbp|dollars?|euros?|cents)\b/i, ["amount", "price"]],
  // A time of day is when something is booked: "his Tuesday 3pm haircut", "the 10:30 slot".
  [/\b\d{1,2}(:\d{2})?\s?(am|pm)\b|\b\d{1,2}:\d{2}\b/i, ["booking", "appointment", "event", "meeting", "slot"]],
  // An address to call when something happens is a webhook: "ping https://… whenever …", "a URL … to call when …".
  [/^(?=.*(https?:\/\/|\burl\b))(?=.*\bwhen(ever)?\b)/i, ["webhook", "hook", "callback"]],
  [/\bpoint(?:s|ed|ing)?\s+(?:[\w.-]+\s+)?(?:at|to)\b/i, ["record", "dns", "cname"]],
  [/\b(?:nobody|no one|no-one)\s+(?:else\s+)?(?:can|could|may)\b/i, ["protect", "protection", "restrict", "lock"]],
  [/\bread[- ]only\b/i, ["archive", "lock", "readonly"]],
  [/\bbetween\s+\S+\s+and\s+\S+/i, ["compare", "diff"]],
];

/**
 * Words people and API documents say for the same thing, or for things close enough that a request saying one means a
 * command saying another ("spin up a server" → `instances create`; "a chargeback" → `disputes get`): each stands for
 * the others below the word itself. General product vocabulary of APIs, never one API's names.
 */
const RINGS: string[][] = [
  ["server", "instance", "machine", "vm", "host", "droplet", "compute", "box"],
  ["repository", "repo", "project"],
  ["build", "pipeline", "workflow", "job"],
  ["key", "token", "secret", "credential"],
  ["password", "credential", "secret"],
  ["team", "member", "collaborator", "teammate", "staff"],
  ["customer", "client", "contact", "buyer"],
  ["invoice", "bill", "billing"],
  ["balance", "billing", "owe", "spend", "usage"],
  ["chargeback", "dispute"],
  ["refund", "void", "reimburse"],
  ["email", "mail", "message"],
  ["site", "website"],
  ["traffic", "transfer", "bandwidth"],
  ["disk", "volume", "storage"],
  ["login", "signin", "session"],
  ["package", "parcel", "shipment"],
  ["postage", "label", "shipping"],
  ["carrier", "courier", "shipper"],
  ["coupon", "discount", "promotion", "promo"],
  ["subscriber", "recipient", "contact"],
  ["meeting", "event", "call"],
  ["channel", "conversation", "room"],
  ["file", "document", "attachment"],
  ["folder", "directory"],
  ["photo", "picture", "image"],
  ["video", "media", "asset", "clip"],
  ["price", "cost", "rate", "pricing", "quote", "estimate"],
  ["order", "purchase", "sale"],
  ["payment", "charge", "transaction"],
  ["employee", "staff", "worker"],
  ["shift", "timecard"],
  ["appointment", "booking", "reservation"],
  ["ticket", "issue", "bug", "case"],
  ["release", "version", "tag"],
  ["deploy", "deployment", "release", "rollout"],
  ["log", "trace", "output", "console"],
  ["alert", "incident", "notification"],
  ["monitor", "check", "uptime"],
  ["dns", "domain", "record", "zone"],
  ["certificate", "ssl", "tls", "https"],
  ["variable", "secret", "setting"],
  ["setting", "configuration", "preference", "option"],
  ["permission", "role", "access", "scope"],
  ["audience", "list", "segment"],
  ["unsubscribe", "suppression", "optout"],
  ["comment", "note", "reply"],
  ["firewall", "rule"],
  ["cache", "cdn"],
  ["hook", "webhook", "callback", "notify", "ping"],
  ["stats", "statistic", "analytics", "metric", "report"],
  ["schedule", "calendar", "availability"],
  ["product", "item", "catalog", "menu"],
  ["inventory", "stock"],
  ["account", "profile", "user"],
  ["thread", "topic", "discussion"],
  ["backup", "snapshot"],
  ["poll", "vote", "question", "survey"],
  ["restart", "reboot", "bounce"],
  ["resize", "grow", "enlarge", "shrink", "upgrade"],
  ["ban", "block", "suspend"],
  ["popular", "top", "trending"],
  ["trigger", "start", "launch"],
  ["artifact", "binary"],
  ["timer", "schedule"],
  ["trend", "timeseries", "history"],
];

/** Each word of a ring, with the ring's other words (a word in two rings has both). */
export const RELATED: Record<string, string[]> = wordTable();
for (const ring of RINGS)
  for (const word of ring) RELATED[word] = [...new Set([...(RELATED[word] ?? []), ...ring.filter((w) => w !== word)])];

/**
 * What a question's word asks for, as words a command that answers it says (command-search.ts's questionWords): "who"
 * asks for people, "how much" for an amount, "when" for a time. They add to a command that says them and count as no
 * word it must match.
 */
export const QUESTIONS: Array<[RegExp, string[]]> = [
  [/\bwho(m|se)?\b/i, ["user", "member", "people"]],
  [/\bhow much\b/i, ["amount", "balance", "total", "cost"]],
  [/\bhow many\b/i, ["count", "total", "number"]],
  [/\bwhen\b/i, ["date", "time"]],
  [/\bwhere\b/i, ["location", "address"]],
  [
    /\bhow (?:did|does|do|is|are|has|have)\b.*\b(?:do|doing|perform|performing|go|going|trend|trending)\b/i,
    ["stats", "statistic", "analytics", "metric", "report"],
  ],
  [/\bwhat(?:'|’)?s left\b|\bhow much (?:is )?left\b/i, ["balance", "remaining"]],
];
