import { promisify } from "node:util";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { constants, crc32, deflateRaw } from "node:zlib";
import { sha256 } from "./hash.js";
import { mapLimit } from "./map-limit.js";
import { compareText } from "./text-order.js";

/**
 * One file of a tarball: its path under the package/ prefix, and its bytes and permission bits, or the file on disk to
 * take them from (read straight into its place in the tarball: a package of 50 MB is not held twice).
 */
export type TarFile = { path: string } & ({ bytes: Uint8Array; mode: number } | { file: string });

const BLOCK = 512;
/** npm's own fixed timestamp for reproducible packs. */
const FIXED_MTIME = Math.floor(Date.parse("1985-10-26T08:15:00.000Z") / 1000);
/** zlib's default level, as npm packs: level 9 costs far more CPU for a tarball hardly smaller. */
const LEVEL = 6;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

/** A ustar header block: owners, groups and times are fixed, so only the path, mode and size vary. */
function header(name: string, prefix: string, size: number, mode: number, type: "0" | "x"): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, "utf8");
  block.write(octal(mode & 0o7777, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(FIXED_MTIME, 12), 136, "ascii");
  block.write(" ".repeat(8), 148, "ascii");
  block.write(type, 156, "ascii");
  block.write("ustar\u000000", 257, "ascii");
  block.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

/** How many zero bytes fill `size` bytes up to a whole block. */
const paddingLength = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;
const padding = (size: number) => Buffer.alloc(paddingLength(size));

/** Splits a path into ustar's prefix (≤ 155 bytes) and name (≤ 100 bytes) at a slash; undefined when it cannot. */
function ustarSplit(path: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" };
  for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name) return { name, prefix };
  }
  return undefined;
}

/** A pax record "<length> path=<value>\n", whose length counts its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length)
    length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

/** The tar member of one file: its header (and a pax header first when the path fits no ustar header), data, padding. */
function member(file: TarFile): Buffer {
  const path = `package/${file.path}`;
  const split = ustarSplit(path);
  const fd = "file" in file ? openSync(file.file, "r") : undefined;
  try {
    const stat = fd === undefined ? undefined : fstatSync(fd);
    const size = stat ? stat.size : (file as { bytes: Uint8Array }).bytes.length;
    const mode = stat ? stat.mode & 0o777 : (file as { mode: number }).mode;
    const heads: Buffer[] = [];
    if (!split) {
      const pax = Buffer.from(paxRecord("path", path));
      heads.push(header("package/PaxHeader", "", pax.length, 0o644, "x"), pax, padding(pax.length));
    }
    const { name, prefix } = split ?? { name: path.slice(-100).replace(/^[^/]*\//, ""), prefix: "" };
    heads.push(header(name, prefix, size, mode, "0"));
    const at = heads.reduce((n, h) => n + h.length, 0);
    const out = Buffer.allocUnsafeSlow(at + size + paddingLength(size));
    for (let i = 0, offset = 0; i < heads.length; offset += heads[i]!.length, i++) heads[i]!.copy(out, offset);
    if (fd === undefined) out.set((file as { bytes: Uint8Array }).bytes, at);
    else
      for (let done = 0; done < size;) {
        const n = readSync(fd, out, at + done, size - done, done);
        // Shorter than its stat said: changed while read, so what it holds now is not what was described.
        if (n === 0) throw new Error(`${file.path} changed while it was packed`);
        done += n;
      }
    out.fill(0, at + size);
    return out;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Compressed members by the sha256 of their tar bytes: a watch build packs a package of which a brief edit changed a
 * few files, and deflating the unchanged megabytes again would give the same bytes. Only the last pack's are kept.
 */
let compressed = new Map<string, Buffer>();

/**
 * Each member is deflated on its own and ends on a byte boundary (a sync flush), so the compressed members simply
 * follow one another in one gzip stream: the bytes depend only on the files, whether a member was compressed now or
 * reused from the last pack. A cold build and a watch build of the same files give the same sha256.
 */
async function deflateMember(bytes: Buffer, kept: Map<string, Buffer>): Promise<Buffer> {
  const key = sha256(bytes);
  const out =
    compressed.get(key) ??
    kept.get(key) ??
    (await deflating(bytes, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH }));
  kept.set(key, out);
  return out;
}

const deflating = promisify(deflateRaw);
/** libuv's thread pool, where an asynchronous deflate runs: four threads unless the process was started with more. */
const DEFLATING_AT_ONCE = Number(process.env.UV_THREADPOOL_SIZE) || 4;

/**
 * An npm tarball of `files`, byte for byte reproducible: entries sorted by path under package/, fixed times, no owners,
 * the given modes, and only regular files (no folder entries). `inter publish` packs the published package this way too.
 */
export async function packTgz(files: TarFile[]): Promise<Buffer> {
  const sorted = [...files].sort((a, b) => compareText(a.path, b.path));
  const kept = new Map<string, Buffer>();
  let crc = 0;
  let size = 0;
  // Deflated on libuv's threads side by side (each member is deflated on its own, see deflateMember): the main thread
  // does none of the compressing, and a second core half of it. No more at once than the threads take, each member
  // read when its turn comes: a deflate holds ~256 KB of zlib state from its start, zeroed, and a large package's
  // members read and started together held all its files and that state for each (every page a first touch of memory)
  // where a few, taken in turn, reuse the same memory. mapLimit starts the calls in the members' order, and a call
  // reads and sums its member before it first waits, so the checksum runs over the tar in order.
  // The last item stands for the tar's end: two empty blocks.
  const deflated = await mapLimit([...sorted, undefined], DEFLATING_AT_ONCE, (file) => {
    const raw = file ? member(file) : Buffer.alloc(2 * BLOCK);
    crc = crc32(raw, crc);
    size += raw.length;
    return deflateMember(raw, kept);
  });
  compressed = kept;
  // The last block: empty, final (BFINAL set, fixed Huffman), then the gzip trailer.
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
  return Buffer.concat([gzipHeader, ...deflated, Buffer.from([0x03, 0x00]), trailer]);
}
