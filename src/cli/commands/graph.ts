import { Command, Option } from "clipanion";
import { BaseCommand, type CommandResult } from "../base.js";
import { openProject } from "../project.js";

export class GraphCommand extends BaseCommand {
  static paths = [["graph"]];
  static usage = Command.Usage({
    description: "Show the task graph: tasks, their dependencies, inputs and outputs",
    examples: [
      ["As a list", "inter graph"],
      ["As JSON", "inter graph --json"],
      ["As Graphviz DOT", "inter graph --dot | dot -Tsvg > graph.svg"],
    ],
  });
  dot = Option.Boolean("--dot", false, { description: "Print Graphviz DOT instead of text" });

  async run(): Promise<CommandResult> {
    const { graph } = await openProject({ cwd: this.cwd, config: this.configFile });
    const tasks = [...graph.tasks.values()].map((t) => ({
      id: t.id,
      kind: t.kind,
      description: t.description,
      deps: t.deps,
      inputs: t.inputs,
      outputs: t.outputs,
      env: t.env,
    }));
    const data = { tasks, targets: graph.targets };
    if (this.dot) {
      const q = JSON.stringify;
      const lines = [
        "digraph inter {",
        "  rankdir=LR;",
        ...tasks.map((t) => `  ${q(t.id)} [shape=${t.kind === "builtin" ? "box" : "ellipse"}];`),
        ...tasks.flatMap((t) => t.deps.map((d) => `  ${q(d)} -> ${q(t.id)};`)),
        "}",
      ];
      return { data: { ...data, dot: lines.join("\n") }, human: lines.join("\n") };
    }
    const human = tasks
      .map(
        (t) =>
          `${t.id}${t.kind === "command" ? " (command)" : ""}${t.deps.length ? `  ← ${t.deps.join(", ")}` : ""}\n    ${t.description}`,
      )
      .concat(Object.entries(graph.targets).map(([name, ids]) => `target ${name} → ${ids.join(", ")}`))
      .join("\n");
    return { data, human };
  }
}
