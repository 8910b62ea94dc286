import { requestPathOf } from "../core/path-key.js";
import { nodeCrypto } from "../core/node-crypto.js";
import { createReadStream } from "node:fs";
import type { ClientRequest, IncomingMessage } from "node:http";
import { CliError, codeForStatus } from "./errors.js";
import { ExactInteger, parseExact, stringifyExact } from "./exact.js";
import { placement } from "./auth.js";
import type { OpenedFile } from "./local-file.js";
import { declares, isEventStream, isJsonMedia, responseKindOf, type ResponseKind } from "./media.js";
import { encodeBody, percentEncoded, type StreamedBody } from "./request-body.js";
import {
  collectEvents,
  decodeText,
  DEFAULT_MAX_OUTPUT_BYTES,
  EVENT_BOUNDS,
  writeAnswer,
  type StreamEnd,
  type Written,
} from "./response-body.js";
import { nestedDeeper } from "./guard.js";
import { REDACTED, redactor } from "../core/redact.js";
import { variablesOf } from "./credentials.js";
import type { AuthScheme, Command, Flag, Manifest } from "./manifest.js";
import { encode, serializeCookie, serializeHeader, serializePath, serializeQuery, wireStyle } from "./serialize.js";

export interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A body held in memory: JSON, a form, multipart without files. */
  body?: string;
  /** A body with files, streamed when the request is written (request-body.ts). */
  stream?: StreamedBody;
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: unknown;
  /** A success answer written to `--output` instead of read into `data`. */
  written?: Written;
  /** Server-sent events: why collecting them stopped. */
  ended?: StreamEnd;
  /** The files the request carried, as sent: bytes and sha256 counted while they streamed. */
  uploaded?: Uploaded[];
}

/** One file a request carried. */
export interface Uploaded {
  flag: string;
  path: string;
  bytes: number;
  sha256: string;
  content_type: string;
}

/** How a success answer is taken: `output` writes it byte for byte (a path, or `-` for stdout). */
export interface AnswerOptions {
  kind?: ResponseKind;
  /** The media types the operation declares for its answers (its Accept header). */
  accept?: string;
  output?: string;
  force?: boolean;
  maxOutputBytes?: number;
}

/** Characters Node refuses in a header value (and that would split a request): controls other than tab. */
const BAD_HEADER = /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/;

/** A credential as a command sends it: its scheme, and the value (a token, a key, or a Basic `user:password` pair). */
export interface Credential {
  scheme: AuthScheme;
  value: string;
}

/**
 * Builds the exact request a command sends: each path, query, header and cookie value serialized as the document says
 * (style and explode, serialize.ts), and each credential placed per its security scheme (auth.ts).
 */
export function buildRequest(
  manifest: Manifest,
  command: Command,
  baseUrl: string,
  values: Map<Flag, unknown>,
  body: unknown,
  credentials: Credential[],
  extraQuery: Record<string, string> = {},
  files: Map<string, OpenedFile[]> = new Map(),
): Request {
  // The key's fragment is never sent, and its fixed query is the request's first pairs (core/path-key.ts).
  const key = requestPathOf(command.operation.path);
  let path = key.path;
  const fixedQuery = key.query;
  // Query pairs, already encoded, each with the parameter it came from (paging and the credential replace by name).
  const query: Array<{ name: string; pair: string }> = [];
  const headers: Record<string, string> = {
    accept: command.response?.accept ?? "application/json",
    "user-agent": `${manifest.product.binary}/${manifest.product.version}`,
  };
  const cookies: string[] = [];
  // A body given whole as a list or a value (--json-input) is sent as it is; an object's fields take the flags' values.
  const whole = body !== undefined && (!body || typeof body !== "object" || Array.isArray(body));
  let payload: unknown = whole ? body : body ? { ...(body as Record<string, unknown>) } : undefined;
  const setQuery = (name: string, value: string) => {
    for (let i = query.length - 1; i >= 0; i--) if (query[i]!.name === name) query.splice(i, 1);
    query.push({ name, pair: `${encode(name)}=${encode(value)}` });
  };
  for (const [flag, value] of values) {
    if (flag.in === "body") {
      // A file flag's value is its path: the opened file travels in `files`.
      if (!flag.file && !whole) payload = { ...((payload as Record<string, unknown>) ?? {}), [flag.wire]: value };
      continue;
    }
    const { style, explode } = wireStyle({ in: flag.in, style: flag.style, explode: flag.explode });
    // A JSON-content parameter is one value, its JSON text, whatever its style would do with an object or a list.
    const sent = flag.json ? jsonText(value, flag.in) : value;
    switch (flag.in) {
      case "path": {
        const segment = serializePath(flag.wire, sent, style, explode, flag.allowReserved);
        // An empty segment is another address (`/plugins/x/` for `/plugins/x/{version}`, `/users/` for a delete of
        // one user): the request would reach an operation nobody asked for.
        if (!segment)
          throw new CliError(
            "INVALID_VALUE",
            `--${flag.flag} is part of the request's path and cannot be empty${typeof value === "object" && value ? " (none of its fields is sent)" : ""}.`,
            `Give --${flag.flag} a value${flag.type === "object" ? " as JSON with the fields the API takes (--" + flag.flag + ' \'{"k":"v"}\')' : ""}.`,
            { flag: flag.flag },
          );
        path = path.replace(`{${flag.wire}}`, () => segment);
        break;
      }
      case "query":
        for (const pair of serializeQuery(flag.wire, sent, style, explode, flag.allowReserved))
          query.push({ name: flag.wire, pair });
        break;
      case "header": {
        const line = serializeHeader(sent, style, explode);
        // An object or list with nothing in it is no header at all, as it is no query pair: sent empty, a server
        // reads an object with one key "" (Prism: "must NOT have additional properties; found ''").
        if (line || typeof sent !== "object" || sent === null) headers[flag.wire.toLowerCase()] = line;
        break;
      }
      case "cookie":
        cookies.push(...serializeCookie(flag.wire, sent, style, explode));
        break;
    }
  }
  for (const [k, v] of Object.entries(extraQuery)) setQuery(k, v);
  for (const { scheme, value } of credentials) {
    const at = placement(scheme, value);
    if (!at) continue;
    if ("query" in at) setQuery(at.query, value);
    else if ("cookie" in at) cookies.push(`${encode(at.cookie)}=${cookieValue(value)}`);
    else headers[at.header] = at.value;
  }
  if (cookies.length) headers.cookie = cookies.join("; ");
  for (const [name, value] of Object.entries(headers)) {
    if (!BAD_HEADER.test(value)) continue;
    const held = credentials.find((c) => value.includes(c.value) || value === placementValue(c));
    if (held) {
      throw new CliError(
        "CREDENTIAL_MISSING",
        `A credential (${variablesOf(held.scheme).join(", ")}) holds characters an HTTP header cannot carry (a line break or control character), so it was not sent.`,
        "Set the variable again without the trailing newline or stray characters.",
        { header: name, variables: variablesOf(held.scheme) },
      );
    }
    const flag = command.flags.find(
      (f) => (f.in === "header" && f.wire.toLowerCase() === name) || (f.in === "cookie" && name === "cookie"),
    );
    throw new CliError(
      "INVALID_VALUE",
      `${flag ? `--${flag.flag}` : `The ${name} header`} holds a line break, a control character or a character outside Latin-1, which an HTTP header cannot carry.`,
      `Give ${flag ? `--${flag.flag}` : "it"} plain text.`,
      { ...(flag ? { flag: flag.flag } : {}), header: name },
    );
  }
  // A body the operation requires is sent even when no field of it is given: an empty one, which it then describes.
  if (payload === undefined && !files.size && command.body?.required && command.body.encoding !== "raw") payload = {};
  const encoded = encodeBody(command.body, payload, files);
  if (encoded) headers["content-type"] = encoded.contentType;
  // The operation's own Accept parameter decides; its required Content-Type goes out on a request without a body too.
  if (command.headers?.accept) headers.accept = command.headers.accept;
  if (!encoded && command.headers?.["content-type"]) headers["content-type"] = command.headers["content-type"];
  // A path value that carries its own query (Azure's `{nextLink}`, sent as it is) puts it before the others.
  const carried = path.indexOf("?");
  const own = carried >= 0 ? path.slice(carried + 1) : "";
  if (carried >= 0) path = path.slice(0, carried);
  const qs = [own, fixedQuery, ...query.map((q) => q.pair)].filter(Boolean).join("&");
  return {
    method: command.operation.method,
    url: `${baseUrl.replace(/\/$/, "")}${path}${qs ? `?${qs}` : ""}`,
    headers,
    ...(encoded && "text" in encoded ? { body: encoded.text } : {}),
    ...(encoded && "stream" in encoded ? { stream: encoded.stream } : {}),
  };
}

/**
 * A JSON-content parameter's text. In a header, every character past ASCII is a `\u` escape, the same JSON value:
 * a header's bytes are Latin-1 (Node's http), so `é` reached a JSON reader as a byte no UTF-8 text holds, and a name
 * in another script was refused as a character no header can carry (apideck's `x-apideck-metadata: {"name": …}`).
 */
function jsonText(value: unknown, at: string): string {
  const text = stringifyExact(value);
  if (at !== "header") return text;
  return text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const placementValue = (c: Credential) => {
  const at = placement(c.scheme, c.value);
  return at && "value" in at ? at.value : c.value;
};

/**
 * A credential's cookie value as the user gave it: a session cookie copied from a browser is already in its wire form
 * (`s%3Aab.cd`), and encoding it again made it another value. Only what a cookie cannot carry (RFC 6265's
 * cookie-octets leave out spaces, `"`, `,`, `;`, `\` and controls) is percent-encoded.
 */
const cookieValue = (value: string): string =>
  value.replace(/[^\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]/gu, (c) => encodeURIComponent(c));

/** Names that say a value is a secret, whatever carried it (a query parameter, a header, a cookie, a body field). */
const SECRET_NAME =
  /(^|[^a-z])(token|secret|password|passwd|api[-_]?key|apikey|access[-_]?key|private[-_]?key|client[-_]?secret|credentials?|session[-_]?id|signature)([^a-z]|$)|^(key|auth|authorization|sig|pwd)$/i;

/** Where a request carries secrets by name: every credential's place (all schemes the CLI knows), and secret-named fields. */
export function secretPlaces(manifest: Manifest): { query: Set<string>; header: Set<string>; cookie: Set<string> } {
  const places = {
    query: new Set<string>(),
    header: new Set<string>(["authorization", "proxy-authorization"]),
    cookie: new Set<string>(),
  };
  for (const scheme of Object.values(manifest.auth.schemes)) {
    if (scheme.type !== "apiKey" || !scheme.name) continue;
    if (scheme.in === "query") places.query.add(scheme.name);
    else if (scheme.in === "cookie") places.cookie.add(scheme.name);
    else places.header.add(scheme.name.toLowerCase());
  }
  return places;
}

/**
 * The request as shown by --dry-run and in errors: no credential appears. Whatever sits where a credential goes (a
 * scheme's query parameter, header or cookie, Authorization) or under a secret's name is replaced whole, however short;
 * any known credential value is cut out of all other text in every encoded form (core/redact.ts).
 */
export function redactRequest(request: Request, secrets: string[], places: ReturnType<typeof secretPlaces>): Request {
  const scrub = redactor(secrets);
  const isSecret = (name: string, value: string | undefined, where: Set<string>) =>
    where.has(name) || SECRET_NAME.test(name) || (value !== undefined && secrets.includes(value));
  // The query is rewritten pair by pair, never re-serialized: the dry run shows the request's own encoding.
  const at = request.url.indexOf("?");
  const url =
    at < 0
      ? request.url
      : `${request.url.slice(0, at + 1)}${request.url
          .slice(at + 1)
          .split("&")
          .map((pair) => {
            const eq = pair.indexOf("=");
            if (eq < 0) return pair;
            const decode = (text: string) => {
              try {
                return decodeURIComponent(text.replace(/\+/g, " "));
              } catch {
                return undefined;
              }
            };
            const name = decode(pair.slice(0, eq)) ?? pair.slice(0, eq);
            return isSecret(name, decode(pair.slice(eq + 1)), places.query) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
          })
          .join("&")}`;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) {
    // An AWS Signature Version 4 header keeps its scope and signed headers (any header name: AWS SSO signs
    // `x-amz-sso_bearer_token`); the key id and the signature are cut.
    if (
      k === "authorization" &&
      /^AWS4-HMAC-SHA256 Credential=[^/\s,]+\/[^\s,]+, SignedHeaders=[^\s,]+, Signature=[0-9a-f]+$/.test(v)
    )
      headers[k] = v
        .replace(/Credential=[^/]+\//, `Credential=${REDACTED}/`)
        .replace(/Signature=[0-9a-f]+$/, `Signature=${REDACTED}`);
    else if (k === "authorization" || k === "proxy-authorization")
      headers[k] = /^\S+ \S/.test(v) ? v.replace(/^(\S+) .*/s, `$1 ${REDACTED}`) : REDACTED;
    else if (k === "cookie")
      headers[k] = v
        .split("; ")
        .map((c) => {
          const eq = c.indexOf("=");
          const name = eq < 0 ? c : c.slice(0, eq);
          let value: string | undefined;
          try {
            value = eq < 0 ? undefined : decodeURIComponent(c.slice(eq + 1));
          } catch {
            value = c.slice(eq + 1);
          }
          return eq >= 0 && isSecret(name, value, places.cookie) ? `${name}=${REDACTED}` : c;
        })
        .join("; ");
    else if (isSecret(k, v, places.header)) headers[k] = REDACTED;
    else headers[k] = v;
  }
  const body = request.body === undefined ? undefined : redactBody(request.body);
  return {
    ...request,
    url: scrub(url),
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, scrub(v)])),
    ...(body !== undefined ? { body: scrub(body) } : {}),
  };
}

/** A JSON or form body with the values of secret-named fields replaced (a password sent by mistake in a flag, say). */
function redactBody(body: string): string {
  try {
    // Read and written back exactly: the dry run shows the body that is sent, an id beyond 2^53 with all its digits.
    const value = parseExact(body);
    const walk = (v: unknown, depth: number): unknown => {
      if (depth > 64 || v === null || typeof v !== "object" || v instanceof ExactInteger) return v;
      if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [
          k,
          SECRET_NAME.test(k) && (typeof x === "string" || typeof x === "number" || x instanceof ExactInteger)
            ? REDACTED
            : walk(x, depth + 1),
        ]),
      );
    };
    return stringifyExact(walk(value, 0));
  } catch {
    // A multipart body as a dry run shows it: a part under a secret's name has its value replaced.
    const boundary = /^--(\S+)\r\n/.exec(body)?.[1];
    if (boundary)
      return body
        .split(`--${boundary}`)
        .map((part) => {
          const name = /^\r\nContent-Disposition: form-data; name="([^"]*)"/i.exec(part)?.[1];
          const at = part.indexOf("\r\n\r\n");
          return name && SECRET_NAME.test(name) && at >= 0 && !/filename=/i.test(part.slice(0, at))
            ? `${part.slice(0, at + 4)}${REDACTED}\r\n`
            : part;
        })
        .join(`--${boundary}`);
    if (!/^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(body)) return body;
    return body
      .split("&")
      .map((pair) => {
        const eq = pair.indexOf("=");
        let name = pair.slice(0, eq);
        try {
          name = decodeURIComponent(name.replace(/\+/g, " "));
        } catch {
          // keep it as sent
        }
        return SECRET_NAME.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
      })
      .join("&");
  }
}

const TIMEOUT_MS = Number(process.env.AGENT_CLI_TIMEOUT_MS) || 30_000;
/** The deadline of an exchange that streams a file either way (an upload, or an answer written to --output). */
const TRANSFER_TIMEOUT_MS = Number(process.env.AGENT_CLI_TRANSFER_TIMEOUT_MS) || 10 * 60_000;
/** Largest response body read into memory; a body without end (or a huge one) is refused rather than held. */
const MAX_RESPONSE_BYTES = Number(process.env.AGENT_CLI_MAX_RESPONSE_BYTES) || 64 * 1024 * 1024;
/** Deepest response JSON handed on; real APIs nest a few dozen levels. */
const MAX_RESPONSE_DEPTH = 512;

/**
 * Writes a streamed body: bytes in memory as they are, each file read from the descriptor opened when it was checked
 * (local-file.ts), hashed as it goes. A file that ends before its checked size changed while it was sent: the request
 * is cut off, never completed with other bytes than the ones checked.
 */
async function writeStream(req: ClientRequest, stream: StreamedBody): Promise<Uploaded[]> {
  const uploaded: Uploaded[] = [];
  // One wait at a time, its listeners removed whichever fires: a large upload waits thousands of times.
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        req.off("drain", done);
        req.off("close", done);
        resolve();
      };
      req.once("drain", done);
      req.once("close", done);
    });
  const write = async (bytes: Buffer) => {
    if (!req.write(bytes)) await drained();
  };
  for (const chunk of stream.chunks) {
    if (req.destroyed) return uploaded;
    if ("bytes" in chunk) {
      await write(chunk.bytes);
      continue;
    }
    const { file } = chunk;
    const hash = nodeCrypto().createHash("sha256");
    let bytes = 0;
    if (file.size !== 0) {
      const source =
        file.path === "-"
          ? process.stdin
          : createReadStream("", { fd: file.fd, start: 0, end: file.size! - 1, autoClose: false });
      // A request cut short stops reading stdin: a producer that never ends must not hold the process open. (A file's
      // stream ends at its checked size; its descriptor is closed by the caller.)
      if (file.path === "-") req.once("close", () => process.stdin.destroy());
      for await (const piece of source as AsyncIterable<Buffer>) {
        if (req.destroyed) return uploaded;
        bytes += piece.length;
        hash.update(piece);
        await write(chunk.percent ? percentEncoded(piece) : piece);
      }
    }
    if (file.size !== undefined && bytes !== file.size)
      throw new CliError(
        "UPLOAD_FAILED",
        `--${file.flag}: ${file.path} changed while it was sent (${bytes} of ${file.size} bytes could be read); the request was cut off.`,
        "Leave the file unchanged until the command ends, then run it again.",
        { flag: file.flag, path: file.path },
      );
    uploaded.push({
      flag: file.flag,
      path: file.path,
      bytes,
      sha256: hash.digest("hex"),
      content_type: chunk.contentType,
    });
  }
  req.end();
  return uploaded;
}

/**
 * A success answer read into memory, up to MAX_RESPONSE_BYTES (past that the exchange is cut with `fail`): JSON parsed
 * (refused when it nests deeper than anything after it can walk), other text decoded by its charset.
 */
function readInMemory(
  res: IncomingMessage,
  url: URL,
  type: string,
  fail: (error: CliError) => void,
  failed: () => CliError | undefined,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_RESPONSE_BYTES) {
        fail(
          new CliError(
            "RESPONSE_TOO_LARGE",
            `The response from ${url.origin} is over ${MAX_RESPONSE_BYTES} bytes; it was not read.`,
            "Ask for less (filters, --limit or paging), save it with --output <path>, or raise AGENT_CLI_MAX_RESPONSE_BYTES.",
            { url: url.origin, limit: MAX_RESPONSE_BYTES },
          ),
        );
        return;
      }
      chunks.push(c);
    });
    res.on("end", () => {
      const bytes = Buffer.concat(chunks);
      let data: unknown = null;
      if (bytes.length && (isJsonMedia(type) || /json/.test(type))) {
        const text = bytes.toString("utf8");
        try {
          // An id beyond 2^53 keeps its digits (runtime/exact.ts): an agent passes it back to the next command.
          data = parseExact(text);
        } catch {
          data = text;
        }
        // Parsing is iterative, but everything after it (fields, redaction, tables) walks the value recursively.
        if (nestedDeeper(data, MAX_RESPONSE_DEPTH)) {
          reject(
            new CliError(
              "RESPONSE_TOO_LARGE",
              `The response from ${url.origin} nests deeper than ${MAX_RESPONSE_DEPTH} levels; it was not read.`,
              "The API answered with data no client can walk; report it to the API's owners.",
              { url: url.origin, depth: MAX_RESPONSE_DEPTH },
            ),
          );
          return;
        }
      } else if (bytes.length) data = decodeText(bytes, type);
      resolve(data);
    });
    res.on("error", (error: Error) => reject(failed() ?? unreachable(url, error)));
  });
}

/**
 * Sends one request. The timeout is a deadline for the whole exchange (a server that sends headers and then trickles
 * its body is as stuck as a silent one; a file transfer has a longer one), and a body read into memory is read up to
 * MAX_RESPONSE_BYTES. A success answer is taken as what it is (`answer`): written byte for byte to `--output`,
 * collected as events, refused as a file when there is nowhere to write it, else read as JSON or text.
 */
export async function send(request: Request, answer: AnswerOptions = {}): Promise<Response> {
  const url = new URL(request.url);
  // Loaded here, not at start-up: help never sends. Through getBuiltinModule, not import(): the runtime is CommonJS, and
  // a dynamic import would start Node's ES module loader for it (a dozen modules at every call).
  const { request: httpRequest } = process.getBuiltinModule(url.protocol === "https:" ? "node:https" : "node:http");
  const transfer = request.stream !== undefined || answer.output !== undefined;
  const deadlineMs = transfer ? Math.max(TIMEOUT_MS, TRANSFER_TIMEOUT_MS) : TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    // The first reason the exchange was cut short: destroying a request also fails its response with a plain error.
    let failure: CliError | undefined;
    const fail = (error: CliError) => {
      failure ??= error;
      req.destroy(error);
    };
    let uploaded: Uploaded[] | undefined;
    const length =
      request.body !== undefined ? Buffer.byteLength(request.body) : request.stream ? request.stream.length : undefined;
    const req = httpRequest(
      url,
      {
        method: request.method,
        headers: { ...request.headers, ...(length !== undefined ? { "content-length": length } : {}) },
        // Idle time on the socket: a transfer may wait as long as its deadline (a slow conversion before the first byte).
        timeout: deadlineMs,
      },
      (raw) => {
        const res = decoded(raw);
        const status = res.statusCode ?? 0;
        const type = String(res.headers["content-type"] ?? "");
        const ok = status >= 200 && status < 300;
        const base = () => ({ status, headers: res.headers, ...(uploaded ? { uploaded } : {}) });
        if (ok && answer.output !== undefined) {
          writeAnswer(
            res,
            answer.output,
            answer.force === true,
            answer.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
            fail,
          ).then(
            (written) => resolve({ ...base(), data: null, written }),
            (error: CliError) => reject(failure ?? error),
          );
          return;
        }
        if (ok && type && isEventStream(type)) {
          collectEvents(res, EVENT_BOUNDS.events, EVENT_BOUNDS.ms, MAX_RESPONSE_BYTES).then(
            ({ events, ended }) => resolve({ ...base(), data: events, ended }),
            reject,
          );
          return;
        }
        const binary = ok && !!type && responseKindOf(type) === "binary";
        const size = res.headers["content-length"];
        const outputRequired = () =>
          new CliError(
            "OUTPUT_REQUIRED",
            `The answer is a file (${type}${size ? `, ${size} bytes` : ""}), which is never printed as text; it was not kept.`,
            "Run the command again with --output <path> to save it (--output - writes the raw bytes to stdout).",
            { content_type: type, ...(size ? { bytes: Number(size) } : {}) },
          );
        // An operation that answers JSON or a file (a photo as JSON or as image/jpeg) answered the file.
        if (binary && (answer.kind !== "json" || declares(answer.accept, type))) {
          res.destroy();
          reject(outputRequired());
          return;
        }
        readInMemory(res, url, type, fail, () => failure).then((data) => {
          // A JSON operation's answer labelled as bytes it does not declare is read as text (servers mislabel JSON as
          // octet-stream), unless it is not text: bytes decoded as UTF-8 would be printed mangled.
          if (binary && typeof data === "string" && data.includes("\uFFFD")) reject(outputRequired());
          else resolve({ ...base(), data });
        }, reject);
      },
    );
    const deadline = setTimeout(
      () =>
        fail(
          new CliError(
            "TIMEOUT",
            `${url.origin} did not complete the ${transfer ? "transfer" : "response"} within ${deadlineMs} ms.`,
            `Check the service is up, or raise ${transfer ? "AGENT_CLI_TRANSFER_TIMEOUT_MS" : "AGENT_CLI_TIMEOUT_MS"}.`,
            { url: url.origin, timeoutMs: deadlineMs },
          ),
        ),
      deadlineMs,
    );
    const settle =
      <T>(fn: (v: T) => void) =>
      (v: T) => {
        clearTimeout(deadline);
        fn(v);
      };
    resolve = settle(resolve);
    reject = settle(reject);
    req.on("timeout", () =>
      req.destroy(
        new CliError(
          "TIMEOUT",
          `No response from ${url.origin} within ${TIMEOUT_MS} ms.`,
          "Check the service is up, or raise AGENT_CLI_TIMEOUT_MS.",
        ),
      ),
    );
    req.on("error", (error) => reject(failure ?? (error instanceof CliError ? error : unreachable(url, error))));
    if (request.stream)
      writeStream(req, request.stream).then(
        (sent) => void (uploaded = sent),
        (error: unknown) =>
          fail(
            error instanceof CliError
              ? error
              : new CliError(
                  "UPLOAD_FAILED",
                  `Sending the body failed: ${(error as Error).message}.`,
                  "Run the command again.",
                ),
          ),
      );
    else {
      if (request.body !== undefined) req.write(request.body);
      req.end();
    }
  });
}

/** The content codings an answer is decoded from, each with node:zlib's maker of its decoder. */
const DECODERS: Record<string, "createGunzip" | "createInflate" | "createBrotliDecompress"> = {
  gzip: "createGunzip",
  "x-gzip": "createGunzip",
  deflate: "createInflate",
  br: "createBrotliDecompress",
};

/**
 * An answer as its bytes were before the server compressed them. The CLI never asks for a compressed answer, but a
 * description's own `Accept-Encoding` parameter can (beezup's required `--accept-encoding gzip`): read as it came,
 * the JSON was printed as the gzip bytes decoded as text. gzip, deflate and br are decoded (node:zlib); the headers
 * then describe the decoded bytes (no Content-Encoding, no compressed Content-Length to hold them to). Any other
 * coding is left as it came.
 */
function decoded(res: IncomingMessage): IncomingMessage {
  const coding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const make = DECODERS[coding];
  if (!make) return res;
  // node:zlib only for an answer that needs it: loading it is no part of every call.
  const decoder = process.getBuiltinModule("node:zlib")[make]();
  const headers = Object.fromEntries(
    Object.entries(res.headers).filter(([name]) => name !== "content-encoding" && name !== "content-length"),
  );
  res.on("error", (error) => decoder.destroy(error));
  res.on("aborted", () => decoder.emit("aborted"));
  decoder.on("close", () => res.destroy());
  res.pipe(decoder);
  // What the readers use of an answer: its status, its headers, and a stream of its bytes.
  return Object.assign(decoder, { headers, statusCode: res.statusCode }) as unknown as IncomingMessage;
}

const unreachable = (url: URL, error: Error) =>
  new CliError(
    "NETWORK_ERROR",
    `Cannot reach ${url.origin}: ${(error as NodeJS.ErrnoException).code ?? error.message}.`,
    "Check the base URL and that the service is running.",
    { url: url.origin },
  );

/** An HTTP error response as a structured error; the API's own message is kept, the credential never. */
export function errorFor(response: Response, secrets: string[]): CliError {
  const code = codeForStatus(response.status);
  const body = response.data as {
    message?: unknown;
    error?: unknown;
    code?: unknown;
    title?: unknown;
    detail?: unknown;
    validation?: unknown;
    errors?: unknown;
  } | null;
  // An RFC 9457 problem (`title`, `detail`) and a list of field errors say what to fix: kept, within a line's length.
  const listed = [body?.validation, body?.errors].find(Array.isArray) as unknown[] | undefined;
  const fieldErrors = (listed ?? [])
    .slice(0, 5)
    .map((e) => {
      if (typeof e === "string") return e;
      const item = e as { location?: unknown; message?: unknown; field?: unknown };
      const where = Array.isArray(item.location)
        ? item.location.join(".")
        : typeof item.field === "string"
          ? item.field
          : "";
      return typeof item.message === "string" ? `${where ? `${where}: ` : ""}${item.message}` : undefined;
    })
    .filter((e): e is string => !!e);
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  let message = (
    text(body?.message) ??
    text(body?.error) ??
    [text(body?.title), text(body?.detail)].filter(Boolean).join(": ") ??
    ""
  ).slice(0, 500);
  if (fieldErrors.length) message = `${message ? `${message} ` : ""}(${fieldErrors.join("; ")})`.slice(0, 1000);
  if (!message) message = `HTTP ${response.status}`;
  // The message is the API's text: a credential it echoes is cut in every form, and one too short to be told from
  // letters of words ("k" for a local test server) where it stands as a word (core/redact.ts).
  message = redactor(secrets)(message);
  const suggestions: Record<string, string> = {
    AUTH_FAILED: "Check the credential variables: `auth status` shows which are set and which the command uses.",
    PERMISSION_DENIED: "The credential lacks permission for this; use one that has it.",
    NOT_FOUND: "Check the id; list the resource to find valid ids.",
    CONFLICT:
      "The request conflicts with the resource's current state; read it again and retry with values that fit it.",
    PRECONDITION_FAILED: "Read the resource again and retry with its current state.",
    VALIDATION_ERROR:
      "The API refused the values: fix what its message names (the command's --help shows each flag's type and limits).",
    RATE_LIMITED: "Wait and retry later.",
    SERVER_ERROR: "The service failed; retry later or report it.",
  };
  return new CliError(code, `${message} (HTTP ${response.status})`, suggestions[code] ?? "See the message.", {
    status: response.status,
    ...(typeof body?.code === "string" ? { apiCode: body.code } : {}),
  });
}
