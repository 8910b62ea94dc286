import { underWatchdog } from "../../core/watchdog.js";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { existsSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { InterError } from "../../core/errors.js";

export interface Installed {
  /** The package folder (holding package.json, agent/, skills/). */
  packageRoot: string;
  /** The command to run: the installed bin. */
  bin: string;
  binary: string;
  cleanup(): void;
}

/** Installs a checked tarball with npm into `into` (default: a fresh temporary prefix), lifecycle scripts disabled. */
export async function installCandidate(tgz: string, into?: string): Promise<Installed> {
  const { execa } = await import("execa");
  const prefix = into ?? ownedTempDir("inspect");
  const cleanup = () => rmSync(prefix, { recursive: true, force: true });
  // Under the watchdog: an install outliving a killed inter would refill the folder the next run sweeps.
  const [sh, ...watched] = underWatchdog("inter-npm-install", ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", prefix, tgz]);
  const result = await execa(sh!, watched, { reject: false, env: { npm_config_update_notifier: "false" } });
  if (result.exitCode !== 0) {
    cleanup();
    throw new InterError("INSPECT_FAILED", `npm could not install ${tgz}: ${String(result.stderr).split("\n").find((l) => l.trim()) ?? `exit ${result.exitCode}`}`, "Check the tarball is an npm package (package/package.json with a bin).", { tgz });
  }
  const modules = join(prefix, "node_modules");
  const name = Object.keys((JSON.parse(readFileSync(join(prefix, "package.json"), "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {})[0];
  const packageRoot = name ? join(modules, name) : "";
  if (!name || !existsSync(join(packageRoot, "package.json"))) {
    cleanup();
    throw new InterError("INSPECT_FAILED", `${tgz} installed no package.`, "The tarball must hold package/package.json.", { tgz });
  }
  const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { name: string; bin?: string | Record<string, string> };
  const binary = typeof pkg.bin === "string" ? pkg.name.replace(/^@[^/]+\//, "") : Object.keys(pkg.bin ?? {})[0];
  if (!binary || !existsSync(join(modules, ".bin", binary))) {
    cleanup();
    throw new InterError("INSPECT_FAILED", `${pkg.name} declares no executable (package.json "bin").`, "A CLI package needs a bin entry.", { tgz });
  }
  return { packageRoot, bin: join(modules, ".bin", binary), binary, cleanup };
}

/** For `inter inspect --bin <command>`: the package folder of an installed CLI, found from its executable. */
export function packageRootOf(binPath: string): string | undefined {
  let dir = dirname(realpathSync(binPath));
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
  }
  return undefined;
}
