import { closest } from "../core/edit-distance.js";
import { count } from "../core/plural.js";
import { integerOf, parseExact } from "./exact.js";
import { guard, MAX_JSON_DEPTH, nestedDeeper, sanitize } from "./guard.js";
import { CliError } from "./errors.js";
import { checkLimits } from "./limits.js";
import { DEFAULT_MAX_RETRY_WAIT_S, maxRetryWait } from "./retry.js";
import type { Command, Flag, ValueType } from "./manifest.js";

/** Flags every command has (docs/generated-cli.md, "Output" and "Safety"). */
export const GLOBAL_BOOLEANS = [
  "help",
  "version",
  "agent",
  "human",
  "brief",
  "yes",
  "dry-run",
  "quiet",
  "json-input",
  "all",
  "mcp-schema",
  "describe",
  "sanitize",
  "ndjson",
  "redact",
  "force",
  // On unless --no-retry (retry.ts): 429 and 503 answers are tried again within bounds.
  "retry",
] as const;
export const GLOBAL_VALUES = ["fields", "max-pages", "output", "max-output-bytes", "max-retry-wait"] as const;
/** Global booleans that are on unless negated (`--no-retry`). */
export const GLOBAL_DEFAULT_ON: ReadonlySet<string> = new Set(["retry"]);
/** A global flag's name, without its dashes. */
export type GlobalFlag = (typeof GLOBAL_BOOLEANS)[number] | (typeof GLOBAL_VALUES)[number];
/** The flags the spec reserves (N4), in its order: each is one of the globals above, which every command takes. */
export const RESERVED_FLAGS = [
  "agent",
  "human",
  "brief",
  "help",
  "version",
  "yes",
  "dry-run",
  "quiet",
  "fields",
] as const satisfies readonly GlobalFlag[];

export type Globals = Record<(typeof GLOBAL_BOOLEANS)[number], boolean> & {
  fields?: string[];
  maxPages: number;
  /** Where a success answer is written byte for byte: a path, or `-` for stdout. */
  output?: string;
  maxOutputBytes?: number;
  /** `--max-retry-wait`: seconds of waiting between retries, in all. */
  maxRetryWait: number;
};

export interface Parsed {
  words: string[];
  globals: Globals;
  /** Command flags as given: flag name → raw string values (repeatable). */
  raw: Map<string, string[]>;
  /** Booleans given as --x / --no-x. */
  switches: Map<string, boolean>;
  positionals: string[];
}

export const MAX_PAGES_LIMIT = 100;
export const DEFAULT_MAX_PAGES = 10;

/** What a flag name is for the command being run; undefined when the command is not known yet. */
export type FlagKind = (name: string) => "boolean" | "value" | "unknown" | undefined;

/**
 * UNKNOWN_FLAG with "did you mean": the command's flags (and `no-` forms of its booleans) and the global flags within
 * edit distance of what was typed, closest first, then the command's flags that contain it or that it contains.
 */
export function unknownFlag(name: string, flags: readonly Flag[] = [], command?: string): CliError {
  const own = flags.flatMap((f) => (f.type === "boolean" ? [f.flag, `no-${f.flag}`] : [f.flag]));
  const typed = name.toLowerCase().replace(/_/g, "-");
  const near = closest(typed, [...own, ...GLOBAL_BOOLEANS, ...GLOBAL_VALUES]);
  const containing = own.filter(
    (f) => f !== typed && Math.min(f.length, typed.length) >= 3 && (f.includes(typed) || typed.includes(f)),
  );
  const suggestions = [...new Set([...near, ...containing])].slice(0, 5).map((f) => `--${f}`);
  const help = command ? `${command} --help` : "--help";
  return new CliError(
    "UNKNOWN_FLAG",
    `Unknown flag --${name}${command ? ` for "${command}"` : ""}.`,
    suggestions.length
      ? `Did you mean ${suggestions.join(", ")}? Run "${help}" for all flags.`
      : `Run "${help}" to see the flags.`,
    { flag: name, ...(suggestions.length ? { suggestions } : {}) },
  );
}

/** Global flags before anything is parsed: every boolean off (but retries), the default page and wait bounds. */
function defaultGlobals(): Globals {
  const globals = { maxPages: DEFAULT_MAX_PAGES, maxRetryWait: DEFAULT_MAX_RETRY_WAIT_S } as Globals;
  for (const name of GLOBAL_BOOLEANS) globals[name] = GLOBAL_DEFAULT_ON.has(name);
  return globals;
}

const given = (argv: string[], name: string) =>
  argv.some((a) => a === `--${name}` || (a.startsWith(`--${name}=`) && a !== `--${name}=false`));

/**
 * Whether `--version` is anywhere in argv: then the CLI prints its version and does nothing else (N6), whatever
 * command or flags surround it. No value can be "--version" (a flag followed by `--…` lacks its value), so an argument
 * that is exactly the flag is the flag.
 */
export function versionRequested(argv: string[]): boolean {
  return given(argv, "version");
}

/** The output flags of an argv that is not parsed further (--version anywhere): how to print, nothing else. */
export function outputGlobals(argv: string[]): Globals {
  const globals = defaultGlobals();
  for (const name of ["agent", "human", "quiet"] as const) globals[name] = given(argv, name);
  return globals;
}

/**
 * Splits argv into command words, global flags and command flags. `flags`, the known command's, are what an unknown
 * flag is compared with for suggestions. The values of global flags (--fields, --max-pages) pass the guardrails here,
 * before they are read (stripped first when --sanitize is anywhere in argv); command values pass them in the caller.
 */
export function splitArgv(argv: string[], kindOf: FlagKind, flags?: readonly Flag[], command?: string): Parsed {
  const booleanFlags = (name: string) => kindOf(name) === "boolean";
  const globals = defaultGlobals();
  const sanitizing = given(argv, "sanitize");
  const raw = new Map<string, string[]>();
  const switches = new Map<string, boolean>();
  const words: string[] = [];
  const positionals: string[] = [];
  let flagsStarted = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h") {
      globals.help = true;
      continue;
    }
    if (!arg.startsWith("--")) {
      if (arg.startsWith("-") && arg.length > 1 && !/^-\d/.test(arg)) {
        throw new CliError(
          "UNKNOWN_FLAG",
          `Unknown flag ${arg}: only --long-flags exist.`,
          "Run with --help to see the flags.",
        );
      }
      if (!flagsStarted && /^[a-z0-9][a-z0-9-]*$/.test(arg)) words.push(arg);
      else positionals.push(arg);
      continue;
    }
    flagsStarted = true;
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq >= 0 ? eq : undefined);
    const inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
    // A command's own value flag of a global's name wins there (`agents install --agent codex`; the global --agent
    // forces JSON, which built-ins print anyway).
    if (
      (GLOBAL_BOOLEANS as readonly string[]).includes(name) &&
      !flags?.some((f) => f.flag === name && f.type !== "boolean")
    ) {
      (globals as Record<string, boolean>)[name] = inline === undefined ? true : inline !== "false";
      continue;
    }
    if (name.startsWith("no-") && (GLOBAL_BOOLEANS as readonly string[]).includes(name.slice(3))) {
      (globals as Record<string, boolean>)[name.slice(3)] = false;
      continue;
    }
    if (booleanFlags(name) && inline === undefined) {
      // `--archived false`, as help's usage (`--archived <boolean>`) reads: a literal true or false after a boolean
      // flag is its value, never a stray argument.
      const next = argv[i + 1];
      if (next === "true" || next === "false") {
        switches.set(name, next === "true");
        i++;
      } else switches.set(name, true);
      continue;
    }
    if (name.startsWith("no-") && booleanFlags(name.slice(3)) && inline === undefined) {
      switches.set(name.slice(3), false);
      continue;
    }
    if (kindOf(name) === "unknown" && !(GLOBAL_VALUES as readonly string[]).includes(name))
      throw unknownFlag(name, flags, command);
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--"))
        throw new CliError(
          "MISSING_FLAG",
          `--${name} needs a value.`,
          `Give it as --${name} <value> or --${name}=<value>.`,
          { flag: name },
        );
      value = next;
      i++;
    }
    if ((GLOBAL_VALUES as readonly string[]).includes(name) && name !== "output") {
      if (sanitizing) value = sanitize(value);
      const items =
        name === "fields"
          ? value
              .split(",")
              .map((f) => f.trim())
              .filter(Boolean)
          : [];
      // Field names are identifiers: keys, traversal, control and shell characters are refused in them too.
      guard([value, ...items].map((v) => ({ source: `--${name}`, value: v, identifier: true })));
    }
    // Repeated --fields accumulate (I7): --fields id --fields name keeps both.
    if (name === "fields")
      globals.fields = [
        ...new Set([
          ...(globals.fields ?? []),
          ...value
            .split(",")
            .map((f) => f.trim())
            .filter(Boolean),
        ]),
      ];
    else if (name === "max-pages") {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > MAX_PAGES_LIMIT)
        throw new CliError(
          "INVALID_VALUE",
          `--max-pages must be an integer from 1 to ${MAX_PAGES_LIMIT} (got "${value}").`,
          "Use e.g. --max-pages 5.",
          { flag: "max-pages" },
        );
      globals.maxPages = n;
    } else if (name === "output") globals.output = value;
    else if (name === "max-output-bytes") {
      const n = Number(value);
      if (!Number.isSafeInteger(n) || n < 1)
        throw new CliError(
          "INVALID_VALUE",
          `--max-output-bytes must be a whole number of bytes, at least 1 (got "${value}").`,
          "Use e.g. --max-output-bytes 104857600 for 100 MiB.",
          { flag: "max-output-bytes" },
        );
      globals.maxOutputBytes = n;
    } else if (name === "max-retry-wait") globals.maxRetryWait = maxRetryWait(value);
    else raw.set(name, [...(raw.get(name) ?? []), value]);
  }
  return { words, globals, raw, switches, positionals };
}

function convert(flag: Flag, type: string, value: string): unknown {
  const bad = (expected: string) =>
    new CliError(
      "INVALID_VALUE",
      `--${flag.flag} expects ${expected} (got "${value}").`,
      flag.enum ? `Use one of: ${flag.enum.join(", ")}.` : `Give --${flag.flag} ${expected}.`,
      { flag: flag.flag, value },
    );
  switch (type) {
    case "integer":
      if (!/^-?\d+$/.test(value)) throw bad("an integer");
      return integerOf(value);
    case "number":
      if (value.trim() === "" || !Number.isFinite(Number(value))) throw bad("a number");
      return Number(value);
    case "boolean":
      if (value !== "true" && value !== "false") throw bad("true or false");
      return value === "true";
    case "object":
      let parsed: unknown;
      try {
        parsed = parseExact(value);
      } catch {
        throw bad("a JSON value");
      }
      if (nestedDeeper(parsed)) throw bad(`a JSON value nested at most ${MAX_JSON_DEPTH} levels`);
      return parsed;
    default:
      return flag.anyOf ? unionValue(flag.anyOf, value, bad) : value;
  }
}

/**
 * A union's value (`oneOf: [string, integer]`): the first of its types the text reads as — an integer, a number, true
 * or false — else the text, where strings are allowed.
 */
function unionValue(types: ValueType[], value: string, bad: (expected: string) => CliError): unknown {
  if (types.includes("integer") && /^-?\d+$/.test(value)) return integerOf(value);
  if (types.includes("number") && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  if (types.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  if (types.includes("string")) return value;
  throw bad(types.join(" or "));
}

/**
 * An array flag's items, from each time it was given. A file's path may hold a comma, and a JSON value is full of
 * them: file flags and lists of objects or lists are repeated, never split; a JSON list given once is its items.
 * Other lists take comma-separated items too.
 */
function arrayItems(flag: Flag, given: string[]): unknown[] {
  const type = flag.items ?? "string";
  if (type === "object")
    return given.flatMap((v) => {
      const value = convert(flag, "object", v);
      return Array.isArray(value) ? value : [value];
    });
  if (type === "array") return given.flatMap((v) => listItems(flag, v));
  return given
    .flatMap((v) => (flag.file ? [v] : v.split(",")))
    .map((v) => v.trim())
    .filter((v) => v !== "")
    .map((v) => convert(flag, type, v));
}

/**
 * The items one value of a list of lists gives (`--scope '["a","b"]'` one list, `--scope '[["a"],["b"]]'` two). Split
 * at commas like a list of strings, `["a","b"]` went as the two strings `["a"` and `"b"]`.
 */
function listItems(flag: Flag, given: string): unknown[][] {
  const value = convert(flag, "object", given);
  if (Array.isArray(value) && value.length && value.every(Array.isArray)) return value;
  if (Array.isArray(value)) return [value];
  throw new CliError(
    "INVALID_VALUE",
    `--${flag.flag} takes lists: each value a JSON list (got "${given}").`,
    `Give --${flag.flag} '["a","b"]' once per list, or all of them as one JSON list of lists.`,
    { flag: flag.flag, value: given },
  );
}

/**
 * Whether a body flag's value is JSON null: `null` given where its enum lists null (a nullable choice: `--state-reason
 * null`), or where its type has no text "null" of its own (a nullable integer, number or boolean). Sent as the text
 * "null", the listed choice was refused as none of the enum's values.
 */
const givesNull = (flag: Flag, text: string): boolean =>
  text === "null" &&
  flag.in === "body" &&
  (!!flag.enum?.includes(null) || (flag.nullable === true && ["integer", "number", "boolean"].includes(flag.type)));

/** Whether a union's value is of a type its `enum` does not list (a number beside listed strings): free. */
const unlisted = (flag: Flag, value: unknown): boolean =>
  !!flag.anyOf && typeof value !== "string" && !flag.enum?.some((e) => typeof e === typeof value);

/** How many of a list's values an INVALID_VALUE names in its message; `details.allowed` has them all. */
const LISTED_VALUES = 20;

function checkEnum(flag: Flag, value: unknown): void {
  if (flag.enum && !unlisted(flag, value) && !flag.enum.some((e) => String(e) === String(value))) {
    // A union's free types are choices too: "now, unchanged or an integer".
    const free = (flag.anyOf ?? []).filter((t) => t !== "string" && unlisted(flag, t === "boolean" ? true : 0));
    const values = flag.enum.map((e) => (e === "" ? `""` : String(e)));
    const given = String(value);
    if (values.length <= LISTED_VALUES) {
      const choices = [...values, ...free.map((t) => `any ${t}`)].join(", ");
      throw new CliError(
        "INVALID_VALUE",
        `--${flag.flag} must be one of ${choices} (got "${given}").`,
        `Use one of: ${choices}.`,
        { flag: flag.flag, allowed: flag.enum },
      );
    }
    // Hundreds of values (time zones, event types): the ones closest to what was given, the list once, in details.
    const near = closest(given, values);
    const shown = (near.length ? near : values.slice(0, LISTED_VALUES)).join(", ");
    throw new CliError(
      "INVALID_VALUE",
      `--${flag.flag} must be one of its ${count(values.length, "value")}${free.length ? ` or ${free.map((t) => `any ${t}`).join(", ")}` : ""} (got "${given}").`,
      near.length
        ? `Did you mean: ${shown}? Every value is in details.allowed.`
        : `Its values begin ${shown}; every value is in details.allowed.`,
      { flag: flag.flag, allowed: flag.enum },
    );
  }
}

/** Typed values for every flag of the command: unknown flags, bad types and enums are refused before any request. */
export function bindFlags(command: Command, parsed: Parsed, hasJsonInput: boolean): Map<Flag, unknown> {
  const known = new Map(command.flags.map((f) => [f.flag, f]));
  for (const name of [...parsed.raw.keys(), ...parsed.switches.keys()])
    if (!known.has(name)) throw unknownFlag(name, command.flags, command.name);
  const values = new Map<Flag, unknown>();
  for (const flag of command.flags) {
    if (flag.type === "boolean") {
      const switched = parsed.switches.get(flag.flag);
      const given = parsed.raw.get(flag.flag);
      if (switched !== undefined) values.set(flag, switched);
      else if (given) values.set(flag, convert(flag, "boolean", given[given.length - 1]!));
      continue;
    }
    const given = parsed.raw.get(flag.flag);
    if (!given) continue;
    if (flag.type === "array") {
      const converted = arrayItems(flag, given);
      converted.forEach((v) => checkEnum(flag, v));
      checkLimits(flag, converted);
      values.set(flag, converted);
    } else {
      if (given.length > 1)
        throw new CliError(
          "INVALID_VALUE",
          `--${flag.flag} was given ${given.length} times; it takes one value.`,
          `Give --${flag.flag} once.`,
          { flag: flag.flag },
        );
      if (givesNull(flag, given[0]!)) {
        values.set(flag, null);
        continue;
      }
      const value = convert(flag, flag.type, given[0]!);
      checkEnum(flag, value);
      checkLimits(flag, value);
      values.set(flag, value);
    }
  }
  // A value the document allows alone is sent unless the flag gave it (and checked it against the one value).
  for (const f of command.flags) if (f.sentIfAbsent && !values.has(f)) values.set(f, f.default);
  // A required body field may come from --json-input's JSON instead (main.ts checks the body as sent); a required
  // field of an optional body is required once a body is sent.
  const sendsBody = command.flags.some((f) => f.in === "body" && values.has(f));
  const missing = command.flags.filter(
    (f) =>
      !values.has(f) &&
      (f.in === "body" ? (f.required || (f.requiredWithBody && sendsBody)) && !hasJsonInput : f.required),
  );
  if (missing.length) {
    throw new CliError(
      "MISSING_FLAG",
      `"${command.name}" needs ${missing.map((f) => `--${f.flag}`).join(", ")}.`,
      `Add ${missing.map((f) => `--${f.flag} <${f.file ? "path" : f.type}>`).join(" ")}${command.jsonInput ? ", or pipe the body as JSON with --json-input" : ""}.`,
      { missing: missing.map((f) => f.flag) },
    );
  }
  return values;
}
