import { underWatchdog } from "../../core/watchdog.js";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, relative } from "node:path";
import { InterError } from "../../core/errors.js";
import { parsePackageJson } from "../candidate/candidate-manifest.js";
import { type InstalledPackage, packageBins, readInstalledPackage } from "../candidate/installed-package.js";
import { readTarball, type TarballContents } from "../candidate/read-tarball.js";
import { writeCandidateFiles } from "../candidate/write-files.js";

export interface Installed {
  /** The package folder (holding package.json, agent/, skills/). */
  packageRoot: string;
  /** Its package.json and manifest.json, read and checked once. */
  package: InstalledPackage;
  /** The command to run: the installed bin. */
  bin: string;
  binary: string;
  cleanup(): void;
}

/** An npm package name (lowercase, URL-safe, optionally scoped). */
const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

const some = (value: unknown) =>
  !!value &&
  (Array.isArray(value)
    ? value.length > 0
    : typeof value === "object"
      ? Object.keys(value).length > 0
      : value === true);

/**
 * A package that depends on nothing is laid out as `npm install --ignore-scripts` lays it out — its package/ folder as
 * node_modules/<name>, each bin linked from node_modules/.bin and made executable — without starting npm (about a
 * second of CPU, issue #46). Undefined, with nothing left behind, when npm must do it: the package has dependencies, an
 * install script npm would skip but report, an unusual name or a bin outside the package. The files come from the safe
 * reader (stages/candidate/read-tarball.ts: only plain files and folders under package/), read here unless the caller
 * has read them.
 */
async function unpackPlain(
  tgz: string,
  prefix: string,
  contents?: TarballContents,
): Promise<(Omit<Installed, "cleanup"> & { name: string }) | undefined> {
  const modules = join(prefix, "node_modules");
  const staging = join(modules, ".inter-unpack");
  mkdirSync(staging, { recursive: true });
  try {
    // The files as the safe reader gave them (plain files and folders under package/, nothing escaping it), written
    // out: the tarball is inflated and parsed once, not once to check it and again to unpack it.
    writeCandidateFiles(staging, (contents ?? (await readTarball(tgz, tgz, () => true))).files);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // An unsafe or unreadable tarball is refused, never handed to npm instead.
    if (error instanceof InterError) throw error;
    return undefined;
  }
  let pkg: InstalledPackage;
  try {
    pkg = readInstalledPackage(staging, tgz);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const manifest = pkg.packageJson;
  const name =
    manifest.name && PACKAGE_NAME.test(manifest.name) && manifest.name.length <= 214 ? manifest.name : undefined;
  const bins = name ? packageBins(manifest) : {};
  const inside = (file: unknown) =>
    typeof file === "string" &&
    !isAbsolute(file) &&
    !normalize(file).split(/[\\/]/).includes("..") &&
    existsSync(join(staging, file));
  const plain =
    name &&
    ![
      manifest.dependencies,
      manifest.optionalDependencies,
      manifest.peerDependencies,
      manifest.bundleDependencies,
      manifest.bundledDependencies,
    ].some(some) &&
    !Object.keys(manifest.scripts ?? {}).some((s) => /^(pre|post)?install$|^prepare$/.test(s)) &&
    Object.entries(bins).every(([bin, file]) => /^[A-Za-z0-9._-]+$/.test(bin) && inside(file));
  if (!plain) {
    rmSync(staging, { recursive: true, force: true });
    return undefined;
  }
  const packageRoot = join(modules, name);
  mkdirSync(dirname(packageRoot), { recursive: true });
  renameSync(staging, packageRoot);
  mkdirSync(join(modules, ".bin"), { recursive: true });
  for (const [bin, file] of Object.entries(bins)) {
    chmodSync(join(packageRoot, file), 0o755);
    symlinkSync(relative(join(modules, ".bin"), join(packageRoot, file)), join(modules, ".bin", bin));
  }
  const binary = Object.keys(bins)[0];
  return {
    name,
    packageRoot,
    package: { ...pkg, root: packageRoot },
    bin: binary ? join(modules, ".bin", binary) : "",
    binary: binary ?? "",
  };
}

/**
 * Installs a tarball into `into` (default: a fresh temporary prefix), lifecycle scripts disabled: read by the safe
 * reader (or given as `contents`, already read by it), laid out directly when it depends on nothing (unpackPlain),
 * else with npm. An unsafe tarball is TARBALL_UNSAFE, with nothing installed.
 */
export async function installCandidate(tgz: string, into?: string, contents?: TarballContents): Promise<Installed> {
  // A thousand files written and removed within seconds: in memory where the machine allows (core/temp-dirs.ts).
  const prefix = into ?? ownedTempDir("inspect", { inMemory: true });
  const cleanup = () => rmSync(prefix, { recursive: true, force: true });
  let unpacked: Awaited<ReturnType<typeof unpackPlain>>;
  try {
    unpacked = await unpackPlain(tgz, prefix, contents);
  } catch (error) {
    // A package.json or manifest.json of the wrong shape: nothing of the install is left behind.
    cleanup();
    throw error;
  }
  if (unpacked) {
    if (!unpacked.binary) {
      cleanup();
      throw new InterError(
        "INSPECT_FAILED",
        `${unpacked.name} declares no executable (package.json "bin").`,
        "A CLI package needs a bin entry.",
        { tgz },
      );
    }
    const { packageRoot, package: pkg, bin, binary } = unpacked;
    return { packageRoot, package: pkg, bin, binary, cleanup };
  }
  const { execa } = await import("execa");
  // Under the watchdog: an install outliving a killed inter would refill the folder the next run sweeps.
  const [sh, ...watched] = underWatchdog("inter-npm-install", [
    "npm",
    "install",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--prefix",
    prefix,
    tgz,
  ]);
  const result = await execa(sh!, watched, { reject: false, env: { npm_config_update_notifier: "false" } });
  if (result.exitCode !== 0) {
    cleanup();
    throw new InterError(
      "INSPECT_FAILED",
      `npm could not install ${tgz}: ${
        String(result.stderr)
          .split("\n")
          .find((l) => l.trim()) ?? `exit ${result.exitCode}`
      }`,
      "Check the tarball is an npm package (package/package.json with a bin).",
      { tgz },
    );
  }
  const modules = join(prefix, "node_modules");
  // npm's own package.json in the prefix names what it installed.
  const name = Object.keys(
    parsePackageJson(prefix, readFileSync(join(prefix, "package.json"), "utf8")).dependencies ?? {},
  )[0];
  const packageRoot = name ? join(modules, name) : "";
  if (!name || !existsSync(join(packageRoot, "package.json"))) {
    cleanup();
    throw new InterError(
      "INSPECT_FAILED",
      `${tgz} installed no package.`,
      "The tarball must hold package/package.json.",
      { tgz },
    );
  }
  let pkg: InstalledPackage;
  try {
    pkg = readInstalledPackage(packageRoot, tgz);
  } catch (error) {
    cleanup();
    throw error;
  }
  const binary = Object.keys(packageBins(pkg.packageJson))[0];
  if (!binary || !existsSync(join(modules, ".bin", binary))) {
    cleanup();
    throw new InterError(
      "INSPECT_FAILED",
      `${pkg.packageJson.name ?? name} declares no executable (package.json "bin").`,
      "A CLI package needs a bin entry.",
      { tgz },
    );
  }
  return { packageRoot, package: pkg, bin: join(modules, ".bin", binary), binary, cleanup };
}

/** For `inter inspect --bin <command>`: the package folder of an installed CLI, found from its executable. */
export function packageRootOf(binPath: string): string | undefined {
  let dir = dirname(realpathSync(binPath));
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
  }
  return undefined;
}
