import type { Operation } from "../../openapi/model.js";
import type { NameSource } from "../types.js";
import { clean, isParam, segmentsOf } from "./path-words.js";

/** A draft: one operation's name before collisions are settled, and the words that may yet tell it apart. */

export interface Draft {
  op: Operation;
  resource: string;
  resourceFrom: NameSource["resource"]["from"];
  sub: string;
  action: string;
  actionFrom: NameSource["action"]["from"];
  actionText?: string;
  /** Why the action is not the verb the operation states (it contradicted the method). */
  actionReason?: string;
  /** The verb names the resource itself (GET /search "Search for items", POST /bookings "Book a room"). */
  verbIsResource?: string;
  /** Words that may tell this command apart from others of the same name, most telling first. */
  qualifiers: Array<{ token: string; from: NonNullable<NameSource["qualifier"]>["from"] }>;
  /** The words after the stated verb ("Get User's Saved Albums" → user, saved, albums). */
  object: string[];
  explicit?: string[];
  dropped: string[];
}

export function basePath(d: Draft): string[] {
  if (d.explicit) return d.explicit.length === 1 ? [d.resource, d.explicit[0]!] : d.explicit.slice(0, 3);
  const sub = clean(d.sub);
  return [d.resource, ...(sub ? [sub] : []), d.action];
}

/** Whether an operation acts on one item (its path ends at a parameter) rather than on its collection. */
export const onItem = (d: Draft) => isParam(lastSegmentOf(d));

export const lastSegmentOf = (d: Draft) => segmentsOf(d.op.path).at(-1) ?? "";
