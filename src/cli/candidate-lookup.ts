import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { InterError } from "../core/errors.js";
import { findConfig } from "../config/find-config.js";
import { DEFAULT_OUT_DIR } from "../config/project-paths.js";

/**
 * The one lookup of the candidate a command works on (`inter diff`, `publish`, `agents install`, `eval run`, `eval
 * new`, `eval validate`, `eval triggers`, `eval review-triggers`, `eval compare`). The candidate itself is read by
 * stages/candidate/open-candidate.ts; this only finds its path:
 * - a path given: a cli.tgz; a folder holding cli.tgz; a project folder (its build output); with `folders`, an unpacked
 *   package folder (manifest.json, or package/manifest.json);
 * - nothing given: cli.tgz in the command's folder, else the build output of the project around it (the nearest folder
 *   up with an intermesh config, its `targets.cli.outDir`/cli.tgz — the layout `inter init` makes).
 */

/**
 * The candidate a project builds: the cli.tgz in its config's `targets.cli.outDir` (dist/ by default), for the
 * project whose config sits in `dir` or, with `up`, the nearest folder above. `built` says whether it exists yet. A
 * config that does not load leaves the default folder: the caller still names where the candidate would be.
 */
async function projectCandidate(
  dir: string,
  { up }: { up: boolean },
): Promise<{ tgz: string; built: boolean } | undefined> {
  const config = findConfig(dir);
  if (!config || (!up && dirname(config) !== dir)) return undefined;
  let candidate = `${DEFAULT_OUT_DIR}/cli.tgz`;
  try {
    const [{ loadProjectConfig }, { projectPaths }] = await Promise.all([
      import("./load-config.js"),
      import("../config/project-paths.js"),
    ]);
    candidate = projectPaths((await loadProjectConfig(dirname(config), config)).config).candidate;
  } catch {
    // the default layout
  }
  const tgz = join(dirname(config), candidate);
  return { tgz, built: existsSync(tgz) };
}

const isPackageFolder = (dir: string) =>
  existsSync(join(dir, "manifest.json")) || existsSync(join(dir, "package", "manifest.json"));

/** What a named path means: the candidate's path, or INPUT_NOT_FOUND / CANDIDATE_INVALID saying why there is none. */
async function namedCandidate(cwd: string, given: string, folders: boolean): Promise<string> {
  const path = resolve(cwd, given);
  if (!existsSync(path))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No candidate at ${given}: it does not exist.`,
      "Build one with `inter build` (it writes dist/cli.tgz), or name a cli.tgz that exists.",
      { candidate: given },
    );
  if (!statSync(path).isDirectory()) return path;
  if (folders && isPackageFolder(path)) return path;
  if (existsSync(join(path, "cli.tgz"))) return join(path, "cli.tgz");
  const project = await projectCandidate(path, { up: false });
  if (project?.built) return project.tgz;
  if (project)
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${given} is a project folder without a built candidate (${relative(cwd, project.tgz)}).`,
      "Run `inter build` there first, or name its cli.tgz.",
      { candidate: given },
    );
  throw new InterError(
    "CANDIDATE_INVALID",
    `${given} is a folder, and neither holds a cli.tgz${folders ? ", a package (manifest.json)" : ""} nor is a project folder (intermesh.config.ts).`,
    `Name the cli.tgz \`inter build\` wrote (dist/cli.tgz)${folders ? ", the folder it was unpacked to," : ""} or the project folder.`,
    { candidate: given },
  );
}

/**
 * The candidate of a command: `given` (resolved from `cwd`), else cli.tgz in `folder` (when the command has one),
 * else the build output of the project around `folder` (or `cwd`). `folders` accepts an unpacked package folder.
 */
export async function findCandidate(
  folder: string | undefined,
  given: string | undefined,
  cwd: string,
  { folders = false }: { folders?: boolean } = {},
): Promise<{ tgz?: string; missing: string }> {
  if (given) return { tgz: await namedCandidate(cwd, given, folders), missing: "" };
  if (folder && existsSync(join(folder, "cli.tgz"))) return { tgz: join(folder, "cli.tgz"), missing: "" };
  const where = folder ?? cwd;
  const project = await projectCandidate(where, { up: true });
  const here = folder ? `no cli.tgz in ${folder}` : "no candidate named";
  if (!project) return { missing: `${here} and no project around it; pass --candidate <cli.tgz>` };
  return project.built
    ? { tgz: project.tgz, missing: "" }
    : { missing: `${here}, and the project's ${project.tgz} is not built yet (inter build)` };
}

/** The command's candidate, or INPUT_NOT_FOUND saying where it was looked for and how to make one. */
export async function requireCandidate(
  folder: string | undefined,
  given: string | undefined,
  cwd: string,
  options: { folders?: boolean; alternative?: string } = {},
): Promise<string> {
  const found = await findCandidate(folder, given, cwd, options);
  if (!found.tgz)
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No candidate: ${found.missing}.`,
      `Build one with \`inter build\` (it writes dist/cli.tgz)${folder ? ", copy it into the folder," : ""} or name a cli.tgz${options.alternative ?? ""}.`,
      { candidate: given ?? relative(cwd, folder ?? cwd) },
    );
  return found.tgz;
}
