import { InterError } from "../../core/errors.js";
import { count } from "../../core/plural.js";

export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
const MAX_ENTRIES = 20_000;

export interface TarEntry {
  path: string;
  type: string;
  size: number;
  mode: number;
}

/** Why an entry may not be unpacked, or undefined when it is safe: inside package/, a plain file or folder, bounded. */
function entryProblem(entry: TarEntry): string | undefined {
  const path = entry.path.replace(/\\/g, "/");
  if (path.startsWith("/") || /^[a-zA-Z]:/.test(path)) return "absolute path";
  if (path.split("/").includes("..")) return "a .. segment escapes the package folder";
  if (!path.startsWith("package/") && path !== "package") return "outside the package/ folder npm expects";
  if (entry.type !== "File" && entry.type !== "Directory" && entry.type !== "OldFile")
    return `a ${entry.type} entry (links and devices are refused)`;
  if (entry.size > MAX_ENTRY_BYTES) return `${entry.size} bytes, over the ${MAX_ENTRY_BYTES}-byte limit per file`;
  return undefined;
}

/** Reads the tarball's table of contents without unpacking anything, and refuses it if any entry is unsafe. */
export async function checkTarball(file: string): Promise<TarEntry[]> {
  const tar = await import("tar");
  const entries: TarEntry[] = [];
  try {
    await tar.t({
      file,
      strict: true,
      onReadEntry: (entry) => {
        entries.push({ path: entry.path, type: entry.type, size: entry.size ?? 0, mode: entry.mode ?? 0 });
      },
    });
  } catch (error) {
    throw new InterError(
      "TARBALL_UNSAFE",
      `${file} is not a readable .tgz: ${(error as Error).message}`,
      "Build it again with `inter build`, or check the file is a gzipped npm tarball.",
      { file },
    );
  }
  const problems = entries.map((e) => ({ path: e.path, problem: entryProblem(e) })).filter((p) => p.problem);
  const total = entries.reduce((n, e) => n + e.size, 0);
  if (entries.length > MAX_ENTRIES)
    problems.push({
      path: "*",
      problem: `${count(entries.length, "entry", "entries")}, over the ${MAX_ENTRIES} limit`,
    });
  if (total > MAX_TOTAL_BYTES)
    problems.push({ path: "*", problem: `${total} bytes in all, over the ${MAX_TOTAL_BYTES}-byte limit` });
  if (problems.length) {
    throw new InterError(
      "TARBALL_UNSAFE",
      `${file}: ${problems[0]!.path}: ${problems[0]!.problem}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}; nothing was unpacked.`,
      "Rebuild the candidate; a tarball must hold only package/… files and folders.",
      { file, problems },
    );
  }
  return entries;
}
