import { finalWords } from "../last-resort-words.js";
import { handOver } from "./hand-over.js";
import { lastResort } from "./last-resort.js";
import type { CollisionRule } from "./rule.js";

/** The last resort and the hand-over again, with every word of the texts, however short or common (`get-me`). */
export const FINAL_WORDS: CollisionRule = {
  name: "final-words",
  why: "any word of its texts the others lack, however short or common, by itself or handed over",
  tell: (d, c) =>
    d.explicit ? undefined : (lastResort(d, c.group, c.base, c.free, finalWords) ?? handOver(d, c, finalWords)),
};
