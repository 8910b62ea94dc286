import { Command, Option } from "clipanion";
import * as t from "typanion";
import type { CommandResult } from "../base.js";
import { RemoteCacheCommand } from "../remote-cache-command.js";
import { openProject } from "../project.js";
import { runSuggest, suggestSummary } from "../suggest-run.js";

export class DesignSuggestCommand extends RemoteCacheCommand {
  static paths = [["design", "suggest"]];
  static usage = Command.Usage({
    description: "Ask the configured model for names, descriptions and Skill text, into the overlay file for review",
    details:
      "Needs design.model in the config and its key in the variable keyEnv names (no keyEnv: a keyless local server). Per command group, then per Skill (with the overlay's names), sends the operations (method, path, summary, parameters, responses, trimmed) and the brief's tasks with a versioned prompt, checks each answer field by field as the build would (what fails is dropped and named) and records the rest in the overlay (design.overlay, default intermesh.overlay.json) under the sha256 of what was asked. Only questions the overlay does not answer yet are sent, so a second run sends nothing; --refresh asks everything again. The overlay is written whole at the end (an interrupted or failed run leaves it as it was). Review it, edit it, commit it: `inter build` applies its entries after checking each (a rejected or stale entry falls back to the rules and is reported), never the model. docs/overlay.md.",
    examples: [
      ["Ask for what changed", "inter design suggest"],
      ["Ask everything again", "inter design suggest --refresh"],
      ["Stop at 200,000 tokens", "inter design suggest --max-tokens 200000"],
    ],
  });

  refresh = Option.Boolean("--refresh", false, {
    description: "Ask every question again, not only those the overlay lacks",
  });
  maxTokens = Option.String("--max-tokens", {
    description: "Stop cleanly once this many tokens were used (default: design.model.maxTokens)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isPositive()]),
  });
  maxCost = Option.String("--max-cost", {
    description: "Stop cleanly once the estimated cost reaches this many US dollars",
    validator: t.cascade(t.isNumber(), [t.isPositive()]),
  });

  async run(): Promise<CommandResult> {
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    const data = await runSuggest(project, {
      refresh: this.refresh,
      json: this.json,
      concurrency: this.parallelism,
      maxTokens: this.maxTokens as unknown as number | undefined,
      maxCostUsd: this.maxCost as unknown as number | undefined,
    });
    return {
      data,
      human: `${suggestSummary(data)}\nnext: review ${data.overlay}, then inter build (it applies the overlay; rejected entries are reported)`,
    };
  }
}
