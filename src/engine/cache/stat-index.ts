import { lstatSync, readFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { cacheWrite, writeFileAtomic } from "../../core/atomic.js";
import { noteAbsent, noteFile } from "./trail.js";
import { sha256OfFile, xxhOfFile } from "../../core/hash.js";

type Algorithm = "xxh" | "sha256";

interface Entry {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** When the hashes were taken; a file modified within RACY_MS of that may have changed unseen. */
  at: number;
  xxh?: string;
  sha256?: string;
}

/** Timestamps are coarse on some filesystems: a write in the same tick as hashing must not look unchanged. */
const RACY_MS = 2000;

/** Each algorithm over a file's bytes, read through one buffer (core/text-io.ts): inputs can be tens of megabytes. */
const HASHERS: Record<Algorithm, (file: string) => string> = {
  xxh: xxhOfFile,
  sha256: (file) => sha256OfFile(file).sha256,
};

function sameFile(entry: Entry, stat: Stats): boolean {
  return (
    entry.size === stat.size &&
    entry.mtimeMs === stat.mtimeMs &&
    entry.ctimeMs === stat.ctimeMs &&
    entry.ino === stat.ino &&
    entry.at - stat.mtimeMs > RACY_MS &&
    entry.at - stat.ctimeMs > RACY_MS
  );
}

/**
 * Remembers each file's stat alongside its content hashes so unchanged files are not re-read. Any difference in
 * size, mtime, ctime or inode (a file replaced by `mv`, even with its old mtime) means the file is read again.
 */
export class StatIndex {
  private entries: Record<string, Entry>;
  private dirty = false;

  private constructor(
    private readonly file: string,
    entries: Record<string, Entry>,
  ) {
    this.entries = entries;
  }

  static load(cacheDir: string): StatIndex {
    const file = join(cacheDir, "stat-index.json");
    let entries: Record<string, Entry> = {};
    try {
      const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) entries = parsed as Record<string, Entry>;
    } catch {
      // Missing or corrupt: start empty; every file is simply read once more.
    }
    return new StatIndex(file, entries);
  }

  /** Hash of the file's current content, or undefined when it does not exist. */
  hash(absPath: string, algorithm: Algorithm): string | undefined {
    let before: Stats;
    try {
      before = lstatSync(absPath);
    } catch {
      noteAbsent(absPath);
      return undefined;
    }
    noteFile(absPath);
    const known = this.entries[absPath];
    if (known && sameFile(known, before) && known[algorithm]) return known[algorithm];

    const digest = HASHERS[algorithm](absPath);
    const after = lstatSync(absPath);
    if (after.size === before.size && after.mtimeMs === before.mtimeMs && after.ctimeMs === before.ctimeMs) {
      const reuse = known && sameFile(known, after) ? known : undefined;
      this.entries[absPath] = {
        size: after.size,
        mtimeMs: after.mtimeMs,
        ctimeMs: after.ctimeMs,
        ino: after.ino,
        at: Date.now(),
        ...(reuse ? { xxh: reuse.xxh, sha256: reuse.sha256 } : {}),
        [algorithm]: digest,
      };
      this.dirty = true;
    }
    return digest;
  }

  /** Forget a path after writing it ourselves, so the next lookup reads the new content. */
  forget(absPath: string): void {
    if (this.entries[absPath]) {
      delete this.entries[absPath];
      this.dirty = true;
    }
  }

  /** Saves the index; when the cache folder cannot take it, says why instead (the next run hashes again). */
  save(): string | undefined {
    if (!this.dirty) return undefined;
    const refused = cacheWrite(() => writeFileAtomic(this.file, JSON.stringify(this.entries)));
    if (refused) return `${refused}: the stat index ${this.file} could not be saved; the next run hashes inputs again`;
    this.dirty = false;
    return undefined;
  }
}
