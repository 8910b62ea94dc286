import { closeSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { nodeCrypto } from "./node-crypto.js";
import { BIG_TEXT, type Digesting, type Text, writeTextToFd } from "./text-io.js";

/** Temp files carry this marker so `cache gc` can sweep the leftovers of killed processes. */
export const TMP_MARKER = ".inter-tmp-";

/**
 * writeFileSync, making the file's folders when they are missing. The folders are made only when the write says so:
 * on a virtual machine's disk a `mkdir -p` of a folder that exists costs about what writing the file does, and a build
 * writes hundreds of files into a few folders. `digest`, when given, is fed the bytes written.
 */
export function writeFileMakingFolders(file: string, data: Text | Uint8Array, mode?: number, digest?: Digesting): void {
  try {
    writeFile(file, data, mode, digest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(file), { recursive: true });
    writeFile(file, data, mode, digest);
  }
}

/** writeFileSync; a big text, or one in pieces, through one buffer (core/text-io.ts says why). */
function writeFile(file: string, data: Text | Uint8Array, mode: number | undefined, digest?: Digesting): void {
  if (data instanceof Uint8Array || (typeof data === "string" && data.length < BIG_TEXT)) {
    writeFileSync(file, data, mode === undefined ? undefined : { mode });
    digest?.update(data);
    return;
  }
  const fd = openSync(file, "w", mode);
  try {
    writeTextToFd(fd, data, digest);
  } finally {
    closeSync(fd);
  }
}

/**
 * Write-then-rename: readers (and concurrent `inter` processes) see the old file or the new one, never a torn one,
 * and a SIGKILL leaves at worst a stray temp file. `digest`, when given, is fed the bytes written (a text read once).
 */
export function writeFileAtomic(file: string, data: Text | Uint8Array, mode?: number, digest?: Digesting): void {
  const tmp = `${file}${TMP_MARKER}${process.pid}-${nodeCrypto().randomBytes(4).toString("hex")}`;
  try {
    writeFileMakingFolders(tmp, data, mode, digest);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * Makes `file` hold `content` by a hard link to `from` (a file that held exactly `content` when it was read), else by
 * writing it atomically: across file systems, where links are refused, or when `from` is gone. A link costs a folder
 * entry where a copy writes every byte. What links to `from` must never change it in place; the cache's objects are
 * checked against their sha256 when read, so a file edited in place afterwards costs a run, never a wrong output.
 */
export function linkOrWriteAtomic(
  from: string,
  file: string,
  content: string | Uint8Array | (() => string | Uint8Array),
): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      linkSync(from, file);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return;
      if (code !== "ENOENT" || attempt > 0) break;
      // The folder may be missing (or `from` gone: the write below then makes the file).
      mkdirSync(dirname(file), { recursive: true });
    }
  }
  writeFileAtomic(file, typeof content === "function" ? content() : content);
}

/** Errors that mean the cache folder cannot take writes: the build goes on uncached rather than failing. */
const UNWRITABLE = new Set(["EROFS", "EACCES", "EPERM", "ENOSPC", "EDQUOT"]);

/** Runs a cache write; when the folder cannot take it, returns the error's code instead of throwing. */
export function cacheWrite(write: () => void): string | undefined {
  try {
    write();
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && UNWRITABLE.has(code)) return code;
    throw error;
  }
}
