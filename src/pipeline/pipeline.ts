import type { LoadedConfig } from "../config/types.js";
import { InterError } from "../core/errors.js";
import { buildGraph } from "../engine/graph/build-graph.js";
import type { Graph, TaskSpec } from "../engine/graph/task.js";
import { commandTask } from "./user-task.js";
import { builtinTasks, BUILTIN_TARGETS } from "./index.js";

/** The project's graph: the built-in pipeline followed by the config's own tasks (which may not reuse a built-in id). */
export function pipelineGraph(loaded: LoadedConfig): Graph {
  const tasks: TaskSpec[] = builtinTasks(loaded.config);
  const ids = new Set(tasks.map((t) => t.id));
  for (const [id, spec] of Object.entries(loaded.config.tasks ?? {})) {
    if (ids.has(id)) {
      throw new InterError(
        "CONFIG_INVALID",
        `${loaded.file}: tasks.${id}: "${id}" is a built-in task id.`,
        `Rename the task, e.g. "user-${id}".`,
        { field: `tasks.${id}` },
      );
    }
    ids.add(id);
    tasks.push(commandTask(id, spec));
  }
  return buildGraph(tasks, BUILTIN_TARGETS, loaded.file);
}

/** What `inter build` runs: every task except the evaluation, which is never hermetic. */
export function buildTaskIds(graph: Graph): string[] {
  const evalIds = new Set(graph.targets.eval ?? []);
  return [...graph.tasks.keys()].filter((id) => !evalIds.has(id));
}
