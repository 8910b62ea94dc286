import type { Claims, NamingReport } from "../claims.js";
import type { Draft } from "../draft.js";

/**
 * A way to tell apart operations that want the same command name (docs/naming.md, "Collisions"). Each is a module of
 * this folder, tried in the order of COLLISION_RULES (index.ts) for every draft that does not keep the plain name.
 */
export interface CollisionRule {
  name: string;
  /** What it tells a draft apart by, in one line. */
  why: string;
  /** The draft's new name and the words that tell it, or undefined when this rule finds no free one. */
  tell: (d: Draft, c: Collision) => TellApart | undefined;
}

export interface TellApart {
  path: string[];
  used: Draft["qualifiers"];
}

/** A group of drafts that want one name, and the names given so far. */
export interface GroupContext {
  name: string;
  group: Draft[];
  base: string[];
  claims: Claims;
  byName: Map<string, Draft[]>;
  report: NamingReport;
  tellingTokens: (x: Draft) => Set<string>;
}

/** One draft of the group to tell apart: the group, and what the draft says that the others do not. */
export interface Collision extends GroupContext {
  /** Its telling words that no other of the group says. */
  own: Draft["qualifiers"];
  /** Words the path's shape gives where no word differs: `all` on a collection beside items, `id` on a wire name. */
  structural: Draft["qualifiers"];
  /** Whether a name is neither given already nor the name another group wants. */
  free: (attempt: string[]) => boolean;
}
