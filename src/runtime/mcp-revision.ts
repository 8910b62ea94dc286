/**
 * The MCP revision 2026-07-28 beside the session-based ones (docs/generated-cli.md, "MCP server"): each request stands
 * alone, carrying its protocol version and the client's capabilities in `params._meta`; there is no `initialize`,
 * `ping` or `logging/setLevel`, and `server/discover` says what the server offers. The SDK this server bundles speaks
 * the session-based revisions; a request in the stateless form is answered here, from the same handlers, on stdio and
 * over HTTP alike, so a client of either generation is served without falling back.
 */

export const STATELESS_REVISION = "2026-07-28";

/** The session-based revisions the bundled SDK negotiates in `initialize`, newest first. */
const SESSION_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

const SUPPORTED_REVISIONS = [STATELESS_REVISION, ...SESSION_REVISIONS];

const META = {
  version: "io.modelcontextprotocol/protocolVersion",
  capabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** JSON-RPC error codes of the specification (2026-07-28 schema). */
export const CODES = {
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  headerMismatch: -32020,
  unsupportedVersion: -32022,
  resourceNotFound: -32002,
} as const;

/** What a list or a read may be cached for: the tools, prompts and resources change only with the package. */
const CACHE = { ttlMs: 3_600_000, cacheScope: "public" } as const;
const CACHED = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"]);

/** Methods of the session-based revisions that the stateless one removed: each answers "method not found". */
const REMOVED = new Set(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

export type Handler = (params: Record<string, unknown>) => unknown;

/** What a server offers, read once, for both generations of client. */
export interface Offer {
  info: { name: string; version: string };
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** By method: tools/list, tools/call, prompts/list, prompts/get, resources/list, resources/read, … */
  handlers: Record<string, Handler>;
}

/** An error a handler throws to answer with a JSON-RPC error rather than a result. */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

interface Request {
  jsonrpc: "2.0";
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/** What a transport tells of the request beside its body: over HTTP, the headers the 2026-07-28 revision sets. */
export interface Envelope {
  /** Over HTTP, where the revision requires Mcp-Method always and Mcp-Name for a request that names its target. */
  http?: true;
  version?: string;
  method?: string;
  name?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether a message is a request of the stateless revision: it names its version in `_meta`, asks `server/discover`,
 * or comes with a version header that is none of the session-based revisions'. A request of an older client (an
 * `initialize`, or a call in its session) has none of these and goes to the session-based server.
 */
export function isStateless(message: unknown, envelope: Envelope = {}): message is Request {
  if (!isObject(message) || typeof message.method !== "string" || !("id" in message)) return false;
  if (message.method === "server/discover") return true;
  if (envelope.version !== undefined && !SESSION_REVISIONS.includes(envelope.version)) return true;
  const meta = isObject(message.params) ? message.params._meta : undefined;
  return isObject(meta) && META.version in meta;
}

/** An answer: the JSON-RPC response and, for HTTP, its status (400 for a request refused as sent, 404 for no method). */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

const failure = (id: Request["id"], status: number, code: number, message: string, data?: unknown): Answer => ({
  status,
  body: { jsonrpc: "2.0", id: id ?? null, error: { code, message, ...(data === undefined ? {} : { data }) } },
});

/** What a request names as its target, which HTTP repeats in Mcp-Name: a tool's or prompt's name, a resource's URI. */
function targetOf(request: Request): string | undefined {
  const params = isObject(request.params) ? request.params : {};
  const target =
    request.method === "tools/call" || request.method === "prompts/get"
      ? params.name
      : request.method === "resources/read"
        ? params.uri
        : undefined;
  return typeof target === "string" ? target : undefined;
}

/** The request's own fault, before any method runs: its `_meta`, its headers against its body, its version. */
function refusal(request: Request, envelope: Envelope): Answer | undefined {
  const { id } = request;
  const meta = isObject(request.params) ? request.params._meta : undefined;
  const missing = !isObject(meta)
    ? "params._meta"
    : typeof meta[META.version] !== "string"
      ? `params._meta["${META.version}"]`
      : !isObject(meta[META.capabilities])
        ? `params._meta["${META.capabilities}"]`
        : undefined;
  if (missing)
    return failure(
      id,
      400,
      CODES.invalidParams,
      `Invalid params: ${missing} is missing; a request of revision ${STATELESS_REVISION} carries its protocol version and the client's capabilities.`,
    );
  const version = (meta as Record<string, string>)[META.version]!;
  if ((envelope.http || envelope.version !== undefined) && envelope.version !== version)
    return failure(
      id,
      400,
      CODES.headerMismatch,
      `Header mismatch: MCP-Protocol-Version says ${envelope.version?.slice(0, 40) ?? "nothing (it is missing)"}, the request's _meta ${version.slice(0, 40)}.`,
    );
  if ((envelope.http || envelope.method !== undefined) && envelope.method !== request.method)
    return failure(
      id,
      400,
      CODES.headerMismatch,
      `Header mismatch: Mcp-Method says ${envelope.method?.slice(0, 80) ?? "nothing (it is missing)"}, the body ${request.method.slice(0, 80)}.`,
    );
  const named = targetOf(request);
  if (named !== undefined && (envelope.http || envelope.name !== undefined) && envelope.name !== named)
    return failure(
      id,
      400,
      CODES.headerMismatch,
      `Header mismatch: Mcp-Name says ${envelope.name?.slice(0, 80) ?? "nothing (it is missing)"}, the body ${named.slice(0, 80)}.`,
    );
  if (!SUPPORTED_REVISIONS.includes(version))
    return failure(
      id,
      400,
      CODES.unsupportedVersion,
      `Unsupported protocol version ${version.slice(0, 40)}; this server speaks ${SUPPORTED_REVISIONS.join(", ")}.`,
      { requested: version, supported: SUPPORTED_REVISIONS },
    );
  return undefined;
}

/** `server/discover`: the versions, capabilities and instructions (who the server is rides on every result). */
function discover(offer: Offer): Record<string, unknown> {
  return {
    supportedVersions: SUPPORTED_REVISIONS,
    capabilities: offer.capabilities,
    ...(offer.instructions ? { instructions: offer.instructions } : {}),
    ...CACHE,
  };
}

/** Answers one request of the stateless revision from the server's handlers. */
export async function answerStateless(offer: Offer, request: Request, envelope: Envelope = {}): Promise<Answer> {
  const refused = refusal(request, envelope);
  if (refused) return refused;
  const { id, method } = request;
  const params = (request.params ?? {}) as Record<string, unknown>;
  const handler = method === "server/discover" ? () => discover(offer) : offer.handlers[method];
  if (!handler || REMOVED.has(method))
    return failure(
      id,
      404,
      CODES.methodNotFound,
      `Method not found: ${method.slice(0, 80)}${REMOVED.has(method) ? ` (not part of revision ${STATELESS_REVISION}; each request carries its own _meta)` : ""}.`,
    );
  try {
    const result = (await handler(params)) as Record<string, unknown>;
    return {
      status: 200,
      body: {
        jsonrpc: "2.0",
        id: id ?? null,
        result: {
          ...result,
          resultType: "complete",
          ...(CACHED.has(method) ? CACHE : {}),
          _meta: { ...(isObject(result._meta) ? result._meta : {}), [META.serverInfo]: offer.info },
        },
      },
    };
  } catch (error) {
    if (!(error instanceof ProtocolError)) return failure(id, 500, CODES.internal, "Internal error.");
    // Revision 2026-07-28 answers an unknown resource as invalid params, naming it (SEP-2164).
    if (error.code === CODES.resourceNotFound)
      return failure(id, 200, CODES.invalidParams, error.message, { ...error.data, uri: params.uri });
    return failure(id, 200, error.code, error.message, error.data);
  }
}
