import { join } from "node:path";
import { events, type Transcript, type Usage } from "../transcript.js";
import { present, repeated, userHome, type Preset } from "./preset.js";

/** Codex, run with `exec --json`. */
export const codex: Preset = {
  name: "codex",
  program: "codex",
  install: "@openai/codex@0.169.0",
  // --full-auto is gone from current releases; its own sandbox has no network (the CLI must reach the API) and
  // cannot write outside cwd, and a login shell resets PATH (the CLI would not be found).
  args: [
    "exec",
    "--skip-git-repo-check",
    "--json",
    "--dangerously-bypass-approvals-and-sandbox",
    "-c",
    "allow_login_shell=false",
    "-c",
    "analytics.enabled=false",
    "--disable",
    "plugins",
    "{prompt}",
  ],
  promptVia: "arg",
  defaults: {},
  forced: {},
  configEnv: ["CODEX_HOME", "OPENAI_API_KEY", "CODEX_API_KEY"],
  modelEnv: ["OPENAI_BASE_URL", "OPENAI_API_BASE", "CODEX_HOME", "CODEX_OSS_BASE_URL", "CODEX_OSS_PORT"],
  configureHint: "export OPENAI_API_KEY=…  # or `codex login`, or a model provider in ~/.codex/config.toml",
  configFiles(env) {
    const dir = env.CODEX_HOME || join(userHome(env), ".codex");
    // CODEX_HOME is also where Codex writes its sessions: it gets a writable one in the attempt's HOME, with your
    // config and login shown inside it.
    return {
      files: present(["config.toml", "auth.json"].map((f) => ({ host: join(dir, f), home: `.codex/${f}` }))),
      env: { CODEX_HOME: "{home}/.codex" },
    };
  },
  parse: parseCodex,
  skillFolders: [".agents/skills", ".codex/skills"],
  skillSettings: /^\s*\[\[?skills[\].]/m,
  // -c values are TOML; a JSON string and a JSON array of strings are TOML too.
  mcp: (server) => ({
    args: [
      "-c",
      `mcp_servers.${server.name}.command=${JSON.stringify(server.command)}`,
      "-c",
      `mcp_servers.${server.name}.args=${JSON.stringify(server.args)}`,
    ],
    env: {},
  }),
  // Codex waits for the network without end ("Reconnecting... waiting for network", 3 s then 8 s apart); two in a row
  // with no progress between them is a dead model.
  fatal: repeated(
    2,
    /"type":"error".*Reconnecting/,
    /"type":"(item|turn)\.(completed|started)"/,
    (line) => `Codex cannot reach its model: ${/"message":"([^"]*)"/.exec(line)?.[1] ?? "reconnecting"}`,
  ),
};

interface CodexEvent {
  type?: string;
  item?: {
    type?: string;
    command?: string;
    aggregated_output?: string;
    exit_code?: number | null;
    status?: string;
    text?: string;
    message?: string;
  };
  usage?: Usage;
  error?: { message?: string };
  message?: string;
}

/** Codex `exec --json`: thread.started, item.* (command_execution, agent_message, error), turn.completed|failed, error. */
function parseCodex(stdout: string): Transcript {
  const t: Transcript = { messages: [], tool_calls: [] };
  let turns = 0;
  const tokens = { input: 0, output: 0 };
  let sawUsage = false;
  for (const e of events<CodexEvent>(stdout)) {
    if (e.type === "item.completed") {
      const item = e.item ?? {};
      if (item.type === "command_execution") {
        t.tool_calls.push({
          name: "shell",
          input: { command: item.command },
          output: item.aggregated_output ?? "",
          exit_code: item.exit_code ?? null,
          is_error: item.status === "failed",
        });
        t.messages.push({ role: "tool", text: item.aggregated_output ?? "" });
      } else if (item.type === "agent_message" && item.text) {
        t.messages.push({ role: "assistant", text: item.text });
        t.final = item.text;
      } else if (item.type === "error" && item.message) t.messages.push({ role: "system", text: item.message });
    } else if (e.type === "turn.completed") {
      turns++;
      if (e.usage) {
        sawUsage = true;
        tokens.input += (e.usage.input_tokens ?? 0) + (e.usage.cached_input_tokens ?? 0);
        tokens.output += e.usage.output_tokens ?? 0;
      }
    } else if (e.type === "turn.failed") t.error = `Codex failed: ${e.error?.message ?? "turn failed"}`;
    else if (e.type === "error" && e.message) t.error ??= `Codex failed: ${e.message}`;
  }
  t.turns = turns;
  if (sawUsage) t.tokens = tokens;
  return t;
}
