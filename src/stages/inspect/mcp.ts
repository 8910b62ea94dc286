import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { compileSchema, schemaChecker } from "../../core/json-schema.js";
import { count } from "../../core/plural.js";
import { type InstalledPackage, packageBins } from "../candidate/installed-package.js";
import { McpHttpClient, McpStdioClient } from "./mcp-client.js";
import { refusedByApi } from "./api-refusal.js";
import { documentOf } from "./probe-output.js";
import type { Facts } from "./probes.js";
import { fillArguments, type HelpCommand } from "./subjects.js";

/**
 * MCP certification (README, "Inspection and certification"; docs/generated-cli.md, "MCP server"): the candidate's `<binary>-mcp` started the way a client starts
 * it — initialize, list tools, prompts and resources — its tool names and schemas checked against what clients accept,
 * the tool list's size estimated in tokens, one read call against the service and one destructive call that must be
 * refused. Clients cap how many tools they take; each profile says whether the server fits that cap. The same server,
 * started over Streamable HTTP (`--http 127.0.0.1:0`) beside it, must hand a client the same tools.
 */

/** Tool limits of common clients: the smallest (40), a middle one (50) and the largest widely documented (128). */
const CLIENT_PROFILES = [40, 50, 128] as const;
const MAX_NAME = 64;
const NAME = /^[a-zA-Z0-9_-]+$/;
const TIMEOUT_MS = 60_000;

export interface McpCall {
  tool: string;
  command: string;
  ok: boolean;
  /** The error code the call answered with, when it failed. */
  code?: string;
}

export interface McpReport {
  served: boolean;
  /** Why the server was not certified (no executable, it would not start). */
  reason?: string;
  executable?: string;
  toolset?: "per-command" | "dynamic";
  tools?: number;
  prompts?: number;
  resources?: number;
  /** The tool list as clients load it into the model's context: about four characters a token. */
  tokens?: number;
  /** What one tool per command would cost (the CLI's --mcp-schema), when the server offers the dynamic toolset. */
  perCommandTokens?: number;
  /** How perCommandTokens was estimated, when --mcp-schema exported one group's tools rather than every command's. */
  perCommandEstimate?: string;
  names?: { longest: number; invalid: string[]; duplicates: string[] };
  invalidSchemas?: string[];
  readCall?: McpCall | { skipped: string };
  destructiveRefused?: McpCall | { skipped: string };
  profiles?: Array<{ maxTools: number; fits: boolean }>;
  /**
   * Streamable HTTP: started on a free loopback port, initialized and its tools listed. `offered: false` for a server
   * that refuses --http (built before it was added): recorded, not failed.
   */
  http?: { offered: boolean; ok: boolean; tools?: number; reason?: string };
  /**
   * Revision 2026-07-28 on the same stdio server: `server/discover`, then the tools listed by a stateless request,
   * which must be the session's. `offered: false` for a server that answers discover "method not found" (built for the
   * session-based revisions only): recorded, not failed.
   */
  stateless?: { offered: boolean; ok: boolean; tools?: number; reason?: string };
  /** Every check above passed (calls that were skipped do not count against it). */
  ok?: boolean;
}

const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

function executableOf(pkg: InstalledPackage | undefined, binary: string, bin: string): string | undefined {
  if (!pkg) return undefined;
  const name = `${binary}-mcp`;
  const file = packageBins(pkg.packageJson)[name];
  if (!file) return undefined;
  // The installed link beside the CLI's own, as a client's config names it; else the file in the package.
  const linked = join(bin, "..", name);
  return existsSync(linked) ? linked : join(pkg.root, file);
}

type Tool = { name: string; title?: string; inputSchema: object; outputSchema?: object; annotations?: object };

/** The server started and listed, before any call: what needs no probe's findings. */
export type McpSession =
  | { served: false; reason: string }
  | {
      served: true;
      client: McpStdioClient;
      tools: Tool[];
      prompts: number;
      resources: number;
      invalidSchemas: string[];
      http: Promise<HttpReport>;
      stateless: StatelessReport;
    };

type HttpReport = NonNullable<McpReport["http"]>;
type StatelessReport = NonNullable<McpReport["stateless"]>;

const STATELESS_REVISION = "2026-07-28";

/**
 * Asks the server as a client of revision 2026-07-28 does, each request carrying its version and capabilities in
 * `_meta`, and compares the tools it lists with the session's.
 */
async function checkStateless(client: McpStdioClient, listed: string[]): Promise<StatelessReport> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": STATELESS_REVISION,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "inter-inspect", version: "1.0.0" },
  };
  let discovered: unknown;
  try {
    discovered = await client.request("server/discover", { _meta }, TIMEOUT_MS);
  } catch (error) {
    const message = (error as Error).message;
    if (/-32601|method not found/i.test(message)) return { offered: false, ok: false, reason: "no server/discover" };
    return { offered: true, ok: false, reason: `server/discover failed: ${message.slice(0, 300)}` };
  }
  if (
    !isObject(discovered) ||
    !Array.isArray(discovered.supportedVersions) ||
    !discovered.supportedVersions.includes(STATELESS_REVISION) ||
    !isObject(discovered.capabilities)
  )
    return {
      offered: true,
      ok: false,
      reason: `server/discover's answer lacks supportedVersions with ${STATELESS_REVISION} or capabilities`,
    };
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await client.request("tools/list", { _meta, ...(cursor ? { cursor } : {}) }, TIMEOUT_MS)) as {
        nextCursor?: unknown;
        resultType?: unknown;
      };
      if (page?.resultType !== "complete")
        return { offered: true, ok: false, reason: 'a stateless tools/list result without resultType "complete"' };
      for (const tool of listOf(page, "tools")) if (isObject(tool)) names.push(String(tool.name));
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor && names.length < 100_000);
    const same = names.length === listed.length && names.every((n, i) => n === listed[i]);
    return same
      ? { offered: true, ok: true, tools: names.length }
      : {
          offered: true,
          ok: false,
          tools: names.length,
          reason: `a stateless tools/list gives ${names.length} tools, the session ${listed.length}`,
        };
  } catch (error) {
    return {
      offered: true,
      ok: false,
      reason: `a stateless tools/list failed: ${(error as Error).message.slice(0, 300)}`,
    };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value);

/** A list result's items, or an error in the words a client gives when the server's answer has the wrong shape. */
function listOf(result: unknown, key: string): unknown[] {
  if (!isObject(result) || !Array.isArray(result[key])) throw new Error(`Server sent an invalid ${key}/list result`);
  return result[key] as unknown[];
}

/**
 * Starts the candidate's MCP server like a client — initialize, list tools, prompts and resources — and checks the
 * tools' schemas. Needs nothing the probes find, so it runs while they do (issue #46); never throws.
 */
export async function openMcp(
  pkg: InstalledPackage | undefined,
  binary: string,
  bin: string,
  env: Record<string, string>,
): Promise<McpSession> {
  const executable = executableOf(pkg, binary, bin);
  if (!executable) return { served: false, reason: `the package has no ${binary}-mcp executable` };
  // The same server over Streamable HTTP starts at once, beside the stdio one (each start-up is a process loading the
  // whole CLI): it is compared with the tools stdio lists, once it has.
  let listed!: (names: string[] | undefined) => void;
  const http = certifyHttp(executable, env, new Promise<string[] | undefined>((resolve) => (listed = resolve)));
  let client: McpStdioClient | undefined;
  try {
    client = await McpStdioClient.connect(executable, env, TIMEOUT_MS);
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = (await client.request("tools/list", cursor ? { cursor } : {}, TIMEOUT_MS)) as {
        nextCursor?: unknown;
      };
      for (const tool of listOf(page, "tools")) {
        if (
          !isObject(tool) ||
          typeof tool.name !== "string" ||
          !isObject(tool.inputSchema) ||
          tool.inputSchema.type !== "object"
        )
          throw new Error("Server sent an invalid tools/list result: a tool without a name or an object input schema");
        tools.push(tool as unknown as Tool);
      }
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor && tools.length < 100_000);
    listed(tools.map((t) => t.name));
    const prompts = listOf(await client.request("prompts/list", {}, TIMEOUT_MS), "prompts").length;
    const resources = listOf(await client.request("resources/list", {}, TIMEOUT_MS), "resources").length;
    const invalidSchemas: string[] = [];
    const check = schemaChecker();
    for (const tool of tools) {
      try {
        await check(tool.inputSchema);
      } catch {
        invalidSchemas.push(tool.name);
      }
    }
    const stateless = await checkStateless(
      client,
      tools.map((t) => t.name),
    );
    return { served: true, client, tools, prompts, resources, invalidSchemas, http, stateless };
  } catch (error) {
    client?.close();
    // Nothing to compare the HTTP server with: it is stopped, its report not needed.
    listed(undefined);
    await http;
    return { served: false, reason: `the MCP server failed: ${(error as Error).message.slice(0, 300)}` };
  }
}

/**
 * Calls a tool as a client does: an answer of the wrong shape, or structured content that breaks the tool's declared
 * output schema, is an error (as the SDK's client makes it).
 */
async function callTool(
  client: McpStdioClient,
  tool: Tool | undefined,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError?: boolean; structuredContent?: unknown }> {
  const result = (await client.request("tools/call", { name, arguments: args }, TIMEOUT_MS)) as {
    content?: unknown;
    isError?: unknown;
    structuredContent?: unknown;
  };
  if (!isObject(result) || (result.content !== undefined && !Array.isArray(result.content)))
    throw new Error("Server sent an invalid tools/call result");
  if (tool?.outputSchema) {
    if (!result.structuredContent && !result.isError)
      throw new Error(`Tool ${name} has an output schema but did not return structured content`);
    if (result.structuredContent) {
      const validate = await compileSchema(tool.outputSchema);
      if (!validate(result.structuredContent))
        throw new Error(
          `Structured content does not match the tool's output schema: ${JSON.stringify(validate.errors?.[0] ?? {}).slice(0, 200)}`,
        );
    }
  }
  return { isError: result.isError === true, structuredContent: result.structuredContent };
}

/**
 * What one tool per command would cost: the --mcp-schema export's size, or, when it exported one group's tools (a
 * scope of `commands` of `of`), those tools' size scaled to every command, plus the tools that are not a command's.
 */
function perCommand(
  exported: unknown[],
  scope: { scope: string; commands: number; of: number } | undefined,
): Pick<McpReport, "perCommandTokens" | "perCommandEstimate"> {
  if (!scope || !scope.commands) return { perCommandTokens: tokens(exported) };
  const own = exported.slice(0, scope.commands);
  return {
    perCommandTokens: Math.ceil((tokens(own) * scope.of) / scope.commands) + tokens(exported.slice(scope.commands)),
    perCommandEstimate: `scaled from the ${count(scope.commands, "tool")} of the ${scope.scope} group to ${count(scope.of, "command")}`,
  };
}

/** How the served tools are called: one tool per command, or the dynamic toolset's call tools. */
function toolsetOf(tools: Tool[]) {
  const names = tools.map((t) => t.name);
  // Dynamic: one call_command (older servers), or call_read / call_write / call_destructive by what a command does.
  const dynamic =
    names.includes("search_commands") &&
    (names.includes("call_command") || names.some((n) => /^call_(read|write|destructive)$/.test(n)));
  const toolFor = (command: HelpCommand) => {
    if (!dynamic)
      return tools.find(
        (t) => t.title === command.name || (t.annotations as { title?: string } | undefined)?.title === command.name,
      )?.name;
    if (names.includes("call_command")) return "call_command";
    const kind = command.destructive ? "call_destructive" : command.permission === "read" ? "call_read" : "call_write";
    return names.includes(kind) ? kind : undefined;
  };
  return { names, dynamic, toolFor };
}

/** The certification's two tool calls: a read (when the API can be called) and a destructive one that must be refused. */
export type McpCalls =
  | { made: true; readCall: McpCall | { skipped: string }; destructiveRefused: McpCall | { skipped: string } }
  | { made: false; reason: string };

/**
 * Makes the two tool calls on the commands the probes chose (stages/inspect/subjects.ts). Asked as soon as they are
 * chosen, the calls (each runs the CLI as a process of its own) are made beside the probes that follow, not after
 * them. Never rejects: a server that fails is a reason.
 */
export async function mcpCalls(
  opened: Promise<McpSession>,
  chosen: Facts["subjects"]["chosen"],
  apiUnavailable: string | undefined,
): Promise<McpCalls> {
  const session = await opened;
  if (!session.served) return { made: false, reason: session.reason };
  const { client, tools } = session;
  const { dynamic, toolFor } = toolsetOf(tools);
  const call = async (command: HelpCommand, args: Record<string, unknown>): Promise<McpCall> => {
    const tool = toolFor(command);
    if (!tool) return { tool: "", command: command.name, ok: false, code: "NO_TOOL" };
    const result = await callTool(
      client,
      tools.find((t) => t.name === tool),
      tool,
      dynamic ? { command: command.name, arguments: args } : args,
    );
    const structured = result.structuredContent as { ok?: boolean; code?: string } | undefined;
    return {
      tool,
      command: command.name,
      ok: !result.isError && structured?.ok === true,
      ...(result.isError ? { code: structured?.code ?? "UNKNOWN" } : {}),
    };
  };
  try {
    const { list, destructive } = chosen;
    const made = apiUnavailable
      ? { skipped: apiUnavailable }
      : list
        ? await call(list.command, fillArguments(list.command))
        : { skipped: "no read command without required flags" };
    // A call the API refused (the caller's credential, a server that is not there) says nothing of the server.
    const readCall =
      "code" in made && refusedByApi(made.code)
        ? { skipped: `the API refused the call (${made.code}): its answer is not judged` }
        : made;
    const refused = destructive
      ? await call(destructive.command, fillArguments(destructive.command))
      : { skipped: "no destructive command" };
    const destructiveRefused =
      "command" in refused ? { ...refused, ok: refused.code === "CONFIRMATION_REQUIRED" } : refused;
    return { made: true, readCall, destructiveRefused };
  } catch (error) {
    return { made: false, reason: `the MCP server failed: ${(error as Error).message.slice(0, 300)}` };
  }
}

/**
 * Certifies the MCP server opened by openMcp: its tools, the two calls (mcpCalls, made here when they were not asked
 * for earlier), then the report; never throws.
 */
export async function certifyMcp(
  facts: Facts,
  opened: Promise<McpSession>,
  calls: Promise<McpCalls> = mcpCalls(opened, facts.subjects.chosen, facts.apiUnavailable),
): Promise<McpReport> {
  const session = await opened;
  if (!session.served) return { served: false, reason: session.reason };
  const { client, tools, prompts, resources, invalidSchemas } = session;
  try {
    const { names, dynamic } = toolsetOf(tools);
    const seen = new Set<string>();
    const duplicates = names.filter((n) => (seen.has(n) ? true : (seen.add(n), false)));
    const mcpSchema = documentOf(facts.probes.mcp)?.tools;
    const made = await calls;
    if (!made.made) return { served: false, reason: made.reason };
    const { readCall, destructiveRefused } = made;
    const report: McpReport = {
      served: true,
      executable: `${facts.binary}-mcp`,
      toolset: dynamic ? "dynamic" : "per-command",
      tools: tools.length,
      prompts,
      resources,
      tokens: tokens(tools),
      ...(dynamic && Array.isArray(mcpSchema) ? perCommand(mcpSchema, facts.sampling?.mcpSchema) : {}),
      names: {
        longest: Math.max(0, ...names.map((n) => n.length)),
        invalid: names.filter((n) => n.length > MAX_NAME || !NAME.test(n)),
        duplicates,
      },
      invalidSchemas,
      readCall,
      destructiveRefused,
      profiles: CLIENT_PROFILES.map((maxTools) => ({ maxTools, fits: tools.length <= maxTools })),
      http: await session.http,
      stateless: session.stateless,
    };
    report.ok =
      !report.names!.invalid.length &&
      !duplicates.length &&
      !invalidSchemas.length &&
      (!("ok" in readCall) || readCall.ok) &&
      (!("ok" in destructiveRefused) || destructiveRefused.ok) &&
      (!report.http!.offered || report.http!.ok) &&
      (!report.stateless!.offered || report.stateless!.ok);
    return report;
  } catch (error) {
    return { served: false, reason: `the MCP server failed: ${(error as Error).message.slice(0, 300)}` };
  } finally {
    client.close();
    await session.http;
  }
}

/**
 * The server over Streamable HTTP, as a hosted agent meets it: started on a free loopback port, the URL read from its
 * stderr, initialized and its tools listed by the same client as over stdio, over HTTP (mcp-client.ts) — the same tools
 * as over stdio. Never throws.
 */
async function certifyHttp(
  executable: string,
  env: Record<string, string>,
  stdioListed: Promise<string[] | undefined>,
): Promise<HttpReport> {
  const child = spawn(executable, ["--http", "127.0.0.1:0"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const ended = new Promise<void>((resolve) => {
    child.on("exit", () => resolve());
    child.on("error", () => resolve());
  });
  try {
    const url = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), TIMEOUT_MS);
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /"listening":"(http:\/\/[^"]+)"/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      void ended.then(() => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
    if (!url) {
      // A server from before --http refuses the flag with UNKNOWN_FLAG: HTTP is not offered, which is not a failure.
      if (/"code":"UNKNOWN_FLAG"/.test(stderr) && /--http/.test(stderr))
        return { offered: false, ok: false, reason: "the server does not take --http" };
      return { offered: true, ok: false, reason: `it did not listen: ${stderr.trim().slice(0, 300) || "no output"}` };
    }
    const client = await McpHttpClient.connect(url, TIMEOUT_MS);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request("tools/list", cursor ? { cursor } : {}, TIMEOUT_MS);
      for (const tool of listOf(page, "tools"))
        if (isObject(tool) && typeof tool.name === "string") names.push(tool.name);
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor && names.length < 100_000);
    const stdioTools = (await stdioListed) ?? [];
    const same = names.length === stdioTools.length && names.every((n, i) => n === stdioTools[i]);
    return {
      offered: true,
      ok: same,
      tools: names.length,
      ...(same ? {} : { reason: `over HTTP it lists ${names.length} tools, over stdio ${stdioTools.length}` }),
    };
  } catch (error) {
    return { offered: true, ok: false, reason: `the HTTP server failed: ${(error as Error).message.slice(0, 300)}` };
  } finally {
    child.kill("SIGTERM");
    await ended;
  }
}
