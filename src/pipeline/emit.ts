import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { InterConfig } from "../config/types.js";
import type { Capabilities } from "../stages/design/capabilities.js";
import type { TaskSpec } from "../engine/graph/task.js";
import type { PackageFile } from "../stages/emit/package-files.js";
import { shippedFile } from "../core/shipped-files.js";
import { projectPaths } from "../config/project-paths.js";
import { readDepJson } from "./io.js";
import type { BaselineSummary } from "../surface/baseline.js";

/** What the emit task records (what `inter status` reads back): the package and, with a baseline, how it differs. */
export interface EmitData {
  dir: string;
  files: number;
  commands: number;
  skills: number;
  baseline?: BaselineSummary;
}

/** The runtime shipped in every candidate: inter's own bundled copies (lib/runtime.cjs, lib/search.cjs). */
function runtimeSource(): { cli: string; search: string } {
  return {
    cli: readFileSync(shippedFile("lib/runtime.cjs"), "utf8"),
    search: readFileSync(shippedFile("lib/search.cjs"), "utf8"),
  };
}

export function emitTask(config: InterConfig): TaskSpec {
  const paths = projectPaths(config);
  const dir = paths.packageDir;
  const capabilities = paths.capabilities;
  // The last published candidate is an input: replacing it re-runs emit, so CHANGELOG.md and the warning stay true.
  const baseline = config.targets?.cli?.baseline;
  const inRoot = baseline !== undefined && !isAbsolute(baseline) && !baseline.split(/[\\/]/).includes("..");
  return {
    id: "emit",
    kind: "builtin",
    description: `Write the CLI package tree to ${dir}/`,
    impl: "2",
    deps: ["design"],
    config: { outDir: paths.outDir, ...(baseline ? { baseline } : {}) },
    // A .tgz is one file; anything else is an unpacked package folder.
    inputs: baseline && inRoot ? [baseline.endsWith(".tgz") ? baseline : `${baseline.replace(/\/+$/, "")}/**`] : [],
    outputs: [`${dir}/**`],
    env: [],
    async run(ctx) {
      const [{ packageFilesLater }, { syncFile, syncFolder }] = await Promise.all([
        import("../stages/emit/package-files.js"),
        import("../stages/emit/sync-folder.js"),
      ]);
      const caps = readDepJson<Capabilities>(ctx, "design", capabilities);
      const { commandsDigest } = ctx.deps.design!.data as { commandsDigest?: string };
      const mcp = readFileSync(shippedFile("lib/mcp.cjs"), "utf8");
      let { files, later } = packageFilesLater(caps, runtimeSource(), mcp, commandsDigest);
      if (baseline) {
        // The diff against the baseline reads the whole package.
        files = [
          ...files,
          ...(await Promise.all(later.map(async (f) => ({ path: f.path, content: await f.content })))),
        ];
        later = [];
      }
      const compared = baseline ? await compareBaseline(ctx.root, baseline, files, paths.candidate) : undefined;
      // The folder is emit's alone: a Skill removed from the brief must not linger in the package. Files already as
      // wanted are left alone, so a brief edit rewrites the few files it reaches (stages/emit/sync-folder.ts). The
      // search index of a large CLI is still being made meanwhile, and written last.
      const folder = join(ctx.root, dir);
      syncFolder(
        folder,
        files,
        later.map((f) => f.path),
      );
      for (const file of later) syncFile(folder, { path: file.path, content: await file.content });
      const data: EmitData = {
        dir,
        files: files.length + later.length,
        commands: caps.commands.length,
        skills: caps.skills.length,
        ...(compared?.summary ? { baseline: compared.summary } : {}),
      };
      return {
        data,
        ...(compared?.warnings.length ? { warnings: compared.warnings } : {}),
        ...(baseline && !inRoot ? { reads: [resolve(ctx.root, baseline)] } : {}),
      };
    },
  };
}

/** Diffs the package against the baseline and puts the CHANGELOG.md written from the diff in its place. */
async function compareBaseline(root: string, baseline: string, files: PackageFile[], candidate: string) {
  const { compareWithBaseline } = await import("../surface/baseline.js");
  const result = await compareWithBaseline(
    new Map(files.map((f) => [f.path, f.content])),
    resolve(root, baseline),
    baseline,
    candidate,
  );
  const changelog = files.find((f) => f.path === "CHANGELOG.md");
  if (result.changelog && changelog) changelog.content = result.changelog;
  return result;
}
