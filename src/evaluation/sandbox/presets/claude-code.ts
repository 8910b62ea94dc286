import { join } from "node:path";
import { events, text, type ToolCall, type Transcript, type Usage } from "../transcript.js";
import { present, userHome, type Preset } from "./preset.js";

/** Claude Code, run headless with `-p` and its stream-json events. */
export const claudeCode: Preset = {
  name: "claude-code",
  program: "claude",
  install: "@anthropic-ai/claude-code@2.1.328",
  args: ["-p", "{prompt}", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"],
  promptVia: "arg",
  // As root (CI containers) Claude Code refuses to skip permissions unless told it is sandboxed, which a sealed
  // attempt is; a dead model endpoint is retried for minutes unless the retries are bounded.
  defaults: { CLAUDE_CODE_MAX_RETRIES: "2", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1" },
  forced: { IS_SANDBOX: "1" },
  configEnv: ["ANTHROPIC_", "CLAUDE_CODE_USE_", "CLAUDE_CONFIG_DIR"],
  modelEnv: [
    "ANTHROPIC_MODEL",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_SMALL_FAST_MODEL",
    "ANTHROPIC_DEFAULT_OPUS_MODEL",
    "ANTHROPIC_DEFAULT_SONNET_MODEL",
    "ANTHROPIC_DEFAULT_HAIKU_MODEL",
    "CLAUDE_CODE_SUBAGENT_MODEL",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
    "ANTHROPIC_VERTEX_PROJECT_ID",
    "CLOUD_ML_REGION",
    "AWS_REGION",
    "CLAUDE_CONFIG_DIR",
  ],
  configureHint: "export ANTHROPIC_API_KEY=…  # or log in once with `claude` (~/.claude/.credentials.json)",
  configFiles(env) {
    const dir = env.CLAUDE_CONFIG_DIR || join(userHome(env), ".claude");
    return {
      files: present([".credentials.json", "settings.json"].map((f) => ({ host: join(dir, f), home: `.claude/${f}` }))),
      env: env.CLAUDE_CONFIG_DIR ? { CLAUDE_CONFIG_DIR: "{home}/.claude" } : ({} as Record<string, string>),
    };
  },
  parse: parseClaudeCode,
  skillFolders: [".claude/skills"],
  skillSettings: /"(enabledPlugins|extraKnownMarketplaces|skills)"\s*:/,
  // Only this server: the user's own MCP servers stay out of the attempt. Its tools are given to the model up front,
  // as the CLI's help is, rather than found through Claude Code's tool search — unless you set ENABLE_TOOL_SEARCH.
  mcp: (server) => ({
    args: [
      "--mcp-config",
      JSON.stringify({
        mcpServers: { [server.name]: { type: "stdio", command: server.command, args: server.args } },
      }),
      "--strict-mcp-config",
    ],
    env:
      process.env.ENABLE_TOOL_SEARCH === undefined ? { ENABLE_TOOL_SEARCH: "false" } : ({} as Record<string, string>),
  }),
};

interface ClaudeBlock {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

interface ClaudeEvent {
  type?: string;
  subtype?: string;
  skills?: unknown[];
  model?: unknown;
  message?: { content?: ClaudeBlock[]; model?: unknown };
  num_turns?: number;
  usage?: Usage;
  total_cost_usd?: unknown;
  duration_ms?: unknown;
  result?: unknown;
  is_error?: boolean;
  terminal_reason?: string;
  permission_denials?: Array<{ tool_name?: string } | null>;
}

/** Claude Code `-p --output-format stream-json --verbose`: system, assistant, user (tool results), result. */
function parseClaudeCode(stdout: string): Transcript {
  const t: Transcript = { messages: [], tool_calls: [] };
  const byId = new Map<string, ToolCall>();
  for (const e of events<ClaudeEvent>(stdout)) {
    if (e.type === "system" && e.subtype === "init" && Array.isArray(e.skills))
      t.skills = e.skills.filter((s: unknown): s is string => typeof s === "string");
    // The init event names the model asked for; a connection cut before any answer leaves only that, and it answered
    // nothing: a run's served models are those its messages name.
    if (e.type === "system" && e.subtype === "init" && typeof e.model === "string")
      t.requestedModel = e.model.slice(0, 200);
    // The model that wrote a message is the one that answered (a fallback model can differ from the init event's).
    if (e.type === "assistant" && typeof e.message?.model === "string" && e.message.model !== "<synthetic>")
      t.model = e.message.model.slice(0, 200);
    if (e.type === "assistant") {
      for (const block of e.message?.content ?? []) {
        if (block.type === "text" && block.text) t.messages.push({ role: "assistant", text: block.text });
        if (block.type === "tool_use") {
          const call: ToolCall = { name: String(block.name ?? "unknown"), input: block.input };
          if (block.id) byId.set(block.id, call);
          t.tool_calls.push(call);
        }
      }
    } else if (e.type === "user") {
      for (const block of Array.isArray(e.message?.content) ? e.message.content : []) {
        if (block.type !== "tool_result") continue;
        const call = block.tool_use_id ? byId.get(block.tool_use_id) : undefined;
        const output = text(block.content);
        if (call)
          Object.assign(call, {
            output,
            is_error: Boolean(block.is_error),
            exit_code: exitFromText(output, block.is_error),
          });
        t.messages.push({ role: "tool", text: output });
        // A deny rule of the user's own settings still holds under --dangerously-skip-permissions.
        if (block.is_error && /^Permission to use .* has been denied/.test(output))
          t.error ??= `Claude Code was refused permission: ${output.slice(0, 300)}`;
      }
    } else if (e.type === "result") {
      t.turns = e.num_turns;
      if (e.usage)
        t.tokens = {
          input:
            (e.usage.input_tokens ?? 0) +
            (e.usage.cache_read_input_tokens ?? 0) +
            (e.usage.cache_creation_input_tokens ?? 0),
          output: e.usage.output_tokens ?? 0,
        };
      if (typeof e.total_cost_usd === "number") t.cost_usd = e.total_cost_usd;
      if (typeof e.duration_ms === "number") t.duration_ms = e.duration_ms;
      if (typeof e.result === "string" && e.result) t.final = e.result;
      if (e.is_error)
        t.error = `Claude Code reported an error (${e.subtype ?? "error"}${e.terminal_reason ? `, ${e.terminal_reason}` : ""}): ${typeof e.result === "string" && e.result ? e.result : (t.messages.at(-1)?.text ?? "no message")}`;
      if (Array.isArray(e.permission_denials) && e.permission_denials.length && !t.error)
        t.error = `Claude Code was denied permission for ${e.permission_denials.map((d: { tool_name?: string } | null) => d?.tool_name ?? "a tool").join(", ")}`;
    }
  }
  t.final ??= [...t.messages].reverse().find((m) => m.role === "assistant")?.text;
  return t;
}

/** Claude Code's Bash tool reports a failing command as "Exit code N" at the top of its output. */
function exitFromText(output: string, isError: unknown): number | null | undefined {
  const m = /^Exit code (\d+)/.exec(output);
  if (m) return Number(m[1]);
  return isError ? null : 0;
}
