import { existsSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

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
    byPattern.set(pattern, existsSync(abs) && statSync(abs).isFile() ? [toProjectPath(root, abs)] : []);
  }
  if (dynamic.length) {
    const { default: fg } = await import("fast-glob");
    for (const pattern of dynamic) {
      const found = await fg(pattern, { cwd: root, dot: true, onlyFiles: true, ignore: ["**/node_modules/**", "**/.intermesh/**", "**/.git/**"] });
      byPattern.set(pattern, found.map((p) => toProjectPath(root, resolve(root, p))).sort());
    }
  }
  return byPattern;
}
