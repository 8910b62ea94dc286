import { withQualifier } from "../claims.js";
import type { Draft } from "../draft.js";
import { telling } from "../telling.js";
import type { CollisionRule } from "./rule.js";

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

export const OWN_WORDS: CollisionRule = {
  name: "own-words",
  why: "its most telling words first; failing those, any whole word its texts say and the others' do not",
  tell(d, { group, base, own, structural, free, tellingTokens }) {
    const weak = telling(d, base).filter(
      (q) => q.token !== "id" && q.token !== "ids" && !group.every((x) => x === d || tellingTokens(x).has(q.token)),
    );
    for (const words of qualifierChoices(own, weak, structural)) {
      const attempt = withQualifier(
        base,
        words.map((q) => q.token),
      );
      if (free(attempt)) return { path: attempt, used: words };
    }
    return undefined;
  },
};
