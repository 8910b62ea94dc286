import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compileSchema } from "../../core/json-schema.js";
import type { Facts } from "./probes.js";
import { fillArguments, type HelpCommand } from "./subjects.js";

/**
 * MCP certification (README, "Inspection and certification"; docs/generated-cli.md, "MCP server"): the candidate's `<binary>-mcp` started the way a client starts
 * it — initialize, list tools, prompts and resources — its tool names and schemas checked against what clients accept,
 * the tool list's size estimated in tokens, one read call against the service and one destructive call that must be
 * refused. Clients cap how many tools they take; each profile says whether the server fits that cap. The same server
 * is then started over Streamable HTTP (`--http 127.0.0.1:0`) and must hand a client the same tools.
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
  /** Every check above passed (calls that were skipped do not count against it). */
  ok?: boolean;
}

const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

function executableOf(facts: Facts, bin: string): string | undefined {
  if (!facts.packageRoot) return undefined;
  const pkg = JSON.parse(readFileSync(join(facts.packageRoot, "package.json"), "utf8")) as { bin?: Record<string, string> | string };
  const name = `${facts.binary}-mcp`;
  if (typeof pkg.bin !== "object" || !pkg.bin[name]) return undefined;
  // The installed link beside the CLI's own, as a client's config names it; else the file in the package.
  const linked = join(bin, "..", name);
  return existsSync(linked) ? linked : join(facts.packageRoot, pkg.bin[name]!);
}

/** Starts the candidate's MCP server like a client and certifies it; never throws (a failure is the report). */
export async function certifyMcp(facts: Facts, bin: string, env: Record<string, string>): Promise<McpReport> {
  const executable = executableOf(facts, bin);
  if (!executable) return { served: false, reason: `the package has no ${facts.binary}-mcp executable` };
  const [{ Client }, { StdioClientTransport }] = await Promise.all([import("@modelcontextprotocol/sdk/client/index.js"), import("@modelcontextprotocol/sdk/client/stdio.js")]);
  const client = new Client({ name: "inter-inspect", version: "1.0.0" });
  // The HTTP server starts beside the stdio one, so its start-up overlaps the stdio checks; it compares its tools with
  // stdio's once those are listed (none, if stdio failed first).
  let stdioNames: (names: string[]) => void = () => {};
  const http = certifyHttp(executable, env, new Promise<string[]>((resolve) => (stdioNames = resolve)));
  const transport = new StdioClientTransport({ command: executable, args: [], env, stderr: "ignore" });
  const options = { timeout: TIMEOUT_MS };
  try {
    await client.connect(transport, options);
    const tools: Array<{ name: string; title?: string; inputSchema: object; annotations?: object }> = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, options);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < 100_000);
    const prompts = (await client.listPrompts({}, options)).prompts.length;
    const resources = (await client.listResources({}, options)).resources.length;
    const names = tools.map((t) => t.name);
    stdioNames(names);
    const seen = new Set<string>();
    const duplicates = names.filter((n) => (seen.has(n) ? true : (seen.add(n), false)));
    const invalidSchemas: string[] = [];
    for (const tool of tools) {
      try {
        await compileSchema(tool.inputSchema);
      } catch {
        invalidSchemas.push(tool.name);
      }
    }
    // Dynamic: one call_command (older servers), or call_read / call_write / call_destructive by what a command does.
    const dynamic = names.includes("search_commands") && (names.includes("call_command") || names.some((n) => /^call_(read|write|destructive)$/.test(n)));
    const mcpSchema = facts.probes.mcp?.json?.tools;
    const callTool = (command: HelpCommand) => {
      if (names.includes("call_command")) return "call_command";
      const kind = command.destructive ? "call_destructive" : command.permission === "read" ? "call_read" : "call_write";
      return names.includes(kind) ? kind : undefined;
    };
    const call = async (command: HelpCommand, args: Record<string, unknown>): Promise<McpCall> => {
      const tool = dynamic ? callTool(command) : tools.find((t) => t.title === command.name || (t.annotations as { title?: string } | undefined)?.title === command.name)?.name;
      if (!tool) return { tool: "", command: command.name, ok: false, code: "NO_TOOL" };
      const result = await client.callTool({ name: tool, arguments: dynamic ? { command: command.name, arguments: args } : args }, undefined, options);
      const structured = result.structuredContent as { ok?: boolean; code?: string } | undefined;
      return { tool, command: command.name, ok: !result.isError && structured?.ok === true, ...(result.isError ? { code: structured?.code ?? "UNKNOWN" } : {}) };
    };
    const { list, destructive } = facts.subjects.chosen;
    const readCall = facts.apiUnavailable ? { skipped: facts.apiUnavailable } : list ? await call(list.command, fillArguments(list.command)) : { skipped: "no read command without required flags" };
    const refused = destructive ? await call(destructive.command, fillArguments(destructive.command)) : { skipped: "no destructive command" };
    const destructiveRefused = "command" in refused ? { ...refused, ok: refused.code === "CONFIRMATION_REQUIRED" } : refused;
    const report: McpReport = {
      served: true,
      executable: `${facts.binary}-mcp`,
      toolset: dynamic ? "dynamic" : "per-command",
      tools: tools.length,
      prompts,
      resources,
      tokens: tokens(tools),
      ...(dynamic && Array.isArray(mcpSchema) ? { perCommandTokens: tokens(mcpSchema) } : {}),
      names: { longest: Math.max(0, ...names.map((n) => n.length)), invalid: names.filter((n) => n.length > MAX_NAME || !NAME.test(n)), duplicates },
      invalidSchemas,
      readCall,
      destructiveRefused,
      profiles: CLIENT_PROFILES.map((maxTools) => ({ maxTools, fits: tools.length <= maxTools })),
      http: await http,
    };
    report.ok = !report.names!.invalid.length && !duplicates.length && !invalidSchemas.length && (!("ok" in readCall) || readCall.ok) && (!("ok" in destructiveRefused) || destructiveRefused.ok) && (!report.http!.offered || report.http!.ok);
    return report;
  } catch (error) {
    return { served: false, reason: `the MCP server failed: ${(error as Error).message.slice(0, 300)}` };
  } finally {
    stdioNames([]);
    await client.close().catch(() => {});
    await http;
  }
}

/**
 * The server over Streamable HTTP, as a hosted agent meets it: started on a free loopback port, the URL read from its
 * stderr, initialized and its tools listed with the SDK's HTTP client — the same tools as over stdio. Never throws.
 */
async function certifyHttp(executable: string, env: Record<string, string>, stdio: Promise<string[]>): Promise<NonNullable<McpReport["http"]>> {
  const child = spawn(executable, ["--http", "127.0.0.1:0"], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const ended = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.on("error", () => resolve(null));
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
      if (/"code":"UNKNOWN_FLAG"/.test(stderr) && /--http/.test(stderr)) return { offered: false, ok: false, reason: "the server does not take --http" };
      return { offered: true, ok: false, reason: `it did not listen: ${stderr.trim().slice(0, 300) || "no output"}` };
    }
    const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([import("@modelcontextprotocol/sdk/client/index.js"), import("@modelcontextprotocol/sdk/client/streamableHttp.js")]);
    const client = new Client({ name: "inter-inspect", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: TIMEOUT_MS });
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: TIMEOUT_MS });
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor && names.length < 100_000);
      const stdioTools = await stdio;
      const same = names.length === stdioTools.length && names.every((n, i) => n === stdioTools[i]);
      return { offered: true, ok: same, tools: names.length, ...(same ? {} : { reason: `over HTTP it lists ${names.length} tools, over stdio ${stdioTools.length}` }) };
    } finally {
      await client.close().catch(() => {});
    }
  } catch (error) {
    return { offered: true, ok: false, reason: `the HTTP server failed: ${(error as Error).message.slice(0, 300)}` };
  } finally {
    child.kill("SIGTERM");
    await ended;
  }
}
