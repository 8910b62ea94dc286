import { Command, Option } from "clipanion";
import { dirname, join, sep } from "node:path";
import { InterError } from "../../core/errors.js";
import { shippedFile } from "../../core/shipped-files.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { INTER_VERSION } from "../../core/version.js";

/** How this inter was installed, and the npm command that updates it in place (a project's dependency or a global install). */
function updateCommand(): { command: string; args: string[]; cwd: string; scope: "project" | "global" | "checkout" } {
  const root = dirname(shippedFile("package.json"));
  const parts = root.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return { command: "git", args: ["pull"], cwd: root, scope: "checkout" };
  const owner = parts.slice(0, at).join(sep) || sep;
  // A global install lives in <prefix>/lib/node_modules; a project's in <project>/node_modules.
  if (parts[at - 1] === "lib")
    return { command: "npm", args: ["install", "--global", "intermesh@latest"], cwd: owner, scope: "global" };
  return { command: "npm", args: ["install", "intermesh@latest"], cwd: owner, scope: "project" };
}

/** Intermesh 0.1's `inter update`: updates inter itself with npm. Its Skills call it only when a person asks. */
export class UpdateCommand extends BaseCommand {
  static paths = [["update"]];
  static usage = Command.Usage({
    description: "Update inter itself with npm (only when a person asks); --dry-run says what it would run",
    details:
      "Finds how this inter is installed — a project's dependency or a global install — and runs the npm command that brings it to the latest release there. A checkout of inter's own repository is updated with git instead, so that is only shown. --dry-run prints the command and runs nothing. Failures are UPDATE_FAILED with npm's message.",
    examples: [
      ["See what would run", "inter update --dry-run"],
      ["Update", "inter update"],
    ],
  });
  dryRun = Option.Boolean("--dry-run", false, { description: "Print the command; run nothing" });

  async run(): Promise<CommandResult> {
    const action = updateCommand();
    const { scope, ...next } = action;
    const line = `${next.command} ${next.args.join(" ")}  (in ${next.cwd})`;
    if (this.dryRun || scope === "checkout") {
      return {
        data: { installed: INTER_VERSION, scope, dryRun: true, next_actions: [next] },
        human: `inter ${INTER_VERSION} (${scope}); to update: ${line}`,
      };
    }
    const { execa } = await import("execa");
    const result = await execa(next.command, next.args, {
      cwd: next.cwd,
      reject: false,
      stdout: ["pipe", "inherit"],
      stderr: "inherit",
      env: { npm_config_update_notifier: "false" },
    });
    if (result.exitCode !== 0)
      throw new InterError(
        "UPDATE_FAILED",
        `${line} failed with exit ${result.exitCode}.`,
        "Read npm's message above; check the registry is reachable and you may write to the install folder.",
        { next_actions: [next], exit_code: result.exitCode },
      );
    const { readFileSync } = await import("node:fs");
    const now = (
      JSON.parse(readFileSync(join(next.cwd, "node_modules", "intermesh", "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    return {
      data: { installed: now, previous: INTER_VERSION, scope, dryRun: false },
      human: `inter ${INTER_VERSION} → ${now}`,
    };
  }
}
