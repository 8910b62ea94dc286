/**
 * The one safe reader of a candidate cli.tgz: a single pass over the compressed file that refuses it at the first unsafe
 * entry (outside package/, a `..` segment, a link or device, a file over the size limit, too many entries or bytes in
 * all) and never decompresses more than the limits allow, so a gzip bomb ends early. Nothing is written to disk; the
 * files a caller selects come back in memory. Inspection and an evaluation's install unpack what it read whole
 * (stages/inspect/install.ts, stages/candidate/write-files.ts); every other reader goes through
 * stages/candidate/open-candidate.ts.
 */
import { closeSync, createReadStream, openSync, readSync } from "node:fs";
import { createGunzip } from "node:zlib";
import { InterError } from "../../core/errors.js";
import { count } from "../../core/plural.js";

export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
const MAX_ENTRIES = 20_000;
/** What may be decompressed in all: the files, a header block or two per entry, and the end-of-archive padding. */
const MAX_UNPACKED_BYTES = MAX_TOTAL_BYTES + (MAX_ENTRIES + 64) * 1536;
const READ_CHUNK_BYTES = 1024 * 1024;

export interface TarEntry {
  path: string;
  type: string;
  size: number;
  mode: number;
}

/** One file of a candidate: its bytes and mode. */
export interface PackageEntry {
  bytes: Buffer;
  mode: number;
}

/** What readTarball gives back: every entry's header, and the files it was asked to keep (by package-relative path). */
export interface TarballContents {
  entries: TarEntry[];
  files: Map<string, PackageEntry>;
}

/** Why an entry may not be unpacked, or undefined when it is safe: inside package/, a plain file or folder, bounded. */
function entryProblem(entry: TarEntry): string | undefined {
  const path = entry.path.replace(/\\/g, "/");
  if (path.startsWith("/") || /^[a-zA-Z]:/.test(path)) return "absolute path";
  if (path.split("/").includes("..")) return "a .. segment escapes the package folder";
  if (!path.startsWith("package/") && path !== "package" && path !== "package/")
    return "outside the package/ folder npm expects";
  if (entry.type !== "File" && entry.type !== "Directory" && entry.type !== "OldFile")
    return `a ${entry.type} entry (links and devices are refused)`;
  if (entry.size > MAX_ENTRY_BYTES) return `${entry.size} bytes, over the ${MAX_ENTRY_BYTES}-byte limit per file`;
  return undefined;
}

/** A file that does not start with the gzip magic bytes is not an npm package: say so before tar does. */
function requireGzip(file: string, label: string): void {
  const head = Buffer.alloc(2);
  const fd = openSync(file, "r");
  try {
    readSync(fd, head, 0, 2, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b)
    throw new InterError(
      "CANDIDATE_INVALID",
      `${label} is not a cli.tgz: it is not a gzip-compressed npm package.`,
      "Name the cli.tgz that `inter build` wrote (dist/cli.tgz), the folder it was unpacked to, or a project folder.",
      { candidate: label },
    );
}

const unsafe = (label: string, file: string, path: string, problem: string) =>
  new InterError(
    "TARBALL_UNSAFE",
    `${label}: ${path}: ${problem}; nothing was unpacked.`,
    "Rebuild the candidate with `inter build`; a tarball must hold only package/… files and folders within the size limits.",
    { file, problems: [{ path, problem }] },
  );

/**
 * Reads the tarball once: every entry's header is checked, and the files under package/ that `keep` selects (paths
 * relative to the package root) are kept in memory. CANDIDATE_INVALID when it is not gzip, TARBALL_UNSAFE at the first
 * unsafe entry, when a limit is passed, or when it is not a readable tarball.
 */
export async function readTarball(
  file: string,
  label: string,
  keep: (path: string) => boolean,
): Promise<TarballContents> {
  requireGzip(file, label);
  const tar = await import("tar");
  const entries: TarEntry[] = [];
  const files = new Map<string, PackageEntry>();
  let declared = 0;
  let unpacked = 0;
  // Megabyte reads and inflated chunks: at the defaults (64 KiB, 16 KiB) a large candidate's tens of megabytes inflate
  // as thousands of thread-pool round trips, each a cost of its own that larger chunks pay far less often.
  const source = createReadStream(file, { highWaterMark: READ_CHUNK_BYTES });
  const gunzip = createGunzip({ chunkSize: READ_CHUNK_BYTES });
  const parser = new tar.Parser({ strict: true, brotli: false, zstd: false });
  await new Promise<void>((resolveRead, rejectRead) => {
    let settled = false;
    const stop = (error?: Error) => {
      if (settled) return;
      settled = true;
      source.destroy();
      gunzip.destroy();
      if (error) rejectRead(error);
      else resolveRead();
    };
    const unreadable = (error: Error) =>
      stop(
        new InterError(
          "TARBALL_UNSAFE",
          `${label} is not a readable .tgz: ${error.message}`,
          "Build it again with `inter build`, or check the file is a gzipped npm tarball.",
          { file },
        ),
      );
    parser.on("entry", (entry: import("tar").ReadEntry) => {
      if (settled) return entry.resume();
      const header: TarEntry = { path: entry.path, type: entry.type, size: entry.size ?? 0, mode: entry.mode ?? 0 };
      entries.push(header);
      declared += header.size;
      const problem =
        entryProblem(header) ??
        (entries.length > MAX_ENTRIES ? `over ${count(MAX_ENTRIES, "entry", "entries")}` : undefined) ??
        (declared > MAX_TOTAL_BYTES ? `over the ${MAX_TOTAL_BYTES}-byte limit in all` : undefined);
      if (problem) {
        entry.resume();
        return stop(unsafe(label, file, problem.startsWith("over") ? "*" : header.path, problem));
      }
      const path = header.path.replace(/\\/g, "/").replace(/^package\//, "");
      if ((header.type !== "File" && header.type !== "OldFile") || !keep(path)) return entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      entry.on("end", () => files.set(path, { bytes: Buffer.concat(chunks), mode: entry.mode ?? 0o644 }));
    });
    // After the end-of-archive blocks nothing more is read: whatever follows (a gzip bomb of zeros) is never inflated.
    parser.on("eof", () => stop());
    parser.on("error", unreadable);
    parser.on("end", () => stop());
    parser.on("close", () => stop());
    source.on("error", unreadable);
    gunzip.on("error", unreadable);
    gunzip.on("data", (chunk: Buffer) => {
      if (settled) return;
      unpacked += chunk.length;
      // A gzip bomb: far more decompressed bytes than the entries may hold, whatever their headers declare.
      if (unpacked > MAX_UNPACKED_BYTES)
        return stop(unsafe(label, file, "*", `decompresses to over ${MAX_UNPACKED_BYTES} bytes`));
      // tar would decompress a second layer itself, past this count: a tarball is compressed once.
      if (unpacked === chunk.length && chunk[0] === 0x1f && chunk[1] === 0x8b)
        return stop(unsafe(label, file, "*", "compressed twice (a gzip inside the gzip)"));
      // Every entry flows (kept or resumed), so the parser never holds more than a block: its backpressure signal is
      // not waited for (after the end-of-archive blocks it never drains, and the read would hang).
      parser.write(chunk);
    });
    gunzip.on("end", () => {
      if (!settled) parser.end();
    });
    source.pipe(gunzip);
  });
  return { entries, files };
}

/** Reads the tarball's table of contents without unpacking anything, and refuses it if any entry is unsafe. */
export async function checkTarball(file: string, label = file): Promise<TarEntry[]> {
  return (await readTarball(file, label, () => false)).entries;
}
