import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where each agent program reads Skills and its MCP servers, as the pinned versions (package.json's devDependencies)
 * really do. One place for these facts: the trigger evaluation installs a candidate's Skills where its agent looks
 * (src/evaluation/triggers/detect.ts), and `<binary> agents install` puts them there for good (src/runtime/agents.ts).
 *
 * - Claude Code lists `.claude/skills/<name>/SKILL.md` (project) and `~/.claude/skills` (user, or
 *   `$CLAUDE_CONFIG_DIR/skills`) for its Skill tool; MCP servers are `mcpServers` in `.mcp.json` (project) or
 *   `~/.claude.json` (user).
 * - Codex lists `.agents/skills` (project) and `~/.agents/skills` (user) in its instructions; MCP servers are
 *   `[mcp_servers.<name>]` tables of `~/.codex/config.toml` (`$CODEX_HOME`), or of a trusted project's
 *   `.codex/config.toml`. It starts a server with a cleared environment: `env_vars` names what it passes on.
 * - opencode offers `.opencode/skills` (project) and `~/.config/opencode/skills` (user; it also reads the other two
 *   agents' folders) to its `skill` tool; MCP servers are the `mcp` key of `opencode.json` (project) or
 *   `~/.config/opencode/opencode.json` (user), each `{type: "local", command: [...], enabled, environment}`.
 * - Gemini CLI reads Skills from `.gemini/skills` (project) and `~/.gemini/skills` (user); MCP servers are `mcpServers`
 *   of `.gemini/settings.json` (project, a trusted folder's) or `~/.gemini/settings.json`, each `{command, args}`.
 * - Cursor reads Skills from `.cursor/skills` (project) and `~/.cursor/skills` (user); MCP servers are `mcpServers` of
 *   `.cursor/mcp.json` (project) or `~/.cursor/mcp.json` (user), each `{command, args}`.
 */
export const AGENT_NAMES = ["claude-code", "codex", "opencode", "gemini-cli", "cursor"] as const;
export type AgentName = (typeof AGENT_NAMES)[number];
export type InstallScope = "project" | "user";

/** The project folder, relative to the project root, each agent reads Skills from. */
export const SKILL_FOLDER: Record<AgentName, string> = {
  "claude-code": ".claude/skills",
  codex: ".agents/skills",
  opencode: ".opencode/skills",
  "gemini-cli": ".gemini/skills",
  cursor: ".cursor/skills",
};

export interface McpConfigPlace {
  /** Absolute path of the configuration file. */
  file: string;
  format: "json" | "toml";
  /** The key holding the servers, by name: `mcpServers`, `mcp`, `mcp_servers`. */
  key: string;
}

export interface AgentPlaces {
  skills: string;
  mcp: McpConfigPlace;
}

/** Where an agent reads Skills and MCP servers in a scope: `root` is the project folder; `env` gives HOME and the agents' own variables. */
export function agentPlaces(
  agent: AgentName,
  scope: InstallScope,
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): AgentPlaces {
  const home = env.HOME || homedir();
  if (scope === "project") {
    const project = {
      "claude-code": { file: ".mcp.json", format: "json", key: "mcpServers" },
      codex: { file: ".codex/config.toml", format: "toml", key: "mcp_servers" },
      opencode: { file: "opencode.json", format: "json", key: "mcp" },
      "gemini-cli": { file: ".gemini/settings.json", format: "json", key: "mcpServers" },
      cursor: { file: ".cursor/mcp.json", format: "json", key: "mcpServers" },
    } as const;
    return {
      skills: join(root, SKILL_FOLDER[agent]),
      mcp: { ...project[agent], file: join(root, project[agent].file) },
    };
  }
  if (agent === "claude-code") {
    const dir = env.CLAUDE_CONFIG_DIR;
    return {
      skills: join(dir || join(home, ".claude"), "skills"),
      mcp: { file: dir ? join(dir, ".claude.json") : join(home, ".claude.json"), format: "json", key: "mcpServers" },
    };
  }
  if (agent === "gemini-cli" || agent === "cursor") {
    const dir = join(home, agent === "cursor" ? ".cursor" : ".gemini");
    return {
      skills: join(dir, "skills"),
      mcp: { file: join(dir, agent === "cursor" ? "mcp.json" : "settings.json"), format: "json", key: "mcpServers" },
    };
  }
  if (agent === "codex")
    return {
      skills: join(home, ".agents", "skills"),
      mcp: { file: join(env.CODEX_HOME || join(home, ".codex"), "config.toml"), format: "toml", key: "mcp_servers" },
    };
  const config = join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode");
  return { skills: join(config, "skills"), mcp: { file: join(config, "opencode.json"), format: "json", key: "mcp" } };
}
