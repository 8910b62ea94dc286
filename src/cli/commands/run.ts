import { Command, Option } from "clipanion";
import { resolveRunTarget } from "../../graph/build-graph.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { executeGraph } from "../execute-graph.js";
import { openProject } from "../project.js";

export class RunCommand extends BaseCommand {
  static paths = [["run"]];
  static usage = Command.Usage({
    description: "Run one task or target and whatever it depends on",
    details: "NAME is a task id (see `inter graph`) or a target from the config's `targets` (`cli`, `eval`). Dependencies come from the cache when unchanged.",
    examples: [
      ["Run the evaluation target", "inter run eval"],
      ["Run a single task and its dependencies", "inter run discover"],
    ],
  });
  name = Option.String({ name: "task|target" });

  async run(): Promise<CommandResult> {
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    const data = await executeGraph(project, resolveRunTarget(project.graph, this.name), { json: this.json, concurrency: this.parallelism, force: this.force });
    return { data };
  }
}
