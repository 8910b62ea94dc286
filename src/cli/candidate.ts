import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { InterError } from "../core/errors.js";
import { findConfig } from "../config/names.js";
import { INTER_BUILD } from "../core/version.js";

/**
 * The candidate a project builds: the cli.tgz in its config's `targets.cli.outDir` (dist/ by default), for the
 * project whose config sits in `dir` or, with `up`, the nearest folder above. `built` says whether it exists yet. A
 * config that does not load leaves the default folder: the caller still names where the candidate would be.
 * The one lookup `inter eval validate` and `inter diff` share.
 */
export async function projectCandidate(
  dir: string,
  { up }: { up: boolean },
): Promise<{ tgz: string; built: boolean } | undefined> {
  const config = findConfig(dir);
  if (!config || (!up && dirname(config) !== dir)) return undefined;
  let out = "dist";
  try {
    const [{ loadConfig }, { outDir }] = await Promise.all([
      import("../config/load.js"),
      import("../pipeline/design.js"),
    ]);
    out = outDir((await loadConfig({ cwd: dirname(config), config, version: INTER_BUILD })).config);
  } catch {
    // the default layout
  }
  const tgz = join(dirname(config), out, "cli.tgz");
  return { tgz, built: existsSync(tgz) };
}

/** The cli.tgz a command names, or the one the project's build wrote (`inter publish`, `inter agents`). */
export async function candidateTarball(cwd: string, named: string | undefined): Promise<string> {
  if (named) {
    const file = resolve(cwd, named);
    if (!existsSync(file))
      throw new InterError(
        "INPUT_NOT_FOUND",
        `${named} does not exist.`,
        "Name the cli.tgz `inter build` wrote (dist/cli.tgz), or run the command in the project.",
        { candidate: named },
      );
    if (!statSync(file).isFile())
      throw new InterError(
        "CANDIDATE_INVALID",
        `${named} is a folder; a cli.tgz is expected.`,
        "Name the cli.tgz `inter build` wrote (dist/cli.tgz).",
        { candidate: named },
      );
    return file;
  }
  const project = await projectCandidate(cwd, { up: true });
  if (!project)
    throw new InterError(
      "CONFIG_NOT_FOUND",
      "No intermesh.config.ts here or above, and no candidate named.",
      "Run it in the project, or name a cli.tgz (dist/cli.tgz).",
    );
  if (!project.built)
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${relative(cwd, project.tgz)} does not exist yet.`,
      "Run `inter build` (and `inter run eval` before publishing).",
      { candidate: relative(cwd, project.tgz) },
    );
  return project.tgz;
}

/**
 * The candidate of an evaluation folder (`inter eval validate`, `eval new`, `eval triggers`, `eval review-triggers`):
 * --candidate, else cli.tgz in the folder, else the build output of the project the folder belongs to (the nearest
 * folder up with an intermesh config, its `targets.cli.outDir`/cli.tgz — the layout `inter init` makes). A config that
 * does not load leaves the default output folder, `dist`.
 */
export async function findCandidate(
  planDir: string,
  given: string | undefined,
  cwd: string,
): Promise<{ tgz?: string; missing: string }> {
  if (given) {
    const tgz = resolve(cwd, given);
    if (!existsSync(tgz))
      throw new InterError(
        "INPUT_NOT_FOUND",
        `No candidate at ${given}.`,
        "Build one with `inter build` (it writes dist/cli.tgz), or give the path of a cli.tgz.",
        { path: tgz },
      );
    return { tgz, missing: "" };
  }
  if (existsSync(join(planDir, "cli.tgz"))) return { tgz: join(planDir, "cli.tgz"), missing: "" };
  const project = await projectCandidate(planDir, { up: true });
  if (!project) return { missing: `no cli.tgz in ${planDir} and no project around it; pass --candidate <cli.tgz>` };
  return project.built
    ? { tgz: project.tgz, missing: "" }
    : { missing: `no cli.tgz in ${planDir}, and the project's ${project.tgz} is not built yet (inter build)` };
}

/** The folder's candidate, or INPUT_NOT_FOUND saying where it was looked for. */
export async function requireCandidate(
  folder: string,
  given: string | undefined,
  cwd: string,
  alternative = "",
): Promise<string> {
  const found = await findCandidate(folder, given, cwd);
  if (!found.tgz)
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No candidate: ${found.missing}.`,
      `Build one with \`inter build\` (it writes dist/cli.tgz), copy it into the folder, or pass --candidate <cli.tgz>${alternative}.`,
      { path: folder },
    );
  return found.tgz;
}
