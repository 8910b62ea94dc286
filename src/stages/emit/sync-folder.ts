import { chmodSync, lstatSync, readdirSync, readFileSync, rmSync, type Dirent, type Stats } from "node:fs";
import { join, relative } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { noteSha256, sha256Fed } from "../../core/hash.js";
import { rememberJson } from "../../core/parsed-json.js";
import type { PackageFile } from "./package-files.js";

/** What syncing the package folder did: how many files it wrote, kept as they were, and removed. */
export interface SyncCounts {
  written: number;
  unchanged: number;
  removed: number;
}

/** Every entry under `dir` (files, links, folders), deepest first, as paths relative to it; none when it is missing. */
function entriesUnder(dir: string): Array<{ path: string; folder: boolean }> {
  let found: Dirent[];
  try {
    found = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return found
    .map((d) => ({ path: relative(dir, join(d.parentPath, d.name)), folder: d.isDirectory() }))
    .sort((a, b) => b.path.length - a.path.length);
}

function statOf(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * True when `file` (of this stat) is a regular file with exactly this content and mode (so rewriting it would change
 * nothing). The content is made bytes only to compare it with a file of its size: a cold build's package is written
 * from its texts through one buffer (core/text-io.ts), not converted file by file into buffers of their size.
 */
function holds(file: string, stat: Stats | undefined, content: string, mode: number): boolean {
  if (!stat?.isFile() || (stat.mode & 0o777) !== mode || stat.size !== Buffer.byteLength(content)) return false;
  return readFileSync(file).equals(Buffer.from(content));
}

/**
 * Makes `dir` hold exactly `files` (content and mode) and nothing else. A file already as wanted is left alone, so a
 * watch cycle after a brief edit writes the few files the brief reaches, not the whole package; everything else
 * (a Skill dropped from the brief, a stray file, a link) is removed, as emptying the folder first would. `later` names
 * files the caller writes afterwards with syncFile (one still being made): they are not removed meanwhile.
 */
export function syncFolder(dir: string, files: PackageFile[], later: string[] = []): SyncCounts {
  const wanted = new Set([...files.map((f) => f.path), ...later]);
  // Ancestor folders of wanted files stay; any other entry goes, deepest first so a folder is empty when it goes.
  const folders = new Set<string>();
  for (const path of wanted) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  let removed = 0;
  for (const entry of entriesUnder(dir)) {
    const keep = entry.folder ? folders.has(entry.path) : wanted.has(entry.path);
    if (keep) continue;
    rmSync(join(dir, entry.path), { recursive: true, force: true });
    if (!entry.folder) removed++;
  }
  let written = 0;
  for (const file of files) if (syncFile(dir, file)) written++;
  return { written, unchanged: files.length - written, removed };
}

/** Writes one file of the folder unless it holds these bytes and mode already; true when it wrote. */
export function syncFile(dir: string, file: PackageFile): boolean {
  const target = join(dir, file.path);
  const mode = file.executable ? 0o755 : 0o644;
  const stat = statOf(target);
  if (holds(target, stat, file.content, mode)) return false;
  // A folder (or link to one) where the file goes is replaced: the package's layout is emit's alone.
  if (stat?.isDirectory()) rmSync(target, { recursive: true, force: true });
  // Hashed as it is written, so the cache need not read the package back (core/hash.ts: noteSha256).
  const digest = sha256Fed((hash) => writeFileAtomic(target, file.content, undefined, hash));
  chmodSync(target, mode);
  noteSha256(target, digest);
  if (file.value) rememberJson(digest, file.value);
  return true;
}
