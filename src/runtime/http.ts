import { CliError, codeForStatus } from "./errors.js";
import { ExactInteger, stringifyExact } from "./exact.js";
import { nestedDeeper } from "./guard.js";
import { REDACTED, withoutCredential } from "./redact.js";
import type { Command, Flag, Manifest } from "./manifest.js";

export interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: unknown;
}


function encodeValue(value: unknown): string {
  return typeof value === "string" ? value : value instanceof ExactInteger ? value.digits : stringifyExact(value);
}

/** Characters Node refuses in a header value (and that would split a request): controls other than tab. */
const BAD_HEADER = /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/;

/** Builds the exact request a command sends; `credential` is placed per the security scheme. */
export function buildRequest(manifest: Manifest, command: Command, baseUrl: string, values: Map<Flag, unknown>, body: Record<string, unknown> | undefined, credential: string | undefined, extraQuery: Record<string, string> = {}): Request {
  let path = command.operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: "application/json", "user-agent": `${manifest.product.binary}/${manifest.product.version}` };
  const cookies: string[] = [];
  let payload = body ? { ...body } : undefined;
  for (const [flag, value] of values) {
    switch (flag.in) {
      case "path":
        path = path.replace(`{${flag.wire}}`, encodeURIComponent(encodeValue(value)));
        break;
      case "query":
        if (Array.isArray(value)) for (const v of value) query.append(flag.wire, encodeValue(v));
        else query.set(flag.wire, encodeValue(value));
        break;
      case "header":
        headers[flag.wire.toLowerCase()] = Array.isArray(value) ? value.map(encodeValue).join(",") : encodeValue(value);
        break;
      case "cookie":
        cookies.push(`${flag.wire}=${encodeURIComponent(encodeValue(value))}`);
        break;
      case "body":
        payload = { ...(payload ?? {}), [flag.wire]: value };
        break;
    }
  }
  for (const [k, v] of Object.entries(extraQuery)) query.set(k, v);
  const scheme = command.auth.map((name) => manifest.auth.schemes[name]).find(Boolean);
  if (scheme && credential !== undefined) {
    if (scheme.type === "apiKey" && scheme.in === "query") query.set(scheme.name!, credential);
    else if (scheme.type === "apiKey" && scheme.in === "cookie") cookies.push(`${scheme.name}=${encodeURIComponent(credential)}`);
    else if (scheme.type === "apiKey") headers[scheme.name!.toLowerCase()] = credential;
    else if (scheme.type === "http" && scheme.scheme === "basic") headers.authorization = `Basic ${Buffer.from(credential).toString("base64")}`;
    else headers.authorization = `Bearer ${credential}`;
  }
  if (cookies.length) headers.cookie = cookies.join("; ");
  for (const [name, value] of Object.entries(headers)) {
    if (!BAD_HEADER.test(value)) continue;
    if (credential !== undefined && value.includes(credential)) {
      throw new CliError("CREDENTIAL_MISSING", `The credential holds characters an HTTP header cannot carry (a line break or control character), so it was not sent.`, "Set the credential's environment variable again without the trailing newline or stray characters.", { header: name });
    }
    const flag = command.flags.find((f) => (f.in === "header" && f.wire.toLowerCase() === name) || (f.in === "cookie" && name === "cookie"));
    throw new CliError("INVALID_VALUE", `${flag ? `--${flag.flag}` : `The ${name} header`} holds a line break, a control character or a character outside Latin-1, which an HTTP header cannot carry.`, `Give ${flag ? `--${flag.flag}` : "it"} plain text.`, { ...(flag ? { flag: flag.flag } : {}), header: name });
  }
  let encoded: string | undefined;
  if (payload !== undefined) {
    if (command.bodyMediaType === "application/x-www-form-urlencoded") {
      encoded = new URLSearchParams(Object.entries(payload).map(([k, v]) => [k, encodeValue(v)])).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else {
      encoded = stringifyExact(payload);
      headers["content-type"] = "application/json";
    }
  }
  const qs = query.toString();
  return { method: command.operation.method, url: `${baseUrl.replace(/\/$/, "")}${path}${qs ? `?${qs}` : ""}`, headers, ...(encoded !== undefined ? { body: encoded } : {}) };
}

/** The request as shown by --dry-run and in errors: the credential never appears. */
export function redactRequest(request: Request, credential: string | undefined): Request {
  if (!credential) return request;
  // Where the credential was placed (a header, a query value, a cookie) it is replaced whole; elsewhere a credential
  // long enough to be one is cut out of any text, while a short one would mangle unrelated text ("x" in a host name).
  const scrub = (s: string) => withoutCredential(s, credential, { encoded: true });
  const parsed = new URL(request.url);
  const placed = [...parsed.searchParams].filter(([, v]) => v === credential);
  for (const [k] of placed) parsed.searchParams.set(k, REDACTED);
  const url = placed.length ? parsed.toString() : request.url;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) {
    if (k === "authorization") headers[k] = v.replace(/^(\w+) .*/, `$1 ${REDACTED}`);
    else if (v === credential) headers[k] = REDACTED;
    else if (k === "cookie") headers[k] = v.split("; ").map((c) => (c.slice(c.indexOf("=") + 1) === encodeURIComponent(credential) ? `${c.slice(0, c.indexOf("="))}=${REDACTED}` : c)).join("; ");
    else headers[k] = scrub(v);
  }
  return { ...request, url: scrub(url), headers, ...(request.body !== undefined ? { body: scrub(request.body) } : {}) };
}

const TIMEOUT_MS = Number(process.env.AGENT_CLI_TIMEOUT_MS) || 30_000;
/** Largest response body read; a body without end (or a huge one) is refused rather than held in memory. */
const MAX_RESPONSE_BYTES = Number(process.env.AGENT_CLI_MAX_RESPONSE_BYTES) || 64 * 1024 * 1024;
/** Deepest response JSON handed on; real APIs nest a few dozen levels. */
const MAX_RESPONSE_DEPTH = 512;

/**
 * Sends one request. The timeout is a deadline for the whole exchange (a server that sends headers and then trickles
 * its body is as stuck as a silent one), and the body is read up to MAX_RESPONSE_BYTES.
 */
export async function send(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const { request: httpRequest } = url.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise((resolve, reject) => {
    // The first reason the exchange was cut short: destroying a request also fails its response with a plain error.
    let failure: CliError | undefined;
    const fail = (error: CliError) => {
      failure ??= error;
      req.destroy(error);
    };
    const req = httpRequest(url, { method: request.method, headers: { ...request.headers, ...(request.body !== undefined ? { "content-length": Buffer.byteLength(request.body) } : {}) }, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) {
          fail(new CliError("RESPONSE_TOO_LARGE", `The response from ${url.origin} is over ${MAX_RESPONSE_BYTES} bytes; it was not read.`, "Ask for less (filters, --limit or paging), or raise AGENT_CLI_MAX_RESPONSE_BYTES.", { url: url.origin, limit: MAX_RESPONSE_BYTES }));
          return;
        }
        chunks.push(c);
      });
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let data: unknown = text;
        if (text && /json/.test(String(res.headers["content-type"] ?? ""))) {
          try {
            data = JSON.parse(text);
          } catch {
            data = text;
          }
          // Parsing is iterative, but everything after it (fields, redaction, tables) walks the value recursively.
          if (nestedDeeper(data, MAX_RESPONSE_DEPTH)) {
            reject(new CliError("RESPONSE_TOO_LARGE", `The response from ${url.origin} nests deeper than ${MAX_RESPONSE_DEPTH} levels; it was not read.`, "The API answered with data no client can walk; report it to the API's owners.", { url: url.origin, depth: MAX_RESPONSE_DEPTH }));
            return;
          }
        } else if (!text) data = null;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, data });
      });
      res.on("error", (error) => reject(failure ?? unreachable(url, error)));
    });
    const deadline = setTimeout(() => fail(new CliError("TIMEOUT", `${url.origin} did not complete the response within ${TIMEOUT_MS} ms.`, "Check the service is up, or raise AGENT_CLI_TIMEOUT_MS.", { url: url.origin, timeoutMs: TIMEOUT_MS })), TIMEOUT_MS);
    const settle = <T>(fn: (v: T) => void) => (v: T) => {
      clearTimeout(deadline);
      fn(v);
    };
    resolve = settle(resolve);
    reject = settle(reject);
    req.on("timeout", () => req.destroy(new CliError("TIMEOUT", `No response from ${url.origin} within ${TIMEOUT_MS} ms.`, "Check the service is up, or raise AGENT_CLI_TIMEOUT_MS.")));
    req.on("error", (error) => reject(failure ?? (error instanceof CliError ? error : unreachable(url, error))));
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

const unreachable = (url: URL, error: Error) => new CliError("NETWORK_ERROR", `Cannot reach ${url.origin}: ${(error as NodeJS.ErrnoException).code ?? error.message}.`, "Check the base URL and that the service is running.", { url: url.origin });

/** An HTTP error response as a structured error; the API's own message is kept, the credential never. */
export function errorFor(response: Response, credential: string | undefined): CliError {
  const code = codeForStatus(response.status);
  const body = response.data as { message?: unknown; error?: unknown; code?: unknown } | null;
  let message = typeof body?.message === "string" ? body.message : typeof body?.error === "string" ? body.error : `HTTP ${response.status}`;
  message = withoutCredential(message, credential, { min: 1 });
  const suggestions: Record<string, string> = {
    AUTH_FAILED: "Check the credential in the environment variable named in --help (auth.env).",
    PERMISSION_DENIED: "The credential lacks permission for this; use one that has it.",
    NOT_FOUND: "Check the id; list the resource to find valid ids.",
    CONFLICT: "The request conflicts with the resource's current state; read it again and retry with values that fit it.",
    PRECONDITION_FAILED: "Read the resource again and retry with its current state.",
    VALIDATION_ERROR: "The API refused the values: fix what its message names (the command's --help shows each flag's type and limits).",
    RATE_LIMITED: "Wait and retry later.",
    SERVER_ERROR: "The service failed; retry later or report it.",
  };
  return new CliError(code, `${message} (HTTP ${response.status})`, suggestions[code] ?? "See the message.", { status: response.status, ...(typeof body?.code === "string" ? { apiCode: body.code } : {}) });
}
