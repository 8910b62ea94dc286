import { spawn, type ChildProcess } from "node:child_process";
import { progressDeadline } from "../../core/progress-deadline.js";

/**
 * The few requests inspection makes of a candidate's MCP server, over stdio as every client speaks it: newline-delimited
 * JSON-RPC 2.0 — initialize, the initialized notification, then list and call requests. Written here rather than
 * loaded from the MCP SDK, whose client costs several times a bare Node start to load (issue #46); each answer is
 * checked for the shape the inspection reads, and one that lacks it fails the certification as the SDK's would.
 */

/** The protocol versions a client of today accepts from a server (the SDK's list). */
const SUPPORTED = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

/** The variables a stdio client passes on by default (the SDK's list for POSIX), beneath the ones it is given. */
const INHERITED = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

export class McpStdioClient {
  private next = 1;
  private buffer = "";
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private ended: Error | undefined;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => this.receive(chunk));
    child.on("error", (error) => this.end(error));
    child.on("exit", (code, signal) => this.end(new Error(`the server exited (${signal ?? `exit ${code}`})`)));
    child.stdin!.on("error", (error) => this.end(error));
  }

  /** Starts the server and completes the initialize handshake; throws when it does not answer as a server must. */
  static async connect(command: string, env: Record<string, string>, timeoutMs: number): Promise<McpStdioClient> {
    const inherited = Object.fromEntries(
      INHERITED.filter((name) => process.env[name] !== undefined && !process.env[name]!.startsWith("()")).map(
        (name) => [name, process.env[name]!],
      ),
    );
    const child = spawn(command, [], { env: { ...inherited, ...env }, stdio: ["pipe", "pipe", "ignore"] });
    const client = new McpStdioClient(child);
    try {
      const result = (await client.request(
        "initialize",
        { protocolVersion: SUPPORTED[0], capabilities: {}, clientInfo: { name: "inter-inspect", version: "1.0.0" } },
        timeoutMs,
      )) as { protocolVersion?: unknown; capabilities?: unknown };
      if (!result || typeof result !== "object" || typeof result.capabilities !== "object")
        throw new Error(`Server sent invalid initialize result: ${JSON.stringify(result)?.slice(0, 200)}`);
      if (!SUPPORTED.includes(String(result.protocolVersion)))
        throw new Error(`Server's protocol version is not supported: ${String(result.protocolVersion)}`);
      client.notify("notifications/initialized");
      return client;
    } catch (error) {
      client.close();
      throw error;
    }
  }

  /** One request; its result, or an error carrying the server's message. */
  request(method: string, params: object, timeoutMs: number): Promise<any> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      // A server still working on a loaded machine is slow, not stuck (core/progress-deadline.ts).
      const cancel = progressDeadline(
        () => this.child.pid,
        timeoutMs,
        () => {
          this.waiting.delete(id);
          reject(new Error(`Request timed out: ${method} (${timeoutMs} ms)`));
        },
      );
      this.waiting.set(id, {
        resolve: (value) => (cancel(), resolve(value)),
        reject: (error) => (cancel(), reject(error)),
      });
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  private notify(method: string): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, "");
      this.buffer = this.buffer.slice(newline + 1);
      if (!line.trim()) continue;
      let message: { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
      try {
        message = JSON.parse(line);
      } catch {
        this.end(new Error(`the server wrote a line that is not JSON-RPC: ${line.slice(0, 120)}`));
        return;
      }
      const waiting = typeof message.id === "number" ? this.waiting.get(message.id) : undefined;
      if (!waiting) continue; // a notification, or a request of the server's: this client offers nothing to answer
      this.waiting.delete(message.id as number);
      if (message.error)
        waiting.reject(new Error(`MCP error ${String(message.error.code)}: ${String(message.error.message)}`));
      else waiting.resolve(message.result);
    }
  }

  private end(error: Error): void {
    this.ended ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(this.ended);
    this.waiting.clear();
  }

  close(): void {
    this.end(new Error("closed"));
    this.child.stdin!.end();
    this.child.kill("SIGTERM");
  }
}
