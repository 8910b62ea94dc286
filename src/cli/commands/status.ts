import { Command } from "clipanion";
import { BaseCommand, type CommandResult } from "../base.js";

export class StatusCommand extends BaseCommand {
  static paths = [["status"]];
  static usage = Command.Usage({
    description: "Where the project stands: config, inputs, blockers with their next command, credential, last candidate and evaluation, cache",
    details:
      "Runs nothing. Reports separately: whether a config was found and is valid; each input with its sha256; whether generation and evaluation are ready, and if not each blocker with what it requires (input, human or agent) and the next command; whether the credential variable is set (never its value); the last candidate hash, its certification and the last evaluation; the cache size. Exit 0 whatever the state (read data.ready); 2 only for bad flags.",
    examples: [
      ["What is missing?", "inter status"],
      ["As data for an agent", "inter status --json"],
    ],
  });

  async run(): Promise<CommandResult> {
    const { projectStatus, statusText } = await import("../../status/status.js");
    const report = await projectStatus({ cwd: this.cwd ?? process.cwd(), config: this.configFile });
    return { data: report, human: statusText(report) };
  }
}
