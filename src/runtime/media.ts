/**
 * What a media type is to a command line: how a request body in it is encoded, and what kind of answer a response in
 * it is. One classification for the designer (which reads the document's media types) and the runtime (which reads
 * the Content-Type an API actually answers with), so the two never disagree.
 */

/** How a request body is given and sent: JSON fields, form fields, multipart parts, or one file's bytes. */
export type BodyEncoding = "json" | "form" | "multipart" | "raw";

/**
 * What a response is: JSON (parsed into the envelope), text (a string result), bytes (written to `--output`, never
 * decoded), server-sent events (collected as a list), or nothing.
 */
export type ResponseKind = "json" | "text" | "binary" | "event-stream" | "empty";

/** `type/subtype` without parameters, lower case. */
export const essence = (mediaType: string): string => (mediaType.split(";")[0] ?? "").trim().toLowerCase();

/** application/json and every `+json` type (`application/problem+json`, `application/vnd.api+json`, …). */
export function isJsonMedia(mediaType: string): boolean {
  const t = essence(mediaType);
  return t === "application/json" || t === "text/json" || /^application\/[\w.!#$&^-]*\+json$/.test(t);
}

/** Types whose bytes are text a caller reads as a string: text/*, XML, YAML, CSV, JavaScript, NDJSON. */
function isTextMedia(mediaType: string): boolean {
  const t = essence(mediaType);
  if (t === "text/event-stream") return false;
  return (
    t.startsWith("text/") ||
    /^application\/([\w.!#$&^-]*\+)?(xml|yaml)$/.test(t) ||
    [
      "application/x-yaml",
      "application/javascript",
      "application/ecmascript",
      "application/csv",
      "application/x-ndjson",
      "application/jsonl",
      "application/graphql",
      "application/sql",
      "application/x-www-form-urlencoded",
    ].includes(t)
  );
}

export const isEventStream = (mediaType: string): boolean => essence(mediaType) === "text/event-stream";

/** A wildcard such as `*\/*` or `application/*`: the document does not say what comes back. */
const isWildcard = (mediaType: string): boolean => essence(mediaType).endsWith("/*");
const BYTES_RANGE = /^(audio|image|video|font|model)\/\*$/;

/**
 * Whether an answer's Content-Type is one the operation declares (its Accept list): the same type, or a range of its
 * kind (`image/*`); `*\/*` declares nothing in particular.
 */
export function declares(accept: string | undefined, answered: string): boolean {
  const t = essence(answered);
  return (accept ?? "")
    .split(",")
    .map(essence)
    .some((d) => d === t || (d.endsWith("/*") && d !== "*/*" && t.startsWith(d.slice(0, -1))));
}

/** How a body in this media type is sent. */
export function bodyEncodingOf(mediaType: string): BodyEncoding {
  const t = essence(mediaType);
  if (isJsonMedia(t)) return "json";
  if (t === "application/x-www-form-urlencoded") return "form";
  if (t.startsWith("multipart/")) return "multipart";
  return "raw";
}

/**
 * What an answer in this media type is. `binarySchema`: the document's schema is a file (`format: binary`), which
 * makes even a wildcard or text type bytes; a wildcard with any other schema is read as JSON, the common case.
 */
export function responseKindOf(mediaType: string | undefined, binarySchema = false): ResponseKind {
  if (!mediaType) return "empty";
  if (isEventStream(mediaType)) return "event-stream";
  if (binarySchema && !isJsonMedia(mediaType)) return "binary";
  // A range of a kind that is only ever bytes (`audio/*`, `image/*`) is a file; any other range may be JSON.
  if (BYTES_RANGE.test(essence(mediaType))) return "binary";
  if (isJsonMedia(mediaType) || isWildcard(mediaType)) return "json";
  if (isTextMedia(mediaType)) return "text";
  return "binary";
}

/**
 * The Accept header for the media types an operation declares for its answers: JSON first when it is offered, then
 * the rest in the document's order; `application/json` when it declares none.
 */
export function acceptFor(mediaTypes: readonly string[]): string {
  const unique = [...new Set(mediaTypes.map((t) => t.trim()).filter(Boolean))];
  if (!unique.length) return "application/json";
  return [...unique.filter(isJsonMedia), ...unique.filter((t) => !isJsonMedia(t))].join(", ");
}
