import {
  HTTP_METHOD_WORDS,
  NOISE_METHOD_WORDS,
  PLAIN_READS,
  POSTED_READ,
  READ_VERBS,
  WRITE_VERBS,
} from "../src/core/verbs.js";

/**
 * A naming checker for generated CLIs, written apart from the designer (src/stages/design/) so that it judges the
 * designer's choices rather than repeating them: which commands' summaries state an action their names lack (or a
 * standard synonym), and which names carry noise (stop words, version tokens, HTTP method words, over 48 characters).
 * Which verbs read, write or are HTTP method words is the one verb table (src/core/verbs.ts) both read.
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
  fetch: ["get", "list", "fetch"],
  retrieve: ["get", "list", "retrieve"],
  show: ["get", "list", "show"],
  read: ["get", "list", "read"],
  view: ["get", "list", "view"],
  return: ["get", "list"],
  describe: ["get", "list", "describe"],
  list: ["list", "get"],
  create: ["create", "add", "new"],
  add: ["add", "create"],
  update: ["update", "set", "edit", "modify", "replace"],
  modify: ["update", "modify"],
  edit: ["update", "edit"],
  change: ["update", "change", "set"],
  patch: ["update"],
  set: ["set", "update"],
  replace: ["replace", "update", "set"],
  delete: ["delete", "remove"],
  remove: ["remove", "delete"],
};
const STOP = new Set(
  "a an the of for to by with in on and or from at into as is are via per if your my our their".split(" "),
);

const lemma = (word: string) =>
  [
    word,
    word.endsWith("ies") ? `${word.slice(0, -3)}y` : "",
    word.endsWith("es") ? word.slice(0, -2) : "",
    word.endsWith("s") ? word.slice(0, -1) : "",
  ].find((c) => c && ACTION_VERBS.has(c));

/** The action a summary states, if its first word (after "Bulk"/"Batch") is a verb. */
export function statedVerb(summary: string | undefined): string | undefined {
  const words = (summary ?? "")
    .trim()
    .toLowerCase()
    .split(/[\s/,.:()]+/)
    .filter(Boolean);
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
    if (tokens.some((t) => STOP.has(t) || /^v\d+$/.test(t) || NOISE_METHOD_WORDS.has(t)) || c.name.length > 48)
      noisy.push(c);
    const verb = statedVerb(c.summary);
    if (!verb) continue;
    stating++;
    if (!(SYNONYMS[verb] ?? [verb]).some((s) => tokens.some((t) => t === s || lemma(t) === s))) missing.push(c);
  }
  return {
    commands: commands.length,
    stating,
    missing,
    noisy,
    missingRate: stating ? missing.length / stating : 0,
    noiseRate: commands.length ? noisy.length / commands.length : 0,
  };
}

/**
 * The rules of issue #40, judged from the operation's own texts with word lists of this file only: a name whose action
 * contradicts its method, a numeric suffix where the colliding operations' texts differ, a word found in no operation
 * text (or only as a fragment of one), a word said twice.
 */
export interface JudgedOperation extends Judged {
  method: string;
  path: string;
  operationId?: string;
  tags?: string[];
  description?: string;
  /**
   * What a success answers, read from the response schema: `many` an array or a list beside paging fields, `one` an
   * object that holds no list; absent when the document does not say.
   */
  returns?: "many" | "one";
}

/** Words a name may carry without any operation saying them: the CRUD words of methods and path shapes. */
const STANDARD = new Set([
  "get",
  "list",
  "create",
  "update",
  "replace",
  "delete",
  "check",
  "call",
  "send",
  "set",
  "api",
  POSTED_READ,
]);

/** Whole words of a text, lowercase; `pieces` also splits camelCase (`unAssignPhone` → un, assign, phone). */
function wordsOf(text: string, pieces: boolean): string[] {
  const whole = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/['’]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const split = pieces
    ? whole.flatMap((w) =>
        w
          .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
          .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
          .split(" "),
      )
    : whole;
  return split.map((w) => w.toLowerCase());
}

/** A word's plain form, so "schedulers", "scheduled" and "scheduler" meet their stem. */
function plain(word: string): string {
  let w = word.toLowerCase();
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss") && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  return w.replace(/e$/, "");
}

const textsOf = (o: JudgedOperation) =>
  [o.path, o.operationId ?? "", o.summary ?? "", ...(o.tags ?? []), o.description ?? ""].join(" ");

/** Words that say nothing of what an operation does. */
const FILLER = new Set(["existing", "single", "specific", "endpoint", "particular", "given"]);

/**
 * A write method used as a transport for a read: the document itself names the call a read, its operationId (or the
 * action after its service prefix), its summary or the RPC method its path ends in (a format suffix aside) opening with a
 * read verb (`ListFindings` on POST, `Accounts_ListKeys`, `/#X-Amz-Target=…GetItem`, `/exports/list.json`, "Search …").
 * Such a name may say what the call does.
 */
function saysRead(o: JudgedOperation): boolean {
  const said = new Set([...PLAIN_READS, "describe", "search", "query", "find", "lookup", "check", "return"]);
  const rpc =
    o.path
      .replace(/\.(json|xml)$/i, "")
      .split(/[/#=.:]/)
      .pop() ?? "";
  // A service-prefixed operationId says its action after the prefix: `Accounts_GetKeys`, `calendar.freebusy.query`.
  const action = (o.operationId ?? "").split(/[._/:]+/).pop() ?? "";
  // An AWS method's scope before its verb that the name keeps among its words (`AdminGetDevice` as `devices
  // get-admin`) is the method's own words reordered: its verb is the second. Only AWS's protocol puts one there.
  const kept = new Set(o.name.split(/[\s-]+/));
  const verb = actionVerb(o.name);
  const aws = /\/#(X-Amz-Target|Action)=/.test(o.path);
  return [o.operationId ?? "", action, o.summary ?? "", rpc]
    .map((t, i) => {
      const words = wordsOf(t, true).filter((w) => !HTTP_METHOD_WORDS.has(w));
      const at =
        words[0] === "batch" ||
        words[0] === "bulk" ||
        (aws && i !== 2 && kept.has(words[0] ?? "") && !said.has(words[0] ?? "") && words[1] === verb)
          ? 1
          : 0;
      const first = words[at] ?? "";
      return [first, first.replace(/s$/, ""), first.replace(/es$/, ""), first.replace(/ies$/, "y")].some((w) =>
        said.has(w),
      );
    })
    .some(Boolean);
}

export interface NameFinding {
  rule:
    | "contradicts"
    | "numbered"
    | "numbered-differs"
    | "unfounded"
    | "fragment"
    | "repeated"
    | "read-on-write"
    | "cardinality"
    | "filler";
  name: string;
  detail: string;
}

/** The first verb of a name's action (the last word; after "bulk"/"batch"). */
function actionVerb(name: string): string {
  const tokens = name.split(" ").pop()!.split("-");
  return tokens[0] === "bulk" || tokens[0] === "batch" ? (tokens[1] ?? tokens[0]) : tokens[0]!;
}

export function judgeOperations(ops: JudgedOperation[]) {
  const findings: NameFinding[] = [];
  const byName = new Map(ops.map((o) => [o.name, o]));
  for (const o of ops) {
    const verb = actionVerb(o.name);
    const method = o.method.toUpperCase();
    if (
      (method === "DELETE" && READ_VERBS.has(verb)) ||
      (method === "GET" && (WRITE_VERBS.has(verb) || HTTP_METHOD_WORDS.has(verb)))
    )
      findings.push({ rule: "contradicts", name: o.name, detail: `${method} ${o.path} named "${verb}"` });
    if (["POST", "PUT", "PATCH"].includes(method) && PLAIN_READS.has(verb) && !saysRead(o))
      findings.push({ rule: "read-on-write", name: o.name, detail: `${method} ${o.path} named "${verb}"` });
    // `batch-get` gets many by their ids: a list is what it says.
    const batch = /^(batch|bulk)-/.test(o.name.split(" ").pop()!);
    if (
      method === "GET" &&
      ((verb === "list" && o.returns === "one") || (verb === "get" && !batch && o.returns === "many"))
    )
      findings.push({
        rule: "cardinality",
        name: o.name,
        detail: `"${verb}" answers ${o.returns === "one" ? "one item" : "a list"}`,
      });
    // A filler word the path, operationId or a tag names is a resource's own (`create-dev-endpoint`, `StartSingle…Task`).
    const named = new Set(wordsOf(`${o.path} ${o.operationId ?? ""} ${(o.tags ?? []).join(" ")}`, true));
    const filler = o.name.split(/[\s-]+/).find((t) => FILLER.has(t) && !named.has(t));
    if (filler) findings.push({ rule: "filler", name: o.name, detail: `"${filler}" says nothing of the action` });

    const text = textsOf(o);
    const whole = new Set(wordsOf(text, false).map(plain));
    const pieces = new Set(wordsOf(text, true).map(plain));
    // Two pieces of one word written together are a word of the text too: `macOS` says macos, `OpenIDConnect` openid.
    const joined = new Set(
      text
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .flatMap((w) => {
          const parts = wordsOf(w, true);
          return parts.slice(1).map((p, i) => plain(`${parts[i]}${p}`));
        }),
    );
    const tokens = o.name.split(/[\s-]+/);
    const number =
      /^\d+$/.test(tokens[tokens.length - 1]!) && !whole.has(tokens[tokens.length - 1]!) ? tokens.pop() : undefined;
    if (number) {
      findings.push({ rule: "numbered", name: o.name, detail: o.summary ?? "" });
      // The operations it was told apart from: the same name without the number, or with another.
      const base = o.name.replace(/-\d+$/, "");
      const siblings = [
        byName.get(base),
        ...Array.from({ length: 9 }, (_, i) => byName.get(`${base}-${i + 2}`)),
      ].filter((s): s is JudgedOperation => !!s && s !== o);
      // Numbers, versions and HTTP method words (`…UsingPOST`) are no words to tell commands apart by.
      const wordSet = (s: JudgedOperation) =>
        [
          ...new Set(
            wordsOf(textsOf(s), true)
              // A number glued to a word (`Aggregate2`) is a number too.
              .flatMap((w) => w.split(/(?<=[a-z]{2})(?=\d)/))
              .map(plain)
              .filter((w) => !/^(v?\d+)$/.test(w) && !HTTP_METHOD_WORDS.has(w) && w !== "get"),
          ),
        ]
          .sort()
          .join(" ");
      const mine = wordSet(o);
      const differs = siblings.filter((s) => wordSet(s) !== mine);
      if (differs.length)
        findings.push({
          rule: "numbered-differs",
          name: o.name,
          detail: `texts differ from ${differs.map((s) => s.name).join(", ")}`,
        });
    }
    for (const t of tokens) {
      if (STANDARD.has(t) || /^\d+$/.test(t)) continue;
      const p = plain(t);
      if (whole.has(p) || whole.has(t) || joined.has(p) || joined.has(t)) continue;
      if (pieces.has(p) || pieces.has(t)) {
        if (t.length <= 2) findings.push({ rule: "fragment", name: o.name, detail: `"${t}" is a piece of a word` });
        continue;
      }
      findings.push({ rule: "unfounded", name: o.name, detail: `"${t}" is in no operation text` });
    }
    // The same word twice in a row or in the action (`update-updatewebhooks`, `list-list`); a resource and its
    // sub-resource may share a word (`circuits circuit-types`).
    const action = o.name.split(" ").pop()!.split("-");
    const twice = action.find(
      (t, i) => action.indexOf(t) !== i || (i > 0 && action[0]!.length > 3 && t.startsWith(action[0]!)),
    );
    if (twice) findings.push({ rule: "repeated", name: o.name, detail: `"${twice}" twice` });
  }
  const names = new Set<string>();
  const rate = (rule: NameFinding["rule"]) => {
    const hit = new Set(findings.filter((f) => f.rule === rule).map((f) => f.name));
    hit.forEach((n) => names.add(n));
    return ops.length ? hit.size / ops.length : 0;
  };
  const rates = {
    contradicts: rate("contradicts"),
    numbered: rate("numbered"),
    numberedDiffers: rate("numbered-differs"),
    unfounded: rate("unfounded"),
    fragment: rate("fragment"),
    repeated: rate("repeated"),
    readOnWrite: rate("read-on-write"),
    cardinality: rate("cardinality"),
    filler: rate("filler"),
  };
  return { commands: ops.length, findings, rates };
}

/** One tag, one group: tags whose operations landed under more than one first word. */
export function splitTags(commands: Array<{ name: string; tags?: string[] }>): string[] {
  const groups = new Map<string, Set<string>>();
  for (const c of commands) {
    const tag = c.tags?.[0];
    if (tag) groups.set(tag, (groups.get(tag) ?? new Set()).add(c.name.split(" ")[0]!));
  }
  return [...groups].filter(([, g]) => g.size > 1).map(([t, g]) => `${t}: ${[...g].join(", ")}`);
}
