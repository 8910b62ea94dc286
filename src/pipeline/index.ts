import type { InterConfig } from "../config/types.js";
import type { TaskSpec } from "../engine/graph/task.js";
import { bundleTask } from "./bundle.js";
import { commandsTask } from "./commands.js";
import { designTask } from "./design.js";
import { discoverTask } from "./discover.js";
import { emitTask } from "./emit.js";
import { evaluateTask } from "./evaluate.js";
import { inspectTask } from "./inspect.js";
import { openapiTask } from "./openapi.js";
import { skillsTask } from "./skills.js";
import { validateTask } from "./validate.js";

/**
 * Built-in tasks, in pipeline order (README, "What `inter build` does today"). The design stage is split so that an edit to context.md re-runs
 * only `skills` and `design`, never the OpenAPI parse or the command design.
 */
export function builtinTasks(config: InterConfig): TaskSpec[] {
  const tasks = [
    discoverTask(config),
    openapiTask(config),
    commandsTask(config),
    skillsTask(config),
    designTask(config),
    emitTask(config),
    bundleTask(config),
    inspectTask(config),
  ];
  return [...tasks, validateTask(config), evaluateTask(config)].filter((t): t is TaskSpec => t !== undefined);
}

/** Target name → the tasks it ends with. */
export const BUILTIN_TARGETS: Record<string, string[]> = {
  cli: ["inspect"],
  eval: ["evaluate"],
};
