/**
 * `<binary>-mcp`: the CLI as an MCP server over stdio (docs/generated-cli.md, "MCP server"). Each tool call runs the
 * CLI itself — the package's own executable, or the program given with --cli — so validation, confirmation, the
 * result envelope and coded errors are the CLI's, and whatever records CLI calls (the evaluation's broker) records a
 * tool call as the command it is. Skills are prompts; the brief, rules and Skills are resources.
 */
import { execFile } from "node:child_process";
import { accessSync, constants, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, delimiter, isAbsolute, join, resolve as resolvePath } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CliError } from "./errors.js";
import { describeCommands } from "./help.js";
import { findCommand, openCli, type Cli } from "./load.js";
import type { Command } from "./manifest.js";
import { commandCredential } from "./auth.js";
import { DEFAULT_MAX_TOOLS, invocationFor, MAX_TOOL_NAME, toolsFor, type ToolDefinition } from "./mcp-tools.js";
import { maskSecrets } from "./guard.js";
import { unknownCommand } from "./suggest.js";

/** The longest a tool call may run: a CLI call with --all follows up to 100 pages. */
const CALL_TIMEOUT_MS = 10 * 60 * 1000;
const MAX_OUTPUT = 64 * 1024 * 1024;

export interface ServeOptions {
  /** Above this many commands, the dynamic toolset (search, describe, call) instead of one tool per command. */
  maxTools: number;
  /** The program a tool call runs, with the command's argv; default: this package's own executable under Node. */
  cli?: string;
  maxNameLength: number;
}

interface CallResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function errorResult(error: { code: string; message: string; suggestion: string; details?: unknown }): CallResult {
  // Whatever an argument held (a key pasted as an argument's name, say), the error never echoes a credential.
  const details = error.details === undefined ? undefined : (JSON.parse(maskSecrets(JSON.stringify(error.details))) as unknown);
  const body = { error: true, code: error.code, message: maskSecrets(error.message), suggestion: maskSecrets(error.suggestion), ...(details ? { details } : {}) };
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

const asError = (error: unknown) => (error instanceof CliError ? errorResult(error) : errorResult({ code: "INTERNAL_ERROR", message: `Unexpected failure: ${(error as Error).message}`, suggestion: "Report it with the issue command." }));

/** A program that could not be started at all (ENOENT, EACCES, E2BIG …), as a coded tool result: never a protocol error. */
function notStarted(file: string, error: NodeJS.ErrnoException): CallResult {
  if (error.code === "E2BIG") return errorResult({ code: "INVALID_VALUE", message: "The arguments are too long to pass on a command line (E2BIG).", suggestion: "Shorten the longest argument, or give long values inside the request body." });
  return errorResult({ code: "INTERNAL_ERROR", message: `The CLI could not be started (${basename(file)}): ${error.code ?? error.message}.`, suggestion: "Check the server's --cli program exists and is executable; if it does, report it with the issue command." });
}

/** Runs the CLI for one call and turns its answer into a tool result: the envelope, or the coded error. */
function runCli(cli: Cli, options: ServeOptions, argv: string[], stdin: string | undefined): Promise<CallResult> {
  const binary = join(cli.dir, `${cli.manifest.product.binary}.cjs`);
  const [file, args] = options.cli ? [options.cli, argv] : [process.execPath, [binary, ...argv]];
  return new Promise((resolve) => {
    let child: ReturnType<typeof execFile>;
    try {
      child = execFile(file, args, { maxBuffer: MAX_OUTPUT, timeout: CALL_TIMEOUT_MS, encoding: "utf8", windowsHide: true }, (error, stdout, stderr) => {
        const code = error && typeof (error as { code?: unknown }).code === "number" ? ((error as { code: number }).code) : error ? null : 0;
        // A string code is the spawn's own failure (the program never ran) or Node's output bound, not an exit status.
        const errno = error && typeof (error as { code?: unknown }).code === "string" ? (error as NodeJS.ErrnoException) : undefined;
        if (errno?.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return resolve(errorResult({ code: "RESPONSE_TOO_LARGE", message: `The CLI's answer is over ${MAX_OUTPUT / 1024 / 1024} MiB.`, suggestion: 'Ask for less: "fields", a filter, or fewer pages.' }));
        if (errno && !stdout && !stderr) return resolve(notStarted(file, errno));
        if (code === 0) {
          try {
            const envelope = JSON.parse(stdout) as Record<string, unknown>;
            const text = JSON.stringify({ result: envelope.result, ...(envelope.page ? { page: envelope.page } : {}) });
            return resolve({ content: [{ type: "text", text }], structuredContent: envelope });
          } catch {
            return resolve(errorResult({ code: "INTERNAL_ERROR", message: "The CLI's output was not one JSON document.", suggestion: "Report it with the issue command." }));
          }
        }
        try {
          const parsed = JSON.parse(stderr.trim().split("\n").pop() ?? "") as { code: string; message: string; suggestion: string; details?: unknown };
          // The CLI's advice names its flags; through MCP the same switches are arguments.
          if (parsed.code === "CONFIRMATION_REQUIRED") parsed.suggestion = 'Call again with "yes": true to confirm, or "dry-run": true to preview the request.';
          if (typeof parsed.code === "string") return resolve(errorResult(parsed));
        } catch {
          // Not the CLI's error document: reported below.
        }
        const why = error?.killed ? `it ran over ${CALL_TIMEOUT_MS / 60000} minutes` : `it ended with ${code ?? (error as { signal?: string } | null)?.signal ?? "an error"}`;
        resolve(errorResult({ code: error?.killed ? "TIMEOUT" : "INTERNAL_ERROR", message: `The command failed: ${why}. ${stderr.slice(0, 500)}`.trim(), suggestion: "Retry once; if it fails again, report it with the issue command." }));
      });
    } catch (error) {
      // Node throws some spawn failures (E2BIG among them) instead of reporting them through the callback.
      return resolve(notStarted(file, error as NodeJS.ErrnoException));
    }
    child.stdin?.on("error", () => {});
    child.stdin?.end(stdin ?? "");
  });
}

function callCommand(cli: Cli, options: ServeOptions, command: Command, args: Record<string, unknown> | undefined): Promise<CallResult> {
  try {
    const { argv, stdin } = invocationFor(command, args);
    return runCli(cli, options, argv, stdin);
  } catch (error) {
    return Promise.resolve(asError(error));
  }
}

const structured = (value: Record<string, unknown>): CallResult => ({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });

/** The three tools of a large CLI: find commands (by words, or by group), read one's schema, and call one. */
function dynamicToolset(cli: Cli, options: ServeOptions) {
  const { binary } = cli.manifest.product;
  let all: Array<{ command: Command; tool: ToolDefinition }> | undefined;
  const every = () => (all ??= toolsFor(cli.all(), options.maxNameLength, (c) => commandCredential(cli.manifest, c)));
  const lookup = (name: unknown): Command => {
    const words = typeof name === "string" ? name.trim().split(/\s+/).filter(Boolean) : [];
    const command = words.length ? findCommand(cli, words) : undefined;
    if (!command || command.hidden) throw unknownCommand(cli, words.length ? words : [String(name)]);
    return command;
  };
  const tools: ToolDefinition[] = [
    {
      name: "search_commands",
      description: `Find the commands of ${binary}: by words (query), within a group, or, with neither, list the groups. Then describe_command one, and call_command it.`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", maxLength: 200, description: "Words to look for in command names and descriptions" },
          group: { type: "string", maxLength: 100, description: "A group (the first word of its commands) to list or search within" },
          limit: { type: "integer", minimum: 1, maximum: 50, default: 20, description: "Most commands returned" },
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "describe_command",
      description: `The full schema of one ${binary} command: its description, the arguments call_command takes (JSON Schema, with limits), whether it is destructive.`,
      inputSchema: { type: "object", properties: { command: { type: "string", maxLength: 300, description: 'The command\'s name, e.g. "rooms list"' } }, required: ["command"], additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "call_command",
      description: `Run one ${binary} command with its arguments (as describe_command gives them). A destructive command is refused unless arguments.yes is true.`,
      inputSchema: {
        type: "object",
        properties: { command: { type: "string", maxLength: 300, description: 'The command\'s name, e.g. "rooms list"' }, arguments: { type: "object", description: "The command's arguments, by name" } },
        required: ["command"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
  ];
  const search = (args: Record<string, unknown>) => {
    const limit = Number.isInteger(args.limit) ? Math.min(50, Math.max(1, args.limit as number)) : 20;
    const group = typeof args.group === "string" ? args.group.trim() : "";
    const query = typeof args.query === "string" ? args.query.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean) : [];
    if (!group && !query.length) return structured({ groups: cli.manifest.groups, help: "Search within a group (group) or by words (query)." });
    if (group && !cli.manifest.groups.some((g) => g.name === group)) throw new CliError("NOT_FOUND", `No group "${group}".`, "Call search_commands with no arguments to list the groups.", { group });
    const pool = group ? cli.group(group).filter((c) => !c.hidden) : every().map((t) => t.command);
    const score = (c: Command) => {
      const name = c.name.toLowerCase();
      const text = `${name} ${c.description.toLowerCase()}`;
      return query.reduce((n, w) => n + (name.includes(w) ? 3 : text.includes(w) ? 1 : 0), 0);
    };
    const ranked = (query.length ? pool.map((c) => ({ c, s: score(c) })).filter((r) => r.s > 0).sort((a, b) => b.s - a.s || a.c.name.localeCompare(b.c.name)) : pool.map((c) => ({ c, s: 0 }))).map((r) => r.c);
    return structured({
      total: ranked.length,
      commands: ranked.slice(0, limit).map((c) => ({ command: c.name, description: c.description, destructive: c.destructive, permission: c.permission })),
    });
  };
  const describe = (args: Record<string, unknown>) => {
    const command = lookup(args.command);
    const tool = every().find((t) => t.command === command)!.tool;
    const described = describeCommands(cli, [command]).commands[0]!;
    return structured({ command: command.name, description: command.details ?? command.description, arguments: tool.inputSchema, annotations: tool.annotations, errors: described.errors });
  };
  const call = async (name: string, args: Record<string, unknown>): Promise<CallResult> => {
    try {
      if (name === "search_commands") return search(args);
      if (name === "describe_command") return describe(args);
      const inner = args.arguments;
      if (inner !== undefined && (typeof inner !== "object" || inner === null || Array.isArray(inner))) throw new CliError("INVALID_VALUE", `"arguments" must be an object of the command's arguments.`, "Call describe_command for its arguments.", { flag: "arguments" });
      return callCommand(cli, options, lookup(args.command), inner as Record<string, unknown> | undefined);
    } catch (error) {
      return asError(error);
    }
  };
  return { tools, call };
}

function staticToolset(cli: Cli, options: ServeOptions) {
  const entries = toolsFor(cli.all(), options.maxNameLength, (c) => commandCredential(cli.manifest, c));
  const byName = new Map(entries.map((e) => [e.tool.name, e.command]));
  return {
    tools: entries.map((e) => e.tool),
    call: async (name: string, args: Record<string, unknown>) => callCommand(cli, options, byName.get(name)!, args),
  };
}

/** The server for a package folder, not yet connected: tests and inspection connect it to their own transport. */
export function createServer(dir: string, options: ServeOptions): Server {
  const cli = openCli(dir);
  const { manifest } = cli;
  const visible = manifest.groups.reduce((n, g) => n + g.count, 0);
  const toolset = visible > options.maxTools ? dynamicToolset(cli, options) : staticToolset(cli, options);
  const known = new Set(toolset.tools.map((t) => t.name));
  const server = new Server(
    { name: manifest.product.binary, version: manifest.product.version },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, instructions: [manifest.product.description, ...manifest.rules].filter(Boolean).join("\n") },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolset.tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (!known.has(name)) return errorResult({ code: "UNKNOWN_COMMAND", message: `No tool "${name}".`, suggestion: "List the tools again; names are the command's words joined by _." });
    return toolset.call(name, (args ?? {}) as Record<string, unknown>);
  });
  const skill = (name: string) => readFileSync(join(dir, "agent", "skills", `${name}.md`), "utf8");
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: manifest.skills.map((s) => ({ name: s.name, description: s.description })) }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const found = manifest.skills.find((s) => s.name === request.params.name);
    if (!found) throw new McpError(ErrorCode.InvalidParams, `No prompt "${request.params.name}"; the prompts are the Skills: ${manifest.skills.map((s) => s.name).join(", ") || "none"}.`);
    return { description: found.description, messages: [{ role: "user", content: { type: "text", text: skill(found.name) } }] };
  });
  const uri = (kind: string, name: string) => `agent://${manifest.product.binary}/${kind}/${name}`;
  const rules = () => readdirSync(join(dir, "agent", "rules")).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3)).sort();
  const resources = () => [
    { uri: `agent://${manifest.product.binary}/brief`, name: "brief", description: `What ${manifest.product.binary} is for`, mimeType: "text/markdown", file: join(dir, "agent", "brief.md") },
    ...rules().map((r) => ({ uri: uri("rules", r), name: `rule ${r}`, description: `Rule: ${r}`, mimeType: "text/markdown", file: join(dir, "agent", "rules", `${r}.md`) })),
    ...manifest.skills.map((s) => ({ uri: uri("skills", s.name), name: `skill ${s.name}`, description: s.description, mimeType: "text/markdown", file: join(dir, "agent", "skills", `${s.name}.md`) })),
  ];
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: resources().map(({ file: _file, ...r }) => r) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const found = resources().find((r) => r.uri === request.params.uri);
    // -32002: the MCP specification's "resource not found".
    if (!found) throw new McpError(-32002, `No resource ${request.params.uri}.`);
    return { contents: [{ uri: found.uri, mimeType: found.mimeType, text: readFileSync(found.file, "utf8") }] };
  });
  return server;
}

/** The program --cli names, as execFile will find it: a path (relative to here) or a name on PATH; undefined if none runs. */
function findProgram(program: string, env: NodeJS.ProcessEnv): string | undefined {
  const runs = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes("/")) return runs(program) ? program : undefined;
  return (env.PATH ?? "").split(delimiter).filter(Boolean).map((d) => join(d, program)).find(runs);
}

/** Reads the server's own arguments: --max-tools N, --cli <program>, --max-name-length N (and AGENT_CLI_MCP_MAX_TOOLS). */
export function serveOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const options: ServeOptions = { maxTools: DEFAULT_MAX_TOOLS, maxNameLength: MAX_TOOL_NAME };
  const integer = (name: string, value: string | undefined, min: number, max: number, flag: string) => {
    const n = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new CliError("INVALID_VALUE", `${name} must be an integer from ${min} to ${max} (got "${value ?? ""}").`, `Give e.g. ${name === "AGENT_CLI_MCP_MAX_TOOLS" ? `${name}=` : `${name} `}${Math.max(min, Math.min(max, DEFAULT_MAX_TOOLS))}.`, { flag });
    return n;
  };
  const fromEnv = env.AGENT_CLI_MCP_MAX_TOOLS;
  if (fromEnv !== undefined && fromEnv !== "") options.maxTools = integer("AGENT_CLI_MCP_MAX_TOOLS", fromEnv, 0, 100_000, "AGENT_CLI_MCP_MAX_TOOLS");
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const known = name === "--max-tools" || name === "--max-name-length" || name === "--cli";
    if (!known) throw new CliError("UNKNOWN_FLAG", `Unknown argument ${name}.`, "The server takes --max-tools <n>, --max-name-length <n> and --cli <program>.", { flag: name });
    // The next word is the value unless it is the next flag: `--cli --max-tools 3` lacks a program.
    const value = inline ?? (argv[i + 1]?.startsWith("--") ? undefined : argv[++i]);
    if (value === undefined || value === "") throw new CliError("INVALID_VALUE", `${name} needs a value.`, `Give ${name === "--cli" ? "--cli <program>" : `${name} <n>`}.`, { flag: name.slice(2) });
    if (name === "--max-tools") options.maxTools = integer(name, value, 0, 100_000, "max-tools");
    else if (name === "--max-name-length") options.maxNameLength = integer(name, value, 16, 128, "max-name-length");
    else {
      if (!findProgram(value, env)) {
        const where = value.includes("/") ? `no executable file at ${isAbsolute(value) ? value : resolvePath(value)}` : "no executable of that name on PATH";
        throw new CliError("INVALID_VALUE", `--cli "${value}" cannot be run: ${where}.`, "Give --cli the path of the CLI's executable (or leave it out to run this package's own).", { flag: "cli" });
      }
      options.cli = value;
    }
  }
  return options;
}

/** `<binary>-mcp`: serves the package in `dir` on stdin/stdout until the client closes it. */
export async function serve(dir: string, argv: string[]): Promise<number> {
  let options: ServeOptions;
  try {
    options = serveOptions(argv);
  } catch (error) {
    const e = error as CliError;
    process.stderr.write(`${JSON.stringify({ error: true, code: e.code, message: e.message, suggestion: e.suggestion, ...(e.details ? { details: e.details } : {}) })}\n`);
    return 2;
  }
  const server = createServer(dir, options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.on("end", resolve);
  });
  await server.connect(transport);
  await closed;
  return 0;
}
