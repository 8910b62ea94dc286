import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import { noteSha256, sha256 } from "../core/hash.js";
import type { InterConfig } from "../config/types.js";
import type { TaskSpec } from "../engine/graph/task.js";
import { projectPaths } from "../config/project-paths.js";

export interface BundleData {
  file: string;
  /** sha256 of cli.tgz: the candidate hash. */
  candidate: string;
  size: number;
  files: number;
}

/**
 * An npm tarball of `paths` under `cwd`, byte for byte reproducible (core/reproducible-tgz.ts): sorted entries under
 * package/, fixed times, no owners, modes as on disk (emit sets every mode explicitly: 0644, 0755 for the bins, so no
 * umask-dependent bits). `inter publish` packs the published package (the candidate and its proof/) the same way.
 */
export async function packFolder(cwd: string, paths: string[]): Promise<Buffer> {
  const { packTgz } = await import("../core/reproducible-tgz.js");
  return packTgz(paths.map((path) => ({ path, file: join(cwd, path) })));
}

/** Packs the package tree into cli.tgz, byte for byte reproducible: sorted entries, fixed times, modes and owners. */
export function bundleTask(config: InterConfig): TaskSpec {
  const paths = projectPaths(config);
  const dir = paths.packageDir;
  const file = paths.candidate;
  return {
    id: "bundle",
    kind: "builtin",
    description: `Pack ${dir}/ into ${file} and record its sha256 (the candidate hash)`,
    impl: "2",
    deps: ["emit"],
    config: { outDir: paths.outDir },
    inputs: [],
    outputs: [file],
    env: [],
    async run(ctx) {
      const prefix = `${dir}/`;
      const paths = ctx.deps.emit!.outputs.map((o) => o.path.slice(prefix.length)).sort();
      const bytes = await packFolder(join(ctx.root, dir), paths);
      const candidate = sha256(bytes);
      writeFileAtomic(join(ctx.root, file), bytes);
      noteSha256(join(ctx.root, file), candidate);
      const data: BundleData = { file, candidate, size: bytes.length, files: paths.length };
      return { data };
    },
  };
}
