import type { InterConfig } from "../config/types.js";
import type { TaskSpec } from "../graph/task.js";
import { discoverTask } from "./discover.js";

/** Built-in tasks, in pipeline order (DESIGN.md §3). Later stages register here as they are built. */
export function builtinTasks(config: InterConfig): TaskSpec[] {
  return [discoverTask(config)];
}

/** Target name → the tasks it ends with. */
export const BUILTIN_TARGETS: Record<string, string[]> = {
  cli: ["discover"],
  eval: ["evaluate"],
};
