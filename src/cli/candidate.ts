import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { findConfig } from "../config/names.js";
import { INTER_BUILD } from "../core/version.js";

/**
 * The candidate a project builds: the cli.tgz in its config's `targets.cli.outDir` (dist/ by default), for the
 * project whose config sits in `dir` or, with `up`, the nearest folder above. `built` says whether it exists yet. A
 * config that does not load leaves the default folder: the caller still names where the candidate would be.
 * The one lookup `inter eval validate` and `inter diff` share.
 */
export async function projectCandidate(dir: string, { up }: { up: boolean }): Promise<{ tgz: string; built: boolean } | undefined> {
  const config = findConfig(dir);
  if (!config || (!up && dirname(config) !== dir)) return undefined;
  let out = "dist";
  try {
    const [{ loadConfig }, { outDir }] = await Promise.all([import("../config/load.js"), import("../pipeline/design.js")]);
    out = outDir((await loadConfig({ cwd: dirname(config), config, version: INTER_BUILD })).config);
  } catch {
    // the default layout
  }
  const tgz = join(dirname(config), out, "cli.tgz");
  return { tgz, built: existsSync(tgz) };
}
