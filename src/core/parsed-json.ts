import { readFileSync } from "node:fs";
import { sha256 } from "./hash.js";

/**
 * JSON texts this process wrote, by the sha256 of their bytes, with the value each was written from: a reader that
 * meets the same bytes again takes that value instead of parsing them (issue #46, parsing once per content hash).
 * Inspection reads the package emit has just written, unpacked from its tarball: a large CLI's command files are tens
 * of megabytes, costly to parse again. Only values JSON gives back unchanged are kept (core/plain-json.ts, checked by
 * the writer), so a reader gets what JSON.parse would give; readers only read them. The values are held weakly: one
 * stays known while its writer keeps it (the emitted package's parts, for the next watch cycle), no longer.
 */
const known = new Map<string, WeakRef<object>>();

/** Past this many texts, entries whose value is gone are dropped before another is kept. */
const PRUNE_AT = 4096;

/** Records that the bytes of digest `sha256Hex` are the JSON text of `value` (a plain JSON object or array). */
export function rememberJson(sha256Hex: string, value: object): void {
  if (known.size >= PRUNE_AT) for (const [digest, ref] of known) if (!ref.deref()) known.delete(digest);
  known.set(sha256Hex, new WeakRef(value));
}

/** The file's JSON value: the one it was written from when this process wrote these very bytes, else parsed. */
export function readJsonFile(file: string): unknown {
  const bytes = readFileSync(file);
  // With nothing written here (`inter inspect` on a tarball), there is nothing to hash the bytes for.
  return (known.size ? known.get(sha256(bytes))?.deref() : undefined) ?? JSON.parse(bytes.toString("utf8"));
}
