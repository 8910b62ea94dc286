import { count } from "../../../core/plural.js";
import { withQualifier, type Claims, type NamingReport } from "./claims.js";
import { crudWord } from "./crud-word.js";
import type { Draft } from "./draft.js";
import { finalWords, lastResortWords, saysAll } from "./last-resort-words.js";
import { restatesVerb, saysNothing, telling } from "./telling.js";

/** Word sets to try, shortest and most telling first: the strong words in order, then each weak word, then pairs. */
function* qualifierChoices(
  strong: Draft["qualifiers"],
  weak: Draft["qualifiers"],
  structural: Draft["qualifiers"],
): Generator<Draft["qualifiers"]> {
  // What the summary, operationId and path say comes before what a description says in passing ("Each user can have
  // a maximum of two…" is no name for "Get a user's TSP account").
  const said = (list: Draft["qualifiers"]) => list.filter((q) => q.from !== "description");
  const told = said(strong);
  for (let k = 1; k <= Math.min(3, told.length); k++) yield told.slice(0, k);
  for (const q of told.slice(1)) yield [q];
  for (const q of said(weak)) if (!told.some((s) => s.token === q.token)) yield [q];
  for (let k = 1; k <= Math.min(3, strong.length); k++) yield strong.slice(0, k);
  const all = [...strong, ...weak.filter((w) => !strong.some((s) => s.token === w.token))].slice(0, 12);
  for (const q of all) yield [q];
  // A collection beside its items, when no word of its own says more: `delete-all`; a wire name of ids: `add-id`.
  for (const q of structural) yield [q];
  for (let a = 0; a < all.length; a++) for (let b = a + 1; b < all.length; b++) yield [all[a]!, all[b]!];
}

export interface GroupContext {
  name: string;
  group: Draft[];
  base: string[];
  claims: Claims;
  byName: Map<string, Draft[]>;
  report: NamingReport;
  tellingTokens: (x: Draft) => Set<string>;
}

/**
 * A name of its own for a draft that does not keep the plain one: its most telling words first; failing those, any
 * whole word its texts say and the others' do not; then the method's word (PUT from PATCH, HEAD from GET); then a
 * version or any word of its texts; then a name handed over by one that says more; a number only when nothing differs.
 */
export function qualify(d: Draft, own: Draft["qualifiers"], structural: Draft["qualifiers"], ctx: GroupContext): void {
  const { name, group, base, claims, byName, report } = ctx;
  const collidesWith = group.filter((x) => x !== d).map((x) => `${x.op.method.toUpperCase()} ${x.op.path}`);
  const free = (attempt: string[]) => !claims.taken.has(attempt.join(" ")) && !byName.has(attempt.join(" "));
  let path: string[] | undefined;
  let used: Draft["qualifiers"] = [];
  const weak = telling(d, base).filter(
    (q) => q.token !== "id" && q.token !== "ids" && !group.every((x) => x === d || ctx.tellingTokens(x).has(q.token)),
  );
  for (const words of qualifierChoices(own, weak, structural)) {
    const attempt = withQualifier(
      base,
      words.map((q) => q.token),
    );
    if (free(attempt)) {
      path = attempt;
      used = words;
      break;
    }
  }
  if (!path) path = byMethodWord(d, base, claims, byName);
  if (!path && !d.explicit) {
    const found = lastResort(d, group, base, free);
    if (found) ({ path, used } = found);
  }
  if (!path && !d.explicit) {
    const handed = handOver(d, ctx, free);
    if (handed) ({ path, used } = handed);
  }
  // Then the same two with every word of the texts, however short or common (`get-me`).
  if (!path && !d.explicit) {
    const found = lastResort(d, group, base, free, finalWords) ?? handOver(d, ctx, free, finalWords);
    if (found) ({ path, used } = found);
  }
  if (!path) {
    for (let n = 2; ; n++) {
      const attempt = withQualifier(base, [String(n)]);
      if (!claims.taken.has(attempt.join(" "))) {
        path = attempt;
        break;
      }
    }
  }
  claims.claim(d, path, { words: used.map((q) => q.token), from: used[0]?.from ?? "path", with: collidesWith });
  report({
    kind: "collision",
    command: path.join(" "),
    operation: d.op.id,
    message: `"${name}" is wanted by ${count(group.length, "operation")}; ${d.op.method.toUpperCase()} ${d.op.path} is "${path.join(" ")}"${used.length ? ` (its own words: ${used.map((q) => q.token).join(", ")})` : " (nothing in its description differs)"}`,
  });
}

/** The method's own word tells PUT from PATCH and HEAD from GET when their descriptions say the same. */
function byMethodWord(d: Draft, base: string[], claims: Claims, byName: Map<string, Draft[]>): string[] | undefined {
  const byMethod = crudWord(d.op, undefined, d.op.path.split("/").pop() ?? "");
  if (
    byMethod === d.action ||
    d.explicit ||
    !((d.action === "update" && byMethod === "replace") || d.op.method === "head")
  )
    return undefined;
  const attempt = [...base.slice(0, -1), byMethod];
  if (claims.taken.has(attempt.join(" ")) || byName.has(attempt.join(" "))) return undefined;
  d.action = byMethod;
  d.actionFrom = "method";
  return attempt;
}

/**
 * The last resort before a number: a version or any word of one operation's texts that the others' lack (`wordsOf`:
 * last-resort.ts's lastResortWords, then its finalWords).
 */
function lastResort(
  d: Draft,
  group: Draft[],
  base: string[],
  free: (attempt: string[]) => boolean,
  wordsOf: typeof lastResortWords = lastResortWords,
): { path: string[]; used: Draft["qualifiers"] } | undefined {
  const rest = group.filter((x) => x !== d).map((x) => x.op);
  const verb = base[base.length - 1]!.split("-")[0]!;
  for (const told of wordsOf(d.op, rest, base)) {
    if (told.words.some((token) => restatesVerb(token, verb) || saysNothing({ token, from: told.from }))) continue;
    const attempt = withQualifier(base, told.words);
    if (free(attempt)) return { path: attempt, used: told.words.map((token) => ({ token, from: told.from })) };
  }
  return undefined;
}

/**
 * Nothing of its own: every word it says, another of the group says too. One whose name says no more than this one's
 * words (the plain name, or `get-extended` for `ExtendedDatabase…` beside `ExtendedServer…`) but which says more hands
 * its name over and takes one more of its words (`get-extended-database`), so neither is numbered.
 */
function handOver(
  d: Draft,
  ctx: GroupContext,
  free: (attempt: string[]) => boolean,
  wordsOf: typeof lastResortWords = lastResortWords,
): { path: string[]; used: Draft["qualifiers"] } | undefined {
  const { name, group, claims, report } = ctx;
  for (const holder of group) {
    const held = claims.chosen.get(holder);
    if (holder === d || !held || holder.explicit || !saysAll(d.op, held.qualifier?.words ?? [])) continue;
    const told = wordsOf(holder.op, [d.op], held.path).find((t) => free(withQualifier(held.path, t.words)));
    if (!told) continue;
    const moved = withQualifier(held.path, told.words);
    const used = (held.qualifier?.words ?? []).map((token) => ({ token, from: held.qualifier!.from }));
    claims.taken.delete(held.path.join(" "));
    claims.claim(holder, moved, {
      words: [...(held.qualifier?.words ?? []), ...told.words],
      from: told.from,
      with: group.filter((x) => x !== holder).map((x) => `${x.op.method.toUpperCase()} ${x.op.path}`),
    });
    report({
      kind: "collision",
      command: moved.join(" "),
      operation: holder.op.id,
      message: `"${name}" is wanted by ${count(group.length, "operation")}; ${holder.op.method.toUpperCase()} ${holder.op.path} is "${moved.join(" ")}" (its own words: ${told.words.join(", ")})`,
    });
    return { path: held.path, used };
  }
  return undefined;
}
