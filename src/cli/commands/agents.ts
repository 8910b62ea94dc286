import { Command, Option } from "clipanion";
import * as t from "typanion";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { dirname, join } from "node:path";
import { AGENT_NAMES } from "../../core/agent-homes.js";
import { InterError } from "../../core/errors.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { requireCandidate } from "../candidate-lookup.js";

/**
 * `inter agents install|uninstall <candidate>`: the generated CLI's own `agents` code (src/runtime/agents.ts) — one
 * implementation, whichever way it is reached — over a cli.tgz unpacked as data to a temporary folder. The MCP server
 * needs the package installed for good, so --mcp is the installed package's (`npx <binary> agents install --mcp`).
 */
abstract class AgentsCommand extends BaseCommand {
  candidate = Option.String({ name: "candidate", required: false });
  agent = Option.String("--agent", {
    description: `${AGENT_NAMES.join(", ")} or all (default)`,
    validator: t.isEnum([...AGENT_NAMES, "all"]),
  });
  scope = Option.String("--scope", {
    description: "project (the current folder, default) or user (your home folder)",
    validator: t.isEnum(["project", "user"]),
  });
  dryRun = Option.Boolean("--dry-run", false, { description: "Show every step and write nothing" });
  abstract readonly action: "install" | "uninstall";

  protected async runPackage(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const tgz = await requireCandidate(undefined, this.candidate, cwd);
    const [{ openCandidate }, { openCli }, agents, { CliError }] = await Promise.all([
      import("../../stages/candidate/open-candidate.js"),
      import("../../runtime/load.js"),
      import("../../runtime/agents.js"),
      import("../../runtime/errors.js"),
    ]);
    // CANDIDATE_INVALID without a manifest.json that `inter build` writes.
    const { files } = await openCandidate(tgz, { label: this.candidate ?? tgz });
    const work = ownedTempDir("agents");
    try {
      // Unpacked as data (the candidate reader refused unsafe entries); nothing of the candidate runs.
      for (const [path, entry] of files) {
        const file = join(work, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, entry.bytes);
      }
      let cli;
      try {
        cli = openCli(work);
      } catch (error) {
        throw new InterError(
          "CANDIDATE_INVALID",
          `${this.candidate ?? tgz}: its manifest.json cannot be read (${(error as Error).message}).`,
          "Name a cli.tgz `inter build` wrote.",
          { candidate: this.candidate ?? tgz },
        );
      }
      const options = {
        agents: agents.agentsOf(this.agent),
        scope: this.scope === "user" ? ("user" as const) : ("project" as const),
        mcp: false,
        dryRun: this.dryRun,
        root: cwd,
      };
      let result;
      try {
        result = await (this.action === "install"
          ? agents.installAgents(cli, options)
          : agents.uninstallAgents(cli, options));
      } catch (error) {
        if (error instanceof CliError)
          throw new InterError(
            error.code === "INSTALL_CONFLICT" ? "INSTALL_CONFLICT" : "USAGE_ERROR",
            error.message,
            error.suggestion,
            error.details,
          );
        throw error;
      }
      const steps = result.steps;
      return {
        data: result,
        human: steps.length
          ? steps.map((s) => `${s.action.padEnd(9)} ${s.path}${s.reason ? ` (${s.reason})` : ""}`).join("\n")
          : "Nothing was installed here.",
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

export class AgentsInstallCommand extends AgentsCommand {
  static paths = [["agents", "install"]];
  static usage = Command.Usage({
    description: "Put a candidate's Skills where coding agents read them (Claude Code, Codex, opencode)",
    details:
      "CANDIDATE is a cli.tgz (default: the one the project's build wrote). Does what the package's own `agents install` does (docs/publishing.md), without running anything of the candidate: each Skill goes to .claude/skills, .agents/skills and .opencode/skills (project scope, default) or their user-scope places; a managed-files manifest records what was written, so a later install (an upgrade) and `agents uninstall` touch only those. A Skill of the same name it did not write is a conflict (INSTALL_CONFLICT) and nothing is written. Registering the MCP server (--mcp) needs the package installed for good: `npm install <package>` then `npx <binary> agents install --mcp`.",
    examples: [
      ["Install this build's Skills for every agent, in this project", "inter agents install"],
      ["For Codex only, in your home folder", "inter agents install dist/cli.tgz --agent codex --scope user"],
    ],
  });
  readonly action = "install" as const;
  mcp = Option.Boolean("--mcp", false, {
    description: "Refused here: the MCP server must be an installed package (npx <binary> agents install --mcp)",
  });

  async run(): Promise<CommandResult> {
    if (this.mcp)
      throw new InterError(
        "USAGE_ERROR",
        "--mcp needs the package installed for good: a server registered from a cli.tgz would point into a temporary folder.",
        "Install the package (`npm install <package>` or `npm install ./dist/cli.tgz`), then run `npx <binary> agents install --mcp`.",
        { flag: "mcp" },
      );
    return this.runPackage();
  }
}

export class AgentsUninstallCommand extends AgentsCommand {
  static paths = [["agents", "uninstall"]];
  static usage = Command.Usage({
    description: "Remove what `agents install` wrote for a candidate (only its managed files and entries)",
    details:
      "CANDIDATE is a cli.tgz (default: the one the project's build wrote): its binary names the managed-files manifest to read. Files changed since they were installed are kept and reported.",
    examples: [["Take this build's Skills out of the project", "inter agents uninstall"]],
  });
  readonly action = "uninstall" as const;

  async run(): Promise<CommandResult> {
    return this.runPackage();
  }
}
