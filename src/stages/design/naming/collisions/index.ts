import { FINAL_WORDS } from "./final-words.js";
import { HAND_OVER } from "./hand-over.js";
import { LAST_RESORT } from "./last-resort.js";
import { METHOD_WORD } from "./method-word.js";
import { NUMBER } from "./number.js";
import { OWN_WORDS } from "./own-words.js";
import type { CollisionRule } from "./rule.js";

/**
 * The ways to tell colliding operations apart, in the order they are tried (docs/naming.md, "Collisions"): the first
 * that finds a free name gives it. NUMBER always does, so it stays last. A new way is a module of this folder and its
 * entry here; test/unit/naming-registry.test.ts fails on a module left out.
 */
export const COLLISION_RULES: readonly CollisionRule[] = [
  OWN_WORDS,
  METHOD_WORD,
  LAST_RESORT,
  HAND_OVER,
  FINAL_WORDS,
  NUMBER,
];
