import { count } from "../../../core/plural.js";
import { withQualifier, type Claims, type NamingReport } from "./claims.js";
import { COLLISION_RULES } from "./collisions/index.js";
import type { GroupContext, TellApart } from "./collisions/rule.js";
import { basePath, lastSegmentOf, onItem, type Draft } from "./draft.js";
import { awsRpcMethod, rpcVerbAt, SELECTOR_PARAM } from "./path-words.js";
import { answers } from "./crud-word.js";
import { operationIdTokens } from "../verbs.js";
import { READ_VERBS } from "../../../core/verbs.js";
import { canonical, distinguishing, telling } from "./telling.js";
import { kebab, singular } from "../word-forms.js";
import { pathVersionOf, unversionedPath } from "./last-resort-words.js";

/** Names for the drafts that want one name: by their method's word, the plain name to one, words of their own. */

/**
 * The word a draft's method says, where it tells it from the rest of its group: a PUT and a PATCH that both say
 * "update" (the PUT replaces); a PATCH beside a PUT that both say "create" (`CreateOrUpdate` beside `Update`), or a PUT
 * on an item beside a POST on its collection (the PATCH or the PUT updates); a HEAD beside a GET (`check`); two reads,
 * one on a collection and one on its items (the collection's is `list`, the item's `get`).
 */
function methodWordOf(d: Draft, group: Draft[]): string | undefined {
  // An item is `{id}` after a plural word; a singular sub-resource (`/cards/{id}/board`) and a selector
  // (`…/{field}`) are not a collection and its items.
  const reads = (x: Draft) =>
    x.op.method === "get" &&
    (x.action === "get" || x.action === "list") &&
    (onItem(x)
      ? !SELECTOR_PARAM.test(lastSegmentOf(x))
      : singular(kebab(lastSegmentOf(x))) !== kebab(lastSegmentOf(x)));
  if (d.action === "update" && d.op.method === "put" && group.some((x) => x.op.method !== "put")) return "replace";
  if (d.op.method === "head" && group.some((x) => x.op.method !== "head")) return "check";
  if (
    (d.op.method === "patch" && d.action !== "update" && group.some((x) => x.op.method === "put")) ||
    (d.op.method === "put" &&
      onItem(d) &&
      d.action !== "update" &&
      group.some((x) => x.op.method === "post" && !onItem(x)))
  )
    return "update";
  if (!(reads(d) && group.some((x) => x !== d && reads(x) && onItem(x) !== onItem(d)))) return undefined;
  if (onItem(d)) return d.action === "get" || answers(d.op) === "many" ? undefined : "get";
  return d.action === "list" || answers(d.op) === "one" ? undefined : "list";
}

/** The read verb an AWS method names itself by (`DescribeStacks` → describe, `AdminGetUser` → get), if it names one. */
function ownReadVerb(d: Draft): string | undefined {
  const aws = awsRpcMethod(d.op.path);
  const tokens = aws ? operationIdTokens(aws, true) : [];
  const word = tokens[rpcVerbAt(tokens)];
  return word && READ_VERBS.has(word) ? word : undefined;
}

/**
 * Two AWS reads named by different read verbs, that the designer's verb made one (`DescribeStacks` and `ListStacks`,
 * both `stacks list`): the one whose own verb is not its action is named by it (`stacks describe`), as the service and
 * its own CLI call it. AWS's verbs say different calls (a Describe the full records, a List their summaries); other
 * documents' `find` beside `get` say less than their words.
 */
function ownVerbOf(d: Draft, group: Draft[]): string | undefined {
  const own = ownReadVerb(d);
  if (!own || own === d.action || !READ_VERBS.has(d.action)) return undefined;
  return group.some((x) => x !== d && ownReadVerb(x) === x.action) ? own : undefined;
}

/** Names the drafts of a group that their method's own word tells apart; they leave the group. */
function nameByMethod(name: string, group: Draft[], base: string[], claims: Claims, byName: Map<string, Draft[]>) {
  // The method's word first: where it tells any of them apart, the calls' own verbs are not asked.
  const byMethod = group.some((d) => methodWordOf(d, group));
  for (const d of [...group]) {
    const own = byMethod ? undefined : ownVerbOf(d, group);
    const word = methodWordOf(d, group) ?? own;
    const attempt = word && !d.explicit ? [...base.slice(0, -1), word] : undefined;
    if (!attempt || claims.taken.has(attempt.join(" ")) || byName.has(attempt.join(" "))) continue;
    d.action = word!;
    d.actionFrom = "method";
    d.actionReason =
      word === own
        ? `${d.op.operationId ?? d.op.path} names itself "${own}" beside ${group
            .filter((x) => x !== d)
            .map((x) => x.op.operationId ?? x.op.path)
            .join(", ")} on "${name}": the call's own verb tells them apart`
        : `${d.op.method.toUpperCase()} beside ${group
            .filter((x) => x !== d)
            .map((x) => x.op.method.toUpperCase())
            .join(", ")} on "${name}": the method's own word tells them apart`;
    claims.claim(d, attempt);
    group.splice(group.indexOf(d), 1);
  }
}

/**
 * Which version of an operation keeps its plain name, as a rank compared place by place: one the document does not
 * deprecate, then a stable one (not alpha or beta), then the newest (`v4` over `v3`, `v2beta2` over `v2beta1`).
 */
function versionRank(d: Draft, version: string): number[] {
  const [, major, stage, minor] = /^v(\d+)(alpha|beta)?(\d*)$/.exec(version) ?? [];
  const stable = stage === undefined;
  return [d.op.deprecated ? 0 : 1, stable ? 1 : 0, Number(major ?? 0), stage === "beta" ? 1 : 0, Number(minor || 0)];
}

/** Whether rank `a` comes before rank `b`: at the first place they differ, it is higher. */
const ranksAbove = (a: number[], b: number[]) => {
  const at = a.findIndex((n, i) => n !== b[i]);
  return at >= 0 && a[at]! > b[at]!;
};

/**
 * The same operation in several versions of the API (`GET /v3/payees` beside `GET /v4/payees`: one method and one path
 * but for its version segment, each of another version): one keeps the plain name (versionRank: the newest stable one
 * the document does not deprecate), and each other is named by its version (`payees list-v3`). Their words told them
 * apart by chance: the older one's "Use v4 instead" named it `list-use`, an operationId's `getV1Cities` `list-getv1`.
 * Named drafts leave the group; one whose versioned name is taken stays for the other rules.
 */
function nameByVersion(
  name: string,
  group: Draft[],
  base: string[],
  claims: Claims,
  byName: Map<string, Draft[]>,
  report: NamingReport,
) {
  if (group.some((d) => d.explicit)) return;
  const versions = group.map((d) => pathVersionOf(d.op.path));
  if (versions.some((v) => !v) || new Set(versions).size !== group.length) return;
  if (new Set(group.map((d) => `${d.op.method} ${unversionedPath(d.op.path)}`)).size !== 1) return;
  const ranks = group.map((d, i) => versionRank(d, versions[i]!));
  const keeper = ranks.reduce((best, rank, i) => (best < 0 || ranksAbove(rank, ranks[best]!) ? i : best), -1);
  const free = (path: string[]) => !claims.taken.has(path.join(" ")) && !byName.has(path.join(" "));
  const paths = group.map((d) => `${d.op.method.toUpperCase()} ${d.op.path}`);
  const named = group.flatMap((d, i) => {
    // The plain name is the one this group wants: only another group's claim keeps it from the keeper.
    if (i === keeper && !claims.taken.has(base.join(" "))) {
      claims.claim(d, base);
      return [d];
    }
    const path = withQualifier(base, [versions[i]!]);
    if (!free(path)) return [];
    claims.claim(d, path, { words: [versions[i]!], from: "path", with: paths.filter((p) => p !== paths[i]) });
    report({
      kind: "collision",
      command: path.join(" "),
      operation: d.op.id,
      message: `"${name}" is wanted by ${count(group.length, "version")} of ${d.op.method.toUpperCase()} ${unversionedPath(d.op.path)}; ${paths[i]} is "${path.join(" ")}" (its version: ${versions[i]})`,
    });
    return [d];
  });
  for (const d of named) group.splice(group.indexOf(d), 1);
}

/** What a group's drafts say beyond its name, and which of them keeps the plain name (-1: none). */
interface GroupWords {
  own: Draft["qualifiers"][];
  /** Words the path's shape gives where no word differs: `-all` on a collection beside items, `-id` on a wire name. */
  shape: (d: Draft) => Draft["qualifiers"];
  plain: number;
}

function groupWords(name: string, group: Draft[], base: string[], claims: Claims): GroupWords {
  const lists = group.map((d) => distinguishing(d, base));
  // Words every colliding operation says tell none of them apart.
  const common = new Set(lists[0]!.map((q) => q.token).filter((t) => lists.every((l) => l.some((q) => q.token === t))));
  const own = lists.map((l) => l.filter((q) => !common.has(q.token)));
  // The operation whose statement adds nothing to the name keeps it plain (`albums list` "Get several albums"
  // beside `albums list-saved` "Get the user's saved albums").
  const stated = own.map((l, i) => l.filter((q) => group[i]!.object.includes(q.token)));
  // Failing that, the one whose path and id add nothing (`/stores/{id}` beside `/merchants/{m}/stores/{id}`).
  // When several have nothing to add, the first in the document keeps it and the others are numbered.
  const onlyEmpty = (lists: Draft["qualifiers"][]) =>
    lists.filter((l) => !l.length).length === 1 ? lists.findIndex((l) => !l.length) : -1;
  // DELETE /users/{id}/schedulers beside DELETE /users/{id}/schedulers/{schedulerId}: the one on the collection
  // acts on all of it, and says so (`delete-all`); the one on an item keeps the plain name.
  const onCollection = (d: Draft) =>
    !onItem(d) &&
    d.op.method !== "get" &&
    d.op.method !== "post" &&
    group.some((x) => x !== d && onItem(x) && x.op.method === d.op.method);
  const wireId = (d: Draft) =>
    d.op.path.split("/").some((s) => /^id[A-Z]/.test(s)) &&
    group.some((x) => x !== d && !x.op.path.split("/").some((s) => /^id[A-Z]/.test(s)));
  const shape = (d: Draft): Draft["qualifiers"] => [
    ...(onCollection(d) ? [{ token: "all", from: "path" as const }] : []),
    ...(wireId(d) ? [{ token: "id", from: "path" as const }] : []),
  ];
  const bare = own.findIndex((l, i) => !l.length && !shape(group[i]!).length);
  const plain = claims.taken.has(name)
    ? -1
    : onlyEmpty(stated) >= 0
      ? onlyEmpty(stated)
      : onlyEmpty(own) >= 0
        ? onlyEmpty(own)
        : bare >= 0
          ? bare
          : own.some((l) => !l.length)
            ? own.findIndex((l) => !l.length)
            : canonical(group, base);
  return { own, shape, plain };
}

/** One group's names: by method where that tells, the plain name to one, words of their own to the others. */
export function nameGroup(
  name: string,
  group: Draft[],
  claims: Claims,
  byName: Map<string, Draft[]>,
  report: NamingReport,
): void {
  if (group.length === 1 && !claims.taken.has(name)) {
    claims.claim(group[0]!, basePath(group[0]!));
    return;
  }
  const base = basePath(group[0]!);
  nameByMethod(name, group, base, claims, byName);
  nameByVersion(name, group, base, claims, byName, report);
  if (!group.length) return;
  if (group.length === 1 && !claims.taken.has(name)) {
    claims.claim(group[0]!, base);
    return;
  }
  const words = groupWords(name, group, base, claims);
  // What each of the group tells, once: a name thousands of operations want is asked of every one for every one.
  const told = new Map<Draft, Set<string>>();
  const tellingTokens = (x: Draft) => {
    let tokens = told.get(x);
    if (!tokens) told.set(x, (tokens = new Set(telling(x, base).map((q) => q.token))));
    return tokens;
  };
  const others = group
    .map((d, i) => ({ d, i }))
    .sort((a, b) => (a.i === words.plain ? -1 : b.i === words.plain ? 1 : 0));
  for (const { d, i } of others) {
    if (i === words.plain) claims.claim(d, base);
    else qualify(d, words.own[i]!, words.shape(d), { name, group, base, claims, byName, report, tellingTokens });
  }
}

/**
 * A name of its own for a draft that does not keep the plain one, by the first of COLLISION_RULES that finds one: its
 * most telling words first; failing those, any whole word its texts say and the others' do not; then the method's word
 * (PUT from PATCH, HEAD from GET); then a version or any word of its texts; then a name handed over by one that says
 * more; a number only when nothing differs.
 */
function qualify(d: Draft, own: Draft["qualifiers"], structural: Draft["qualifiers"], ctx: GroupContext): void {
  const { name, group, claims, byName, report } = ctx;
  const collidesWith = group.filter((x) => x !== d).map((x) => `${x.op.method.toUpperCase()} ${x.op.path}`);
  const free = (attempt: string[]) => !claims.taken.has(attempt.join(" ")) && !byName.has(attempt.join(" "));
  const collision = { ...ctx, own, structural, free };
  let told: TellApart | undefined;
  for (const rule of COLLISION_RULES) if ((told = rule.tell(d, collision))) break;
  // The last rule, a number, always tells.
  const { path, used } = told!;
  claims.claim(d, path, { words: used.map((q) => q.token), from: used[0]?.from ?? "path", with: collidesWith });
  report({
    kind: "collision",
    command: path.join(" "),
    operation: d.op.id,
    message: `"${name}" is wanted by ${count(group.length, "operation")}; ${d.op.method.toUpperCase()} ${d.op.path} is "${path.join(" ")}"${used.length ? ` (its own words: ${used.map((q) => q.token).join(", ")})` : " (nothing in its description differs)"}`,
  });
}
