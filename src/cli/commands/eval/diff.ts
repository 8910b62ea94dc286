import { Command, Option } from "clipanion";
import * as t from "typanion";
import { resolve } from "node:path";
import { InterError } from "../../../core/errors.js";
import { BaseCommand, type CommandResult } from "../../base.js";

export class EvalDiffCommand extends BaseCommand {
  static paths = [["eval", "diff"]];
  static usage = Command.Usage({
    description: "Compare two evaluations: the scenarios and checks that regressed, improved or stayed",
    details:
      "BASE and HEAD are results.json files (e.g. the main branch's last evaluation and this change's). Pass rates are shown side by side, regressions first. Results of different plans are refused unless --plan-changed, which matches scenarios and checks by id; results the agent reports were answered by different models are refused unless --across-models (EVAL_MODELS_DIFFER), and the headline then says so. Exit 1 when anything regressed, 0 otherwise; --format md prints Markdown for a pull-request comment.",
    examples: [
      ["Compare with the main branch's results", "inter eval diff main-results.json dist/eval/results.json"],
      ["Markdown for a pull-request comment", "inter eval diff base.json head.json --format md > diff.md"],
    ],
  });
  base = Option.String({ name: "base.json" });
  head = Option.String({ name: "head.json" });
  planChanged = Option.Boolean("--plan-changed", false, {
    description: "Compare results of different plans, matching scenarios and checks by id",
  });
  acrossModels = Option.Boolean("--across-models", false, {
    description:
      "Compare even when the agent reports that base and head were answered by different models (refused otherwise: EVAL_MODELS_DIFFER)",
  });
  format = Option.String("--format", { description: "text (default) or md", validator: t.isEnum(["text", "md"]) });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const [{ loadResults }, { diffResults, diffText, diffMarkdown }] = await Promise.all([
      import("../../../evaluation/results/load.js"),
      import("../../../evaluation/results/diff.js"),
    ]);
    const base = await loadResults(resolve(cwd, this.base), this.base);
    const head = await loadResults(resolve(cwd, this.head), this.head);
    const diff = diffResults(base, head, this.planChanged, this.acrossModels);
    const text = this.format === "md" ? diffMarkdown(diff) : diffText(diff);
    if (diff.regressions) {
      if (!this.json) process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
      const worse = diff.scenarios
        .filter((s) => s.change === "regressed" || s.checks.some((c) => c.change === "regressed"))
        .map((s) => s.id);
      throw new InterError(
        "EVAL_FAILED",
        `${diff.regressions} regression${diff.regressions === 1 ? "" : "s"} from base to head, in ${worse.join(", ")}.`,
        "Look at those scenarios' failed checks in the head's report.html.",
        { diff },
      );
    }
    return { data: diff, human: text };
  }
}
