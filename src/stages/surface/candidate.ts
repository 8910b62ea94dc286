/**
 * Reads a candidate for `inter diff`: a cli.tgz (read in memory after stages/inspect/tarball.ts has refused unsafe entries;
 * nothing is unpacked), an unpacked package folder (the one holding manifest.json, or its parent holding package/),
 * or a project folder once `inter diff` has found the cli.tgz its config builds (src/cli/candidate.ts: the one lookup).
 */
import { closeSync, existsSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_NAMES } from "../../config/names.js";
import { InterError } from "../../core/errors.js";
import { checkTarball, MAX_ENTRY_BYTES } from "../inspect/tarball.js";
import { type Surface, surfaceFile, surfaceOf } from "./surface.js";

/** What `surfaceOf` may read in all: a generated manifest of 20,000 operations stays far below it. */
const MAX_READ_BYTES = 128 * 1024 * 1024;

/** One file of a candidate cli.tgz: its bytes and mode. */
export interface PackageEntry {
  bytes: Buffer;
  mode: number;
}

/**
 * The files of a cli.tgz under package/ (paths relative to the package root) that `keep` selects, read in memory after
 * checkTarball has refused unsafe entries; nothing is unpacked. At most MAX_READ_BYTES in all.
 */
export async function tarballEntries(
  file: string,
  label: string,
  keep: (path: string) => boolean,
): Promise<Map<string, PackageEntry>> {
  // A file that is not gzip at all (an OpenAPI document, a README) is not a candidate; say so before tar does.
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
  await checkTarball(file);
  const tar = await import("tar");
  const files = new Map<string, PackageEntry>();
  let total = 0;
  await tar.t({
    file,
    strict: true,
    onReadEntry: (entry) => {
      const path = entry.path.replace(/\\/g, "/").replace(/^package\//, "");
      if (entry.type !== "File" && entry.type !== "OldFile") return entry.resume();
      if (!keep(path)) return entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total <= MAX_READ_BYTES) chunks.push(chunk);
      });
      entry.on("end", () => files.set(path, { bytes: Buffer.concat(chunks), mode: entry.mode ?? 0o644 }));
    },
  });
  if (total > MAX_READ_BYTES)
    throw new InterError(
      "CANDIDATE_INVALID",
      `${label}: the files read hold over ${MAX_READ_BYTES} bytes.`,
      "Pass a candidate `inter build` made.",
      { file },
    );
  return files;
}

async function tarballFiles(file: string, label: string): Promise<Map<string, string>> {
  const entries = await tarballEntries(file, label, surfaceFile);
  return new Map([...entries].map(([path, entry]) => [path, entry.bytes.toString("utf8")]));
}

function folderFiles(root: string, label: string): Map<string, string> {
  const files = new Map<string, string>();
  let total = 0;
  const take = (path: string) => {
    const full = join(root, path);
    // Links are not followed: a package folder is untrusted, and a link could point anywhere on the machine.
    if (!existsSync(full) || !lstatSync(full).isFile()) return;
    const size = statSync(full).size;
    total += size;
    if (size > MAX_ENTRY_BYTES || total > MAX_READ_BYTES)
      throw new InterError(
        "CANDIDATE_INVALID",
        `${label}: ${path} is too large (${size} bytes).`,
        "Pass a candidate `inter build` made.",
        { candidate: label, file: path },
      );
    files.set(path, readFileSync(full, "utf8"));
  };
  take("manifest.json");
  take("package.json");
  for (const dir of ["commands", "skills"]) {
    const full = join(root, dir);
    if (!existsSync(full) || !lstatSync(full).isDirectory()) continue;
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      if (dir === "commands" && entry.isFile()) take(`commands/${entry.name}`);
      if (dir === "skills" && entry.isDirectory()) take(`skills/${entry.name}/SKILL.md`);
    }
  }
  for (const path of [...files.keys()]) if (!surfaceFile(path)) files.delete(path);
  return files;
}

/** Where a candidate's package is: a .tgz file, or a folder of the unpacked package. */
function locateCandidate(path: string, label = path): { kind: "tarball" | "folder"; path: string } {
  if (!existsSync(path))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${label} does not exist.`,
      "Name a cli.tgz, an unpacked package folder, or a project folder with a built dist/cli.tgz.",
      { candidate: label },
    );
  if (statSync(path).isFile()) return { kind: "tarball", path };
  if (existsSync(join(path, "manifest.json"))) return { kind: "folder", path };
  if (existsSync(join(path, "package", "manifest.json"))) return { kind: "folder", path: join(path, "package") };
  // A project folder reaches here only when the command's lookup (its configured outDir) found nothing built; guessing
  // dist/ could pick a stale candidate of another layout.
  if (CONFIG_NAMES.some((f) => existsSync(join(path, f)))) {
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${label} is a project folder without a built candidate.`,
      "Run `inter build` there first, or name its cli.tgz.",
      { candidate: label },
    );
  }
  throw new InterError(
    "CANDIDATE_INVALID",
    `${label} is neither a cli.tgz, a package folder (manifest.json) nor a project folder (intermesh.config.ts).`,
    "Name a cli.tgz that `inter build` made, or the folder it was unpacked to.",
    { candidate: label },
  );
}

/** Reads the surface of the candidate at `path`; `label` is how messages name it. */
export async function readCandidate(path: string, label = path): Promise<Surface> {
  const where = locateCandidate(path, label);
  const files = where.kind === "tarball" ? await tarballFiles(where.path, label) : folderFiles(where.path, label);
  return surfaceOf(label, files);
}
