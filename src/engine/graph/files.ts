import { existsSync, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { noteAbsent, noteDirs, noteUnbounded, trailActive } from "../cache/trail.js";

const GLOB_CHARS = /[*?[\]{}()!]/;

/** Whether a pattern needs the glob engine (a plain path does not). */
export const isGlob = (pattern: string) => GLOB_CHARS.test(pattern);

export function toProjectPath(root: string, abs: string): string {
  return relative(root, abs).split(sep).join("/");
}

/**
 * Expands globs relative to `root` into sorted project-relative file paths. Plain paths skip the glob engine, which
 * keeps the warm no-op build from loading it at all.
 */
export async function expandGlobs(root: string, patterns: string[]): Promise<Map<string, string[]>> {
  const byPattern = new Map<string, string[]>();
  const dynamic = patterns.filter(isGlob);
  for (const pattern of patterns) {
    if (isGlob(pattern)) continue;
    const abs = isAbsolute(pattern) ? pattern : resolve(root, pattern);
    const present = existsSync(abs) && statSync(abs).isFile();
    if (!present) noteAbsent(abs);
    byPattern.set(pattern, present ? [toProjectPath(root, abs)] : []);
  }
  if (dynamic.length) {
    const { default: fg } = await import("fast-glob");
    for (const pattern of dynamic) {
      const found = await fg(pattern, {
        cwd: root,
        dot: true,
        onlyFiles: true,
        ignore: ["**/node_modules/**", "**/.intermesh/**", "**/.git/**"],
      });
      byPattern.set(pattern, found.map((p) => toProjectPath(root, resolve(root, p))).sort());
      if (trailActive()) noteGlobFolders(root, pattern);
    }
  }
  return byPattern;
}

const IGNORED = new Set(["node_modules", ".intermesh", ".git"]);
const MAX_TRAIL_DIRS = 2000;

/**
 * The folders whose listing decides what `pattern` matches: its fixed leading folder, and every folder below it when
 * the rest spans folders. A file appearing or leaving changes one of their mtimes.
 */
function noteGlobFolders(root: string, pattern: string): void {
  const parts = pattern.split("/");
  const fixed: string[] = [];
  while (parts.length > 1 && !isGlob(parts[0]!)) fixed.push(parts.shift()!);
  const base = resolve(root, ...fixed);
  if (relative(root, base).startsWith("..")) return noteUnbounded();
  if (parts.length === 1 && !parts[0]!.includes("**")) return noteDirs([base]);
  const dirs: string[] = [];
  const walk = (dir: string) => {
    if (dirs.length > MAX_TRAIL_DIRS) return;
    dirs.push(dir);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && !IGNORED.has(entry.name)) walk(join(dir, entry.name));
  };
  walk(base);
  if (dirs.length > MAX_TRAIL_DIRS) noteUnbounded();
  else noteDirs(dirs);
}
