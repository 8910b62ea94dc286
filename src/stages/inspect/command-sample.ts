import type { Json, JsonObject } from "./probe.js";

/**
 * A bounded, deterministic sample of a CLI's commands that covers every shape a command can take (issue #46): which
 * commands' own `--describe` the inspection asks the CLI for, to hold its manifest to what it prints. One command of
 * each shape first (in the order the CLI lists them), then an even spread of the rest, at most `max` in all. The
 * shapes are what the rules and the probes read: the verb, safety, paging, a body, a credential, required and
 * constrained flags, long descriptions, and the output.
 */

type Shape = [string, (c: JsonObject) => boolean];

const parametersOf = (c: JsonObject): JsonObject[] =>
  Array.isArray(c.parameters)
    ? c.parameters.filter((p): p is JsonObject => !!p && typeof p === "object" && !Array.isArray(p))
    : [];
const method = (verb: string): Shape => [
  `${verb}`,
  (c) => typeof c.method === "string" && c.method.toUpperCase() === verb,
];

const SHAPES: Shape[] = [
  method("GET"),
  method("POST"),
  method("PUT"),
  method("PATCH"),
  method("DELETE"),
  ["destructive", (c) => c.destructive === true],
  ["paginated", (c) => c.pagination !== undefined],
  ["with a body", (c) => c.jsonInput === true],
  ["needing a credential", (c) => c.auth === true],
  ["with required flags", (c) => parametersOf(c).some((p) => p.required === true)],
  ["with a fixed set of values", (c) => parametersOf(c).some((p) => "enum" in p)],
  ["with a default", (c) => parametersOf(c).some((p) => "default" in p)],
  ["with limits", (c) => parametersOf(c).some((p) => "pattern" in p || "minimum" in p || "maxLength" in p)],
  ["with a long description", (c) => "details" in c || parametersOf(c).some((p) => "details" in p)],
  ["listing", (c) => c.output === "array"],
  ["printing nothing", (c) => c.output === "empty"],
];

export interface CommandSample<T> {
  chosen: T[];
  /** How they were chosen, for the receipt. */
  how: string;
}

/** At most `max` commands: the first of each shape, then an even spread of the rest, in the order given. */
export function sampleCommands<T extends JsonObject | Json>(commands: T[], max: number): CommandSample<T> {
  if (commands.length <= max) return { chosen: [...commands], how: "every command" };
  const picked = new Set<number>();
  const covered: string[] = [];
  for (const [shape, has] of SHAPES) {
    if (picked.size >= max) break;
    const fits = (c: T | undefined) => isObject(c) && has(c);
    if ([...picked].some((i) => fits(commands[i]))) {
      covered.push(shape);
      continue;
    }
    const at = commands.findIndex(fits);
    if (at < 0) continue;
    covered.push(shape);
    picked.add(at);
  }
  const room = max - picked.size;
  const step = commands.length / Math.max(1, room);
  for (let i = 0; picked.size < max && i < room; i++) picked.add(Math.floor(i * step));
  // An index taken twice leaves a place: the next free ones fill it, so the sample is `max` when it can be.
  for (let i = 0; picked.size < max && i < commands.length; i++) picked.add(i);
  const chosen = [...picked].sort((a, b) => a - b).map((i) => commands[i]!);
  return {
    chosen,
    how: `the first command of each shape (${covered.join(", ")}), then an even spread in the order the CLI lists them`,
  };
}

const isObject = (value: unknown): value is JsonObject => !!value && typeof value === "object" && !Array.isArray(value);
