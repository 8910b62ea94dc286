/**
 * A request body in the media type the command sends (manifest Body): JSON; a urlencoded form with each field
 * serialized per its encoding's style (OpenAPI 3.1.1 §4.8.14, arrays exploded as repeated keys by default); multipart
 * parts (RFC 7578), files streamed from disk with their name and content type, arrays as repeated parts, objects as
 * JSON parts; or one file's bytes. Files are never read whole into memory: a body with files is a list of chunks,
 * and its length is known from the files' sizes (stdin's is not: then it is sent chunked).
 */
import { nodeCrypto } from "../core/node-crypto.js";
import { createReadStream } from "node:fs";
import { CliError } from "./errors.js";
import { basename, extname } from "node:path";
import { ExactInteger, stringifyExact } from "./exact.js";
import type { OpenedFile } from "./local-file.js";
import type { Body, PartEncoding } from "./manifest.js";
import { essence } from "./media.js";
import { serializeHeader, serializeQuery, type Style } from "./serialize.js";

/**
 * Bytes already in memory, or a file's, read when the request is written; `percent`: the file's bytes go
 * percent-encoded (a urlencoded form's file field), so the body's length is known only once it is sent.
 */
export type Chunk = { bytes: Buffer } | { file: OpenedFile; filename: string; contentType: string; percent?: true };

/** Bytes as a urlencoded form's value carries them: unreserved characters as they are, every other byte as %XX. */
export function percentEncoded(bytes: Buffer): Buffer {
  let out = "";
  for (const byte of bytes)
    out +=
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
        ? String.fromCharCode(byte)
        : byte === 0x2d || byte === 0x2e || byte === 0x5f || byte === 0x7e
          ? String.fromCharCode(byte)
          : `%${byte < 16 ? "0" : ""}${byte.toString(16).toUpperCase()}`;
  return Buffer.from(out, "latin1");
}

/** A body with files: its chunks in order, and its length when every part's is known. */
export interface StreamedBody {
  chunks: Chunk[];
  length?: number;
}

export type EncodedBody = { text: string; contentType: string } | { stream: StreamedBody; contentType: string };

/**
 * Common extensions' types, for a file part or raw body whose type the document leaves open. A table, not a media
 * type library: the runtime starts on every call an agent makes, and the `mime` package's tables, built at load,
 * took the example's `--help` from 1.34× to 1.43× of `node -e 0` (bench/generated-cli.mjs).
 */
const BY_EXTENSION: Record<string, string> = {
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".tif": "image/tiff",
  ".tiff": "image/tiff",
  ".bmp": "image/bmp",
  ".ico": "image/vnd.microsoft.icon",
  ".heic": "image/heic",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".html": "text/html",
  ".htm": "text/html",
  ".xml": "application/xml",
  ".json": "application/json",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".m4a": "audio/mp4",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mov": "video/quicktime",
  ".mkv": "video/x-matroska",
  ".avi": "video/x-msvideo",
  ".m4v": "video/x-m4v",
  ".mpeg": "video/mpeg",
  ".mpg": "video/mpeg",
  ".ogv": "video/ogg",
  ".flv": "video/x-flv",
  ".3gp": "video/3gpp",
  ".srt": "application/x-subrip",
  ".vtt": "text/vtt",
  ".flac": "audio/flac",
  ".aac": "audio/aac",
  ".opus": "audio/opus",
  ".avif": "image/avif",
  ".rtf": "application/rtf",
  ".odt": "application/vnd.oasis.opendocument.text",
  ".ods": "application/vnd.oasis.opendocument.spreadsheet",
  ".ppt": "application/vnd.ms-powerpoint",
  ".epub": "application/epub+zip",
  ".7z": "application/x-7z-compressed",
  ".bz2": "application/x-bzip2",
  ".ics": "text/calendar",
  ".vcf": "text/vcard",
  ".eml": "message/rfc822",
  ".doc": "application/msword",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xls": "application/vnd.ms-excel",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

const matches = (range: string, type: string) => {
  const r = essence(range);
  return r === type || r === "*/*" || (r.endsWith("/*") && type.startsWith(r.slice(0, -1)));
};

const OCTETS = "application/octet-stream";

/**
 * A file's content type: the one the document names (of several, the one its extension matches), else the extension's,
 * else an octet stream. A wildcard the document names is narrowed by the extension. A file the document's types do
 * not cover goes as an octet stream where the document takes one, never as another named type (a `.mkv` was
 * `video/mp4`, the list's first).
 */
function fileContentType(path: string, declared?: string): string {
  const inferred = BY_EXTENSION[extname(path).toLowerCase()];
  const ranges = (declared ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  if (!ranges.length) return inferred ?? OCTETS;
  if (inferred && ranges.some((r) => matches(r, inferred))) return inferred;
  if (ranges.some((r) => essence(r) === OCTETS)) return OCTETS;
  const concrete = ranges.find((r) => !essence(r).includes("*"));
  return concrete ?? inferred ?? OCTETS;
}

const text = (value: unknown) =>
  typeof value === "string" ? value : value === null || value === undefined ? "" : stringifyExact(value);

/**
 * Whether a form field goes as one JSON text: its encoding names a JSON type, or it is an object its encoding gives no
 * style or explode for. OpenAPI's Encoding Object serializes a field by RFC 6570 (style, explode) only where one of them
 * is given; else by its `contentType`, which for an object defaults to application/json. Exploded by default, an
 * object's keys went as fields of their own (`city=Paris`) and its name was lost.
 */
function jsonField(value: unknown, encoding: PartEncoding): boolean {
  if (encoding.contentType) return /json/i.test(encoding.contentType);
  const record =
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof ExactInteger);
  return record && encoding.style === undefined && encoding.explode === undefined;
}

/**
 * A urlencoded form: each field's pairs as its style says (form and explode by default: `tag=a&tag=b`), an object
 * as JSON unless a style is given (jsonField).
 */
function formBody(fields: Record<string, unknown>, parts: Record<string, PartEncoding> = {}): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const encoding = parts[name] ?? {};
    if (jsonField(value, encoding)) {
      pairs.push(...serializeQuery(name, stringifyExact(value), "form", true));
      continue;
    }
    const style: Style = encoding.style ?? "form";
    pairs.push(...serializeQuery(name, value, style, encoding.explode ?? style === "form"));
  }
  // serializeQuery percent-encodes a space as %20, which every form decoder reads (WHATWG application/x-www-form-urlencoded).
  return pairs.join("&");
}

/** A quoted-string parameter of Content-Disposition (RFC 7578 §4.2): quotes, backslashes and line breaks escaped. */
const quoted = (value: string) =>
  `"${value
    .replace(/[\r\n]/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/"/g, '\\"')}"`;

/** The part headers and bytes of a multipart body, each file as a chunk that is read when the request is written. */
function multipartChunks(
  boundary: string,
  fields: Record<string, unknown>,
  files: Map<string, OpenedFile[]>,
  parts: Record<string, PartEncoding> = {},
): Chunk[] {
  const chunks: Chunk[] = [];
  const head = (name: string, extra: string[]) =>
    Buffer.from(
      [`--${boundary}`, `Content-Disposition: form-data; name=${quoted(name)}${extra[0] ?? ""}`, ...extra.slice(1)]
        .join("\r\n")
        .concat("\r\n\r\n"),
    );
  const value = (name: string, v: unknown, contentType?: string) => {
    const isObject = v !== null && typeof v === "object";
    const type = contentType ?? (isObject ? "application/json" : undefined);
    chunks.push({ bytes: head(name, ["", ...(type ? [`Content-Type: ${type}`] : [])]) });
    chunks.push({ bytes: Buffer.from(`${text(v)}\r\n`) });
  };
  for (const [name, v] of Object.entries(fields)) {
    const declared = parts[name]?.contentType;
    const { style, explode } = parts[name] ?? {};
    // Arrays are repeated parts, one per item (objects inside them as JSON), unless the document makes it one JSON part,
    // or one delimited part: Swagger 2.0's collectionFormat (csv by default) or a style with explode false says `a,b`.
    if (Array.isArray(v) && style && explode === false) value(name, serializeHeader(v, style, false), declared);
    else if (Array.isArray(v) && !(declared && /json/i.test(declared)))
      for (const item of v) value(name, item, declared);
    else value(name, v, declared);
  }
  for (const [name, list] of files)
    for (const file of list) {
      const filename = file.path === "-" ? name : basename(file.path);
      const contentType =
        file.path === "-"
          ? fileContentType("", parts[name]?.contentType)
          : fileContentType(file.path, parts[name]?.contentType);
      chunks.push({ bytes: head(name, [`; filename=${quoted(filename)}`, `Content-Type: ${contentType}`]) });
      chunks.push({ file, filename, contentType });
      chunks.push({ bytes: Buffer.from("\r\n") });
    }
  chunks.push({ bytes: Buffer.from(`--${boundary}--\r\n`) });
  return chunks;
}

/** The length of a body of chunks, when every file's size is known. */
const lengthOf = (chunks: Chunk[]): number | undefined =>
  chunks.reduce<number | undefined>(
    (sum, c) =>
      sum === undefined
        ? undefined
        : "bytes" in c
          ? sum + c.bytes.length
          : c.file.size === undefined || c.percent
            ? undefined
            : sum + c.file.size,
    0,
  );

/**
 * The body a command sends: `fields` are body values by wire name, `files` the opened files of its file flags by wire
 * name ("" for a raw body's one file). Older candidates' commands have no Body: JSON then.
 */
export function encodeBody(
  body: Body | undefined,
  fields: unknown,
  files: Map<string, OpenedFile[]>,
): EncodedBody | undefined {
  const encoding = body?.encoding ?? "json";
  if (encoding === "raw") {
    const file = files.get("")?.[0];
    if (!file) return undefined;
    const contentType = /[*,]/.test(body!.mediaType)
      ? fileContentType(file.path === "-" ? "" : file.path, body!.mediaType)
      : body!.mediaType;
    const chunks: Chunk[] = [{ file, filename: basename(file.path), contentType }];
    return { stream: { chunks, ...(file.size !== undefined ? { length: file.size } : {}) }, contentType };
  }
  if (fields === undefined && !files.size) return undefined;
  // JSON, and a body given whole as a list or a value, is sent as JSON in the document's JSON type.
  const whole = fields !== undefined && (!fields || typeof fields !== "object" || Array.isArray(fields));
  if (encoding === "json" || whole)
    return {
      text: stringifyExact(fields ?? {}),
      contentType: body?.mediaType && !essence(body.mediaType).includes("*") ? body.mediaType : "application/json",
    };
  // A form or multipart body of files alone has no other fields.
  const values = (fields ?? {}) as Record<string, unknown>;
  if (encoding === "form") {
    const contentType = "application/x-www-form-urlencoded";
    const text = formBody(values, body?.parts);
    if (!files.size) return { text, contentType };
    // A file field's value is the file's bytes, percent-encoded as they are read (the document's `format: binary`).
    const chunks: Chunk[] = [];
    let separator = text ? `${text}&` : "";
    for (const [name, list] of files)
      for (const file of list) {
        chunks.push({ bytes: Buffer.from(`${separator}${encodeURIComponent(name)}=`) });
        const filename = file.path === "-" ? name : basename(file.path);
        const type = fileContentType(file.path === "-" ? "" : file.path, body?.parts?.[name]?.contentType);
        chunks.push({ file, filename, contentType: type, percent: true });
        separator = "&";
      }
    return { stream: { chunks }, contentType };
  }
  if (encoding === "multipart") {
    const boundary = `----inter${nodeCrypto().randomBytes(12).toString("hex")}`;
    const type = essence(body!.mediaType).startsWith("multipart/") ? essence(body!.mediaType) : "multipart/form-data";
    const contentType = `${type}; boundary=${boundary}`;
    const chunks = multipartChunks(boundary, values, files, body?.parts);
    if (chunks.every((c) => "bytes" in c))
      return { text: Buffer.concat(chunks.map((c) => (c as { bytes: Buffer }).bytes)).toString("utf8"), contentType };
    const length = lengthOf(chunks);
    return { stream: { chunks, ...(length !== undefined ? { length } : {}) }, contentType };
  }
  return { text: stringifyExact(values), contentType: "application/json" };
}

/** A streamed body as a dry run shows it: the bytes in memory as text, each file as a placeholder naming it and its size. */
export function previewStream(stream: StreamedBody): string | undefined {
  if (stream.chunks.length === 1 && "file" in stream.chunks[0]!) return undefined;
  return stream.chunks
    .map((c) =>
      "bytes" in c
        ? c.bytes.toString("utf8")
        : `<file ${c.file.path}: ${c.file.size === undefined ? "stdin" : `${c.file.size} bytes`}>`,
    )
    .join("");
}

/** The files of a streamed body, as a dry run and the envelope report them. */
export const filesOf = (stream: StreamedBody) => stream.chunks.flatMap((c) => ("file" in c ? [c] : []));

/**
 * The sha256 of a body with files, read once before it is sent (a signature covers the payload's hash: runtime/sigv4.ts).
 * Stdin cannot be read twice, so a signed request takes its files by path.
 */
export async function streamDigest(stream: StreamedBody): Promise<string> {
  const hash = nodeCrypto().createHash("sha256");
  for (const chunk of stream.chunks) {
    if ("bytes" in chunk) {
      hash.update(chunk.bytes);
      continue;
    }
    const { file } = chunk;
    if (file.path === "-")
      throw new CliError(
        "USAGE_ERROR",
        `--${file.flag} - reads stdin, but a signed request needs the file's bytes hashed before it is sent.`,
        `Give --${file.flag} the file's path.`,
        { flag: file.flag },
      );
    if (!file.size) continue;
    for await (const piece of createReadStream("", { fd: file.fd, start: 0, end: file.size - 1, autoClose: false }))
      hash.update(chunk.percent ? percentEncoded(piece as Buffer) : (piece as Buffer));
  }
  return hash.digest("hex");
}
