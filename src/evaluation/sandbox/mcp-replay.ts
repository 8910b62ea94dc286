import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { notRun, type AgentOutcome, type AgentRun } from "./agent-run.js";
import { startInGroup } from "./spawn.js";

/**
 * The reference agent through MCP: each reference step (a CLI argv) becomes the tool call an agent would make — the
 * command's own tool, or, in the dynamic toolset, the call tool describe_command names for it (call_read, call_write
 * or call_destructive; call_command on servers built before the split) — on the candidate's MCP server, started sealed in the
 * attempt like an agent's. The server runs each call through the broker, so the plan judges the same records.
 */

type Message = Record<string, unknown>;

/** An MCP stdio transport over a process inter started itself (sealed: with its hidden arguments on fd 3). */
async function childTransport(child: ChildProcess) {
  const [{ ReadBuffer, serializeMessage }] = await Promise.all([import("@modelcontextprotocol/sdk/shared/stdio.js")]);
  const buffer = new ReadBuffer();
  const transport = {
    onmessage: undefined as ((message: Message) => void) | undefined,
    onclose: undefined as (() => void) | undefined,
    onerror: undefined as ((error: Error) => void) | undefined,
    async start() {
      child.stdout!.on("data", (chunk: Buffer) => {
        buffer.append(chunk);
        for (;;) {
          let message;
          try {
            message = buffer.readMessage();
          } catch (error) {
            transport.onerror?.(error as Error);
            continue;
          }
          if (!message) break;
          transport.onmessage?.(message as Message);
        }
      });
      child.on("close", () => transport.onclose?.());
      child.on("error", (error) => transport.onerror?.(error));
    },
    async send(message: Message) {
      if (child.stdin?.writable) child.stdin.write(serializeMessage(message as never));
    },
    async close() {
      child.stdin?.end();
    },
  };
  return transport;
}

interface Tool {
  name: string;
  title?: string;
  inputSchema: { properties?: Record<string, { type?: string }> };
}

/** `--flag value` / `--flag=value` / `--switch` as the tool's arguments, typed by its input schema. */
function argumentsFor(flags: string[], schema: Tool["inputSchema"]): Record<string, unknown> {
  const properties = schema.properties ?? {};
  const args: Record<string, unknown> = {};
  const typed = (name: string, value: string): unknown => {
    const type = properties[name]?.type;
    if (type === "integer" || type === "number")
      return Number.isFinite(Number(value)) && value.trim() !== "" ? Number(value) : value;
    if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
    if (type === "array")
      return value
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
    return value;
  };
  for (let i = 0; i < flags.length; i++) {
    const token = flags[i]!;
    if (!token.startsWith("--")) continue;
    const eq = token.indexOf("=");
    const name = token.slice(2, eq >= 0 ? eq : undefined);
    // Output flags of the shell have no tool argument: a tool's result is always the whole envelope.
    if (["quiet", "agent", "human", "ndjson"].includes(name)) continue;
    if (eq >= 0) args[name] = typed(name, token.slice(eq + 1));
    else if (properties[name]?.type === "boolean" || flags[i + 1] === undefined || flags[i + 1]!.startsWith("--"))
      args[name] = true;
    else args[name] = typed(name, flags[++i]!);
  }
  return args;
}

export async function replayViaMcp<Step extends { argv: string[] }>(
  steps: Step[],
  attempt: AgentRun,
  server: { command: string; args: string[] },
  save: (stdout: string, step: Step) => string | undefined,
): Promise<AgentOutcome> {
  const [{ Client }] = await Promise.all([import("@modelcontextprotocol/sdk/client/index.js")]);
  // Started and stopped the one way every process of a run is (spawn.ts): its group, its grace period.
  const started = await startInGroup(attempt.command([server.command, ...server.args]), {
    env: attempt.env,
    stdin: "pipe",
    buffer: false,
  });
  const child = started.child as unknown as ChildProcess;
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr = (stderr + c.toString("utf8")).slice(-4000)));
  const kill = () => void started.stop();
  attempt.signal.addEventListener("abort", kill, { once: true });
  const log: string[] = [];
  const transcript = join(attempt.host.workspace, "transcript.txt");
  const client = new Client({ name: "inter-reference", version: "1.0.0" });
  const options = { timeout: attempt.timeoutMs };
  let outcome: AgentOutcome = { kind: "finished", exitCode: 0, timedOut: false };
  try {
    await started.spawned;
    await client.connect((await childTransport(child)) as never, options);
    const { tools } = (await client.listTools({}, options)) as { tools: Tool[] };
    const dynamic =
      tools.some((t) => t.name === "describe_command") &&
      tools.some((t) => t.name === "call_command" || /^call_(read|write|destructive)$/.test(t.name));
    for (const step of steps) {
      const flagAt = step.argv.findIndex((a, i) => i > 0 && a.startsWith("--"));
      const words = step.argv.slice(1, flagAt >= 0 ? flagAt : undefined);
      const flags = flagAt >= 0 ? step.argv.slice(flagAt) : [];
      const name = words.join(" ");
      let call: { name: string; arguments: Record<string, unknown> };
      if (dynamic) {
        const described = await client.callTool(
          { name: "describe_command", arguments: { command: name } },
          undefined,
          options,
        );
        const found = described.structuredContent as { arguments?: Tool["inputSchema"]; tool?: string } | undefined;
        const schema = (found?.arguments ?? {}) as Tool["inputSchema"];
        call = {
          name: typeof found?.tool === "string" ? found.tool : "call_command",
          arguments: { command: name, arguments: argumentsFor(flags, schema) },
        };
      } else {
        const tool = tools.find((t) => t.title === name);
        if (!tool) {
          outcome = notRun(`the MCP server has no tool for "${name}" (reference step of ${attempt.scenarioId})`);
          break;
        }
        call = { name: tool.name, arguments: argumentsFor(flags, tool.inputSchema) };
      }
      const result = await client.callTool(call, undefined, options);
      const text = JSON.stringify(result.structuredContent ?? null);
      log.push(`→ ${call.name} ${JSON.stringify(call.arguments)}`, text);
      const failed = result.isError ? undefined : save(text, step);
      if (failed) {
        outcome = notRun(failed);
        break;
      }
      outcome = { kind: "finished", exitCode: result.isError ? 1 : 0, timedOut: false };
    }
  } catch (error) {
    const message = (error as Error).message;
    outcome = /timed out/i.test(message)
      ? { kind: "finished", exitCode: null, timedOut: true }
      : notRun(
          `the MCP server failed: ${message}${stderr.trim() ? ` (${stderr.trim().split("\n").slice(-3).join(" ")})` : ""}`,
        );
  } finally {
    await client.close().catch(() => {});
    attempt.signal.removeEventListener("abort", kill);
    await started.stop();
    await started.finished();
  }
  writeFileSync(transcript, log.join("\n"));
  return { ...outcome, transcript };
}
