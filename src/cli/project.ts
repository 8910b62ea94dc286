import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { Store } from "../engine/cache/store.js";
import { loadProjectConfig } from "./load-config.js";
import { projectPaths, STATE_DIR } from "../config/project-paths.js";
import type { LoadedConfig } from "../config/types.js";
import { pipelineGraph } from "../pipeline/pipeline.js";
import type { Graph } from "../engine/graph/task.js";

export interface Project {
  loaded: LoadedConfig;
  graph: Graph;
  store: Store;
  cacheDir: string;
  /** `.intermesh/`: the lock and everything inter keeps beside the cache. */
  stateDir: string;
}

/** A short, stable name for the project in a store it may share with others (see engine/cache/store.ts). */
function projectOwner(root: string): string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // the root exists (its config was just read); a failure here only means the unresolved path names it
  }
  return createHash("sha256").update(real).digest("hex").slice(0, 16);
}

export async function openProject(options: { cwd?: string; config?: string }): Promise<Project> {
  const loaded = await loadProjectConfig(resolve(options.cwd ?? process.cwd()), options.config);
  const graph = pipelineGraph(loaded);
  const stateDir = resolve(loaded.root, STATE_DIR);
  const cacheDir = resolve(loaded.root, projectPaths(loaded.config).cacheDir);
  return { loaded, graph, store: new Store(cacheDir, projectOwner(loaded.root)), cacheDir, stateDir };
}
