import { Command, Option } from "clipanion";
import * as t from "typanion";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { AGENT_NAMES } from "../../core/agent-homes.js";
import { InterError } from "../../core/errors.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { candidateTarball } from "../candidate.js";

/**
 * `inter agents install|uninstall <candidate>`: the package's own `agents` command (src/runtime/agents.ts), run from a
 * cli.tgz unpacked to a temporary folder — one implementation, whichever way it is reached. The MCP server needs the
 * package installed for good, so --mcp is the installed package's (`npx <binary> agents install --mcp`).
 */
abstract class AgentsCommand extends BaseCommand {
  candidate = Option.String({ name: "candidate", required: false });
  agent = Option.String("--agent", { description: `${AGENT_NAMES.join(", ")} or all (default)`, validator: t.isEnum([...AGENT_NAMES, "all"]) });
  scope = Option.String("--scope", { description: "project (the current folder, default) or user (your home folder)", validator: t.isEnum(["project", "user"]) });
  dryRun = Option.Boolean("--dry-run", false, { description: "Show every step and write nothing" });
  abstract readonly action: "install" | "uninstall";

  protected async runPackage(extra: string[]): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const tgz = await candidateTarball(cwd, this.candidate);
    const [{ tarballEntries }, { execa }] = await Promise.all([import("../../stages/surface/candidate.js"), import("execa")]);
    const files = await tarballEntries(tgz, this.candidate ?? tgz, () => true);
    const manifest = files.get("manifest.json") ? (JSON.parse(files.get("manifest.json")!.bytes.toString("utf8")) as { product?: { binary?: string } }) : undefined;
    const binary = manifest?.product?.binary;
    if (!binary || !/^[a-z0-9][a-z0-9-]*$/.test(binary) || !files.has(`${binary}.cjs`)) throw new InterError("CANDIDATE_INVALID", `${this.candidate ?? tgz} has no manifest.json naming its executable.`, "Name a cli.tgz `inter build` wrote.", { candidate: this.candidate ?? tgz });
    const work = mkdtempSync(join(tmpdir(), "inter-agents-"));
    try {
      for (const [path, entry] of files) {
        const file = join(work, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, entry.bytes);
        chmodSync(file, entry.mode & 0o777 || 0o644);
      }
      const argv = [join(work, `${binary}.cjs`), "agents", this.action, ...(this.agent ? ["--agent", this.agent] : []), ...(this.scope ? ["--scope", this.scope] : []), ...(this.dryRun ? ["--dry-run"] : []), ...extra];
      const run = await execa(process.execPath, argv, { cwd, reject: false, stdin: "ignore" });
      if (run.exitCode === 0) {
        const envelope = JSON.parse(String(run.stdout)) as { result: { steps: Array<{ action: string; path: string; reason?: string }> } };
        const steps = envelope.result.steps;
        return { data: envelope.result, human: steps.length ? steps.map((s) => `${s.action.padEnd(9)} ${s.path}${s.reason ? ` (${s.reason})` : ""}`).join("\n") : "Nothing was installed here." };
      }
      let error: { code?: string; message?: string; suggestion?: string; details?: Record<string, unknown> } = {};
      try {
        error = JSON.parse(String(run.stderr).trim().split("\n").pop() ?? "{}");
      } catch {
        // below
      }
      if (error.code === "INSTALL_CONFLICT") throw new InterError("INSTALL_CONFLICT", error.message ?? "A path is in the way.", error.suggestion ?? "", error.details);
      if (error.code === "UNKNOWN_COMMAND") throw new InterError("CANDIDATE_INVALID", `${this.candidate ?? tgz} was built by an inter without \`agents ${this.action}\`.`, "Build it again with this inter (`inter build`).", { candidate: this.candidate ?? tgz });
      throw new InterError(run.exitCode === 2 ? "USAGE_ERROR" : "INTERNAL_ERROR", error.message ?? `${binary} agents ${this.action} failed (exit ${run.exitCode}).`, error.suggestion ?? "Run it again; if it keeps failing, report it.", { code: error.code ?? null });
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
      "CANDIDATE is a cli.tgz (default: the one the project's build wrote). Runs the package's own `agents install` (docs/publishing.md): each Skill goes to .claude/skills, .agents/skills and .opencode/skills (project scope, default) or their user-scope places; a managed-files manifest records what was written, so a later install (an upgrade) and `agents uninstall` touch only those. A Skill of the same name it did not write is a conflict (INSTALL_CONFLICT) and nothing is written. Registering the MCP server (--mcp) needs the package installed for good: `npm install <package>` then `npx <binary> agents install --mcp`.",
    examples: [
      ["Install this build's Skills for every agent, in this project", "inter agents install"],
      ["For Codex only, in your home folder", "inter agents install dist/cli.tgz --agent codex --scope user"],
    ],
  });
  readonly action = "install" as const;
  mcp = Option.Boolean("--mcp", false, { description: "Refused here: the MCP server must be an installed package (npx <binary> agents install --mcp)" });

  async run(): Promise<CommandResult> {
    if (this.mcp) throw new InterError("USAGE_ERROR", "--mcp needs the package installed for good: a server registered from a cli.tgz would point into a temporary folder.", "Install the package (`npm install <package>` or `npm install ./dist/cli.tgz`), then run `npx <binary> agents install --mcp`.", { flag: "mcp" });
    return this.runPackage([]);
  }
}

export class AgentsUninstallCommand extends AgentsCommand {
  static paths = [["agents", "uninstall"]];
  static usage = Command.Usage({
    description: "Remove what `agents install` wrote for a candidate (only its managed files and entries)",
    details: "CANDIDATE is a cli.tgz (default: the one the project's build wrote): its binary names the managed-files manifest to read. Files changed since they were installed are kept and reported.",
    examples: [["Take this build's Skills out of the project", "inter agents uninstall"]],
  });
  readonly action = "uninstall" as const;

  async run(): Promise<CommandResult> {
    return this.runPackage([]);
  }
}
