import type { $Refs } from "@apidevtools/json-schema-ref-parser";
import { dirname, resolve } from "node:path";

/** A problem at one place in the document: the operation that contains it is skipped, the rest still builds. */
export class DocumentProblem extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

export interface Located<T = unknown> {
  value: T;
  /** File (absolute) that relative `$ref`s inside `value` resolve against. */
  base: string;
}

/**
 * Follows `$ref`s lazily through the parser's resolved documents, one node at a time, so a cycle is noticed (and cut)
 * where it closes instead of being expanded forever, and a dangling reference spoils only the operation using it.
 */
export class Resolver {
  readonly files = new Set<string>();
  /** Summaries of named schemas by depth and resolved `$ref` (see stages/openapi/schema.ts). */
  readonly summaries = new Map<string, unknown>();
  visits = 0;
  overBudget = false;

  constructor(private readonly refs: $Refs) {
    for (const file of refs.paths()) this.files.add(file);
  }

  /** What each absolute `$ref` target is (or why it cannot be resolved): found once, however many chains pass through. */
  private readonly targets = new Map<string, { value: unknown } | { error: string }>();

  private target(target: string, ref: string, where: string): unknown {
    let found = this.targets.get(target);
    if (!found) {
      try {
        found = { value: this.refs.get(target) };
      } catch (error) {
        found = { error: (error as Error).message.split("\n")[0]! };
      }
      this.targets.set(target, found);
    }
    if ("error" in found) throw new DocumentProblem(`$ref "${ref}" cannot be resolved: ${found.error}`, where);
    return found.value;
  }

  absolute(ref: string, base: string): string {
    if (ref.startsWith("#")) return `${base}${ref}`;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) return ref;
    const [file, fragment = ""] = ref.split("#");
    return `${resolve(dirname(base), decodeURIComponent(file!))}${fragment ? `#${fragment}` : ""}`;
  }

  /** The node itself, or what its `$ref` chain points to; `seen` holds the refs already being expanded above it. */
  deref<T = unknown>(
    node: unknown,
    base: string,
    where: string,
    seen: ReadonlySet<string> = new Set(),
  ): Located<T> & { cycle: boolean; seen: Set<string> } {
    let current = node;
    let currentBase = base;
    const chain = new Set(seen);
    for (let hops = 0; isRef(current); hops++) {
      const target = this.absolute(current.$ref, currentBase);
      if (chain.has(target) || hops > 64) return { value: {} as T, base: currentBase, cycle: true, seen: chain };
      chain.add(target);
      if (!target.startsWith("/"))
        throw new DocumentProblem(
          `$ref "${current.$ref}" is not a local file or pointer (remote references are not fetched)`,
          where,
        );
      const ref = current.$ref;
      current = this.target(target, ref, where);
      currentBase = target.split("#")[0]!;
      this.files.add(currentBase);
    }
    return { value: current as T, base: currentBase, cycle: false, seen: chain };
  }
}

export function isRef(node: unknown): node is { $ref: string } {
  return !!node && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string";
}

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
