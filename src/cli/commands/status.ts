import { Command } from "clipanion";
import { BaseCommand, type CommandResult } from "../base.js";

export class StatusCommand extends BaseCommand {
  static paths = [["status"]];
  static usage = Command.Usage({
    description:
      "Where the project stands: config, inputs, blockers with their next command, credential, last candidate and evaluation, cache",
    details:
      "Runs nothing. Reports separately: whether the config is valid (workspace_prepared); each input with its sha256; whether generation and evaluation are ready (generation_ready, evaluation_ready; ready and evaluationReady are their older names, kept as aliases — the report's own names are snake_case), and if not each blocker with what it requires (input, human or agent) and the next command; whether the credential variable is set (never its value); the design model's readiness as its own state (design_model.state: off, set or missing — never the key) and the overlay file; the last candidate hash, its certification and the last evaluation (last.evaluation.not_judged when every attempt was a harness error); the cache size. Exit 0 whatever the state of a workspace; no workspace at all (no intermesh.config.* here or above) is WORKSPACE_NOT_FOUND (exit 2), its details holding the same report and the setup command to run next.",
    examples: [
      ["What is missing?", "inter status"],
      ["As data for an agent", "inter status --json"],
    ],
  });

  async run(): Promise<CommandResult> {
    const { projectStatus, statusText } = await import("../status/status.js");
    const report = await projectStatus({ cwd: this.cwd ?? process.cwd(), config: this.configFile });
    // No workspace here: the one state an agent must act on before anything else (Intermesh 0.1's code for it).
    if (!report.config.found) {
      const { InterError } = await import("../../core/errors.js");
      throw new InterError(
        "WORKSPACE_NOT_FOUND",
        `No intermesh.config.ts in ${report.dir} or above: this is not an Intermesh workspace yet.`,
        "Set it up: inter init --name <Product> --openapi <file> (or, as an agent, inter --json setup --project-dir <dir> --display-name <Product> --dry-run).",
        {
          status: report,
          next_actions: [
            {
              command: "inter",
              args: ["--json", "setup", "--project-dir", report.dir, "--display-name", "<Product>", "--dry-run"],
              cwd: report.dir,
              after: "the user gave the product's name",
            },
          ],
        },
      );
    }
    return { data: report, human: statusText(report) };
  }
}
