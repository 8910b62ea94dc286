/**
 * `<binary>-mcp`: the CLI as an MCP server over stdio or Streamable HTTP (docs/generated-cli.md, "MCP server"). Each
 * tool call runs the CLI itself — the package's own executable, or the program given with --cli — so validation,
 * confirmation, the result envelope and coded errors are the CLI's, and whatever records CLI calls (the evaluation's
 * broker) records a tool call as the command it is. Skills are prompts; the brief, rules and Skills are resources.
 */
import { accessSync, constants, readdirSync, readFileSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve as resolvePath } from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { answerStateless, CODES, isStateless, ProtocolError, type Handler, type Offer } from "./mcp-revision.js";
import { CliError } from "./errors.js";
import { openCli, type Cli } from "./load.js";
import { commandCredential } from "./auth.js";
import { callCommand, mcpHints, type McpHints } from "./mcp-call.js";
import { dynamicToolset } from "./mcp-dynamic.js";
import { DEFAULT_MAX_TOOLS, issueTool, MAX_TOOL_NAME, toolsFor } from "./mcp-tools.js";
import { LineTransport } from "./mcp-stdio.js";
import {
  DEFAULT_HTTP_LIMITS,
  HTTP_TOKEN_ENV,
  isLoopback,
  parseListen,
  serveHttp,
  type HttpOptions,
} from "./mcp-http.js";

/**
 * The SDK's server checks a client's answer to an elicitation request against its schema, and by default builds an
 * ajv instance for that when it starts. This server sends no elicitation requests: it passes this instead, and the
 * bundle leaves ajv out (scripts/build.mjs), a third of the file every candidate ships and loads at every start.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error("this MCP server sends no elicitation requests, so it validates no answers to them");
  },
};

/** The SDK's schema of each method the handlers answer, for a session-based Server. */
const SDK_SCHEMAS = [
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
  ["prompts/list", ListPromptsRequestSchema],
  ["prompts/get", GetPromptRequestSchema],
  ["resources/list", ListResourcesRequestSchema],
  ["resources/templates/list", ListResourceTemplatesRequestSchema],
  ["resources/read", ReadResourceRequestSchema],
  ["completion/complete", CompleteRequestSchema],
  ["logging/setLevel", SetLevelRequestSchema],
  ["resources/subscribe", SubscribeRequestSchema],
  ["resources/unsubscribe", UnsubscribeRequestSchema],
] as const;

export interface ServeOptions {
  /** Above this many commands, the dynamic toolset (search, describe, call) instead of one tool per command. */
  maxTools: number;
  /** The program a tool call runs, with the command's argv; default: this package's own executable under Node. */
  cli?: string;
  maxNameLength: number;
  /** Serve Streamable HTTP here instead of stdio. */
  http?: HttpOptions;
}

function staticToolset(cli: Cli, options: ServeOptions, hints: McpHints) {
  const entries = toolsFor(cli.all(), options.maxNameLength, (c) => commandCredential(cli.manifest, c));
  const byName = new Map(entries.map((e) => [e.tool.name, e.command]));
  return {
    tools: entries.map((e) => e.tool),
    call: async (name: string, args: Record<string, unknown>) =>
      callCommand(cli, options, hints, byName.get(name)!, args),
  };
}

/** The server for a package folder, not yet connected: stdio, tests and inspection connect it to their transport. */
export function createServer(dir: string, options: ServeOptions): Server {
  return serverFactory(openCli(dir), options).newServer();
}

/**
 * What one package serves: the tools are made once; the handlers answer both a session-based SDK Server (one per
 * connection on stdio, per request over HTTP) and the stateless revision's requests (mcp-revision.ts).
 */
function serverFactory(cli: Cli, options: ServeOptions): { offer: Offer; newServer: () => Server } {
  const { manifest } = cli;
  const dir = cli.dir;
  const visible = manifest.groups.reduce((n, g) => n + g.count, 0);
  const large = visible > options.maxTools;
  // The issue tool's name is known before the toolset is (it names it in every hint): the static names are the commands'.
  const names = large
    ? new Set(["search_commands", "describe_command", "call_read", "call_write", "call_destructive"])
    : new Set(toolsFor(cli.all(), options.maxNameLength).map((t) => t.tool.name));
  const issue = issueTool(manifest, names);
  const hints = mcpHints(manifest, issue.tool.name);
  const toolset = large ? dynamicToolset(cli, options, hints) : staticToolset(cli, options, hints);
  const tools = [...toolset.tools, issue.tool];
  const known = new Set(tools.map((t) => t.name));
  const skill = (name: string) => readFileSync(join(dir, "agent", "skills", `${name}.md`), "utf8");
  const uri = (kind: string, name: string) => `agent://${manifest.product.binary}/${kind}/${name}`;
  const rules = () =>
    readdirSync(join(dir, "agent", "rules"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => f.slice(0, -3))
      .sort();
  const resources = () => [
    {
      uri: `agent://${manifest.product.binary}/brief`,
      name: "brief",
      description: `What ${manifest.product.binary} is for`,
      mimeType: "text/markdown",
      file: join(dir, "agent", "brief.md"),
    },
    ...rules().map((r) => ({
      uri: uri("rules", r),
      name: `rule ${r}`,
      description: `Rule: ${r}`,
      mimeType: "text/markdown",
      file: join(dir, "agent", "rules", `${r}.md`),
    })),
    ...manifest.skills.map((s) => ({
      uri: uri("skills", s.name),
      name: `skill ${s.name}`,
      description: s.description,
      mimeType: "text/markdown",
      file: join(dir, "agent", "skills", `${s.name}.md`),
    })),
  ];
  // A Skill is written for the command line: the prompt first says how its commands and flags are called here.
  const throughMcp = large
    ? `Through this MCP server: find a command below with search_commands, read its arguments with describe_command, and run it with the call tool that names (call_read, call_write or call_destructive); a flag --name is the argument "name", --yes is "yes": true. Report problems with ${issue.tool.name}.`
    : `Through this MCP server each command below is a tool named by its words joined by _ (e.g. "${toolset.tools[0]?.name ?? "group_action"}"); a flag --name is the argument "name", --yes is "yes": true, --dry-run is "dry-run": true. Report problems with ${issue.tool.name}.`;
  const handlers: Record<string, Handler> = {
    "tools/list": () => ({ tools }),
    "tools/call": async (params) => {
      const name = String(params.name);
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      // An unknown tool is a protocol error (the specification's "Error Handling"), not a failed call.
      if (!known.has(name))
        throw new ProtocolError(
          CODES.invalidParams,
          `No tool "${name.slice(0, 200)}". ${large ? "List the tools again: search_commands finds a command, and the call tool it names runs it." : "List the tools again; names are the command's words joined by _."}`,
          { code: "UNKNOWN_COMMAND" },
        );
      if (name === issue.tool.name) return callCommand(cli, options, hints, issue.command, args);
      return toolset.call(name, args);
    },
    "prompts/list": () => ({
      prompts: manifest.skills.map((s) => ({ name: s.name, description: s.description })),
    }),
    "prompts/get": (params) => {
      const found = manifest.skills.find((s) => s.name === params.name);
      if (!found)
        throw new ProtocolError(
          CODES.invalidParams,
          `No prompt "${String(params.name).slice(0, 200)}"; the prompts are the Skills: ${manifest.skills.map((s) => s.name).join(", ") || "none"}.`,
        );
      return {
        description: found.description,
        messages: [{ role: "user", content: { type: "text", text: `${throughMcp}\n\n${skill(found.name)}` } }],
      };
    },
    "resources/list": () => ({ resources: resources().map(({ file: _file, ...r }) => r) }),
    "resources/templates/list": () => ({ resourceTemplates: [] }),
    "resources/read": (params) => {
      const found = resources().find((r) => r.uri === params.uri);
      // -32002: the session-based revisions' "resource not found" (mcp-revision.ts answers -32602 in its own).
      if (!found)
        throw new ProtocolError(CODES.resourceNotFound, `No resource ${String(params.uri).slice(0, 300)}.`, {
          uri: params.uri,
        });
      return { contents: [{ uri: found.uri, mimeType: found.mimeType, text: readFileSync(found.file, "utf8") }] };
    },
    // Nothing here takes arguments to complete: an empty answer, as the specification allows.
    "completion/complete": () => ({ completion: { values: [], hasMore: false } }),
    // The server sends no log messages and its resources never change: both are accepted and have nothing to say.
    "logging/setLevel": () => ({}),
    "resources/subscribe": () => ({}),
    "resources/unsubscribe": () => ({}),
  };
  const offer: Offer = {
    info: { name: manifest.product.binary, version: manifest.product.version },
    capabilities: { tools: {}, prompts: {}, resources: {}, completions: {} },
    instructions: [manifest.product.description, ...hints.rules].filter(Boolean).join("\n"),
    handlers,
  };
  const newServer = () => {
    const server = new Server(offer.info, {
      capabilities: { ...offer.capabilities, resources: { subscribe: true }, logging: {} },
      instructions: offer.instructions,
      jsonSchemaValidator: NO_ELICITATION,
    });
    for (const [method, schema] of SDK_SCHEMAS)
      server.setRequestHandler(
        schema,
        (request) => handlers[method]!((request.params ?? {}) as Record<string, unknown>) as never,
      );
    return server;
  };
  return { offer, newServer };
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
  return (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, program))
    .find(runs);
}

/**
 * Reads the server's own arguments: --max-tools N, --cli <program>, --max-name-length N (and AGENT_CLI_MCP_MAX_TOOLS);
 * for HTTP, --http <host:port>, --allow-remote (any host but loopback) and --allow-origin <origin> (repeatable).
 */
export function serveOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): ServeOptions {
  const options: ServeOptions = { maxTools: DEFAULT_MAX_TOOLS, maxNameLength: MAX_TOOL_NAME };
  const integer = (name: string, value: string | undefined, min: number, max: number, flag: string) => {
    const n = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new CliError(
        "INVALID_VALUE",
        `${name} must be an integer from ${min} to ${max} (got "${value ?? ""}").`,
        `Give e.g. ${name === "AGENT_CLI_MCP_MAX_TOOLS" ? `${name}=` : `${name} `}${Math.max(min, Math.min(max, DEFAULT_MAX_TOOLS))}.`,
        { flag },
      );
    return n;
  };
  const fromEnv = env.AGENT_CLI_MCP_MAX_TOOLS;
  if (fromEnv !== undefined && fromEnv !== "")
    options.maxTools = integer("AGENT_CLI_MCP_MAX_TOOLS", fromEnv, 0, 100_000, "AGENT_CLI_MCP_MAX_TOOLS");
  let listen: { host: string; port: number } | undefined;
  let remote = false;
  const origins: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === "--allow-remote") {
      remote = true;
      continue;
    }
    const known = ["--max-tools", "--max-name-length", "--cli", "--http", "--allow-origin"].includes(name);
    if (!known)
      throw new CliError(
        "UNKNOWN_FLAG",
        `Unknown argument ${name}.`,
        "The server takes --max-tools <n>, --max-name-length <n>, --cli <program>, --http <host:port>, --allow-remote and --allow-origin <origin>.",
        { flag: name },
      );
    // The next word is the value unless it is the next flag: `--cli --max-tools 3` lacks a program.
    const value = inline ?? (argv[i + 1]?.startsWith("--") ? undefined : argv[++i]);
    const shape: Record<string, string> = {
      "--cli": "--cli <program>",
      "--http": "--http <host:port>",
      "--allow-origin": "--allow-origin <scheme://host:port>",
    };
    if (value === undefined || value === "")
      throw new CliError("INVALID_VALUE", `${name} needs a value.`, `Give ${shape[name] ?? `${name} <n>`}.`, {
        flag: name.slice(2),
      });
    if (name === "--max-tools") options.maxTools = integer(name, value, 0, 100_000, "max-tools");
    else if (name === "--max-name-length") options.maxNameLength = integer(name, value, 16, 128, "max-name-length");
    else if (name === "--http") listen = parseListen(value);
    else if (name === "--allow-origin") {
      let origin: string;
      try {
        origin = new URL(value).origin;
      } catch {
        origin = "null";
      }
      if (origin === "null" || origin !== value.replace(/\/$/, ""))
        throw new CliError(
          "INVALID_VALUE",
          `--allow-origin "${value}" is not an origin.`,
          "Give scheme://host[:port], e.g. --allow-origin https://chat.example.com.",
          { flag: "allow-origin" },
        );
      origins.push(origin);
    } else {
      if (!findProgram(value, env)) {
        const where = value.includes("/")
          ? `no executable file at ${isAbsolute(value) ? value : resolvePath(value)}`
          : "no executable of that name on PATH";
        throw new CliError(
          "INVALID_VALUE",
          `--cli "${value}" cannot be run: ${where}.`,
          "Give --cli the path of the CLI's executable (or leave it out to run this package's own).",
          { flag: "cli" },
        );
      }
      options.cli = value;
    }
  }
  if (!listen && (remote || origins.length))
    throw new CliError(
      "INVALID_VALUE",
      `${remote ? "--allow-remote" : "--allow-origin"} applies to HTTP only.`,
      "Give --http <host:port> with it, or leave it out for stdio.",
      { flag: remote ? "allow-remote" : "allow-origin" },
    );
  if (listen && !isLoopback(listen.host) && !remote)
    throw new CliError(
      "INVALID_VALUE",
      `--http ${listen.host} is not a loopback address: the server would take calls from other machines with this machine's API credential.`,
      `Give 127.0.0.1:${listen.port}, or add --allow-remote to serve other machines (behind TLS and an authenticating proxy, or with ${HTTP_TOKEN_ENV} set).`,
      { flag: "http" },
    );
  if (listen) options.http = { ...listen, allowedOrigins: origins, ...DEFAULT_HTTP_LIMITS };
  return options;
}

const writeError = (e: CliError) =>
  process.stderr.write(
    `${JSON.stringify({ error: true, code: e.code, message: e.message, suggestion: e.suggestion, ...(e.details ? { details: e.details } : {}) })}\n`,
  );

/** `<binary>-mcp`: serves the package in `dir` on stdin/stdout until the client closes it, or over HTTP until a signal. */
export async function serve(dir: string, argv: string[]): Promise<number> {
  let options: ServeOptions;
  try {
    options = serveOptions(argv);
  } catch (error) {
    writeError(error as CliError);
    return 2;
  }
  const { offer, newServer } = serverFactory(openCli(dir), options);
  if (options.http) {
    // The token clients present is the server's alone: the CLI it runs never sees it.
    const token = process.env[HTTP_TOKEN_ENV] || undefined;
    delete process.env[HTTP_TOKEN_ENV];
    try {
      return await serveHttp(newServer, offer, options.http, (line) => process.stderr.write(`${line}\n`), token);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      writeError(error);
      return 2;
    }
  }
  const server = newServer();
  const transport = new LineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.on("end", resolve);
  });
  await server.connect(transport);
  // A request of the stateless revision is answered from the same handlers; the rest is the session's.
  const session = transport.onmessage!;
  transport.onmessage = (message) => {
    if (!isStateless(message)) return session(message);
    void answerStateless(offer, message).then((answer) => transport.send(answer.body as never));
  };
  await closed;
  return 0;
}
