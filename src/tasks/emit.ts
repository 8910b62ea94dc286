import { chmodSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../core/atomic.js";
import type { InterConfig } from "../config/types.js";
import type { Capabilities } from "../design/capabilities.js";
import type { TaskSpec } from "../graph/task.js";
import { shippedFile } from "../core/shipped-files.js";
import { outDir } from "./design.js";
import { readDepJson } from "./io.js";

export const packageDir = (config: InterConfig) => `${outDir(config)}/package`;

/** The runtime shipped in every candidate: inter's own bundled copy (lib/runtime.cjs). */
function runtimeSource(): string {
  return readFileSync(shippedFile("lib/runtime.cjs"), "utf8");
}

export function emitTask(config: InterConfig): TaskSpec {
  const dir = packageDir(config);
  const capabilities = `${outDir(config)}/capabilities.json`;
  return {
    id: "emit",
    kind: "builtin",
    description: `Write the CLI package tree to ${dir}/`,
    impl: "1",
    deps: ["design"],
    config: { outDir: outDir(config) },
    inputs: [],
    outputs: [`${dir}/**`],
    env: [],
    async run(ctx) {
      const { packageFiles } = await import("../emit/package-files.js");
      const caps = readDepJson<Capabilities>(ctx, "design", capabilities);
      // The folder is emit's alone: a Skill removed from the brief must not linger in the package.
      rmSync(join(ctx.root, dir), { recursive: true, force: true });
      const files = packageFiles(caps, runtimeSource());
      for (const file of files) {
        const target = join(ctx.root, dir, file.path);
        writeFileAtomic(target, file.content);
        chmodSync(target, file.executable ? 0o755 : 0o644);
      }
      return { data: { dir, files: files.length, commands: caps.commands.length, skills: caps.skills.length } };
    },
  };
}
