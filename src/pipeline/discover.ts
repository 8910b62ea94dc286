import type { InterConfig } from "../config/types.js";
import { InterError } from "../core/errors.js";
import { expandGlobs } from "../engine/graph/files.js";
import type { TaskSpec } from "../engine/graph/task.js";

export type InputRole = "openapi" | "context";

export interface InputFile {
  path: string;
  /** Content hash (xxhash-128, hex) as fingerprinted. */
  hash: string;
}

/** The input manifest: every input of every role, with its content hash. */
export interface DiscoverData {
  inputs: Record<InputRole, InputFile[]>;
}

function globsOf(config: InterConfig): Record<InputRole, string[]> {
  const list = (g: string | string[] | undefined) => (g === undefined ? [] : Array.isArray(g) ? g : [g]);
  return { openapi: list(config.inputs.openapi), context: list(config.inputs.context) };
}

export function discoverTask(config: InterConfig): TaskSpec {
  const globs = globsOf(config);
  return {
    id: "discover",
    kind: "builtin",
    description: "Resolve the config's inputs and record each file with its content hash",
    impl: "1",
    deps: [],
    config: { inputs: config.inputs },
    inputs: [...globs.openapi, ...globs.context],
    outputs: [],
    env: [],
    async run(ctx) {
      const expanded = await expandGlobs(ctx.root, [...globs.openapi, ...globs.context]);
      const inputs = {} as Record<InputRole, InputFile[]>;
      for (const role of Object.keys(globs) as InputRole[]) {
        const files = new Set<string>();
        for (const glob of globs[role]) {
          const matched = expanded.get(glob) ?? [];
          if (!matched.length) {
            throw new InterError(
              "INPUT_NOT_FOUND",
              `inputs.${role}: "${glob}" matches no file (relative to ${ctx.root}).`,
              `Create the file, or correct inputs.${role} in the config.`,
              { field: `inputs.${role}`, glob, root: ctx.root },
            );
          }
          for (const path of matched) files.add(path);
        }
        inputs[role] = [...files].sort().map((path) => ({ path, hash: ctx.inputs[path]! }));
      }
      return { data: { inputs } satisfies DiscoverData };
    },
  };
}
