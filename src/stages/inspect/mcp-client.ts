import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { progressDeadline } from "../../core/progress-deadline.js";

/**
 * The few requests inspection makes of a candidate's MCP server, over stdio as every client speaks it (newline-delimited
 * JSON-RPC 2.0) or over Streamable HTTP (one JSON-RPC message per POST, answered as JSON by a stateless server):
 * initialize, the initialized notification, then list and call requests. One client with two transports, written here
 * rather than loaded from the MCP SDK, whose client costs several times a bare Node start to load; each answer is
 * checked for the shape the inspection reads, and one that lacks it fails the certification as the SDK's would.
 */

/** What inspection asks of a server, whatever carries the messages. */
export interface McpClient {
  /** One request; its result, or an error carrying the server's message. */
  request(method: string, params: object, timeoutMs: number): Promise<any>;
  close(): void;
}

/**
 * The session's opening: initialize (its answer held to the shape and versions a client accepts), then the initialized
 * notification. Returns the negotiated protocol version.
 */
async function openSession(
  client: McpClient & { notify(method: string): void | Promise<void> },
  timeoutMs: number,
): Promise<string> {
  const result = (await client.request(
    "initialize",
    { protocolVersion: SUPPORTED[0], capabilities: {}, clientInfo: { name: "inter-inspect", version: "1.0.0" } },
    timeoutMs,
  )) as { protocolVersion?: unknown; capabilities?: unknown };
  if (!result || typeof result !== "object" || typeof result.capabilities !== "object")
    throw new Error(`Server sent invalid initialize result: ${JSON.stringify(result)?.slice(0, 200)}`);
  if (!SUPPORTED.includes(String(result.protocolVersion)))
    throw new Error(`Server's protocol version is not supported: ${String(result.protocolVersion)}`);
  await client.notify("notifications/initialized");
  return String(result.protocolVersion);
}

/**
 * A server over Streamable HTTP at `url`, its session opened. Each message is one POST with node:http: the first
 * `fetch` of a process loads an HTTP client of its own, a cost larger than the handful of requests inspection sends.
 */
export class McpHttpClient implements McpClient {
  private next = 1;
  private version: string | undefined;

  private constructor(private readonly url: string) {}

  static async connect(url: string, timeoutMs: number): Promise<McpHttpClient> {
    const client = new McpHttpClient(url);
    client.version = await openSession(client, timeoutMs);
    return client;
  }

  async request(method: string, params: object, timeoutMs: number): Promise<any> {
    const response = await this.post({ jsonrpc: "2.0", id: this.next++, method, params }, timeoutMs);
    const body = JSON.parse(response.text) as { result?: unknown; error?: { code?: unknown; message?: unknown } };
    if (body.error) throw new Error(`MCP error ${String(body.error.code)}: ${String(body.error.message)}`);
    if (response.status < 200 || response.status > 299 || body.result === undefined)
      throw new Error(`${method}: HTTP ${response.status}`);
    return body.result;
  }

  async notify(method: string): Promise<void> {
    await this.post({ jsonrpc: "2.0", method, params: {} }, 10_000);
  }

  close(): void {}

  private post(message: object, timeoutMs: number): Promise<{ status: number; text: string }> {
    const body = JSON.stringify(message);
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(this.version ? { "mcp-protocol-version": this.version } : {}),
      "content-length": String(Buffer.byteLength(body)),
    };
    return new Promise((resolve, reject) => {
      const sent = httpRequest(this.url, { method: "POST", headers, timeout: timeoutMs }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      });
      sent.on("timeout", () => sent.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      sent.on("error", reject);
      sent.end(body);
    });
  }
}

/** The protocol versions a client of today accepts from a server (the SDK's list). */
const SUPPORTED = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

/** The variables a stdio client passes on by default (the SDK's list for POSIX), beneath the ones it is given. */
const INHERITED = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** A server started as a command, over its stdin and stdout. */
export class McpStdioClient implements McpClient {
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
      await openSession(client, timeoutMs);
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

  notify(method: string): void {
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
