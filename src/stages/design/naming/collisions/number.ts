import { withQualifier } from "../claims.js";
import type { CollisionRule } from "./rule.js";

/** Only when nothing differs at all: the first number from 2 whose name is not given (`delete-2`). Always tells. */
export const NUMBER: CollisionRule = {
  name: "number",
  why: "nothing in its texts differs: the first free number from 2",
  tell(_d, { base, claims }) {
    for (let n = 2; ; n++) {
      const attempt = withQualifier(base, [String(n)]);
      if (!claims.taken.has(attempt.join(" "))) return { path: attempt, used: [] };
    }
  },
};
