import { InterError } from "../../core/errors.js";
import type { Graph, TaskSpec } from "./task.js";

/**
 * The graph of the given tasks: every dependency exists and none forms a cycle. The engine knows no task of its own;
 * the pipeline (pipeline/pipeline.ts) says which tasks there are and which targets name them.
 * @param file the config the tasks come from, named in errors.
 */
export function buildGraph(list: TaskSpec[], targetTasks: Record<string, string[]>, file: string): Graph {
  const tasks = new Map<string, TaskSpec>(list.map((t) => [t.id, t]));
  for (const task of tasks.values()) {
    for (const dep of task.deps) {
      if (!tasks.has(dep)) {
        throw new InterError(
          "TASK_UNKNOWN_DEPENDENCY",
          `${file}: tasks.${task.id}.deps: "${dep}" is not a task.`,
          `Use one of: ${[...tasks.keys()].join(", ")}.`,
          { task: task.id, dependency: dep, known: [...tasks.keys()] },
        );
      }
    }
  }
  const cycle = findCycle(tasks);
  if (cycle) {
    throw new InterError(
      "TASK_CYCLE",
      `${file}: tasks form a cycle: ${cycle.join(" → ")}.`,
      `Remove one of these dependencies so that ${cycle[0]} does not depend on itself.`,
      { cycle },
    );
  }
  const targets: Record<string, string[]> = {};
  for (const [name, ids] of Object.entries(targetTasks)) {
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
  throw new InterError(
    "TASK_NOT_FOUND",
    `No task or target named "${name}".`,
    `Use one of: ${known.join(", ")}. \`inter graph\` shows them all.`,
    { name, known },
  );
}
