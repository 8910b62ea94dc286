/**
 * The CLI's commands as MCP tools (docs/generated-cli.md, "MCP server"): names every client accepts, a JSON Schema of
 * the same flags, limits and body `--describe` gives, the design's safety as annotations, and a tool call turned back
 * into the argv the CLI would be given — so a call through MCP is validated, sent and answered by the CLI itself.
 */
import { nodeCrypto } from "../core/node-crypto.js";
import { DEFAULT_MAX_PAGES, MAX_PAGES_LIMIT, unknownFlag } from "./args.js";
import { builtins } from "./builtins.js";
import { CliError } from "./errors.js";
import type { Command, Flag, Manifest, ValueType } from "./manifest.js";
import { LIMIT_KEYS } from "./limits.js";
import { compareText } from "../core/text-order.js";

/** The longest tool name the strictest common clients accept (and the MCP specification recommends). */
export const MAX_TOOL_NAME = 64;
/** Above this many tools the server offers the dynamic toolset; the smallest tool limit among common clients. */
export const DEFAULT_MAX_TOOLS = 40;
export const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: {
    type: "object";
    properties: Record<string, unknown>;
    required?: string[];
    additionalProperties: false;
  };
  annotations: {
    title?: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

const shortHash = (text: string) => nodeCrypto().createHash("sha256").update(text).digest("hex").slice(0, 8);

/**
 * One tool name per command, unique, within `max` characters and of [a-zA-Z0-9_-] only: the command's words joined
 * by `_`. A name too long, or equal to another's once hyphens become underscores, keeps its start and ends in a hash
 * of the command's full name, so it stays the same from one release to the next.
 */
function toolNames(commands: readonly Command[], max = MAX_TOOL_NAME): Map<Command, string> {
  const base = (c: Command) => c.path.join("_").replace(/[^a-zA-Z0-9_]/g, "_");
  const counts = new Map<string, number>();
  for (const c of commands) counts.set(base(c), (counts.get(base(c)) ?? 0) + 1);
  const names = new Map<Command, string>();
  const taken = new Set<string>();
  // Plain code-unit order, not the locale's: the same names on every machine.
  for (const c of [...commands].sort((a, b) => compareText(a.name, b.name))) {
    let name = base(c);
    // A cut that ends on a separator drops it, so the suffix never makes a double underscore (`queues__c7b6d45d`).
    const stem = (n: string, room: number) => n.slice(0, room).replace(/[_-]+$/, "");
    if (name.length > max || counts.get(name)! > 1) name = `${stem(name, max - 9)}_${shortHash(c.name)}`;
    // Two hashes alike within one CLI: the later command in name order gets the next free suffix.
    for (let i = 2; taken.has(name); i++) name = `${stem(name, max - String(i).length - 1)}_${i}`;
    taken.add(name);
    names.set(c, name);
  }
  return names;
}

/** The names every visible command's tool takes, without making the tools (what the issue tool is named against). */
export const toolNamesOf = (commands: readonly Command[]): Set<string> =>
  new Set(toolNames(commands.filter((c) => !c.hidden)).values());

/** The tool argument that carries the request body: `body`, unless the command has a flag of that name. */
const bodyKey = (command: Command) => (command.flags.some((f) => f.flag === "body") ? "json-input" : "body");

/** The most bytes of a file answer a tool result carries inline (base64, an embedded resource): `output` for more. */
const MCP_INLINE_BYTES = 8 * 1024 * 1024;

/** Commands whose answer is a file: through MCP it comes back inline, or is written where `output` says. */
const answersWithFile = (command: Command) => command.response?.kind === "binary";

function flagSchema(f: Flag): Record<string, unknown> {
  const type = f.type === "object" ? undefined : f.type;
  if (f.file)
    return {
      ...(f.type === "array" ? { type: "array", items: { type: "string" } } : { type: "string" }),
      description: `${f.description ? `${f.description}. ` : ""}The path of a file on the machine the server runs on (its bytes are sent).`,
    };
  // A union whose strings alone are listed: each type its own branch (`now`, `unchanged` or any integer).
  const branches =
    f.anyOf && f.enum && f.anyOf.some((t) => !f.enum!.some((e) => typeof e === (t === "integer" ? "number" : t)))
      ? f.anyOf.map((t) => (t === "string" ? { type: t, enum: f.enum } : { type: t }))
      : undefined;
  return {
    ...(branches ? { anyOf: branches } : f.anyOf ? { type: f.anyOf } : type ? { type } : {}),
    ...(f.items ? { items: { type: f.items } } : {}),
    ...(f.enum && !branches ? { enum: f.enum } : {}),
    ...(f.default !== undefined ? { default: f.default } : {}),
    ...Object.fromEntries(LIMIT_KEYS.filter((k) => f[k] !== undefined).map((k) => [k, f[k]])),
    ...(f.description ? { description: f.description } : {}),
  };
}

/** The input schema of a command's tool: its flags by name, the body, paging and confirmation where they apply. */
function inputSchema(command: Command): ToolDefinition["inputSchema"] {
  const properties: Record<string, unknown> = Object.fromEntries(command.flags.map((f) => [f.flag, flagSchema(f)]));
  if (command.jsonInput)
    properties[bodyKey(command)] = {
      type: "object",
      description: "The request body as a JSON object; flags given beside it set their fields.",
    };
  if (command.pagination) {
    properties.all = {
      type: "boolean",
      default: false,
      description: "Follow pagination and return every page (bounded by max-pages).",
    };
    properties["max-pages"] = {
      type: "integer",
      minimum: 1,
      maximum: MAX_PAGES_LIMIT,
      default: DEFAULT_MAX_PAGES,
      description: "Most pages `all` fetches.",
    };
  }
  if (command.response && command.response.kind !== "json" && command.response.kind !== "empty") {
    properties.output = {
      type: "string",
      description: answersWithFile(command)
        ? `A path on the machine the server runs on to write the answer's bytes to (its path, size, sha256 and type are returned). Without it the file comes back inline as an embedded resource, up to ${MCP_INLINE_BYTES / 1024 / 1024} MiB.`
        : "A path on the machine the server runs on to write the answer to, instead of returning it.",
    };
    properties.force = { type: "boolean", default: false, description: "With output: replace a file that exists." };
  }
  if (command.output.shape !== "empty")
    properties.fields = {
      type: "array",
      items: { type: "string" },
      description: 'Output fields to keep (of each item of a list), e.g. ["id", "name"].',
    };
  if (command.permission !== "read")
    properties["dry-run"] = {
      type: "boolean",
      default: false,
      description: "Return the exact request without sending it.",
    };
  if (command.destructive)
    properties.yes = {
      type: "boolean",
      description: "Must be true to run this destructive command; without it the call is refused.",
    };
  // A body given whole stands for its required fields, as --json-input does on the command line.
  const required = command.flags
    .filter((f) => f.required && !(f.in === "body" && command.jsonInput))
    .map((f) => f.flag);
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The tool of one command. */
function toolFor(command: Command, name: string, credential: string | undefined): ToolDefinition {
  const write = command.permission !== "read";
  const method = command.operation.method.toUpperCase();
  const said = [
    command.description.replace(/[.\s]*$/, "."),
    ...(command.destructive ? ["Destructive: refused unless `yes` is true."] : []),
    ...(credential ? [`Credentials (the server's environment): ${credential}`] : []),
  ];
  return {
    name,
    title: command.name,
    description: said.length > 1 ? said.join(" ") : command.description,
    inputSchema: inputSchema(command),
    annotations: {
      title: command.name,
      readOnlyHint: !write,
      destructiveHint: command.destructive,
      // HTTP's own promise: PUT and DELETE may be repeated with the same effect, POST and PATCH may not.
      idempotentHint: !write || method === "PUT" || method === "DELETE",
      openWorldHint: true,
    },
  };
}

/**
 * Every visible command as a tool. `credential` says what a command needs (runtime/auth.ts): where the CLI's commands
 * differ in what they need, each tool says it; where all need the same, the server's instructions (the rules) say it once.
 */
export function toolsFor(
  commands: readonly Command[],
  max = MAX_TOOL_NAME,
  credential?: (command: Command) => string | undefined,
): Array<{ command: Command; tool: ToolDefinition }> {
  const visible = commands.filter((c) => !c.hidden);
  const names = toolNames(visible, max);
  const needs = new Set(visible.map((c) => JSON.stringify(c.auth)));
  const say = credential && needs.size > 1 ? credential : () => undefined;
  return visible.map((command) => ({ command, tool: toolFor(command, names.get(command)!, say(command)) }));
}

/** The tool that records a problem or missing feature (`issue create`), so the `issue` hint is actionable through MCP. */
export const ISSUE_TOOL = "report_issue";

/**
 * `report_issue`: the CLI's `issue create` as a tool. It writes only to the server's own state folder (never to the
 * API), so it is neither destructive nor open-world. A command whose tool is already called `report_issue` keeps its
 * name; the issue tool then takes the first free of the alternatives.
 */
export function issueTool(manifest: Manifest, taken: ReadonlySet<string>): { command: Command; tool: ToolDefinition } {
  const command = builtins(manifest).find((c) => c.name === "issue create")!;
  const name =
    [
      ISSUE_TOOL,
      `${ISSUE_TOOL}_${manifest.product.binary.replace(/[^a-zA-Z0-9_]/g, "_")}`.slice(0, MAX_TOOL_NAME),
      "report_cli_issue",
    ].find((n) => !taken.has(n)) ?? `${ISSUE_TOOL}_${shortHash(manifest.product.binary)}`;
  const tool = toolFor(command, name, undefined);
  return {
    command,
    tool: {
      ...tool,
      title: "report issue",
      description: `Record a problem or missing feature of ${manifest.product.binary} (a bug, a requirement, a suggestion, bad output) for the team that runs this server. Kept on the server's machine; nothing is sent to the API.`,
      annotations: { ...tool.annotations, title: "report issue", idempotentHint: false, openWorldHint: false },
    },
  };
}

export interface Invocation {
  argv: string[];
  /** The request body, sent on stdin with --json-input. */
  stdin?: string;
  /** The answer is a file's raw bytes on stdout (`--output -`), returned inline: its declared media type. */
  inlineFile?: string;
}

const invalid = (key: string, expected: string, value: unknown) =>
  new CliError(
    "INVALID_VALUE",
    `Argument "${key}" expects ${expected} (got ${JSON.stringify(value)?.slice(0, 80)}).`,
    `Give "${key}" ${expected}; the tool's input schema lists every argument.`,
    { flag: key },
  );

/**
 * The most bytes one argument's value may hold, and all of a call's arguments together. The kernel refuses a single
 * argv string over 128 KiB and argv with the environment over its ARG_MAX (E2BIG): the server refuses well below both
 * with a coded error instead. A request body has no such bound: it goes on stdin.
 */
export const MAX_ARGUMENT_BYTES = 64 * 1024;
const MAX_ARGV_BYTES = 1024 * 1024;

const A: Record<ValueType, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "a JSON value",
};

/** A scalar argument as the command line carries it, refused unless it is of the JSON type the tool's schema declares. */
function typed(key: string, type: ValueType | undefined, value: unknown): string {
  const ok =
    type === "integer"
      ? typeof value === "number" && Number.isInteger(value)
      : type === "number"
        ? typeof value === "number" && Number.isFinite(value)
        : type === "boolean"
          ? typeof value === "boolean"
          : typeof value === "string";
  if (!ok)
    throw invalid(key, A[type === "integer" || type === "number" || type === "boolean" ? type : "string"], value);
  return String(value);
}

/** A union's argument (`oneOf: [string, integer]`): of any of its JSON types, carried as its text. */
function unionText(key: string, types: ValueType[], value: unknown): string {
  for (const type of types) {
    try {
      return typed(key, type, value);
    } catch {
      // the next type
    }
  }
  throw invalid(key, types.map((t) => A[t]).join(" or "), value);
}

/** yes, dry-run or all on a command they do not apply to: said plainly, not "did you mean" the very argument given. */
function notApplicable(key: string, command: Command): CliError {
  const why =
    key === "yes"
      ? "it is not destructive, so there is nothing to confirm"
      : key === "all"
        ? "it does not page"
        : "it only reads, so there is no write to preview";
  return new CliError(
    "UNKNOWN_FLAG",
    `Argument "${key}" does not apply to "${command.name}": ${why}.`,
    `Call it without "${key}"; the tool's input schema lists every argument.`,
    { flag: key },
  );
}

function tooLong(key: string, bytes: number, command: Command, total = false): CliError {
  const where = command.jsonInput
    ? `, or give the value inside "${bodyKey(command)}", which is not passed on the command line`
    : "";
  return new CliError(
    "INVALID_VALUE",
    total
      ? `The arguments are too long to pass on a command line together (${bytes} bytes; at most ${MAX_ARGV_BYTES}).`
      : `Argument "${key}" is too long to pass on a command line (${bytes} bytes; at most ${MAX_ARGUMENT_BYTES}).`,
    `Shorten ${total ? "the arguments" : `"${key}"`}${where}.`,
    { flag: key, bytes, max_bytes: total ? MAX_ARGV_BYTES : MAX_ARGUMENT_BYTES },
  );
}

/**
 * The argv (and stdin) the CLI runs for a tool call. Checked here: a known argument, of the JSON type its schema
 * declares (a number is not quietly made a string, a string is not an array), short enough for a command line.
 * Enums, limits, required flags, guardrails and confirmation are the CLI's own checks, made before any request,
 * exactly as for a command typed in a shell.
 */
export function invocationFor(command: Command, args: Record<string, unknown> | undefined): Invocation {
  const argv = [...command.path];
  let stdin: string | undefined;
  const body = command.jsonInput ? bodyKey(command) : undefined;
  const push = (key: string, value: string) => {
    const bytes = Buffer.byteLength(value);
    if (bytes > MAX_ARGUMENT_BYTES) throw tooLong(key, bytes, command);
    argv.push(`--${key}=${value}`);
  };
  for (const [key, value] of Object.entries(args ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === body) {
      if (typeof value !== "object" || Array.isArray(value)) throw invalid(key, "a JSON object", value);
      stdin = JSON.stringify(value);
      argv.push("--json-input");
      continue;
    }
    const offersOutput = !!command.response && command.response.kind !== "json" && command.response.kind !== "empty";
    if ((key === "output" || key === "force") && offersOutput && !command.flags.some((f) => f.flag === key)) {
      if (key === "force") {
        if (typeof value !== "boolean") throw invalid(key, "true or false", value);
        if (value) argv.push("--force");
      } else if (typeof value !== "string" || !value || value === "-") throw invalid(key, "a file path", value);
      else push(key, value);
      continue;
    }
    const applies =
      key === "yes"
        ? command.destructive
        : key === "all"
          ? !!command.pagination
          : key === "dry-run"
            ? command.permission !== "read"
            : undefined;
    if (applies) {
      if (typeof value !== "boolean") throw invalid(key, "true or false", value);
      if (value) argv.push(`--${key}`);
      continue;
    }
    // A command's own flag of that name is an ordinary flag (the schema offers it as one).
    if (applies === false && !command.flags.some((f) => f.flag === key)) throw notApplicable(key, command);
    if (key === "fields" && command.output.shape !== "empty") {
      if (!Array.isArray(value) || !value.every((n) => typeof n === "string"))
        throw invalid(key, "an array of field names", value);
      if (value.length) push(key, value.join(","));
      continue;
    }
    if (key === "max-pages" && command.pagination) {
      push(key, typed(key, "integer", value));
      continue;
    }
    const flag = command.flags.find((f) => f.flag === key);
    if (!flag) throw unknownFlag(key, command.flags, command.name);
    // The server's stdin is not the agent's: a file is given by its path on the server's machine.
    if (flag.file && (value === "-" || (Array.isArray(value) && value.includes("-"))))
      throw invalid(key, "a file's path on the server's machine (stdin is not the agent's here)", value);
    if (flag.type === "array") {
      if (!Array.isArray(value)) throw invalid(key, `an array (each item of type ${flag.items ?? "string"})`, value);
      for (const item of value)
        push(
          key,
          flag.items === "object" || flag.items === "array" ? JSON.stringify(item) : typed(key, flag.items, item),
        );
    } else if (flag.type === "object") push(key, JSON.stringify(value));
    else push(key, flag.anyOf ? unionText(key, flag.anyOf, value) : typed(key, flag.type, value));
  }
  // A file answer with nowhere to write it comes back inline: the raw bytes on stdout, within what a result carries.
  const inline = answersWithFile(command) && !argv.some((a) => a.startsWith("--output="));
  if (inline) argv.push("--output=-", `--max-output-bytes=${MCP_INLINE_BYTES}`);
  const total = argv.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);
  if (total > MAX_ARGV_BYTES) throw tooLong("arguments", total, command, true);
  return {
    argv,
    ...(stdin !== undefined ? { stdin } : {}),
    ...(inline ? { inlineFile: command.response!.accept.split(",")[0]!.trim() } : {}),
  };
}

/** A rough count of the tokens a text costs a model: about four characters each for JSON and English. */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);
