import type { LoadedConfig } from "../config/types.js";
import { InterError } from "../errors.js";
import { builtinTasks, BUILTIN_TARGETS } from "../tasks/index.js";
import { commandTask } from "../tasks/command.js";
import type { Graph, TaskSpec } from "./task.js";

export function buildGraph(loaded: LoadedConfig): Graph {
  const tasks = new Map<string, TaskSpec>();
  for (const task of builtinTasks(loaded.config)) tasks.set(task.id, task);
  for (const [id, spec] of Object.entries(loaded.config.tasks ?? {})) {
    if (tasks.has(id)) {
      throw new InterError("CONFIG_INVALID", `${loaded.file}: tasks.${id}: "${id}" is a built-in task id.`, `Rename the task, e.g. "user-${id}".`, { field: `tasks.${id}` });
    }
    tasks.set(id, commandTask(id, spec));
  }
  for (const task of tasks.values()) {
    for (const dep of task.deps) {
      if (!tasks.has(dep)) {
        throw new InterError(
          "TASK_UNKNOWN_DEPENDENCY",
          `${loaded.file}: tasks.${task.id}.deps: "${dep}" is not a task.`,
          `Use one of: ${[...tasks.keys()].join(", ")}.`,
          { task: task.id, dependency: dep, known: [...tasks.keys()] },
        );
      }
    }
  }
  const cycle = findCycle(tasks);
  if (cycle) {
    throw new InterError("TASK_CYCLE", `${loaded.file}: tasks form a cycle: ${cycle.join(" → ")}.`, `Remove one of these dependencies so that ${cycle[0]} does not depend on itself.`, { cycle });
  }
  const targets: Record<string, string[]> = {};
  for (const [name, ids] of Object.entries(BUILTIN_TARGETS)) {
    const present = ids.filter((id) => tasks.has(id));
    if (present.length) targets[name] = present;
  }
  return { tasks, targets };
}

function findCycle(tasks: Map<string, TaskSpec>): string[] | undefined {
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done") return undefined;
    if (state.get(id) === "visiting") return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, "visiting");
    stack.push(id);
    for (const dep of tasks.get(id)!.deps) {
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const id of [...tasks.keys()].sort()) {
    const found = visit(id);
    if (found) return found;
  }
  return undefined;
}

/** The requested tasks and everything they depend on, in a stable topological order. */
export function selectTasks(graph: Graph, requested: string[]): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const dep of graph.tasks.get(id)!.deps) visit(dep);
    order.push(id);
  };
  for (const id of requested) visit(id);
  return order;
}

/** `inter run <name>`: a task id or a target name. */
export function resolveRunTarget(graph: Graph, name: string): string[] {
  if (graph.tasks.has(name)) return [name];
  if (graph.targets[name]) return graph.targets[name];
  const known = [...Object.keys(graph.targets).map((t) => `${t} (target)`), ...graph.tasks.keys()];
  throw new InterError("TASK_NOT_FOUND", `No task or target named "${name}".`, `Use one of: ${known.join(", ")}. \`inter graph\` shows them all.`, { name, known });
}

/** What `inter build` runs: every task except the evaluation, which is never hermetic. */
export function buildTaskIds(graph: Graph): string[] {
  const evalIds = new Set(graph.targets.eval ?? []);
  return [...graph.tasks.keys()].filter((id) => !evalIds.has(id));
}
