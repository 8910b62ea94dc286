/**
 * The stdio transport of `<binary>-mcp`: one JSON-RPC message per line, as the MCP specification's stdio transport
 * says. The SDK's own stdio transport reports a line it cannot parse to the server's error handler and answers
 * nothing; JSON-RPC 2.0 answers it — -32700 (parse error) for a line that is not JSON, -32600 (invalid request) for
 * JSON that is not a message, both with id null unless the request's id can be read — and the server keeps serving.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The longest line read: a request body travels inside a tool call's arguments, so this is generous. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** A JSON-RPC error response to a message the server could not take (id null when it has none that can be read). */
export function rejectMessage(code: number, message: string, id: unknown = null) {
  return {
    jsonrpc: "2.0" as const,
    id: typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null,
    error: { code, message },
  };
}

/** One line, as a message to hand to the server or the error response to send back. */
export function readLine(line: string): { message: JSONRPCMessage } | { reject: ReturnType<typeof rejectMessage> } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { reject: rejectMessage(PARSE_ERROR, `Parse error: the line is not JSON (${(error as Error).message}).`) };
  }
  if (Array.isArray(value))
    return {
      reject: rejectMessage(
        INVALID_REQUEST,
        "Invalid Request: batches are not part of MCP; send one message per line.",
      ),
    };
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    const id = value && typeof value === "object" ? (value as { id?: unknown }).id : undefined;
    return {
      reject: rejectMessage(
        INVALID_REQUEST,
        'Invalid Request: not a JSON-RPC 2.0 message ("jsonrpc": "2.0", a "method" string, an "id" string or number for a request).',
        id,
      ),
    };
  }
  return { message: parsed.data };
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer: Buffer = Buffer.alloc(0);
  /** Inside a line over MAX_LINE_BYTES: its rest is dropped up to the next newline. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (let end = this.buffer.indexOf(10); end !== -1; end = this.buffer.indexOf(10)) {
      const line = this.buffer.toString("utf8", 0, end).replace(/\r$/, "");
      this.buffer = this.buffer.subarray(end + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      this.take(line);
    }
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = Buffer.alloc(0);
      if (!this.skipping)
        void this.send(
          rejectMessage(INVALID_REQUEST, `Invalid Request: a message over ${MAX_LINE_BYTES / 1024 / 1024} MiB.`),
        );
      this.skipping = true;
    }
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  /**
   * Writing failed (EPIPE: the client closed its end of stdout): nothing said from here on is read, so the session
   * ends quietly instead of crashing with a stack trace, and stdin is let go so the process can exit even while the
   * client still holds it open.
   */
  private readonly onOutputError = () => {
    void this.close();
    this.input.destroy();
  };
  /** Sends waiting for a drain that a closed session will never see. */
  private readonly waiting = new Set<() => void>();

  private take(line: string) {
    if (!line.trim()) return;
    const read = readLine(line);
    if ("reject" in read) void this.send(read.reject);
    else this.onmessage?.(read.message);
  }

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("error", this.onError);
    this.output.on("error", this.onOutputError);
  }

  send(message: JSONRPCMessage | ReturnType<typeof rejectMessage>): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(`${JSON.stringify(message)}\n`)) return resolve();
      const drained = () => {
        this.waiting.delete(drained);
        this.output.off("drain", drained);
        resolve();
      };
      this.waiting.add(drained);
      this.output.once("drain", drained);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("error", this.onError);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.buffer = Buffer.alloc(0);
    for (const drained of [...this.waiting]) drained();
    this.onclose?.();
  }
}
