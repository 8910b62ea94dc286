import { ExactInteger } from "./exact.js";
import { CliError } from "./errors.js";
import type { Flag, Limits } from "./manifest.js";
import { count } from "../core/plural.js";

/** The JSON Schema keywords that bound a value: what a flag carries from its schema into help, MCP and validation. */
export const BOUND_KEYS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
] as const;

/** The bounds an array flag's elements carry (an array's own length bounds are not its elements'). */
export const ELEMENT_BOUND_KEYS = BOUND_KEYS.filter(
  (k): k is Exclude<(typeof BOUND_KEYS)[number], "minItems" | "maxItems"> => k !== "minItems" && k !== "maxItems",
);

/** The bounds and the format: what help and an MCP tool's schema state of a flag. */
export const LIMIT_KEYS = ["format", ...BOUND_KEYS] as const;

/** Formats whose shape is unambiguous; anything else (e.g. "password", "byte") is left to the server. */
const FORMATS: Record<string, { test: (v: string) => boolean; example: string }> = {
  date: {
    test: (v) =>
      /^\d{4}-\d{2}-\d{2}$/.test(v) &&
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
      new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    example: "2026-05-04",
  },
  "date-time": {
    test: (v) =>
      /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/.test(v) &&
      !Number.isNaN(Date.parse(v)),
    example: "2026-05-04T09:30:00Z",
  },
  time: {
    test: (v) => /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/.test(v),
    example: "09:30:00",
  },
  email: { test: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), example: "name@example.com" },
  uuid: {
    test: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
    example: "123e4567-e89b-12d3-a456-426614174000",
  },
  uri: { test: (v) => URL.canParse(v), example: "https://example.com/x" },
  url: { test: (v) => URL.canParse(v), example: "https://example.com/x" },
  ipv4: { test: (v) => /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(v), example: "192.0.2.1" },
};

/** The limits of a flag in words, for help and messages: "an integer from 1 to 30". */
export function describeLimits(flag: Limits & { format?: string; requires?: string[] }): string[] {
  const out: string[] = [];
  if (flag.minimum !== undefined && flag.maximum !== undefined) out.push(`from ${flag.minimum} to ${flag.maximum}`);
  else if (flag.minimum !== undefined) out.push(`at least ${flag.minimum}`);
  else if (flag.maximum !== undefined) out.push(`at most ${flag.maximum}`);
  if (flag.exclusiveMinimum !== undefined) out.push(`greater than ${flag.exclusiveMinimum}`);
  if (flag.exclusiveMaximum !== undefined) out.push(`less than ${flag.exclusiveMaximum}`);
  if (flag.multipleOf !== undefined) out.push(`a multiple of ${flag.multipleOf}`);
  if (flag.minLength !== undefined) out.push(`at least ${flag.minLength} characters`);
  if (flag.maxLength !== undefined) out.push(`at most ${flag.maxLength} characters`);
  if (flag.pattern !== undefined) out.push(`matching /${flag.pattern}/`);
  if (flag.format && FORMATS[flag.format]) out.push(`a ${flag.format} such as ${FORMATS[flag.format]!.example}`);
  if (flag.requires?.length) out.push(`with the keys ${flag.requires.join(", ")}`);
  if (flag.minItems !== undefined) out.push(`at least ${count(flag.minItems, "value")}`);
  if (flag.maxItems !== undefined) out.push(`at most ${count(flag.maxItems, "value")}`);
  return out;
}

/** Whether a value is a whole number of steps (`0.3` of `0.1` is, whatever binary fractions make of it). */
function isMultiple(value: number, step: number): boolean {
  const steps = value / step;
  return Math.abs(steps - Math.round(steps)) < 1e-9;
}

function refuse(flag: Flag, value: unknown, bound: string, limit: unknown): never {
  throw new CliError(
    "VALIDATION_ERROR",
    `--${flag.flag} must be ${bound} (got ${JSON.stringify(value)}).`,
    `Fix --${flag.flag} as the message says; the command's --help lists every flag's type and limits.`,
    { flag: flag.flag, value, bound: limit },
  );
}

function checkOne(flag: Flag, raw: unknown): void {
  if (
    flag.requires &&
    typeof raw === "object" &&
    raw !== null &&
    !Array.isArray(raw) &&
    !(raw instanceof ExactInteger)
  ) {
    const missing = flag.requires.filter((k) => !Object.hasOwn(raw, k));
    if (missing.length) refuse(flag, raw, `an object with the keys ${flag.requires.join(", ")}`, { requires: missing });
  }
  // An exact integer past 2^53 is compared by its nearest double: bounds that close together are not told apart.
  const value = raw instanceof ExactInteger ? raw.valueOf() : raw;
  if (typeof value === "number") {
    if (flag.minimum !== undefined && value < flag.minimum)
      refuse(flag, value, `at least ${flag.minimum}`, { minimum: flag.minimum });
    if (flag.maximum !== undefined && value > flag.maximum)
      refuse(flag, value, `at most ${flag.maximum}`, { maximum: flag.maximum });
    if (flag.exclusiveMinimum !== undefined && value <= flag.exclusiveMinimum)
      refuse(flag, value, `greater than ${flag.exclusiveMinimum}`, { exclusiveMinimum: flag.exclusiveMinimum });
    if (flag.exclusiveMaximum !== undefined && value >= flag.exclusiveMaximum)
      refuse(flag, value, `less than ${flag.exclusiveMaximum}`, { exclusiveMaximum: flag.exclusiveMaximum });
    if (flag.multipleOf !== undefined && !isMultiple(value, flag.multipleOf))
      refuse(flag, value, `a multiple of ${flag.multipleOf}`, { multipleOf: flag.multipleOf });
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (flag.minLength !== undefined && length < flag.minLength)
      refuse(flag, value, `at least ${flag.minLength} characters long`, { minLength: flag.minLength });
    if (flag.maxLength !== undefined && length > flag.maxLength)
      refuse(flag, value, `at most ${flag.maxLength} characters long`, { maxLength: flag.maxLength });
    if (flag.pattern !== undefined) {
      let re: RegExp | undefined;
      try {
        re = new RegExp(flag.pattern, "u");
      } catch {
        re = undefined;
      }
      if (re && !re.test(value)) refuse(flag, value, `matching /${flag.pattern}/`, { pattern: flag.pattern });
    }
    const format = flag.format ? FORMATS[flag.format] : undefined;
    if (format && !format.test(value))
      refuse(flag, value, `a ${flag.format} such as ${format.example}`, { format: flag.format });
  }
}

/** Refuses a value outside the document's limits before any request: VALIDATION_ERROR names the flag, value and bound. */
export function checkLimits(flag: Flag, value: unknown): void {
  if (Array.isArray(value)) {
    if (flag.minItems !== undefined && value.length < flag.minItems)
      refuse(flag, value, `at least ${count(flag.minItems, "value")}`, { minItems: flag.minItems });
    if (flag.maxItems !== undefined && value.length > flag.maxItems)
      refuse(flag, value, `at most ${count(flag.maxItems, "value")}`, { maxItems: flag.maxItems });
    for (const v of value) checkOne(flag, v);
    return;
  }
  checkOne(flag, value);
}
