import type { NameSource } from "../types.js";
import type { Draft } from "./draft.js";

/** The names given so far, how a name is qualified, and how a naming choice is reported. */

export const withQualifier = (path: string[], words: string[]) => [
  ...path.slice(0, -1),
  [path[path.length - 1], ...words].join("-"),
];

export interface Named {
  path: string[];
  source: NameSource;
}

export type Qualifier = { words: string[]; from: NonNullable<NameSource["qualifier"]>["from"]; with: string[] };
export type NamingReport = (note: {
  kind: "collision" | "renamed-resource";
  command?: string;
  operation: string;
  message: string;
}) => void;

/** The names given so far: which draft holds each, and each draft's path and what told it apart. */
export class Claims {
  readonly taken = new Map<string, Draft>();
  readonly chosen = new Map<Draft, { path: string[]; qualifier?: Qualifier }>();

  claim(d: Draft, path: string[], qualifier?: Qualifier): void {
    this.taken.set(path.join(" "), d);
    this.chosen.set(d, { path, ...(qualifier ? { qualifier } : {}) });
  }
}
