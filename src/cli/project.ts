import { resolve } from "node:path";
import { Store } from "../cache/store.js";
import { loadConfig } from "../config/load.js";
import type { LoadedConfig } from "../config/types.js";
import { buildGraph } from "../graph/build-graph.js";
import type { Graph } from "../graph/task.js";
import { INTER_BUILD } from "./version.js";

export interface Project {
  loaded: LoadedConfig;
  graph: Graph;
  store: Store;
  cacheDir: string;
  /** `.intermesh/`: the lock and everything inter keeps beside the cache. */
  stateDir: string;
}

export async function openProject(options: { cwd?: string; config?: string }): Promise<Project> {
  const loaded = await loadConfig({ cwd: resolve(options.cwd ?? process.cwd()), config: options.config, version: INTER_BUILD });
  const graph = buildGraph(loaded);
  const stateDir = resolve(loaded.root, ".intermesh");
  const cacheDir = resolve(loaded.root, loaded.config.cache?.dir ?? ".intermesh/cache");
  return { loaded, graph, store: new Store(cacheDir), cacheDir, stateDir };
}
