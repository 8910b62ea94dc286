import type { Operation } from "../../openapi/model.js";
import { kebab, singular } from "../word-forms.js";
import { isNoise, operationIdTokens, textTokens } from "../verbs.js";
import { HTTP_METHOD_WORDS } from "../../../core/verbs.js";

/**
 * What tells colliding operations apart when the designer's telling words (summary, operationId, path, the
 * description's first sentence) do not: a version the others lack (`create-v2` beside `create`), else any whole word
 * of one operation's texts — its operationId, path, summary, tags, then its description — that no other says. A
 * number follows only when none exists (docs/naming.md, "Collisions").
 */

/** A path segment that is a version, or ends in one (`/v2`, `/security/alerts_v2`), and the version. */
const VERSION_SEGMENT = /(?:^|[_-])(v\d+(?:(?:alpha|beta)\d*)?)$/i;

/** The version of an operation's path: its last version segment (`/api/v2/…`), lower-cased. */
export function pathVersionOf(path: string): string | undefined {
  return path
    .split("/")
    .map((s) => VERSION_SEGMENT.exec(s)?.[1])
    .filter(Boolean)
    .pop()
    ?.toLowerCase();
}

/** An operation's path without its version: `/v3/payees/{id}` and `/v4/payees/{id}` are one path of two versions. */
export const unversionedPath = (path: string): string =>
  path
    .split("/")
    .map((s) => s.replace(VERSION_SEGMENT, (whole, v: string) => whole.slice(0, whole.length - v.length)))
    .join("/");

/** The version an operation belongs to: its path's last version segment (`/api/v2/…`), else its operationId's (`…V2`). */
function versionOf(op: Operation): string | undefined {
  const segment = pathVersionOf(op.path);
  if (segment) return segment;
  const id =
    /[^A-Z0-9]V(\d+)$/.exec(op.operationId ?? "") ?? /V(\d+(?:alpha|beta)\d*)(?=[A-Z])/.exec(op.operationId ?? "");
  return id ? `v${id[1]}` : undefined;
}

const DESCRIPTION_CHARS = 600;
const WORD = /^[a-z][a-z0-9]{2,19}$/;

type From = "operationId" | "path" | "summary" | "tag" | "description";
export interface Told {
  words: string[];
  from: From;
}

/** A whole word of an operation's texts; `methodWord` when it is noise but for naming an HTTP method. */
interface Word {
  word: string;
  from: From;
  /** singular(word), the form words are compared in. */
  one: string;
  methodWord: boolean;
}

/**
 * Each operation's words, worked out once: a name wanted by thousands of operations (22,000 in Graph's description)
 * asks every one of them what it says, for every other one of them.
 */
const wordCache = new WeakMap<Operation, Word[]>();

/** Every word an operation's texts say, in order of first saying, with where it is first said. */
function allWordsOf(op: Operation): Word[] {
  const cached = wordCache.get(op);
  if (cached) return cached;
  // `/ip.txt` beside `/ip`: the format is a word (`request-txt`).
  const literal = op.path
    .split("/")
    .filter((s) => s && !/^\{.*\}$/.test(s))
    .flatMap((s) => s.split("."));
  const params = op.path
    .split("/")
    .filter((s) => /^\{.*\}$/.test(s))
    .map((s) => s.slice(1, -1));
  const sources: Array<[From, readonly string[]]> = [
    ["operationId", op.operationId ? operationIdTokens(op.operationId, true) : []],
    ["path", [...literal, ...params].flatMap((s) => kebab(s).split("-"))],
    ["summary", op.summary ? textTokens(op.summary) : []],
    ["tag", op.tags.flatMap((t) => kebab(t).split("-"))],
    ["description", op.description ? textTokens(op.description.slice(0, DESCRIPTION_CHARS)) : []],
  ];
  const seen = new Map<string, Word>();
  for (const [from, tokens] of sources)
    for (const t of tokens.map((x) => x.toLowerCase())) {
      if (seen.has(t) || !WORD.test(t)) continue;
      const noise = isNoise(t);
      if (!noise || HTTP_METHOD_WORDS.has(t)) seen.set(t, { word: t, from, one: singular(t), methodWord: noise });
    }
  const words = [...seen.values()];
  wordCache.set(op, words);
  return words;
}

/** Whole words of an operation's texts, most name-like first, without noise, numbers or HTTP method words. */
function wordsOf(op: Operation, methods: ReadonlySet<string> = HTTP_METHOD_WORDS): Word[] {
  return allWordsOf(op).filter((w) => !w.methodWord || !methods.has(w.word));
}

/** The singular forms of wordsOf(op, methods), kept per operation and set of methods. */
const singularCache = new WeakMap<Operation, Map<string, Set<string>>>();
function singularsOf(op: Operation, methods: Set<string>, methodsKey: string): Set<string> {
  let byMethods = singularCache.get(op);
  if (!byMethods) singularCache.set(op, (byMethods = new Map()));
  let set = byMethods.get(methodsKey);
  if (!set) byMethods.set(methodsKey, (set = new Set(wordsOf(op, methods).map((w) => w.one))));
  return set;
}

/**
 * The items an operation is scoped to by its path parameters: `{userId}` → user, `/ingredients/{id}` → ingredient.
 * `/{userId}/payment` beside `/payment` is told apart by whose payment it is (`get-user`), even where the name says the
 * word already.
 */
function scopesOf(op: Operation): string[] {
  const cached = scopeCache.get(op);
  if (cached) return cached;
  const scopes = pathScopes(op);
  scopeCache.set(op, scopes);
  return scopes;
}
const scopeCache = new WeakMap<Operation, string[]>();

function pathScopes(op: Operation): string[] {
  const segments = op.path.split("/").filter(Boolean);
  return segments.flatMap((s, i) => {
    const param = /^\{([^}]*)\}(\.[a-z]+)?$/i.exec(s)?.[1];
    if (param === undefined) return [];
    const own = kebab(param)
      .split("-")
      .filter((t) => t !== "id" && t !== "ids" && WORD.test(t) && !isNoise(t));
    const before =
      segments[i - 1] && !/^\{.*\}$/.test(segments[i - 1]!)
        ? kebab(segments[i - 1]!)
            .split("-")
            .pop()!
        : "";
    const word = own.length ? own.join("-") : singular(before);
    return word && WORD.test(word.replace(/-/g, "")) && !isNoise(word) ? [word] : [];
  });
}

/** Whether every word is one of the operation's own (its texts, or its version). */
export function saysAll(op: Operation, words: string[]): boolean {
  const own = new Set([...wordsOf(op).map((w) => w.one), versionOf(op) ?? ""]);
  return words.every((w) => own.has(singular(w)));
}

/** Qualifiers to try for `op` among `others` (all wanting the same name), best first; none when nothing differs. */
export function lastResortWords(op: Operation, others: Operation[], said: string[]): Told[] {
  const out: Told[] = [];
  const version = versionOf(op);
  if (version && others.every((o) => versionOf(o) !== version))
    out.push({ words: [version], from: op.path.toLowerCase().includes(`/${version}/`) ? "path" : "operationId" });
  // An HTTP method word is a word (`GET …/builds/{id}/trace`) unless it names a method of the group.
  const methods = new Set([op, ...others].map((o) => o.method.toLowerCase()));
  const methodsKey = [...methods].sort().join(" ");
  const theirWords = others.map((o) => singularsOf(o, methods, methodsKey));
  const theirs = new Set(theirWords.flatMap((w) => [...w]));
  const named = new Set(said.flatMap((t) => t.split("-")).flatMap((t) => [t, singular(t)]));
  const own = wordsOf(op, methods);
  for (const { word, from, one } of own)
    if (!theirs.has(one) && !named.has(word) && !named.has(one)) out.push({ words: [word], from });
  const theirScopes = new Set(others.flatMap((o) => scopesOf(o).map(singular)));
  // A scope may repeat the group's word (`user payment get-user`), never the action's.
  const action = new Set((said[said.length - 1] ?? "").split("-"));
  for (const scope of scopesOf(op))
    if (!theirScopes.has(singular(scope)) && !out.some((t) => t.words[0] === scope) && !action.has(scope))
      out.push({ words: [scope], from: "path" });
  // Failing those, a word some of the others say too but not all: the name is its own, if less telling than one
  // word none shares (`request-txt` for `/ip.txt` beside `/ip` and `/ip/{ipv4}.txt`).
  const shared = new Map<string, number>();
  const sharedBy = (word: string) => {
    let n = shared.get(word);
    if (n === undefined) {
      const one = singular(word);
      shared.set(word, (n = theirWords.filter((w) => w.has(one)).length));
    }
    return n;
  };
  const partly = own
    .filter(
      ({ word, one }) =>
        !named.has(word) && !named.has(one) && !out.some((t) => t.words[0] === word) && sharedBy(word) < others.length,
    )
    .sort((a, b) => sharedBy(a.word) - sharedBy(b.word));
  for (const { word, from } of partly) out.push({ words: [word], from });
  // Then two words no other says both of (`request-ipv4-txt` for `/ip/{ipv4}.txt` beside `/ip/{ipv4}` and `/ip.txt`).
  const says = (i: number, word: string) => theirWords[i]!.has(singular(word)) || scopesOf(others[i]!).includes(word);
  const mine = [...new Set([...scopesOf(op), ...own.map((w) => w.word)])]
    .filter((w) => !named.has(w) && !named.has(singular(w)))
    .slice(0, 8);
  for (let a = 0; a < mine.length; a++)
    for (let b = a + 1; b < mine.length; b++)
      if (!others.some((_, i) => says(i, mine[a]!) && says(i, mine[b]!)))
        out.push({ words: [mine[a]!, mine[b]!], from: "path" });
  return out;
}

/**
 * A word of any length or commonness, as the final words take them: `me`, `and`, `from`, `if`; a single letter only
 * where a path or an id says it alone (Excel's `t_Dist` beside `f_Dist`).
 */
const ANY_WORD = /^[a-z][a-z0-9]{0,19}$/;
const VERSION = /^v\d+$/;
/** Words prose says in passing, which name nothing. */
const PROSE = new Set(
  "a an the of to for in on at by with from into and or nor but not no if is are was were be been it its this that these those which who whom whose what as all any each some such than then there their them they you your our we us me my".split(
    " ",
  ),
);

/** Every word an operation's texts say, short and common ones too, in order of first saying, with where. */
function everyWordOf(op: Operation): Word[] {
  const sources: Array<[From, string[]]> = [
    ["path", op.path.split(/[/{}.]+/).flatMap((s) => kebab(s).split("-"))],
    ["operationId", op.operationId ? kebab(op.operationId).split("-") : []],
    ["summary", (op.summary ?? "").toLowerCase().split(/[^a-z0-9]+/)],
    ["tag", op.tags.flatMap((t) => kebab(t).split("-"))],
    [
      "description",
      (op.description ?? "")
        .slice(0, DESCRIPTION_CHARS)
        .toLowerCase()
        .split(/[^a-z0-9]+/),
    ],
  ];
  const seen = new Map<string, Word>();
  for (const [from, tokens] of sources)
    for (const word of tokens)
      if (
        !seen.has(word) &&
        ANY_WORD.test(word) &&
        !VERSION.test(word) &&
        !HTTP_METHOD_WORDS.has(word) &&
        // A path or an id says its short words on purpose (`/me/…`, `microsoft.graph.or`); prose says "the" and "of" in
        // passing.
        ((from !== "summary" && from !== "description") || (!PROSE.has(word) && word.length > 1)) &&
        (word.length > 1 || from === "path" || from === "operationId")
      )
        seen.set(word, { word, from, one: singular(word), methodWord: false });
  return [...seen.values()];
}

/**
 * The final words before a number, once no telling word is free: any whole word of the operation's texts, however
 * short or common, that the others lack (`/me/contacts/$count` beside `/contacts/$count` is `get-me`; Excel's `AND` and
 * `OR` functions are `create-and` and `create-or`), the fewest others saying it first. Operations whose texts say the
 * same words are numbered (docs/naming.md, "Collisions").
 */
export function finalWords(op: Operation, others: Operation[], said: string[]): Told[] {
  const named = new Set(said.flatMap((t) => t.split("-")).flatMap((t) => [t, singular(t)]));
  const theirs = others.map((o) => new Set(everyWordOf(o).map((w) => w.one)));
  const sharedBy = (one: string) => theirs.filter((t) => t.has(one)).length;
  return everyWordOf(op)
    .filter((w) => !named.has(w.word) && !named.has(w.one) && sharedBy(w.one) < others.length)
    .map((w, at) => ({ w, at, shared: sharedBy(w.one) }))
    .sort((a, b) => a.shared - b.shared || a.at - b.at)
    .map(({ w }) => ({ words: [w.word], from: w.from }));
}
