/**
 * The one reader of a candidate: a cli.tgz (read once, in memory, by read-tarball.ts: gzip checked, unsafe entries
 * refused, reads bounded; nothing is unpacked) or an unpacked package folder (the one holding manifest.json, or its
 * parent holding package/; links are not followed, reads bounded). Its manifest.json and package.json are parsed and
 * checked once (candidate-manifest.ts) and its Skills come with their front matter (core/front-matter.ts). `inter diff`,
 * `inter publish`, `inter agents`, `inter eval new`/`triggers` and the uplift comparison all read candidates here.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_NAMES } from "../../config/find-config.js";
import { InterError } from "../../core/errors.js";
import { count } from "../../core/plural.js";
import { type FrontMatter, readFrontMatter } from "../../core/front-matter.js";
import {
  type CandidateManifest,
  type CandidatePackageJson,
  parseManifest,
  parsePackageJson,
} from "./candidate-manifest.js";
import { MAX_ENTRY_BYTES, type PackageEntry, readTarball } from "./read-tarball.js";
import { compareText } from "../../core/text-order.js";

/** What a folder candidate may hold: the same limits a tarball has (read-tarball.ts). */
const MAX_FOLDER_BYTES = 256 * 1024 * 1024;
const MAX_FOLDER_ENTRIES = 20_000;

/** One Skill a candidate bundles (skills/<name>/…): its front matter and every file of its folder, as text. */
export interface PackageSkill {
  name: string;
  front: FrontMatter;
  files: Record<string, string>;
}

export interface Candidate {
  /** How messages name it: as the user did. */
  label: string;
  source: { kind: "tarball" | "folder"; path: string };
  /** The files read, by path relative to the package root. */
  files: Map<string, PackageEntry>;
  manifest: CandidateManifest;
  packageJson: CandidatePackageJson;
  /** The bundled Skills whose files were read, by name. */
  skills: PackageSkill[];
}

export interface OpenOptions {
  /** How messages name it (default: the path). */
  label?: string;
  /** The files to read besides manifest.json and package.json (default: every file). */
  keep?: (path: string) => boolean;
}

/** Where a candidate's package is: a .tgz file, or a folder of the unpacked package. */
function locateCandidate(path: string, label: string): Candidate["source"] {
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
  if (CONFIG_NAMES.some((f) => existsSync(join(path, f))))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${label} is a project folder without a built candidate.`,
      "Run `inter build` there first, or name its cli.tgz.",
      { candidate: label },
    );
  throw new InterError(
    "CANDIDATE_INVALID",
    `${label} is neither a cli.tgz, a package folder (manifest.json) nor a project folder (intermesh.config.ts).`,
    "Name a cli.tgz that `inter build` made, or the folder it was unpacked to.",
    { candidate: label },
  );
}

/** The files of an unpacked package folder that `keep` selects; links are not followed (a folder is untrusted). */
function readFolder(root: string, label: string, keep: (path: string) => boolean): Map<string, PackageEntry> {
  const files = new Map<string, PackageEntry>();
  let total = 0;
  let seen = 0;
  const tooLarge = (what: string, path: string) =>
    new InterError("CANDIDATE_INVALID", `${label}: ${what}.`, "Pass a candidate `inter build` made.", {
      candidate: label,
      file: path,
    });
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${prefix}${entry.name}`;
      if (++seen > MAX_FOLDER_ENTRIES)
        throw tooLarge(`over ${count(MAX_FOLDER_ENTRIES, "file or folder", "files and folders")}`, path);
      const full = join(dir, entry.name);
      // npm never packs node_modules/: a folder's own install is not the candidate.
      if (entry.isDirectory() && entry.name !== "node_modules") walk(full, `${path}/`);
      if (!entry.isFile() || !keep(path)) continue;
      const { size, mode } = lstatSync(full);
      total += size;
      if (size > MAX_ENTRY_BYTES) throw tooLarge(`${path} is too large (${size} bytes)`, path);
      if (total > MAX_FOLDER_BYTES) throw tooLarge(`the files read hold over ${MAX_FOLDER_BYTES} bytes`, path);
      files.set(path, { bytes: readFileSync(full), mode });
    }
  };
  walk(root, "");
  return files;
}

/** The Skills among the files read: every file under skills/<name>/, as text, with SKILL.md's front matter. */
function skillsOf(files: Map<string, PackageEntry>): PackageSkill[] {
  const byName = new Map<string, Record<string, string>>();
  for (const [path, entry] of files) {
    const match = /^skills\/([a-z0-9][a-z0-9-]*)\/(.+)$/.exec(path);
    if (!match) continue;
    const skill = byName.get(match[1]!) ?? {};
    skill[match[2]!] = entry.bytes.toString("utf8");
    byName.set(match[1]!, skill);
  }
  return [...byName]
    .sort(([a], [b]) => compareText(a, b))
    .map(([name, skillFiles]) => ({
      name,
      front: skillFiles["SKILL.md"] === undefined ? { kind: "none" as const } : readFrontMatter(skillFiles["SKILL.md"]),
      files: skillFiles,
    }));
}

/** Opens the candidate at `path` (a cli.tgz or package folder), reading what `keep` selects once. */
export async function openCandidate(path: string, options: OpenOptions = {}): Promise<Candidate> {
  const label = options.label ?? path;
  const wanted = options.keep ?? (() => true);
  const keep = (file: string) => file === "manifest.json" || file === "package.json" || wanted(file);
  const source = locateCandidate(path, label);
  const files =
    source.kind === "tarball"
      ? (await readTarball(source.path, label, keep)).files
      : readFolder(source.path, label, keep);
  const text = (file: string) => files.get(file)?.bytes.toString("utf8");
  return {
    label,
    source,
    files,
    manifest: parseManifest(label, text("manifest.json")),
    packageJson: parsePackageJson(label, text("package.json")),
    skills: skillsOf(files),
  };
}
