import { Command, Option } from "clipanion";
import * as t from "typanion";
import { resolveRunTarget } from "../../engine/graph/build-graph.js";
import type { CommandResult } from "../base.js";
import { printCandidate } from "./build.js";
import { RemoteCacheCommand } from "../remote-cache-command.js";
import { executeGraph } from "../execute-graph.js";
import { openProject, type Project } from "../project.js";

export class RunCommand extends RemoteCacheCommand {
  static paths = [["run"]];
  static usage = Command.Usage({
    description: "Run one task or target and whatever it depends on",
    details:
      "NAME is a task id (see `inter graph`) or a target from the config's `targets` (`cli`, `eval`). Dependencies come from the cache when unchanged.",
    examples: [
      ["Run the evaluation target", "inter run eval"],
      ["Run it with a gate of 80 % per scenario", "inter run eval --min-pass-rate 0.8"],
      ["Run a single task and its dependencies", "inter run discover"],
      ["Rebuild the candidate on every save", "inter run bundle --watch"],
    ],
  });
  name = Option.String({ name: "task|target" });
  minPassRate = Option.String("--min-pass-rate", {
    description: "For the evaluation: each scenario's pass rate must reach this, 0..1 (overrides targets.eval.gate)",
    validator: t.cascade(t.isNumber(), [t.isInInclusiveRange(0, 1)]),
  });
  allowIncomplete = Option.Boolean("--allow-incomplete", false, {
    description: "For the evaluation: leave incomplete attempts out of the gate's pass rates",
  });
  requireSealed = Option.Boolean("--require-sealed", false, {
    description: "For the evaluation: fail the gate when the attempts ran unsealed (no bubblewrap)",
  });
  forbidSideEffects = Option.Boolean("--forbid-side-effects", false, {
    description:
      "For the evaluation: fail an attempt (and the gate) on a mutating call no observation of its scenario matches",
  });

  watch = Option.Boolean("--watch", false, {
    description: "After running, run again whenever an input changes; --json streams NDJSON events",
  });

  /** The gate flags override the config's gate; the evaluate task reads it when it runs. */
  private overrideGate(project: Project): void {
    const target = project.loaded.config.targets?.eval;
    const minPassRate = this.minPassRate as unknown as number | undefined;
    if (target && (minPassRate !== undefined || this.allowIncomplete || this.requireSealed || this.forbidSideEffects)) {
      target.gate = {
        ...target.gate,
        ...(minPassRate !== undefined ? { minPassRate } : {}),
        ...(this.allowIncomplete ? { allowIncomplete: true } : {}),
        ...(this.requireSealed ? { requireSealed: true } : {}),
        ...(this.forbidSideEffects ? { forbidSideEffects: true } : {}),
      };
    }
  }

  async run(): Promise<CommandResult> {
    if (this.watch) {
      const { watchBuild } = await import("../watch.js");
      return {
        data: undefined,
        exitCode: await watchBuild({
          cwd: this.cwd,
          config: this.configFile,
          select: (graph) => resolveRunTarget(graph, this.name),
          prepare: (project) => this.overrideGate(project),
          json: this.json,
          concurrency: this.parallelism,
          force: this.force,
          remote: this.remoteMode,
        }),
      };
    }
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    this.overrideGate(project);
    const data = await executeGraph(project, resolveRunTarget(project.graph, this.name), {
      json: this.json,
      concurrency: this.parallelism,
      force: this.force,
      remote: this.remoteMode,
    });
    if (!this.json) printCandidate(data.tasks);
    return { data };
  }
}
