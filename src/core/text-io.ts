import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/**
 * Texts of many megabytes (a large description's models, capabilities.json, a receipt) to files and hashes in slices
 * through one reused buffer. Handing such a text whole to `writeFileSync` or `hash.update` converts it into a fresh
 * buffer of its size first, and on virtual machines the page faults of those fresh pages cost more than the write or
 * the hash itself.
 */

/** Below this many characters a text goes whole: one call is cheaper than a loop, and its buffer is small. */
export const BIG_TEXT = 1 << 20;

/**
 * A text as one string or as the strings it is made of, in order (an array, or a generator that makes them as they are
 * read, once). A big text made of pieces (a JSON text and its final newline, capabilities.json's members, a large
 * value's elements: core/json-pieces.ts) is written and hashed piece by piece, never joined: joining copies it, and
 * JSON.stringify's text of many megabytes is itself a rope V8 copies whole into a new string the first time it is read
 * by index. For a large CLI's texts those copies were a large share of the build's page faults (which the timing
 * benches print: bench/lib.mjs).
 */
export type Text = string | Iterable<string>;

/** The text as one string (a copy when it is made of pieces). */
export const joinText = (text: Text): string => (typeof text === "string" ? text : [...text].join(""));

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

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The text in slices of at most SLICE code units (one more at most), never splitting a surrogate pair, not even one
 * that two pieces split between them.
 */
export function* textSlices(text: Text): Generator<string> {
  let carried = "";
  for (const piece of typeof text === "string" ? [text] : text) {
    let part = carried ? carried + piece : piece;
    carried = "";
    // A trailing high surrogate waits for the next piece, which may hold its low half (at the very end it goes alone).
    if (isHighSurrogate(part.charCodeAt(part.length - 1))) {
      carried = part.slice(-1);
      part = part.slice(0, -1);
    }
    for (let start = 0; start < part.length;) {
      let end = Math.min(start + SLICE, part.length);
      if (isHighSurrogate(part.charCodeAt(end - 1)) && end < part.length) end++;
      yield part.slice(start, end);
      start = end;
    }
  }
  if (carried) yield carried;
}

/** Writes every byte of `bytes` at the descriptor's position (a write may take fewer than it was given). */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * `text` as UTF-8 into the open file through one buffer, small pieces gathered into one write; `digest`, when given,
 * is fed the very bytes written (one conversion for the file and its hash).
 */
export function writeTextToFd(fd: number, text: Text, digest?: Digesting): void {
  const buffer = scratch();
  let used = 0;
  const flush = () => {
    const bytes = buffer.subarray(0, used);
    digest?.update(bytes);
    writeAll(fd, bytes);
    used = 0;
  };
  for (const slice of textSlices(text)) {
    // A slice is at most SLICE + 1 code units, three bytes each at most: it fits an emptied buffer.
    if (used + slice.length * 3 > buffer.length) flush();
    used += encoder.encodeInto(slice, used ? buffer.subarray(used) : buffer).written;
  }
  if (used) flush();
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
export interface Digesting {
  update(data: string | Uint8Array): unknown;
}

/** Feeds `data` to `hash`: a big text in slices, so it is never converted whole. */
export function updateWith(hash: Digesting, data: Text | Uint8Array): void {
  if (data instanceof Uint8Array || (typeof data === "string" && data.length < BIG_TEXT)) {
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
