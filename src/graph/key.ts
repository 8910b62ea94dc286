import { join } from "node:path";
import { toolVersions, type FingerprintKey } from "../cache/fingerprint.js";
import { xxh } from "../cache/hash.js";
import type { StatIndex } from "../cache/stat-index.js";
import { expandGlobs } from "./files.js";
import type { TaskSpec } from "./task.js";

/** The fingerprint key of a task as things stand on disk now, given what its dependencies produced. */
export async function keyFor(task: TaskSpec, root: string, statIndex: StatIndex, interVersion: string, deps: Record<string, string>): Promise<FingerprintKey> {
  const inputs: Record<string, string> = {};
  for (const paths of (await expandGlobs(root, task.inputs)).values()) {
    for (const path of paths) inputs[path] = statIndex.hash(join(root, path), "xxh")!;
  }
  const env: Record<string, string | null> = {};
  for (const name of task.env) env[name] = process.env[name] === undefined ? null : xxh(process.env[name]!);
  return { task: task.id, impl: task.impl, config: task.config, inputs, deps, env, tool: toolVersions(interVersion) };
}
