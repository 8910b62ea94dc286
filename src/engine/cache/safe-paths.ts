import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, join, posix, sep } from "node:path";

/**
 * Whether a record's output path may be written in the project: relative, normalised, inside the project, and not
 * through a link that leads out of it. A cache record — above all one from a remote cache — is not trusted to say
 * where to write.
 */
export function insideProject(root: string, path: unknown): boolean {
  if (
    typeof path !== "string" ||
    !path ||
    path.includes("\0") ||
    path.includes("\\") ||
    isAbsolute(path) ||
    /^[A-Za-z]:/.test(path)
  )
    return false;
  if (
    posix.normalize(path) !== path ||
    path === ".." ||
    path.startsWith("../") ||
    path.split("/").some((s) => s === "." || s === "..")
  )
    return false;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  // Every folder on the way that exists must stay inside the project when its links are followed.
  const parts = path.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const at = join(root, ...parts.slice(0, i));
    let isLink: boolean;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch {
      return true; // the rest does not exist yet: it is created inside
    }
    if (isLink || i < parts.length) {
      let real: string;
      try {
        real = realpathSync(at);
      } catch {
        return false;
      }
      if (real !== realRoot && !real.startsWith(realRoot + sep)) return false;
    }
  }
  return true;
}

/**
 * Whether a list of files a task read (its `reads`) may be hashed: each a project path as above (absolute paths only
 * where the list is the machine's own), and each that exists a regular file — never a folder, a device or a pipe
 * (`/dev/zero` would never end).
 */
export function safeReads(root: string, reads: unknown, allowAbsolute: boolean): reads is string[] {
  if (!Array.isArray(reads) || !reads.length) return false;
  return reads.every((r) => {
    if (typeof r !== "string") return false;
    if (isAbsolute(r) ? !allowAbsolute : !insideProject(root, r)) return false;
    try {
      const stat = lstatSync(isAbsolute(r) ? r : join(root, r));
      return (
        stat.isFile() || (stat.isSymbolicLink() && lstatSync(realpathSync(isAbsolute(r) ? r : join(root, r))).isFile())
      );
    } catch {
      return true; // missing: hashed as missing
    }
  });
}
