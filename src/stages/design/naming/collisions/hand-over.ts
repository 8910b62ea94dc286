import { count } from "../../../../core/plural.js";
import { withQualifier } from "../claims.js";
import type { Draft } from "../draft.js";
import { lastResortWords, saysAll } from "../last-resort-words.js";
import type { Collision, CollisionRule, TellApart } from "./rule.js";

/**
 * Nothing of its own: every word it says, another of the group says too. One whose name says no more than this one's
 * words (the plain name, or `get-extended` for `ExtendedDatabase…` beside `ExtendedServer…`) but which says more hands
 * its name over and takes one more of its words (`get-extended-database`), so neither is numbered.
 */
export function handOver(
  d: Draft,
  ctx: Collision,
  wordsOf: typeof lastResortWords = lastResortWords,
): TellApart | undefined {
  const { name, group, claims, report, free } = ctx;
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

export const HAND_OVER: CollisionRule = {
  name: "hand-over",
  why: "the one holding the name it wants, if it says more, hands the name over and takes one more of its own words",
  tell: (d, c) => (d.explicit ? undefined : handOver(d, c)),
};
