import { join } from "node:path";
import { type GroupReader, type InstalledPackage, packageCommands } from "../candidate/installed-package.js";
import { sampleForPattern } from "./pattern-sample.js";

/**
 * Which command each probe runs on, chosen by what the command takes and does — never by the words of its name
 * (issue #28: the body probe took the first `* create`, which on Spotify takes no body, and failed I3 although 19
 * commands take one). A body probe runs on a command that takes a body, a paging probe on one that pages, the
 * missing-id probe on a read whose one required flag goes into the path, and so on. The facts come from the CLI's help
 * (`jsonInput`, `pagination`, `method`, `permission`, `destructive`, `auth`, each parameter's type and limits) and,
 * when the package carries a generated manifest, from it too: where each flag goes (`in`: path, query, header, cookie,
 * body) and its name on the wire. A probe with no fitting command is not run, and its rules are "not applicable" with
 * the reason kept here.
 */

export interface HelpParameter {
  name: string;
  type?: string;
  required?: boolean;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** An array's item type. */
  items?: string;
  /** The keys an object value must have: the probe's object has them. */
  requires?: string[];
  /** A union's scalar types (help says them): a number among them is the sample, as the runtime sends it. */
  anyOf?: string[];
  /** Where the value goes, from the package's manifest (help does not say). */
  in?: "path" | "query" | "header" | "cookie" | "body";
  /** Its name in the request, from the package's manifest. */
  wire?: string;
  /** The value is a local file's path (from the manifest; help says it too). */
  file?: boolean;
  /** Required once a body is sent (help says so). */
  requiredWithBody?: boolean;
  /** For a file flag: a file the probes can send, in the installed package (probePool). */
  upload?: string;
}

export interface HelpCommand {
  name: string;
  /** From --describe: the JSON Schema of what the command prints as `result`. */
  outputSchema?: unknown;
  description?: string;
  /** From --describe --all: the rest of what the document says of the command (its whole description). */
  details?: string;
  parameters?: HelpParameter[];
  destructive?: boolean;
  permission?: string;
  output?: string;
  method?: string;
  /** Whether the command takes a request body (`--json-input`). */
  jsonInput?: boolean;
  /** Present when the command pages. */
  pagination?: unknown;
  auth?: unknown;
  /** How its body is given (help's `body`): `shape` for a JSON body that is a list or a value, given whole. */
  body?: { shape?: string };
  /** What the command answers with, where it is not JSON (help's `answer`). */
  answer?: { kind?: string };
  /** For a command whose answer is a file: where its probes save it (forProbes). */
  saveTo?: string;
}

/** The probes that run on a chosen API command. */
export type SubjectKind =
  "list" | "paged" | "get" | "required" | "dryRun" | "body" | "destructive" | "auth" | "typed" | "hostile";

export interface Subject {
  command: HelpCommand;
  /** Why this command fits the probe. */
  why: string;
  /** The flag the probe is about (the mistyped one, the hostile one, the identifier). */
  param?: HelpParameter;
}

export interface Subjects {
  chosen: Partial<Record<SubjectKind, Subject>>;
  /** Why a probe has no subject, for its rules' "not applicable". */
  none: Partial<Record<SubjectKind, string>>;
}

const FORMAT_SAMPLES: Record<string, string> = {
  date: "2026-05-04",
  "date-time": "2026-05-04T09:30:00Z",
  time: "09:30",
  email: "probe@example.com",
  uuid: "123e4567-e89b-42d3-a456-426614174000",
  uri: "https://example.com/probe",
  url: "https://example.com/probe",
  ipv4: "192.0.2.1",
};
const STRING_SAMPLES = ["inter-probe", "probe", "p1", "09:30", "2026-05-04", "1", "a", "A", "AB", "abc123", "PROBE"];
const SCALARS = new Set(["string", "integer", "number", "boolean"]);

function fits(p: HelpParameter, v: string): boolean {
  if (p.minLength !== undefined && v.length < p.minLength) return false;
  if (p.maxLength !== undefined && v.length > p.maxLength) return false;
  try {
    return p.pattern === undefined || new RegExp(p.pattern, "u").test(v);
  } catch {
    return true;
  }
}

/**
 * The numeric type a union's sample takes: in a JSON body a number matches only its numeric branch; as text (a path,
 * query or header) "1" reads as a string and a number both, which `oneOf` refuses, so text takes a string where allowed.
 */
function unionNumber(p: HelpParameter): string | undefined {
  const numeric = p.anyOf?.find((t) => t === "integer" || t === "number");
  // Listed strings (`now`, `""`) leave a number's text to the number alone.
  return numeric && (p.in === "body" || !p.anyOf!.includes("string") || p.enum?.length) ? numeric : undefined;
}

/** A value that passes the flag's declared type, enum and limits, or undefined when the probe cannot make one up. */
export function sampleOrNone(p: HelpParameter, far = false): string | undefined {
  if (p.file) return p.upload;
  if (p.enum?.length) {
    // An empty string is an absent value to most servers and validators; a union's number is a value.
    const values = p.enum.filter((e) => e !== null && e !== undefined);
    const value = values.find((e) => e !== "") ?? (unionNumber(p) ? undefined : values[0]);
    if (value !== undefined) return String(value);
    if (!unionNumber(p)) return undefined;
  }
  const type = p.type === "array" ? (p.items ?? "string") : (unionNumber(p) ?? p.type);
  if (type === "integer" || type === "number") {
    const low = p.minimum ?? (p.exclusiveMinimum !== undefined ? Math.floor(p.exclusiveMinimum) + 1 : undefined);
    const value = low !== undefined ? Math.max(low, Math.min(1, p.maximum ?? 1)) : Math.min(1, p.maximum ?? 1);
    // The first multiple at or above it (`offset` in steps of 20 is 20).
    return String(p.multipleOf ? (Math.ceil(value / p.multipleOf) || 1) * p.multipleOf : value);
  }
  if (type === "boolean") return "true";
  // A list of lists takes JSON lists (runtime/args.ts): one, empty, whose items are the caller's.
  if (type === "array") return "[[]]";
  // An object is the caller's to fill: the probe gives the keys it must have, and the wire check judges no more.
  if (type === "object") return JSON.stringify(Object.fromEntries((p.requires ?? []).map((k) => [k, "inter-probe"])));
  if (p.format && FORMAT_SAMPLES[p.format]) return FORMAT_SAMPLES[p.format]!;
  // An empty value is an absent one to most servers (and to the validator): a required flag needs text.
  const candidates = [
    ...(far ? ["inter-probe-missing-id"] : []),
    ...(p.pattern ? [sampleForPattern(p.pattern, far, p.minLength)] : []),
    ...STRING_SAMPLES,
  ].filter((v): v is string => v !== undefined && v !== "");
  const found = candidates.find((v) => fits(p, v));
  if (found !== undefined) return found;
  if (p.minLength && !p.pattern) return "p".repeat(p.minLength);
  return undefined;
}

/**
 * A sample value for a flag (see sampleOrNone); `far` asks for an identifier that exists nowhere (the not-found probe).
 * When nothing fits, a plain string: the probe then meets the CLI's validation, which is evidence too.
 */
export function sample(p: HelpParameter, far = false): string {
  return sampleOrNone(p, far) ?? (p.minLength ? "p".repeat(p.minLength) : "inter-probe");
}

/** The value a sample stands for in a JSON body. */
function bodyValue(p: HelpParameter): unknown {
  const text = sample(p);
  const typed = (type: string | undefined, v: string) =>
    type === "integer" || type === "number" ? Number(v) : type === "boolean" ? v === "true" : v;
  if (p.type === "array") return [typed(p.items, text)];
  if (p.type === "object") return {};
  return p.enum?.includes(text) ? text : typed(unionNumber(p) ?? p.type, text);
}

const required = (c: HelpCommand) => (c.parameters ?? []).filter((p) => p.required);
/** The required flags as MCP tool arguments: each sample of the JSON type the tool's schema declares for it. */
export const fillArguments = (c: HelpCommand): Record<string, unknown> =>
  Object.fromEntries(required(c).map((p) => [p.name.replace(/^--/, ""), bodyValue(p)]));
const canSample = (p: HelpParameter) => sampleOrNone(p) !== undefined;
/** Every required flag (but `except`) can be given a valid value. */
const fillable = (c: HelpCommand, except?: string) => required(c).every((p) => p.name === except || canSample(p));
/**
 * The required flags (but `except`, and body fields when the body comes from stdin) with sample values; for a command
 * whose answer is a file, where to save it (it is never printed).
 */
export const fill = (c: HelpCommand, except?: string, skipBody = false) => [
  ...required(c)
    .filter((p) => p.name !== except && !(skipBody && p.in === "body"))
    .flatMap((p) => [p.name, sample(p)]),
  ...(c.saveTo ? ["--output", c.saveTo, "--force"] : []),
];

/**
 * The commands as probes run them: a file flag sends a file every installed package has (its package.json), and a
 * command whose answer is a file saves it in the package's folder. Only the commands that need it are copied.
 */
export function forProbes<C extends HelpCommand>(commands: C[], packageRoot: string | undefined): C[] {
  if (!packageRoot) return commands;
  const upload = join(packageRoot, "package.json");
  const saveTo = join(packageRoot, "inter-probe-answer");
  return commands.map((c) => {
    const files = c.parameters?.some((p) => p.file && !p.upload);
    const binary = c.answer?.kind === "binary" && !c.saveTo;
    if (!files && !binary) return c;
    return {
      ...c,
      ...(files ? { parameters: c.parameters!.map((p) => (p.file ? { ...p, upload } : p)) } : {}),
      ...(binary ? { saveTo } : {}),
    };
  });
}
const reads = (c: HelpCommand) =>
  c.permission === "read" || (c.permission === undefined && c.method?.toUpperCase() === "GET");
const writes = (c: HelpCommand) =>
  c.permission === "write" ||
  (c.permission === undefined && ["POST", "PUT", "PATCH"].includes(c.method?.toUpperCase() ?? ""));
const simple = (p: HelpParameter) =>
  (SCALARS.has(p.type ?? "") || (p.type === "array" && SCALARS.has(p.items ?? "string"))) && canSample(p);
const bodyFields = (c: HelpCommand) => (c.parameters ?? []).filter((p) => p.in === "body");
const identifier = (p: HelpParameter) => p.in === "path" || /(^|[-_])id$/i.test(p.wire ?? p.name.replace(/^--/, ""));

/**
 * What the body probe pipes to `--json-input`: the required body fields under their wire names (or, when none is
 * required, one simple optional field, so the body has something to carry). Without a manifest (a CLI inter did not
 * generate) where flags go is unknown: every required flag goes in the body, named as its flag.
 */
export function bodyFor(c: HelpCommand): Record<string, unknown> {
  const fields = bodyFields(c);
  if (!(c.parameters ?? []).some((p) => p.in !== undefined))
    return Object.fromEntries(required(c).map((p) => [p.name.replace(/^--/, ""), bodyValue(p)]));
  const chosen = fields.filter((p) => p.required || p.requiredWithBody);
  const optional = fields.find((p) => !p.required && simple(p));
  return Object.fromEntries(
    (chosen.length ? chosen : optional ? [optional] : []).map((p) => [
      p.wire ?? p.name.replace(/^--/, ""),
      bodyValue(p),
    ]),
  );
}

type Tier = [string, (c: HelpCommand) => boolean];

function first(pool: HelpCommand[], tiers: Tier[]): Subject | undefined {
  for (const [why, test] of tiers) {
    const found = pool.find(test);
    if (found) return { command: found, why };
  }
  return undefined;
}

/** A probe's subject, or why it has none. */
interface Choice {
  subject: Subject | undefined;
  reason: string;
}

/** Records a choice: the subject when there is one, else the reason there is none. */
function record(subjects: Subjects, kind: SubjectKind, choice: Choice): void {
  if (choice.subject) subjects.chosen[kind] = choice.subject;
  else subjects.none[kind] = choice.reason;
}

/** The command can be called with no flag at all. */
const noRequired = (c: HelpCommand) => required(c).length === 0;

/**
 * Chooses every probe's subject among the CLI's API commands (in the order the CLI lists them, so the choice is
 * deterministic). Each tier is tried in turn; the first command that fits wins.
 */
export function chooseSubjects(pool: HelpCommand[]): Subjects {
  const subjects: Subjects = { chosen: {}, none: {} };
  const list = chooseList(pool);
  record(subjects, "list", list);
  record(subjects, "paged", choosePaged(pool, list.subject?.command));
  const get = chooseGet(pool);
  record(subjects, "get", get);
  record(subjects, "required", chooseRequired(pool));
  record(subjects, "dryRun", chooseDryRun(pool));
  record(subjects, "body", chooseBody(pool));
  record(subjects, "destructive", chooseDestructive(pool));
  record(subjects, "auth", chooseAuth(pool));
  record(subjects, "typed", chooseTyped(pool));
  record(subjects, "hostile", chooseHostile(pool, get.subject));
  return subjects;
}

/** The list probe's command: a read that needs no flag, preferably one that returns a list. */
function chooseList(pool: HelpCommand[]): Choice {
  return {
    subject: first(pool, [
      [
        "a read that needs no flag and returns a list",
        (c) => reads(c) && noRequired(c) && !c.destructive && (c.pagination !== undefined || c.output === "array"),
      ],
      ["a read that needs no flag", (c) => reads(c) && noRequired(c) && !c.destructive],
    ]),
    reason: "no read command works without flags",
  };
}

/** The paging probe's command: a read that pages and can be called without identifiers. */
function choosePaged(pool: HelpCommand[], list: HelpCommand | undefined): Choice {
  // The list probe's command, when it pages, answers both (one call fewer).
  return {
    subject:
      list && list.pagination !== undefined
        ? { command: list, why: "it pages and needs no flag" }
        : first(pool, [
            ["it pages and needs no flag", (c) => c.pagination !== undefined && reads(c) && noRequired(c)],
            // Made-up identifiers would only meet a 404: other required flags (a search's query) are filled.
            [
              "it pages, and its required flags can be filled",
              (c) => c.pagination !== undefined && reads(c) && fillable(c) && !required(c).some(identifier),
            ],
          ]),
    reason: pool.some((c) => c.pagination !== undefined)
      ? "every command that pages needs an identifier or a value the probe cannot make up"
      : "no command pages (none declares pagination)",
  };
}

/** Whether a command is a read of one item by a single required string flag that `where` accepts. */
const oneId = (where: (p: HelpParameter) => boolean) => (c: HelpCommand) => {
  const r = required(c);
  return (
    reads(c) &&
    !c.destructive &&
    c.output !== "array" &&
    r.length === 1 &&
    r[0]!.type === "string" &&
    where(r[0]!) &&
    sampleOrNone(r[0]!, true) !== undefined
  );
};

/** The not-found probe's command and the identifier flag it fills with a value that exists nowhere. */
function chooseGet(pool: HelpCommand[]): Choice {
  // The not-found probe: one identifier, in the path, of a read; without a manifest, where it goes is unknown.
  const get = first(pool, [
    ["a read whose one required flag is a path parameter", oneId((p) => p.in === "path")],
    ["a read of one item by one required string flag", oneId((p) => p.in === undefined)],
  ]);
  return {
    subject: get && { ...get, param: required(get.command)[0] },
    reason: "no read command takes a single identifier in its path",
  };
}

/** The missing-flag probe's command: one with required flags, a harmless write first. */
function chooseRequired(pool: HelpCommand[]): Choice {
  return {
    subject: first(pool, [
      ["a write with required flags", (c) => !c.destructive && writes(c) && required(c).length > 0],
      ["a command with required flags", (c) => !c.destructive && required(c).length > 0],
      ["a destructive command with required flags", (c) => required(c).length > 0],
    ]),
    reason: "no command has a required flag",
  };
}

/** The dry-run probe's command: a non-destructive write whose required flags can be filled. */
function chooseDryRun(pool: HelpCommand[]): Choice {
  return {
    subject: first(pool, [
      ["a write whose required flags can be filled", (c) => writes(c) && !c.destructive && fillable(c)],
      [
        "a command that changes something, with flags that can be filled",
        (c) => !reads(c) && !c.destructive && fillable(c),
      ],
    ]),
    reason: "no write command can be called with values the probe can make up",
  };
}

/** Every required flag outside the body can be given a valid value. */
const restFillable = (c: HelpCommand) => required(c).every((p) => p.in === "body" || canSample(p));
/** The body fields the command cannot be called without. */
const requiredBody = (c: HelpCommand) => bodyFields(c).filter((p) => p.required);

/** The body probe's command, and why none fits when the commands that take a body need what cannot be made up. */
function chooseBody(pool: HelpCommand[]): Choice {
  // The body probe: a command that takes a body of fields (not one given whole as a list), its other required flags
  // satisfiable, its body fields simple.
  const takesBody = pool.filter((c) => c.jsonInput === true && !c.body?.shape);
  return {
    subject: first(takesBody, [
      [
        "it takes a body whose required fields are simple values",
        (c) => !c.destructive && restFillable(c) && requiredBody(c).length > 0 && requiredBody(c).every(simple),
      ],
      [
        "it takes a body with a simple field",
        (c) => !c.destructive && restFillable(c) && requiredBody(c).length === 0 && bodyFields(c).some(simple),
      ],
      ["it takes a body", (c) => !c.destructive && restFillable(c) && requiredBody(c).every(simple)],
      [
        "it takes a body (a destructive command, previewed with --dry-run)",
        (c) => restFillable(c) && requiredBody(c).every(simple),
      ],
    ]),
    reason: takesBody.length
      ? `the commands that take a body (${takesBody
          .slice(0, 3)
          .map((c) => c.name)
          .join(", ")}${takesBody.length > 3 ? ", …" : ""}) need values the probe cannot make up`
      : pool.some((c) => c.jsonInput === false)
        ? "no command takes a request body"
        : "no command declares whether it takes a request body (jsonInput)",
  };
}

/** The destructive probe's command: a destructive command whose required flags can be filled. */
function chooseDestructive(pool: HelpCommand[]): Choice {
  return {
    subject: first(pool, [
      ["a destructive command whose required flags can be filled", (c) => c.destructive === true && fillable(c)],
    ]),
    reason: pool.some((c) => c.destructive)
      ? "the destructive commands need values the probe cannot make up"
      : "no destructive command",
  };
}

/** The credential probe's command: a non-destructive one that needs the credential. */
function chooseAuth(pool: HelpCommand[]): Choice {
  return {
    subject: first(pool, [
      ["it needs the credential, and its flags can be filled", (c) => !!c.auth && !c.destructive && fillable(c)],
      ["it needs the credential", (c) => !!c.auth && !c.destructive],
    ]),
    reason: "no command needs a credential",
  };
}

/** A command's first integer flag, else its first number flag: the one the mistyped-value probe gets wrong. */
const typedParam = (c: HelpCommand) =>
  (c.parameters ?? []).find((p) => p.type === "integer") ?? (c.parameters ?? []).find((p) => p.type === "number");

/** The mistyped-value probe's command and its numeric flag. */
function chooseTyped(pool: HelpCommand[]): Choice {
  const typed = first(pool, [
    [
      "it takes a number, and its other required flags can be filled",
      (c) => !!typedParam(c) && !c.destructive && fillable(c, typedParam(c)!.name),
    ],
    ["it takes a number", (c) => !!typedParam(c)],
  ]);
  return { subject: typed && { ...typed, param: typedParam(typed.command) }, reason: "no command takes a number" };
}

// Hostile values go into an identifier where there is one: that is where the guardrails matter most.
// A file flag takes a path, which the guardrails check as one: hostile text goes into a flag that takes text.
/** A command's required flag that takes free text and that `where` accepts. */
const stringParam = (c: HelpCommand, where: (p: HelpParameter) => boolean) =>
  required(c).find((p) => p.type === "string" && !p.enum?.length && !p.file && where(p));
const hostileTiers: Array<[string, (p: HelpParameter) => boolean, boolean]> = [
  ["its required identifier", identifier, true],
  ["its required string flag", () => true, true],
  ["its required string flag", () => true, false],
];

/** The hostile-value probe's command and flag: the not-found probe's identifier, else a required string flag. */
function chooseHostile(pool: HelpCommand[], id: Subject | undefined): Choice {
  const reason = "no command takes a string value";
  if (id) return { subject: { command: id.command, why: `${id.why}: its identifier`, param: id.param }, reason };
  for (const [why, where, safe] of hostileTiers) {
    const c = pool.find(
      (c) => (!safe || !c.destructive) && !!stringParam(c, where) && fillable(c, stringParam(c, where)!.name),
    );
    if (c) return { subject: { command: c, why, param: stringParam(c, where) }, reason };
  }
  return { subject: undefined, reason };
}

type ManifestFlag = {
  flag: string;
  in?: HelpParameter["in"];
  wire?: string;
  file?: boolean;
  type?: string;
  items?: string;
  required?: boolean;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
};
type ManifestCommand = {
  name: string;
  operation?: { method?: string };
  flags?: ManifestFlag[];
  jsonInput?: boolean;
  destructive?: boolean;
  permission?: string;
  pagination?: unknown;
  auth?: unknown[];
  hidden?: boolean;
  output?: { shape?: string; listField?: string };
};

/** The commands of a generated package's manifest (manifest.json and commands/<group>.json), or none. */
function manifestCommands(pkg: InstalledPackage | undefined, read?: GroupReader): ManifestCommand[] {
  return pkg ? (packageCommands(pkg, read) as unknown as ManifestCommand[]).filter((c) => !c.hidden) : [];
}

const fromFlag = (f: ManifestFlag, upload: string | undefined): HelpParameter => {
  const { flag, ...rest } = f;
  return { ...rest, name: `--${flag}`, required: f.required === true, ...(f.file ? { upload } : {}) } as HelpParameter;
};

/**
 * A parameter completed from the manifest's flag of the same name: where it goes and its wire name, its items' type
 * where help left it out. The parameter itself when it already says all that (a command read from the manifest).
 */
function completed(p: HelpParameter, flags: ManifestFlag[] | undefined, upload: string | undefined): HelpParameter {
  const name = typeof p.name === "string" && p.name.startsWith("--") ? p.name.slice(2) : undefined;
  let f: ManifestFlag | undefined;
  // The last flag of a name, as a map of the flags by name would hold.
  for (let i = (flags?.length ?? 0) - 1; name !== undefined && !f && i >= 0; i--)
    if (String(flags![i]!.flag) === name) f = flags![i];
  if (!f) return p;
  const items = p.items === undefined && f.items;
  if (!items && !f.file && "in" in p && "wire" in p && p.in === f.in && p.wire === f.wire) return p;
  return {
    ...p,
    in: f.in,
    wire: f.wire,
    ...(items ? { items: f.items } : {}),
    ...(f.file ? { file: true, upload } : {}),
  };
}

/**
 * The probe pool: the commands as help describes them, each completed from the package's manifest (where its flags go,
 * their wire names; `jsonInput`, `pagination`, `method` where help left them out), then the manifest's commands help
 * did not show (a large CLI's help is opened only in part). `read` gives the group files the inspection already read.
 * A command that lacks nothing the manifest adds is itself in the pool (a large CLI's commands are not copied).
 */
export function probePool(
  commands: HelpCommand[],
  pkg: InstalledPackage | undefined,
  read?: GroupReader,
): HelpCommand[] {
  const manifest = new Map(manifestCommands(pkg, read).map((c) => [c.name, c]));
  // What a file flag's probes send: a file every installed package has.
  const upload = pkg ? join(pkg.root, "package.json") : undefined;
  const seen = new Set<string>();
  const pool = commands.map((c) => {
    seen.add(c.name);
    const m = manifest.get(c.name);
    if (!m) return c;
    const parameters = (c.parameters ?? []).map((p) => completed(p, m.flags, upload));
    const method = c.method ?? m.operation?.method;
    const jsonInput = c.jsonInput ?? m.jsonInput;
    const pagination = c.pagination ?? m.pagination;
    if (
      method === c.method &&
      jsonInput === c.jsonInput &&
      pagination === c.pagination &&
      c.parameters &&
      parameters.every((p, i) => p === c.parameters![i])
    )
      return c;
    return { ...c, method, jsonInput, pagination, parameters };
  });
  for (const [name, m] of manifest) {
    if (seen.has(name)) continue;
    pool.push({
      name,
      method: m.operation?.method,
      jsonInput: m.jsonInput,
      pagination: m.pagination,
      destructive: m.destructive === true,
      permission: m.permission,
      auth: Array.isArray(m.auth) ? m.auth.length > 0 : m.auth,
      output: m.output?.shape === "object" && m.output.listField ? "array" : m.output?.shape,
      parameters: (m.flags ?? []).map((f) => fromFlag(f, upload)),
    });
  }
  return pool;
}
