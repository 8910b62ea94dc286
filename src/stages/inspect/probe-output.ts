import type { Json, JsonObject, Probe } from "./probe.js";
import type { HelpCommand } from "./subjects.js";

export type { Json, JsonObject } from "./probe.js";

/**
 * What a probe printed, read once into typed documents. A probe's stdout and stderr are parsed as JSON where the
 * probe runs (`parseOutput`); the readers below narrow that value to the shapes the generated CLI prints
 * (src/runtime/output.ts and src/runtime/help.ts) — field by field, so a CLI that prints something else yields
 * missing fields, never a crash. Each reader remembers its answer per probe, however often rules ask.
 */

/** Text parsed as JSON; undefined when it is empty or not JSON. */
export function parseOutput(text: string): Json | undefined {
  try {
    return text.trim() ? (JSON.parse(text) as Json) : undefined;
  } catch {
    return undefined;
  }
}

export const isObject = (value: Json | undefined): value is JsonObject =>
  !!value && typeof value === "object" && !Array.isArray(value);
const arrayOf = (value: Json | undefined): Json[] | undefined => (Array.isArray(value) ? value : undefined);
const stringOf = (value: Json | undefined): string | undefined => (typeof value === "string" ? value : undefined);
const objectOf = (value: Json | undefined): JsonObject | undefined => (isObject(value) ? value : undefined);

/** One answer per probe, computed on first use. */
function remembered<T>(read: (p: Probe) => T): (p?: Probe) => T | undefined {
  const seen = new WeakMap<Probe, { value: T }>();
  return (p) => {
    if (!p) return undefined;
    let entry = seen.get(p);
    if (!entry) seen.set(p, (entry = { value: read(p) }));
    return entry.value;
  };
}

/**
 * A JSON object on stdout, read as the runtime's documents are shaped: a call's envelope `{ok, result, page?, rules,
 * skills, issue}` (writeResult), the root help `{help, commands, globalFlags, exitCodes, auth, baseUrl, …}`
 * (rootHelp), a command's help `{command}`, `--describe` `{commands}` and `--mcp-schema` `{tools}`. A field of another
 * type than declared here reads as absent.
 */
export interface Document {
  /** Its top-level keys, in order. */
  keys: string[];
  result?: Json;
  /** A result list under another name, as some CLIs print one. */
  items?: Json;
  page?: JsonObject;
  rules?: Json[];
  skills?: Json[];
  issue?: string;
  /** Whether it says `dry_run: true` (a preview). */
  dryRun: boolean;
  version?: string;
  /** Whether it reports a failure (`ok: false` or `error: true`). */
  reportsError: boolean;
  help?: string;
  commands?: Json[];
  command?: JsonObject;
  globalFlags?: Json[];
  exitCodes?: JsonObject;
  baseUrl: { path?: string; env?: string };
  auth?: JsonObject;
  tools?: Json[];
}

/** The probe's stdout as a document, when it is a JSON object. */
export const documentOf = remembered((p): Document | undefined => {
  const json = p.json;
  if (!isObject(json)) return undefined;
  const baseUrl = objectOf(json.baseUrl);
  return {
    keys: Object.keys(json),
    ...("result" in json ? { result: json.result } : {}),
    ...("items" in json ? { items: json.items } : {}),
    page: objectOf(json.page),
    rules: arrayOf(json.rules),
    skills: arrayOf(json.skills),
    issue: stringOf(json.issue),
    dryRun: json.dry_run === true,
    version: stringOf(json.version),
    reportsError: json.ok === false || json.error === true,
    help: stringOf(json.help),
    commands: arrayOf(json.commands),
    command: objectOf(json.command),
    globalFlags: arrayOf(json.globalFlags),
    exitCodes: objectOf(json.exitCodes),
    baseUrl: { path: stringOf(baseUrl?.path), env: stringOf(baseUrl?.env) },
    auth: objectOf(json.auth),
    tools: arrayOf(json.tools),
  };
});

/**
 * The result of a successful call, read the way an outside checker reads it: the envelope's `result`, or a top-level
 * array, or an `items` list.
 */
const resultOf = (p?: Probe): Json | undefined => {
  if (Array.isArray(p?.json)) return p.json;
  const doc = documentOf(p);
  return doc?.result ?? doc?.items;
};

/** The result when it is an object (one record), else undefined. */
export const recordOf = (p?: Probe): JsonObject | undefined => objectOf(resultOf(p));

/** The result when it is a list, else undefined. */
export const listOf = (p?: Probe): Json[] | undefined => arrayOf(resultOf(p));

/** The structured error the runtime writes on stderr (writeError): `{error: true, code, message, suggestion}`. */
export interface ErrorDocument {
  code: string;
  message: string;
  suggestion?: string;
}

/** The probe's stderr as a structured error, when it is one (`error: true` with a string code and message). */
export const errorOf = remembered((p): ErrorDocument | undefined => {
  const json = p.error;
  if (!isObject(json) || json.error !== true) return undefined;
  const { code, message, suggestion } = json;
  if (typeof code !== "string" || typeof message !== "string") return undefined;
  return { code, message, ...(typeof suggestion === "string" ? { suggestion } : {}) };
});

/** The version a call printed, as a checker finds it: a top-level `version`, a JSON string, or plain text. */
export const versionOf = (p?: Probe): string => {
  const json = p?.json;
  return documentOf(p)?.version ?? (typeof json === "string" ? json : (p?.stdout.trim() ?? ""));
};

/** A flag the root help lists: a name alone, or an object declaring it (name, type, required…). */
export interface ListedFlag {
  name?: Json;
  declared?: JsonObject;
}

/** The flags the root help lists as global, as names (an object's `name`) and, where declared, their declarations. */
export const globalFlagsOf = (p?: Probe): ListedFlag[] =>
  (documentOf(p)?.globalFlags ?? []).map((g) =>
    typeof g === "string" ? { name: g } : isObject(g) ? { name: g.name, declared: g } : {},
  );

/**
 * A command as help or --describe describes it: the object as printed, its parameters kept only when they are objects
 * with a name (what every rule about parameters reads).
 */
export function helpCommandOf(value: JsonObject): HelpCommand {
  // Already so (every command of a large CLI's manifest): the object itself, not a copy.
  if (Array.isArray(value.parameters) && value.parameters.every((p) => isObject(p) && typeof p.name === "string"))
    return value as unknown as HelpCommand;
  const command: Record<string, unknown> = { ...value };
  if (Array.isArray(value.parameters))
    command.parameters = value.parameters.filter((p) => isObject(p) && typeof p.name === "string");
  else delete command.parameters;
  return command as unknown as HelpCommand;
}

/** The commands a help or --describe document lists (each with a name); a group's entry says `group: true`. */
export const commandsOf = (p?: Probe): Array<HelpCommand & { group?: Json }> =>
  (documentOf(p)?.commands ?? []).flatMap((c) => (isObject(c) && typeof c.name === "string" ? [helpCommandOf(c)] : []));
