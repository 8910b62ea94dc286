/**
 * A candidate as npm laid it out (an installed or unpacked package folder): its package.json and manifest.json read
 * once, with the same checks as a cli.tgz (candidate-manifest.ts), so a wrong shape is CANDIDATE_INVALID naming the
 * field. Inspection and evaluation take what they need of a package from here.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type CandidateManifest,
  type CandidatePackageJson,
  parseManifest,
  parsePackageJson,
} from "./candidate-manifest.js";

export interface InstalledPackage {
  /** The package folder (holding package.json, manifest.json, commands/, skills/). */
  root: string;
  /** Its package.json; empty when it has none. */
  packageJson: CandidatePackageJson;
  /** Its manifest.json; undefined for a CLI inter did not generate. */
  manifest: CandidateManifest | undefined;
}

/** One command as a package's commands/<group>.json describes it: its name checked, the rest as written. */
export type PackageCommand = { name: string } & Record<string, unknown>;

const textOf = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);

/** Reads the package at `root`; `label` names it in messages (default: the folder). */
export function readInstalledPackage(root: string, label = root): InstalledPackage {
  const manifest = textOf(join(root, "manifest.json"));
  return {
    root,
    packageJson: parsePackageJson(label, textOf(join(root, "package.json"))),
    manifest: manifest === undefined ? undefined : parseManifest(label, manifest),
  };
}

/** The executables package.json declares, by name (a bare string names the package's own command). */
export function packageBins(pkg: CandidatePackageJson): Record<string, string> {
  if (typeof pkg.bin === "string") return pkg.name ? { [pkg.name.replace(/^@[^/]+\//, "")]: pkg.bin } : {};
  return pkg.bin ?? {};
}

/** A group's `commands` as its file holds them (commands/<group>.json); throws when the file cannot be read. */
export type GroupReader = (group: string) => unknown;

/**
 * The commands of each group the manifest names (commands/<group>.json), in manifest order; none for a CLI inter did
 * not generate. A group whose name could leave commands/, a missing or unreadable file, and an entry without a name
 * are left out: these files describe, they never decide what runs. `read` gives a group's commands already read
 * elsewhere (inspection reads each file once).
 */
export function packageCommands(pkg: InstalledPackage, read?: GroupReader): PackageCommand[] {
  const out: PackageCommand[] = [];
  for (const group of pkg.manifest?.groups ?? []) {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(group.name)) continue;
    let commands: unknown;
    try {
      commands = read
        ? read(group.name)
        : (
            JSON.parse(readFileSync(join(pkg.root, "commands", `${group.name}.json`), "utf8")) as {
              commands?: unknown;
            } | null
          )?.commands;
    } catch {
      continue;
    }
    if (!Array.isArray(commands)) continue;
    for (const c of commands)
      if (c && typeof c === "object" && typeof (c as { name?: unknown }).name === "string")
        out.push(c as PackageCommand);
  }
  return out;
}
