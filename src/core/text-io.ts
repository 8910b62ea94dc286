import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/**
 * Texts of many megabytes (a large description's models, capabilities.json, a receipt) to files and hashes in slices
 * through one reused buffer. Handing such a text whole to `writeFileSync` or `hash.update` converts it into a fresh
 * buffer of its size first, and on the VMs measured here the page faults of those fresh pages cost more than the write
 * or the hash itself: an 83 MB text took 480–600 ms to write whole and 76–110 ms in slices, 480 ms to hash whole and
 * 160 ms in slices (docs/architecture.md, "Speed budgets").
 */

/** Below this many characters a text goes whole: one call is cheaper than a loop, and its buffer is small. */
export const BIG_TEXT = 1 << 20;

/** UTF-16 code units per slice: at most three bytes each in UTF-8, so a slice always fits the scratch buffer. */
const SLICE = 1 << 18;
const SCRATCH_BYTES = SLICE * 3 + 4;
let shared: Buffer | undefined;
const encoder = new TextEncoder();

/**
 * The one buffer every function here reads into or encodes into. They are synchronous and let nothing keep it (a hash
 * copies what it is given, a decoder makes strings), so one per process serves them all.
 */
const scratch = () => (shared ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES));

/** The text in slices of at most SLICE code units (one more at most), never splitting a surrogate pair. */
export function* textSlices(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + SLICE, text.length);
    const last = text.charCodeAt(end - 1);
    // A high surrogate at the end would be encoded alone (as U+FFFD): its low half goes with it.
    if (last >= 0xd800 && last <= 0xdbff && end < text.length) end++;
    yield text.slice(start, end);
    start = end;
  }
}

/** Writes every byte of `bytes` at the descriptor's position (a write may take fewer than it was given). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** `text` as UTF-8 into the open file, slice by slice through one buffer. */
export function writeTextToFd(fd: number, text: string): void {
  const buffer = scratch();
  for (const slice of textSlices(text)) {
    const { written } = encoder.encodeInto(slice, buffer);
    writeAll(fd, buffer.subarray(0, written));
  }
}

/** Hands each piece of a file to `use`, read through the scratch buffer (valid only during the call). */
function eachChunk(file: string, use: (chunk: Buffer) => void): void {
  const fd = openSync(file, "r");
  try {
    const buffer = scratch();
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) use(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

/** A file's text as UTF-8; a big file is read in slices through one buffer rather than into a buffer of its size. */
export function readTextFile(file: string): string {
  const decoder = new StringDecoder("utf8");
  const parts: string[] = [];
  eachChunk(file, (chunk) => parts.push(decoder.write(chunk)));
  parts.push(decoder.end());
  return parts.join("");
}

/** What can take a text or bytes in pieces, as a node:crypto Hash does. */
interface Digesting {
  update(data: string | Uint8Array): unknown;
}

/** Feeds `data` to `hash`: a big text in slices, so it is never converted whole. */
export function updateWith(hash: Digesting, data: string | Uint8Array): void {
  if (typeof data !== "string" || data.length < BIG_TEXT) {
    hash.update(data);
    return;
  }
  for (const slice of textSlices(data)) hash.update(slice);
}

/** Feeds a file's bytes to `hash` through one buffer; returns the file's size. */
export function updateWithFile(hash: Digesting, file: string): number {
  let size = 0;
  eachChunk(file, (chunk) => {
    hash.update(chunk);
    size += chunk.length;
  });
  return size;
}
