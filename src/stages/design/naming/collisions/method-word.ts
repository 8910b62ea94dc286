import type { Claims } from "../claims.js";
import { crudWord } from "../crud-word.js";
import type { Draft } from "../draft.js";
import type { CollisionRule } from "./rule.js";
import { segmentsOf } from "../path-words.js";

/** The method's own word tells PUT from PATCH and HEAD from GET when their descriptions say the same. */
function byMethodWord(d: Draft, base: string[], claims: Claims, byName: Map<string, Draft[]>): string[] | undefined {
  const byMethod = crudWord(d.op, undefined, segmentsOf(d.op.path).at(-1) ?? "");
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

export const METHOD_WORD: CollisionRule = {
  name: "method-word",
  why: "the method's own word: replace for a PUT beside a PATCH, check for a HEAD beside a GET",
  tell(d, { base, claims, byName }) {
    const path = byMethodWord(d, base, claims, byName);
    return path ? { path, used: [] } : undefined;
  },
};
