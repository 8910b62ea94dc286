/**
 * A naming checker for generated CLIs, written apart from src/stages/design/verbs.ts so that it judges the designer rather
 * than repeating it: which commands' summaries state an action their names lack (or a standard synonym), and which
 * names carry noise (stop words, version tokens, HTTP method words, over 48 characters).
 */
const ACTION_VERBS = new Set(
  `get list create update delete remove add set send cancel check save pause search find fetch retrieve show read view return
  replace modify edit change patch enable disable start stop run execute invoke upload download export import move copy archive
  restore reset follow unfollow skip seek toggle transfer play publish unpublish approve reject submit verify validate generate
  register unregister subscribe unsubscribe assign unassign attach detach lock unlock block unblock mark accept decline invite
  revoke grant refresh sync merge close open count describe test resend rerun star unstar suspend unsuspend activate deactivate
  install uninstall rename duplicate clone calculate convert translate render preview schedule capture refund pay confirm complete
  resolve release`.split(/\s+/),
);
/** Standard synonyms an agent would try for the stated verb. */
const SYNONYMS: Record<string, string[]> = {
  get: ["get", "list", "fetch", "retrieve", "show", "read", "view", "describe"],
  fetch: ["get", "list", "fetch"], retrieve: ["get", "list", "retrieve"], show: ["get", "list", "show"], read: ["get", "list", "read"],
  view: ["get", "list", "view"], return: ["get", "list"], describe: ["get", "list", "describe"], list: ["list", "get"],
  create: ["create", "add", "new"], add: ["add", "create"],
  update: ["update", "set", "edit", "modify", "replace"], modify: ["update", "modify"], edit: ["update", "edit"], change: ["update", "change", "set"],
  patch: ["update"], set: ["set", "update"], replace: ["replace", "update", "set"],
  delete: ["delete", "remove"], remove: ["remove", "delete"],
};
const STOP = new Set("a an the of for to by with in on and or from at into as is are via per if your my our their".split(" "));
const HTTP_WORDS = new Set(["post", "put", "patch", "head", "options", "trace"]);

const lemma = (word: string) => [word, word.endsWith("ies") ? `${word.slice(0, -3)}y` : "", word.endsWith("es") ? word.slice(0, -2) : "", word.endsWith("s") ? word.slice(0, -1) : ""].find((c) => c && ACTION_VERBS.has(c));

/** The action a summary states, if its first word (after "Bulk"/"Batch") is a verb. */
export function statedVerb(summary: string | undefined): string | undefined {
  const words = (summary ?? "").trim().toLowerCase().split(/[\s/,.:()]+/).filter(Boolean);
  const first = words[0] === "bulk" || words[0] === "batch" ? words[1] : words[0];
  return first ? lemma(first) : undefined;
}

export interface Judged {
  name: string;
  summary?: string;
}

export function judgeNames(commands: Judged[]) {
  const missing: Judged[] = [];
  const noisy: Judged[] = [];
  let stating = 0;
  for (const c of commands) {
    const tokens = c.name.split(/[\s-]+/);
    if (tokens.some((t) => STOP.has(t) || /^v\d+$/.test(t) || HTTP_WORDS.has(t)) || c.name.length > 48) noisy.push(c);
    const verb = statedVerb(c.summary);
    if (!verb) continue;
    stating++;
    if (!(SYNONYMS[verb] ?? [verb]).some((s) => tokens.some((t) => t === s || lemma(t) === s))) missing.push(c);
  }
  return { commands: commands.length, stating, missing, noisy, missingRate: stating ? missing.length / stating : 0, noiseRate: commands.length ? noisy.length / commands.length : 0 };
}
