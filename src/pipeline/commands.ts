import type { InterConfig } from "../config/types.js";
import type { TaskSpec } from "../engine/graph/task.js";
import type { OperationModel } from "../stages/openapi/model.js";
import { BUILD_DIR } from "../config/project-paths.js";
import { readDepJson, writeBuildJson } from "./io.js";
import { OPERATIONS_FILE } from "./openapi.js";

export const COMMANDS_FILE = `${BUILD_DIR}/commands.json`;

type CommandsSlice = Pick<InterConfig, "product" | "api">;

export function commandsTask(config: InterConfig): TaskSpec {
  return {
    id: "commands",
    kind: "builtin",
    description: "Design the command tree: names, flags, auth, safety marks, pagination and output shapes",
    impl: "1",
    deps: ["openapi"],
    config: { product: config.product, ...(config.api ? { api: config.api } : {}) } satisfies CommandsSlice,
    inputs: [],
    outputs: [COMMANDS_FILE],
    env: [],
    async run(ctx) {
      const [{ designCommands }, { beginCommandParts }, { plainTexts }] = await Promise.all([
        import("../stages/design/commands.js"),
        import("../stages/emit/package-files.js"),
        import("../stages/design/descriptions.js"),
      ]);
      const model = readDepJson<OperationModel>(ctx, "openapi", OPERATIONS_FILE);
      const { plan, warnings } = designCommands(model, ctx.slice as CommandsSlice, model.source.files);
      writeBuildJson(ctx.root, COMMANDS_FILE, plan);
      // A large CLI's search index is begun now, beside the skills and design tasks (stages/emit/package-files.ts).
      // As capabilities.json will carry them (the same command array: plainTexts keeps what it made by the plan's).
      beginCommandParts(plainTexts({ product: { description: "" }, groups: plan.groups, commands: plan.commands }));
      return { data: { commands: plan.commands.length }, warnings };
    },
  };
}
