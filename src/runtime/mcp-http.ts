/**
 * `<binary>-mcp --http <host:port>`: the server over Streamable HTTP, stateless (docs/generated-cli.md, "MCP server"):
 * every POST to /mcp is one JSON-RPC message answered as JSON by a server of its own, so any number of clients and
 * instances behind a balancer need no session. Guarded as the specification asks of a local HTTP server: bound to
 * loopback unless told otherwise, `Origin` (and, on loopback, `Host`) checked against DNS rebinding, bodies and
 * request times bounded. The client's own `Authorization` header is never passed on: tool calls run the CLI with the
 * server's environment, so the API credential is the server's, never the client's token.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CliError } from "./errors.js";
import { CALL_TIMEOUT_MS } from "./mcp-call.js";
import { INVALID_REQUEST, PARSE_ERROR, readLine, rejectMessage } from "./mcp-stdio.js";
import { answerStateless, isStateless, STATELESS_REVISION, type Envelope, type Offer } from "./mcp-revision.js";

const MCP_PATH = "/mcp";
/** The variable holding the bearer token clients must present, when set; never passed to the CLI. */
export const HTTP_TOKEN_ENV = "AGENT_CLI_MCP_HTTP_TOKEN";

export interface HttpOptions {
  host: string;
  port: number;
  /** Origins (scheme://host[:port]) a browser-based client may call from, beside the server's own. */
  allowedOrigins: string[];
  maxBodyBytes: number;
  /** The longest a request may take from its first byte to the end of the answer. */
  requestTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS = { maxBodyBytes: 4 * 1024 * 1024, requestTimeoutMs: CALL_TIMEOUT_MS + 30_000 };

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
export const isLoopback = (host: string) => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** `host:port`, `[v6]:port` or `:port`/`port` (loopback): the address --http takes. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(?:\[([^\]]+)\]|([^:[\]]+)):|:)?(\d+)$/.exec(value.trim());
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliError(
      "INVALID_VALUE",
      `--http "${value}" is not an address: give host:port (port 0 picks a free one).`,
      "Give e.g. --http 127.0.0.1:8765 (or 127.0.0.1:0).",
      { flag: "http" },
    );
  return { host: match[1] ?? match[2] ?? "127.0.0.1", port };
}

const hostOf = (header: string) =>
  header
    .replace(/^\[([^\]]+)\](?::\d+)?$/, "$1")
    .replace(/^([^:]+):\d+$/, "$1")
    .toLowerCase();

function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  if (res.headersSent) return void res.end();
  const body = JSON.stringify(rejectMessage(code, message));
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** How long headers may take to arrive, checked every CHECK_INTERVAL_MS (Node checks on its own 30 s interval else). */
const HEADERS_TIMEOUT_MS = 30_000;
const CHECK_INTERVAL_MS = 1_000;
/** How long the rest of an oversized body is read and dropped, so the client reads the 413 rather than a reset. */
const DRAIN_MS = 30_000;
/** How long requests under way may run on after SIGTERM before every connection is cut. */
const SHUTDOWN_GRACE_MS = 1_500;

/**
 * The body, read up to the bound; undefined (and answered 413) when it is over. The answer to an oversized body waits
 * until its rest has been read and dropped (at most DRAIN_MS, then the connection is cut): a server that answers and
 * closes while the client still sends — as Node does for a `Connection: close` request — leaves the client an EPIPE
 * in place of the 413.
 */
function readBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const answer = () => refuse(res, 413, INVALID_REQUEST, `Request body over ${max} bytes.`, { connection: "close" });
    const tooLarge = () => {
      over = true;
      chunks.length = 0;
      const cut = setTimeout(() => {
        answer();
        req.socket.destroy();
      }, DRAIN_MS);
      cut.unref();
      req.once("end", () => {
        clearTimeout(cut);
        answer();
      });
      resolve(undefined);
    };
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > max) tooLarge();
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) tooLarge();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", () => resolve(undefined));
  });
}

/** The headers revision 2026-07-28 sets beside the body, each the last if repeated, trimmed (names are case-insensitive). */
function envelopeOf(headers: IncomingMessage["headers"]): Envelope {
  const one = (name: string) => {
    const value = headers[name];
    const last = Array.isArray(value) ? value.at(-1) : value;
    return last === undefined ? undefined : last.trim();
  };
  const envelope: Envelope = { http: true };
  const version = one("mcp-protocol-version");
  const method = one("mcp-method");
  // A name that is not plain ASCII travels base64-encoded, as `=?base64?…?=`.
  const encoded = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(one("mcp-name") ?? "");
  const name = encoded ? Buffer.from(encoded[1]!, "base64").toString("utf8") : one("mcp-name");
  if (version !== undefined) envelope.version = version;
  if (method !== undefined) envelope.method = method;
  if (name !== undefined) envelope.name = name;
  return envelope;
}

function sameToken(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(`Bearer ${expected}`);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Serves until SIGTERM or SIGINT, then stops taking requests, lets those under way finish (within the request bound)
 * and resolves. `say` gets one line for stderr: the bound URL. `token` is what clients must present, when set.
 */
export async function serveHttp(
  newServer: () => Server,
  offer: Offer,
  options: HttpOptions,
  say: (line: string) => void,
  token?: string,
): Promise<number> {
  // Loaded here, not with the module: the SDK's HTTP transport loads Node's fetch implementation as it loads (a third
  // of a stdio server's start-up), and node:http, which only an HTTP server uses.
  const [{ StreamableHTTPServerTransport }, { createServer: createHttpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("node:http"),
  ]);
  const own = new Set<string>();
  const allowed = (origin: string) => own.has(origin) || options.allowedOrigins.includes(origin);
  const active = new Set<ServerResponse>();
  const http = createHttpServer(
    {
      requestTimeout: options.requestTimeoutMs,
      headersTimeout: HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: CHECK_INTERVAL_MS,
    },
    async (req, res) => {
      active.add(res);
      res.on("close", () => active.delete(res));
      const timer = setTimeout(() => {
        refuse(
          res,
          504,
          INVALID_REQUEST,
          `The request ran over ${Math.round(options.requestTimeoutMs / 1000)} seconds.`,
        );
        req.socket.destroy();
      }, options.requestTimeoutMs);
      res.on("close", () => clearTimeout(timer));
      const url = new URL(req.url ?? "/", "http://localhost");
      if (url.pathname !== MCP_PATH)
        return refuse(res, 404, INVALID_REQUEST, `Not found: the MCP endpoint is ${MCP_PATH}.`);
      // DNS rebinding: a page on another site may reach a loopback port under its own host name, never with a loopback Host.
      if (isLoopback(options.host) && !isLoopback(hostOf(req.headers.host ?? "")))
        return refuse(res, 403, INVALID_REQUEST, "Forbidden: the Host is not this server's loopback address.");
      const origin = req.headers.origin;
      if (origin !== undefined && !allowed(origin))
        return refuse(
          res,
          403,
          INVALID_REQUEST,
          `Forbidden: Origin ${origin.slice(0, 200)} is not allowed (the server takes --allow-origin).`,
        );
      if (token !== undefined && !sameToken(req.headers.authorization, token))
        return refuse(res, 401, INVALID_REQUEST, "Unauthorized: this server needs its bearer token.", {
          "www-authenticate": "Bearer",
        });
      // Stateless: no stream to resume and no session to end.
      if (req.method !== "POST")
        return refuse(res, 405, INVALID_REQUEST, "Method not allowed: POST one JSON-RPC message.", { allow: "POST" });
      const body = await readBody(req, res, options.maxBodyBytes);
      if (body === undefined) return;
      const read = readLine(body);
      if ("reject" in read)
        return refuse(
          res,
          400,
          read.reject.error.code === PARSE_ERROR ? PARSE_ERROR : INVALID_REQUEST,
          read.reject.error.message,
        );
      const envelope = envelopeOf(req.headers);
      if (isStateless(read.message, envelope)) {
        const answer = await answerStateless(offer, read.message, envelope);
        res.writeHead(answer.status, { "content-type": "application/json" });
        return res.end(JSON.stringify(answer.body));
      }
      // A notification of the stateless revision (a cancellation, say) needs no answer and has no session to reach.
      if (envelope.version === STATELESS_REVISION && !("id" in read.message)) {
        res.writeHead(202);
        return res.end();
      }
      const server = newServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        // The headers the transport reads, without the client's credential: nothing past this point can pass it on.
        delete req.headers.authorization;
        await transport.handleRequest(req, res, read.message);
      } catch {
        refuse(res, 500, -32603, "Internal error.");
      }
    },
  );
  // A client that asks before sending (`Expect: 100-continue`) a body over the bound is answered at once, unsent.
  http.on("checkContinue", (req, res) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > options.maxBodyBytes)
      return refuse(res, 413, INVALID_REQUEST, `Request body over ${options.maxBodyBytes} bytes.`, {
        connection: "close",
      });
    res.writeContinue();
    http.emit("request", req, res);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  }).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(
      "INVALID_VALUE",
      `Cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}.`,
      "Give another --http address or port (0 picks a free one).",
      { flag: "http" },
    );
  });
  const { port } = http.address() as AddressInfo;
  const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
  for (const name of [shown, ...(isLoopback(options.host) ? ["localhost", "127.0.0.1", "[::1]"] : [])])
    own.add(`http://${name}:${port}`);
  // The signal handlers are in place before the address is announced: until a handler is added, SIGTERM still has its
  // default effect, and a supervisor that stops the server as soon as it reads the address would kill it outright.
  const stopped = new Promise<number>((resolve) => {
    // Connections with no request under way (idle, or headers still arriving) close at once; requests under way get
    // SHUTDOWN_GRACE_MS to finish, then every connection is cut: whatever clients hold open, the server is gone in 2 s.
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      http.close(() => resolve(0));
      const cutAll = () => http.closeAllConnections();
      if (!active.size) return cutAll();
      http.closeIdleConnections();
      setTimeout(cutAll, SHUTDOWN_GRACE_MS).unref();
      for (const res of active) res.on("close", () => active.size || cutAll());
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  say(`${JSON.stringify({ listening: `http://${shown}:${port}${MCP_PATH}` })}`);
  return stopped;
}
