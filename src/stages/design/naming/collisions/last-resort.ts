import { PLAIN_READS, POSTED_READ } from "../../../../core/verbs.js";
import { withQualifier } from "../claims.js";
import type { Draft } from "../draft.js";
import { lastResortWords } from "../last-resort-words.js";
import { restatesVerb, saysNothing } from "../telling.js";
import type { CollisionRule, TellApart } from "./rule.js";

/**
 * The last resort before a number: a version or any word of one operation's texts that the others' lack (`wordsOf`:
 * last-resort-words.ts's lastResortWords, then its finalWords).
 */
export function lastResort(
  d: Draft,
  group: Draft[],
  base: string[],
  free: (attempt: string[]) => boolean,
  wordsOf: typeof lastResortWords = lastResortWords,
): TellApart | undefined {
  const rest = group.filter((x) => x !== d).map((x) => x.op);
  const verb = base[base.length - 1]!.split("-")[0]!;
  // A posted read's qualifier never puts the read back (`request-get`): it was named `request` not to say it.
  const readBack = (token: string) => verb === POSTED_READ && d.actionFrom === "method" && PLAIN_READS.has(token);
  for (const told of wordsOf(d.op, rest, base)) {
    if (
      told.words.some(
        (token) => restatesVerb(token, verb) || readBack(token) || saysNothing({ token, from: told.from }),
      )
    )
      continue;
    const attempt = withQualifier(base, told.words);
    if (free(attempt)) return { path: attempt, used: told.words.map((token) => ({ token, from: told.from })) };
  }
  return undefined;
}

export const LAST_RESORT: CollisionRule = {
  name: "last-resort",
  why: "a version the others lack, else any whole word of its texts none of the others says",
  // An `x-cli-name` is the document's own name: only its own telling words, its method's word or a number qualify it.
  tell: (d, { group, base, free }) => (d.explicit ? undefined : lastResort(d, group, base, free)),
};
