import { deref } from "./pointer.js";

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** A JSON media type (`application/json`, `application/problem+json`, `…+json`). */
export const jsonLike = (mediaType: string) => /(^application\/(.*\+)?json\b)|(\+json\b)/i.test(mediaType);

/**
 * A schema a file gives: `format: binary`, Swagger's `type: file`, 3.1's `contentMediaType` without an encoding (as
 * http-spec also writes `format: binary`), or an array of them. `$ref`s are followed within `root`.
 */
export function binarySchema(root: Record<string, unknown>, schema: unknown): boolean {
  const s = deref(root, schema);
  if (!isRecord(s)) return false;
  if (s.type === "file" || s.format === "binary") return true;
  if (typeof s.contentMediaType === "string" && s.contentEncoding === undefined && !jsonLike(s.contentMediaType))
    return true;
  return s.type === "array" && binarySchema(root, s.items);
}
