import { createHash } from "node:crypto";
import { lstatSync, type Stats } from "node:fs";
import xxhash from "xxhash-wasm";
import { type Digesting, type Text, updateWith, updateWithFile } from "./text-io.js";

type Hasher = Awaited<ReturnType<typeof xxhash>>;
let hasher: Hasher | undefined;

/** xxhash-wasm compiles a WebAssembly module; do it once per process, before any hashing. */
export async function initHasher(): Promise<void> {
  hasher ??= await xxhash();
}

function api(): Hasher {
  if (!hasher) throw new Error("initHasher() must run before hashing");
  return hasher;
}

const SEED_B = 0x9e3779b97f4a7c15n;

/** 128 bits from two seeded xxh64 runs: fingerprints and local content hashes, never identity outside the machine. */
export function xxh(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const h = api();
  return h.h64Raw(bytes).toString(16).padStart(16, "0") + h.h64Raw(bytes, SEED_B).toString(16).padStart(16, "0");
}

/** xxh of a file's bytes, read through one buffer: a description of tens of megabytes is never held whole to key it. */
export function xxhOfFile(file: string): string {
  const h = api();
  const [a, b] = [h.create64(), h.create64(SEED_B)];
  updateWithFile({ update: (chunk) => (a.update(chunk), b.update(chunk)) }, file);
  return a.digest().toString(16).padStart(16, "0") + b.digest().toString(16).padStart(16, "0");
}

/** Identity for anything that leaves the machine: candidate hashes, receipts, plan checks. */
export function sha256(data: Text | Uint8Array): string {
  const hash = createHash("sha256");
  updateWith(hash, data);
  return hash.digest("hex");
}

/** A file's sha256, as a candidate (cli.tgz) is known by: its bytes read in slices, never held whole. */
export function fileSha256(file: string): string {
  const hash = createHash("sha256");
  updateWithFile(hash, file);
  return hash.digest("hex");
}

/** The sha256 of the bytes `feed` gives its digest (a file's as they are written: core/atomic.ts, writeFileAtomic). */
export function sha256Fed(feed: (digest: Digesting) => void): string {
  const hash = createHash("sha256");
  feed(hash);
  return hash.digest("hex");
}

/**
 * Files this process wrote and hashed as it wrote them (noteSha256), with the stat that shows them unchanged since: the
 * cache takes their digest instead of reading them back (a large CLI's build writes hundreds of megabytes, which it
 * would otherwise read and hash again).
 */
const written = new Map<string, { sha256: string; stat: Stats }>();

const sameStat = (a: Stats, b: Stats) =>
  a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.dev === b.dev;

/** Records the sha256 of the bytes just written to `file` (by the writer that hashed them: core/atomic.ts). */
export function noteSha256(file: string, sha256: string): void {
  written.set(file, { sha256, stat: lstatSync(file) });
}

/**
 * A file's sha256 and size: as noted when this process wrote it, while its stat says it is that file still, else read
 * through one buffer (a cached output can be tens of megabytes).
 */
export function sha256OfFile(file: string): { sha256: string; size: number } {
  const noted = written.get(file);
  if (noted) {
    const now = lstatSync(file, { throwIfNoEntry: false });
    if (now && sameStat(now, noted.stat)) return { sha256: noted.sha256, size: now.size };
    written.delete(file);
  }
  const hash = createHash("sha256");
  const size = updateWithFile(hash, file);
  return { sha256: hash.digest("hex"), size };
}

/** JSON with object keys sorted at every depth, so equal values always serialize to equal bytes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
