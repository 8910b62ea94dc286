import { DEFAULT_MAX_OUTPUT_BYTES, EVENT_BOUNDS } from "./response-body.js";
import { DEFAULT_MAX_PAGES, GLOBAL_BOOLEANS, GLOBAL_DEFAULT_ON, GLOBAL_VALUES, MAX_PAGES_LIMIT } from "./args.js";
import { builtins, searchWord, type Builtin } from "./builtins.js";
import { commandAuth, commandCredential, credentialsHow, credentialVariables, uncomputedSignatures } from "./auth.js";
import { isSigV4 } from "./credentials.js";
import { REGION_VARIABLES } from "./sigv4.js";
import { flagUsage } from "./serialize.js";
import { EXIT, codeForStatus } from "./errors.js";
import { describeLimits, LIMIT_KEYS } from "./limits.js";
import { issueTool, toolNamesOf, toolsFor } from "./mcp-tools.js";
import type { Cli } from "./load.js";
import type { Command, Flag, Manifest } from "./manifest.js";
import type { BodyEncoding, ResponseKind } from "./media.js";
import { issueLine, skillRefs } from "./output.js";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_WAIT_S,
  MAX_RETRY_WAIT_LIMIT_S,
  RETRY_SUMMARY,
  retryPlan,
  retryPolicy,
} from "./retry.js";
import { count } from "../core/plural.js";

const GLOBAL_FLAG_HELP: Record<string, string> = {
  help: "Print help as JSON (this document); on a group, its commands",
  version:
    "Print the version (semver, also as top-level `version`) and nothing else, wherever it is given: no command runs",
  agent: "Force JSON output (the default)",
  human: "Print tables and text for people instead of JSON",
  brief: "Print the one-paragraph brief of this CLI",
  yes: "Confirm a destructive command",
  "dry-run":
    "Print the exact request and its retry policy without sending it (issue create/update: the record, without writing it)",
  quiet: "Print only the result, without the envelope",
  "json-input": "Read the request body as JSON from stdin",
  all: "Follow pagination and return every page (bounded by --max-pages); with --help or --describe, list everything however large",
  "mcp-schema": "Print the commands as MCP tool schemas",
  describe: "Print the machine-readable schema: commands, typed parameters with limits, output and exit codes",
  sanitize: "Strip control characters from inputs instead of refusing them",
  ndjson: "Print lists as one JSON object per line",
  redact: "Mask e-mail addresses and phone numbers in the output",
  fields: "Fields to keep in the output, comma-separated or repeated, e.g. --fields id,name",
  "max-pages": "Most pages --all fetches (1-100, default 10)",
  force: "With --output: replace a file that exists",
  output:
    "Write the answer's bytes to this file (atomically; - for stdout) and report its path, size, sha256 and type: needed for files (PDF, images, archives)",
  "max-output-bytes": "Largest answer --output writes (bytes, default 2 GiB)",
  retry: `Retry a 429 or 503 of an idempotent request up to ${DEFAULT_MAX_RETRIES} times, honouring Retry-After (--no-retry: send once)`,
  "max-retry-wait": `Most seconds of waiting between retries in all (0-${MAX_RETRY_WAIT_LIMIT_S}, default ${DEFAULT_MAX_RETRY_WAIT_S}); a longer Retry-After fails at once`,
};

/** A global flag as help declares it: typed like a command's parameter, never required, with its default. */
function globalFlag(name: string) {
  const description = GLOBAL_FLAG_HELP[name];
  if (name === "fields")
    return {
      name: "--fields",
      type: "array",
      items: "string",
      required: false,
      description,
      usage: "repeat --fields or give a comma list: --fields id --fields name is --fields id,name",
    };
  if (name === "max-pages")
    return {
      name: "--max-pages",
      type: "integer",
      required: false,
      default: DEFAULT_MAX_PAGES,
      minimum: 1,
      maximum: MAX_PAGES_LIMIT,
      description,
    };
  if (name === "output")
    return {
      name: "--output",
      type: "string",
      required: false,
      description,
      usage: "--output ./report.pdf, or --output - for the raw bytes on stdout",
    };
  if (name === "max-output-bytes")
    return {
      name: "--max-output-bytes",
      type: "integer",
      required: false,
      default: DEFAULT_MAX_OUTPUT_BYTES,
      minimum: 1,
      description,
    };
  if (name === "max-retry-wait")
    return {
      name: "--max-retry-wait",
      type: "number",
      required: false,
      default: DEFAULT_MAX_RETRY_WAIT_S,
      minimum: 0,
      maximum: MAX_RETRY_WAIT_LIMIT_S,
      description,
    };
  return {
    name: `--${name}`,
    type: "boolean",
    required: false,
    default: GLOBAL_DEFAULT_ON.has(name),
    description,
    negation: `--no-${name}`,
  };
}

const globalFlags = () => [...GLOBAL_BOOLEANS, ...GLOBAL_VALUES].map(globalFlag);

const EXIT_CODES = {
  0: "success",
  1: "general or server error",
  2: "usage or validation error",
  10: "authentication",
  11: "permission",
  20: "not found",
  30: "conflict or failed precondition",
};

/** A flag as help and --describe show it, in the order they print its fields. */
interface ParameterHelp {
  name: string;
  type: Flag["type"];
  items?: Flag["items"];
  required: boolean;
  enum?: Flag["enum"];
  default?: unknown;
  description: string;
  negation?: string;
  usage?: string;
  /** The value is a local file's path, or - for stdin. */
  file?: true;
  /** Required once a body is sent (a required field of an optional body). */
  requiredWithBody?: true;
  in?: Flag["in"];
  wire?: Flag["wire"];
  anyOf?: Flag["anyOf"];
  requires?: Flag["requires"];
  details?: string;
  [limit: string]: unknown;
}

/**
 * Its properties are set one by one, in the order help prints them (an object's keys keep the order they were set
 * in): spreading each optional one from an object of its own made the every-command --describe of a large CLI, which
 * inspection makes of every command (stages/inspect/built-commands.ts), about a third slower.
 */
function parameter(f: Flag, description = f.description): ParameterHelp {
  const limits = describeLimits(f);
  const usage = f.file
    ? `a file's path, or - to read it from stdin; ${f.wire ? `sent as the multipart part "${f.wire}" with its file name and type` : "its bytes are the request body"}${f.type === "array" ? `; repeat --${f.flag} for several files` : ""}`
    : f.anyOf
      ? `${f.anyOf.join(" or ")}: sent as the first it reads as${flagUsage(f) ? `; ${flagUsage(f)}` : ""}`
      : flagUsage(f);
  const out = { name: `--${f.flag}`, type: f.type } as ParameterHelp;
  if (f.anyOf) out.anyOf = f.anyOf;
  if (f.requires) out.requires = f.requires;
  if (f.items) out.items = f.items;
  out.required = f.required;
  if (f.enum) out.enum = f.enum;
  if (f.default !== undefined) out.default = f.default;
  for (const k of LIMIT_KEYS) if (f[k] !== undefined) out[k] = f[k];
  const when = f.requiredWithBody
    ? ["required when a body is sent"]
    : f.sentIfAbsent
      ? [`the only value the API takes: sent as ${JSON.stringify(f.default)} when not given`]
      : [];
  const notes = [...when, ...limits];
  out.description = `${description ?? `${f.in} parameter ${f.wire}`}${notes.length ? ` (${notes.join("; ")})` : ""}`;
  if (f.type === "boolean") out.negation = `--no-${f.flag}`;
  if (usage) out.usage = usage;
  if (f.file) out.file = true;
  if (f.requiredWithBody) out.requiredWithBody = true;
  return out;
}

const placeholder = (f: Flag) =>
  `<${f.enum ? [...f.enum, ...(f.anyOf ?? []).filter((t) => t !== "string" && !f.enum!.some((e) => typeof e !== "string"))].join("|") : (f.format ?? f.anyOf?.join("|") ?? f.type)}>`;

/** How a body of each encoding is given, for help. */
const BODY_GIVEN: Record<BodyEncoding, string> = {
  json: "its fields as flags, or the whole body as JSON on stdin with --json-input (flags override its fields)",
  form: "its fields as flags (arrays as repeated keys, objects as the document's style), or as JSON on stdin with --json-input",
  multipart:
    "one part per flag: a file flag takes a path (or - for stdin) and sends the file's name and type; the other fields as flags or JSON on stdin with --json-input",
  raw: "the bytes of a file: --file <path>, or --file - to read them from stdin",
};

/** How an answer of each kind other than JSON is taken, for help. */
const ANSWER_GIVEN: Record<Exclude<ResponseKind, "json" | "empty">, string> = {
  binary:
    "a file: saved byte for byte with --output <path> (the result is its path, bytes, sha256 and content type), or --output - for the raw bytes on stdout",
  text: "text: the result is a string (--output <path> saves it instead)",
  "event-stream": `server-sent events: the result is a list of {event, data, id}, collected until the stream ends, ${EVENT_BOUNDS.events} events or ${EVENT_BOUNDS.ms / 1000} seconds (--ndjson prints one per line)`,
};

/** A command as help shows it (and --describe, which adds its schema, errors and exit codes), in printed order. */
interface CommandHelp {
  name: string;
  usage: string;
  description: string;
  details?: string;
  method: string;
  parameters: ParameterHelp[];
  jsonInput: boolean;
  body?: { mediaType: string; given: string; shape?: "array" | "value" };
  answer?: { kind: string; accept: string; given: string };
  destructive: boolean;
  permission: Command["permission"];
  output: string;
  pagination?: { style: string; all: string; maxPages?: string };
  retry?: ReturnType<typeof retryPlan>;
  auth: boolean;
  credential?: string;
  security?: ReturnType<typeof commandAuth>;
  outputSchema?: ReturnType<typeof outputSchema>;
  errors?: Array<{ code: string; exitCode: number }>;
  exitCodes?: number[];
}

/**
 * A command as help shows it: each description's line (plain text, bounded at design), with a pointer to
 * `--describe` where the document says more; as --describe shows it (`full`), the line plus the whole text as `details`.
 * Set field by field in the printed order, as parameter is (and for the same reason).
 */
export function commandHelp(manifest: Manifest, command: Command, full = false): CommandHelp {
  const more = `${manifest.product.binary} ${command.name} --describe`;
  const credential = commandCredential(manifest, command);
  const out = {
    name: command.name,
    usage: `${manifest.product.binary} ${command.name}${command.flags
      .filter((f) => f.required)
      .map((f) => ` --${f.flag} ${f.file ? "<path>" : placeholder(f)}`)
      .join("")}${command.response?.kind === "binary" ? " --output <path>" : ""}${command.destructive ? " --yes" : ""}`,
    description: command.details && !full ? `${command.description} (more: \`${more}\`)` : command.description,
  } as CommandHelp;
  if (command.details && full) out.details = command.details;
  out.method = command.operation.method;
  out.parameters = command.flags.map((f) => {
    if (f.details && !full) return parameter(f, `${f.description ?? ""} (more: \`${more}\`)`.trim());
    const p = parameter(f);
    if (full) {
      p.in = f.in;
      p.wire = f.wire;
      if (f.details) p.details = f.details;
    }
    return p;
  });
  out.jsonInput = command.jsonInput;
  if (command.body)
    out.body = {
      mediaType: command.body.mediaType,
      given: command.body.shape
        ? `the whole body as JSON on stdin with --json-input: ${command.body.shape === "array" ? "a list" : "a JSON value"}`
        : BODY_GIVEN[command.body.encoding],
      ...(command.body.shape ? { shape: command.body.shape } : {}),
    };
  const kind = command.response?.kind;
  if (kind && kind !== "json" && kind !== "empty")
    out.answer = { kind, accept: command.response!.accept, given: ANSWER_GIVEN[kind] };
  out.destructive = command.destructive;
  out.permission = command.permission;
  out.output = command.output.shape === "object" && command.output.listField ? "array" : command.output.shape;
  if (command.pagination) out.pagination = { style: command.pagination.style, all: "--all" };
  // What a 429 or 503 leads to, with the default bounds (retry.ts): --describe only, help stays small.
  if (full) out.retry = commandRetry(command);
  out.auth = command.auth.length > 0 && !command.authOptional;
  if (credential) out.credential = credential;
  if (full && command.auth.length) out.security = commandAuth(manifest, command);
  return out;
}

/** A command's retry plan with the default bounds, as --describe says it. */
const commandRetry = (command: Command) =>
  retryPlan(
    retryPolicy(command.operation.method, {
      enabled: true,
      maxWaitS: DEFAULT_MAX_RETRY_WAIT_S,
      idempotencyHeader: command.retry?.idempotencyHeader,
      replayable: true,
    }),
    command.retry?.idempotencyHeader,
  );

/**
 * The credentials of the CLI as help and --describe state them: every variable it reads, how each scheme is sent
 * (where, under which name), and where to see what is set. Names only, never a value.
 */
function authFrame(manifest: Manifest) {
  const uncomputed = uncomputedSignatures(manifest);
  return {
    env: credentialVariables(manifest),
    required: manifest.groups.length > 0 && Object.keys(manifest.auth.schemes).length > 0,
    sent: credentialsHow(manifest),
    schemes: Object.fromEntries(
      Object.entries(manifest.auth.schemes).map(([name, s]) => [
        name,
        {
          type: s.type,
          ...(s.scheme ? { scheme: s.scheme } : {}),
          ...(s.in ? { in: s.in } : {}),
          ...(s.name ? { name: s.name } : {}),
          variables: s.env,
          ...(s.signature ? { signature: { ...s.signature, computed: isSigV4(s) } } : {}),
          ...(s.aws
            ? {
                aws: {
                  service: s.aws.service,
                  region: s.aws.region ?? null,
                  regionVariables: [...REGION_VARIABLES],
                  ...(s.aws.endpoint ? { endpoint: s.aws.endpoint } : {}),
                },
              }
            : {}),
        },
      ]),
    ),
    ...(uncomputed.length
      ? {
          unsupported: uncomputed.map(
            (u) =>
              `${u.scheme}: the API requires requests signed with ${u.signature} (${u.by}), which this CLI cannot compute; calls needing it are refused by the API unless its variable holds a signature valid for that very request.`,
          ),
        }
      : {}),
    status: `${manifest.product.binary} auth status`,
  };
}

/** What every JSON document of the CLI carries (R1–R3): the rules, the Skills, how to report a problem. */
const guides = (manifest: Manifest) => ({
  rules: manifest.rules,
  skills: skillRefs(manifest),
  issue: issueLine(manifest),
});

/** A built-in command as help shows it: typed parameters like an API command's; `local`: it calls no API. */
function builtinEntry(manifest: Manifest, command: Builtin) {
  const names = manifest.skills.map((s) => s.name);
  return {
    name: command.name,
    usage: command.usage,
    description: command.description,
    parameters: command.flags.map((f) =>
      parameter(f.flag === "name" && command.name === "skills" && names.length ? { ...f, enum: names } : f),
    ),
    ...(command.argument
      ? {
          argument: {
            name: command.argument,
            flag: `--${command.argument}`,
            description: `A bare argument is --${command.argument}: ${manifest.product.binary} ${command.name} <${command.argument}>`,
          },
        }
      : {}),
    jsonInput: false,
    destructive: false,
    permission: command.permission,
    output: command.output.shape,
    auth: false,
    local: true,
    ...(command.writes ? { dryRun: "--dry-run shows what would be recorded and writes nothing" } : {}),
  };
}

const BUILTIN_COMMANDS = (manifest: Manifest) => builtins(manifest).map((c) => builtinEntry(manifest, c));

function frame(cli: Cli, help: string, commands: unknown[], extra: Record<string, unknown> = {}) {
  const { manifest } = cli;
  const { binary, version } = manifest.product;
  return {
    help,
    version,
    usage: `${binary} <resource> [<sub-resource>] <action> --flags. Output is JSON on stdout ({"ok": true, "result": …}); errors are JSON on stderr with a stable code and exit code.`,
    commands,
    ...extra,
    globalFlags: globalFlags(),
    exitCodes: EXIT_CODES,
    auth: authFrame(manifest),
    baseUrl: { env: manifest.baseUrl.env, default: manifest.baseUrl.default, path: manifest.baseUrl.path ?? "" },
    ...guides(manifest),
  };
}

/** A group in root help; a CLI of very many groups has no room for their descriptions, and leaves them out. */
const groupEntry = (g: Cli["manifest"]["groups"][number]) => ({
  name: g.name,
  ...(g.description ? { description: g.description } : {}),
  group: true,
  commands: g.count,
});

/** Room kept, beside the rest of the answer, for the sentence that says how the groups are listed. */
const LISTING_NOTE_BYTES = 1024;

/**
 * What root help and root --describe may spend listing groups: one answer's budget less the rest of that answer (the
 * global flags, rules, exit codes and built-ins, whatever they grow to) and the listing's own sentence.
 */
const listingBudget = (rest: unknown) => DESCRIBE_BYTES - Buffer.byteLength(JSON.stringify(rest)) - LISTING_NOTE_BYTES;

/**
 * The groups as root help lists them, within `budget` bytes unless `all`: an entry per group while they fit; past that
 * (a thousand groups and more) a name → command-count map; past that too, the first groups that fit and how many more
 * there are, which `--all` lists. Each form says in `help` how to see the rest.
 */
function groupListing(
  cli: Cli,
  all: boolean,
  budget: number,
): { entries: unknown[]; counts?: Record<string, number>; omitted: number } {
  const groups = cli.manifest.groups;
  const entries = groups.map(groupEntry);
  if (all || Buffer.byteLength(JSON.stringify(entries)) <= budget) return { entries, omitted: 0 };
  const counts: Record<string, number> = {};
  let size = 2;
  for (const g of groups) {
    size += Buffer.byteLength(JSON.stringify(g.name)) + String(g.count).length + 2;
    if (size > budget) break;
    counts[g.name] = g.count;
  }
  return { entries: [], counts, omitted: groups.length - Object.keys(counts).length };
}

/** The sentence that says where the groups are, for the listing's form. */
function listingNote(binary: string, listing: ReturnType<typeof groupListing>, flag: "--help" | "--describe"): string {
  if (!listing.counts) return "";
  const shown = Object.keys(listing.counts).length;
  return listing.omitted
    ? ` The first ${count(shown, "group")} are named in \`groups\` (name → commands) — ${listing.omitted} more: \`${binary} ${flag} --all\` lists every group.`
    : ` Groups are named in \`groups\` (name → commands), without descriptions: \`${binary} ${flag} --all\` lists every group in full.`;
}

/**
 * Root help (D1, D3, D11). A CLI whose full listing fits the help budget lists every command with typed parameters;
 * a larger one lists its groups, each with a description and the `--help` that opens it (progressive disclosure).
 */
export function rootHelp(cli: Cli, all = false) {
  const { binary, name, version, description } = cli.manifest.product;
  const intro = `${binary} ${version} — the ${name} command line. ${description}`.trim();
  if (cli.manifest.help === "full") {
    const commands = cli
      .all()
      .filter((c) => !c.hidden)
      .map((c) => commandHelp(cli.manifest, c));
    return frame(cli, intro, [...commands, ...BUILTIN_COMMANDS(cli.manifest)], {
      groups: cli.manifest.groups.map(groupEntry),
    });
  }
  const total = cli.manifest.groups.reduce((n, g) => n + g.count, 0);
  const listing = groupListing(
    cli,
    all,
    listingBudget(frame(cli, intro, BUILTIN_COMMANDS(cli.manifest), { groups: {} })),
  );
  return frame(
    cli,
    `${intro} ${count(total, "command")} in ${count(cli.manifest.groups.length, "group")}: run \`${binary} <group> --help\` for a group's commands, \`${binary} <group> <command> --help\` for one.${listingNote(binary, listing, "--help")}`,
    [...listing.entries, ...BUILTIN_COMMANDS(cli.manifest)],
    listing.counts ? { groups: listing.counts } : {},
  );
}

/**
 * A group's help (D2): every command with typed parameters while that fits the budget of one answer (DESCRIBE_BYTES,
 * as root help and --describe), or with `all`. A larger group (GitLab's `projects`: 236 KB in full) answers with an
 * index: its commands' names and summaries, its sub-groups with their command counts, and how to open each.
 */
export function groupHelp(cli: Cli, words: string[], commands: Command[], all = false) {
  const visible = commands.filter((c) => !c.hidden);
  const { binary } = cli.manifest.product;
  const scope = words.join(" ");
  const group = cli.manifest.groups.find((g) => g.name === words[0]);
  const intro = `${binary} ${scope}: ${words.length === 1 && group?.description ? `${group.description} ` : ""}${count(visible.length, "command")}.`;
  const full = frame(
    cli,
    intro,
    visible.map((c) => commandHelp(cli.manifest, c)),
  );
  if (all) return full;
  const size = Buffer.byteLength(JSON.stringify(full));
  if (size <= DESCRIBE_BYTES) return full;
  const index = groupIndex(words, visible, DESCRIBE_BYTES - Buffer.byteLength(JSON.stringify(frame(cli, intro, []))));
  const sub = index.subgroups
    ? ` \`${binary} ${scope} <sub-group> --help\` opens a sub-group (entries with \`group: true\`).`
    : "";
  return frame(
    cli,
    `${intro} Their full help (${kib(size)}) is over the ${kib(DESCRIBE_BYTES)} one answer holds, so this lists each command's name${index.described ? " and summary" : ""}: run \`${binary} <command> --help\` for one's flags (e.g. \`${binary} ${index.first.name} --help\`).${sub}${index.omitted ? ` ${index.omitted} more entries are left out: \`${binary} ${scope} --help --all\` prints every command in full.` : ` \`${binary} ${scope} --help --all\` prints every command in full.`}`,
    index.listed,
  );
}

/**
 * The index of a group too large to give in full, within `budget` bytes (less a kilobyte for the sentence that says
 * how to open it): its sub-groups by the next word (`projects issues …` one entry naming how many commands it holds)
 * and its own commands with their summaries; past the budget, the commands by name alone; past that too, the first
 * entries that fit and how many are left out. Group help and a group's --describe both answer with it.
 */
function groupIndex(words: string[], visible: Command[], budget: number) {
  const subgroups = new Map<string, number>();
  const own: Command[] = [];
  for (const c of visible) {
    if (c.path.length > words.length + 1) {
      const sub = c.path.slice(0, words.length + 1).join(" ");
      subgroups.set(sub, (subgroups.get(sub) ?? 0) + 1);
    } else own.push(c);
  }
  const entries: Array<Record<string, unknown>> = [
    ...[...subgroups].map(([name, n]) => ({ name, group: true, commands: n })),
    ...own.map((c) => ({ name: c.name, description: c.description })),
  ];
  const fits = (list: unknown[]) => Buffer.byteLength(JSON.stringify(list)) <= budget - 1024;
  let listed: unknown[] = entries;
  if (!fits(listed)) listed = entries.map((e) => (e.group ? e : { name: e.name }));
  let omitted = 0;
  while (!fits(listed) && listed.length) {
    const cut = Math.max(1, Math.ceil(listed.length / 10));
    listed = listed.slice(0, -cut);
    omitted += cut;
  }
  return {
    listed,
    omitted,
    subgroups: subgroups.size,
    described: listed.some((e) => (e as { description?: string }).description),
    first: (own[0] ?? visible[0])!,
  };
}

/**
 * One command's help; within DESCRIBE_BYTES unless `all`. A command of hundreds of flags (DocuSign's account settings:
 * 675, 342 KB in full) lists its own entry once, then its flags by name, type and whether they are required, then only
 * the required ones' in full and the others' names: each step says what it left out and that `--help --all` prints it.
 */
export function singleHelp(cli: Cli, command: Command, all = false) {
  const { binary } = cli.manifest.product;
  const intro = `${binary} ${command.name}: ${command.description}`;
  const entry = commandHelp(cli.manifest, command);
  const full = { ...frame(cli, intro, [entry]), command: entry };
  if (all) return full;
  const size = Buffer.byteLength(JSON.stringify(full));
  if (size <= DESCRIBE_BYTES) return full;
  return boundedCommand(
    entry,
    size,
    (help, bounded) => ({
      ...frame(cli, `${intro} ${help}`, [{ name: entry.name, usage: entry.usage, description: entry.description }]),
      command: bounded,
    }),
    `${binary} ${command.name} --help --all`,
  );
}

/**
 * A command's help or schema made to fit one answer: its parameters brief (name, type, whether required, the values
 * they take), then the optional ones by name only, then as many as fit. `answer` wraps the command and a sentence on
 * what was left out; `whole` is the invocation that prints it whole.
 */
function boundedCommand<T>(
  entry: CommandHelp,
  size: number,
  answer: (help: string, command: CommandHelp) => T,
  whole: string,
): T {
  const n = entry.parameters.length;
  const over = `Its ${count(n, "flag")} in full (${kib(size)}) are over the ${kib(DESCRIBE_BYTES)} one answer holds`;
  const fits = (value: T) => Buffer.byteLength(JSON.stringify(value)) <= DESCRIBE_BYTES;
  const brief = (p: ParameterHelp): ParameterHelp => {
    const out = { name: p.name, type: p.type } as ParameterHelp;
    if (p.items) out.items = p.items;
    out.required = p.required;
    if (p.enum) out.enum = p.enum;
    if (p.format) out.format = p.format;
    if (p.file) out.file = true;
    return out;
  };
  const required = entry.parameters.filter((p) => p.required);
  const attempts: Array<[string, ParameterHelp[]]> = [
    ["so each is given by name, type and the values it takes", entry.parameters.map(brief)],
    [
      "so the required ones are given by name and type and the others by name",
      [
        ...required.map(brief),
        ...entry.parameters.filter((p) => !p.required).map((p) => ({ name: p.name }) as ParameterHelp),
      ],
    ],
  ];
  for (const [how, parameters] of attempts) {
    const value = answer(`${over}, ${how}: \`${whole}\` prints them in full.`, { ...entry, parameters });
    if (fits(value)) return value;
  }
  let kept = attempts[1]![1];
  while (kept.length > required.length) {
    kept = kept.slice(0, Math.max(required.length, kept.length - Math.ceil(kept.length / 10)));
    const value = answer(
      `${over}, so the required ones are given by name and type and ${kept.length - required.length} of the ${n - required.length} others by name: \`${whole}\` prints them all.`,
      { ...entry, parameters: kept },
    );
    if (fits(value)) return value;
  }
  return answer(`${over}, so only the required ones are given: \`${whole}\` prints them all.`, {
    ...entry,
    parameters: required.map(brief),
  });
}

/** `issue --help`: the issue commands. */
export function builtinHelp(cli: Cli, scope: "skills" | "issue" | "auth" | "agents") {
  const binary = cli.manifest.product.binary;
  const what =
    scope === "auth"
      ? "which credential variables are set and what each command would send (never a value)"
      : scope === "agents"
        ? "put this CLI's Skills (and, with --mcp, its MCP server) where coding agents read them, and take them away again"
        : "record and follow problems and requests locally";
  return frame(
    cli,
    `${binary} ${scope}: ${what}.`,
    BUILTIN_COMMANDS(cli.manifest).filter((c) => c.name.split(" ")[0] === scope),
  );
}

/** `skills --help`, `issue create --help`: that command's own document (D2), as an API command's. */
export function builtinSingleHelp(cli: Cli, command: Builtin) {
  const entry = builtinEntry(cli.manifest, command);
  return {
    ...frame(cli, `${cli.manifest.product.binary} ${command.name}: ${command.description}`, [entry]),
    command: entry,
  };
}

/** --describe of built-in commands (`skills --describe`, `issue --describe`): their schema in full. */
export function describeBuiltins(cli: Cli, commands: Builtin[]) {
  return {
    ...describeFrame(cli),
    commands: commands.map((c) => ({
      ...builtinEntry(cli.manifest, c),
      errors: [
        "USAGE_ERROR",
        "UNKNOWN_FLAG",
        "MISSING_FLAG",
        "INVALID_VALUE",
        "SECRET_IN_ARGUMENT",
        "SENSITIVE_PATH",
        "UNSAFE_INPUT",
        ...(c.name === "skills" ||
        c.name === searchWord(cli.manifest) ||
        c.name === "issue show" ||
        c.name === "issue update"
          ? ["NOT_FOUND"]
          : []),
        ...(c.name === "issue update" ? ["PRECONDITION_FAILED"] : []),
        ...(c.name === "proof" ? ["PROOF_MISSING", "PROOF_MISMATCH"] : []),
        ...(c.path[0] === "agents" ? ["INSTALL_CONFLICT"] : []),
      ].map((code) => ({ code, exitCode: EXIT[code] ?? 1 })),
    })),
  };
}

const USAGE_CODES = [
  "USAGE_ERROR",
  "UNKNOWN_FLAG",
  "MISSING_FLAG",
  "INVALID_VALUE",
  "VALIDATION_ERROR",
  "SECRET_IN_ARGUMENT",
  "SENSITIVE_PATH",
  "UNSAFE_INPUT",
  "BASE_URL_MISSING",
];

/** The errors a command can end with: usage errors, and each error status the document declares for it. */
function errorsOf(manifest: Manifest, command: Command): Array<{ code: string; exitCode: number }> {
  const codes = new Set([...USAGE_CODES, "NETWORK_ERROR", "TIMEOUT", "SERVER_ERROR"]);
  if (command.destructive) codes.add("CONFIRMATION_REQUIRED");
  if (command.jsonInput) codes.add("INVALID_JSON_INPUT");
  if (command.auth.length) codes.add("CREDENTIAL_MISSING").add("AUTH_FAILED");
  if (
    command.auth.some((r) =>
      Object.keys(r).some((n) => ["oauth2", "openIdConnect"].includes(manifest.auth.schemes[n]?.type ?? "")),
    )
  )
    codes.add("AUTH_EXPIRED");
  for (const status of command.statuses ?? []) if (/^[45]\d\d$/.test(status)) codes.add(codeForStatus(Number(status)));
  return [...codes].sort().map((code) => ({ code, exitCode: EXIT[code] ?? 1 }));
}

function outputSchema(command: Command) {
  const item = command.output.fields
    ? {
        type: "object",
        properties: Object.fromEntries(command.output.fields.map((f) => [f, command.output.types?.[f] ?? {}])),
      }
    : {};
  if (command.output.listField || command.output.shape === "array") return { type: "array", items: item };
  if (command.output.shape === "object") return item.type ? item : { type: "object" };
  if (command.output.shape === "empty") return { type: "null" };
  return {};
}

/** What every --describe answer starts with: the CLI, its envelopes, exit codes, errors, credential and base URL. */
function describeFrame(cli: Cli) {
  const { manifest } = cli;
  return {
    name: manifest.product.binary,
    version: manifest.product.version,
    description: manifest.product.description,
    envelope: {
      success: {
        ok: true,
        result: "<output>",
        page: "{has_more, total?, next_cursor?}",
        rules: "string[]",
        skills: "{name, description, command}[]",
        issue: "string",
      },
      error: { error: true, code: "UPPER_SNAKE", message: "string", suggestion: "string", details: "object?" },
    },
    exitCodes: EXIT_CODES,
    errors: Object.entries(EXIT).map(([code, exitCode]) => ({ code, exitCode })),
    retry: RETRY_SUMMARY,
    auth: authFrame(manifest),
    baseUrl: { env: manifest.baseUrl.env, default: manifest.baseUrl.default, path: manifest.baseUrl.path ?? "" },
    ...guides(manifest),
  };
}

/** --describe in full: the machine-readable schema of every command given — parameters, safety, output and exit codes. */
export function describeCommands(cli: Cli, commands: Command[]) {
  const { manifest } = cli;
  return {
    ...describeFrame(cli),
    commands: commands
      .filter((c) => !c.hidden)
      .map((c) => {
        const errors = errorsOf(manifest, c);
        // Set on the help form itself rather than spread into a copy of it (as parameter says why); `pagination`,
        // which help has already, keeps its place, so the printed order is the same.
        const described = commandHelp(manifest, c, true);
        described.outputSchema = outputSchema(c);
        if (c.pagination) described.pagination = { style: c.pagination.style, all: "--all", maxPages: "--max-pages" };
        described.errors = errors;
        described.exitCodes = [...new Set([0, ...errors.map((e) => e.exitCode)])].sort((a, b) => a - b);
        return described;
      }),
  };
}

/**
 * The most one --describe answer prints, in bytes: the budget of root --help. A scope whose full schema is larger
 * answers with an index of what it holds and how to describe each part; `--all` prints the full schema regardless.
 */
export const DESCRIBE_BYTES = 64 * 1024;

const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;

/**
 * --describe of the leading words (docs/generated-cli.md, "Discovery"): one command's full schema always; a group's,
 * or the whole CLI's, while it fits DESCRIBE_BYTES (or with `all`). Over the bound, the whole CLI answers with its
 * groups (as root --help does; a CLI whose root help lists groups does so without measuring) and a group with its
 * commands' names and descriptions, each answer saying how to describe a part.
 */
export function describeScope(cli: Cli, words: string[], commands: () => Command[], all: boolean) {
  const { manifest } = cli;
  const { binary } = manifest.product;
  // A CLI whose root help lists groups is not read whole to be measured: its groups are the answer.
  const visible = all || words.length || manifest.help === "full" ? commands().filter((c) => !c.hidden) : [];
  const single = words.length > 0 && visible.length === 1 && visible[0]!.path.length === words.length;
  let size: number | undefined;
  if (all || words.length || manifest.help === "full") {
    const full = describeCommands(cli, visible);
    if (all) return full;
    size = Buffer.byteLength(JSON.stringify(full));
    if (size <= DESCRIBE_BYTES) return full;
    // One command of hundreds of flags: its schema, with its flags brief (boundedCommand).
    if (single)
      return boundedCommand(
        full.commands[0]!,
        size,
        (help, command) => ({ ...describeFrame(cli), help, commands: [command] }),
        `${manifest.product.binary} ${visible[0]!.name} --describe --all`,
      );
  }
  const over =
    size === undefined
      ? `is over the ${kib(DESCRIBE_BYTES)} one answer holds`
      : `(${kib(size)}) is over the ${kib(DESCRIBE_BYTES)} one answer holds`;
  if (!words.length) {
    const total = manifest.groups.reduce((n, g) => n + g.count, 0);
    const listing = groupListing(cli, false, listingBudget(describeFrame(cli)));
    return {
      ...describeFrame(cli),
      help: `${count(total, "command")} in ${count(manifest.groups.length, "group")}; the schema of all of them ${over}. Run \`${binary} <group> --describe\` for a group's commands, \`${binary} <group> <command> --describe\` for one, or \`${binary} --describe --all\` for every command at once.${listing.counts ? listingNote(binary, listing, "--help") : ""}`,
      index: listing.entries,
      ...(listing.counts ? { groups: listing.counts } : {}),
    };
  }
  const scope = words.join(" ");
  const index = groupIndex(words, visible, DESCRIBE_BYTES - Buffer.byteLength(JSON.stringify(describeFrame(cli))));
  const sub = index.subgroups
    ? ` \`${binary} ${scope} <sub-group> --describe\` describes a sub-group (entries with \`group: true\`).`
    : "";
  const omitted = index.omitted ? ` ${index.omitted} more entries are left out.` : "";
  return {
    ...describeFrame(cli),
    help: `${binary} ${scope}: ${count(visible.length, "command")}; their schema ${over}. Run \`${binary} <command> --describe\` for one (e.g. \`${binary} ${index.first.name} --describe\`), or \`${binary} ${scope} --describe --all\` for all of them at once.${sub}${omitted}`,
    index: index.listed,
  };
}

/** MCP tool definitions (M2): the tools `<binary>-mcp` serves, one per command (mcp-tools.ts). */
export function mcpSchema(cli: Cli, commands: Command[]) {
  const tools = toolsFor(commands, undefined, (c) => commandCredential(cli.manifest, c)).map((t) => t.tool);
  // The server's issue tool is named against every command's tool, so the name is the same whatever the scope.
  // Named against the names alone: a scoped export does not make every command's tool to learn them.
  const issue = issueTool(cli.manifest, toolNamesOf(cli.all())).tool;
  return { tools: [...tools, issue], ...guides(cli.manifest) };
}
