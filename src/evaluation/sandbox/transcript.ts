/**
 * One transcript format for every agent: what its event stream says it did, parsed from Claude Code's stream-json,
 * Codex's `exec --json` and opencode's `run --format json`. A transcript is the agent's own account: it is shown
 * to people and summarised, never evidence for a check (the broker's records are).
 */
export interface ToolCall {
  name: string;
  input: unknown;
  output?: string;
  exit_code?: number | null;
  is_error?: boolean;
}

export interface Transcript {
  messages: Array<{ role: "assistant" | "tool" | "system"; text: string }>;
  tool_calls: ToolCall[];
  /** The agent's last message: its answer. Never evidence (docs/eval-plan.md). */
  final?: string;
  turns?: number;
  tokens?: { input: number; output: number };
  cost_usd?: number;
  duration_ms?: number;
  /** The agent's own report that it failed (login, model, rejected permission): a harness error, not the candidate's. */
  error?: string;
  /** The Skills the agent says it offers its model, where it says so (Claude Code's first event): trigger evaluation. */
  skills?: string[];
  /** The model that answered, as the agent's own stream reports it: only a message's own model says it answered. */
  model?: string;
  /** The model the agent asked for (Claude Code's init event): what it was configured with, not what answered. */
  requestedModel?: string;
}

/** What results.json keeps of a transcript per attempt. */
export interface TranscriptSummary {
  turns: number | null;
  tool_calls: number;
  tokens: { input: number; output: number } | null;
  cost_usd: number | null;
  duration_ms: number | null;
  final: string | null;
  /** The model as served (the agent's stream); absent where the agent does not report it or nothing answered. */
  model?: string;
  /** The model the agent asked for, where its stream says. */
  requested_model?: string;
}

export function summarizeTranscript(t: Transcript): TranscriptSummary {
  return {
    turns: t.turns ?? null,
    tool_calls: t.tool_calls.length,
    tokens: t.tokens ?? null,
    cost_usd: t.cost_usd ?? null,
    duration_ms: t.duration_ms ?? null,
    final: t.final ? t.final.slice(0, 2000) : null,
    ...(t.model ? { model: t.model } : {}),
    ...(t.requestedModel ? { requested_model: t.requestedModel } : {}),
  };
}

/*
 * The parts of each program's event stream a transcript reads. The stream is the agent's own output, so nothing in it
 * is trusted to have these shapes: every field is optional and read defensively, and text is coerced where it is shown.
 */
interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  cached_input_tokens?: number;
}

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

interface OpencodePart {
  type?: string;
  tool?: string;
  text?: string;
  state?: { input?: unknown; output?: unknown; error?: unknown; status?: string; metadata?: { exit?: unknown } };
  tokens?: { input?: number; output?: number; cache?: { read?: number } };
  cost?: unknown;
}

interface OpencodeEvent {
  type?: string;
  part?: OpencodePart;
  error?: { name?: string; message?: string; data?: { message?: string } };
}

/** The JSON objects of an event stream, one per line; any other line (a warning printed to stdout) is skipped. */
function* events<T extends object>(stdout: string): Generator<T> {
  for (const line of stdout.split("\n")) {
    const text = line.trim();
    if (!text.startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === "object" && !Array.isArray(value)) yield value as T;
    } catch {
      // a line that is not an event
    }
  }
}

const text = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content
          .map((c: unknown) => (typeof c === "string" ? c : String((c as { text?: unknown } | null)?.text ?? "")))
          .join("")
      : "";

/** Claude Code `-p --output-format stream-json --verbose`: system, assistant, user (tool results), result. */
export function parseClaudeCode(stdout: string): Transcript {
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

/** Codex `exec --json`: thread.started, item.* (command_execution, agent_message, error), turn.completed|failed, error. */
export function parseCodex(stdout: string): Transcript {
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

/** opencode `run --format json`: step_start, tool_use, text, step_finish (tokens, cost), error. */
export function parseOpencode(stdout: string): Transcript {
  const t: Transcript = { messages: [], tool_calls: [] };
  let steps = 0;
  const tokens = { input: 0, output: 0 };
  let cost = 0;
  let sawTokens = false;
  for (const e of events<OpencodeEvent>(stdout)) {
    const part = e.part ?? {};
    if (e.type === "tool_use" && part.type === "tool") {
      const state = part.state ?? {};
      const output =
        typeof state.output === "string" ? state.output : typeof state.error === "string" ? state.error : "";
      const exit = state.metadata?.exit;
      t.tool_calls.push({
        name: String(part.tool ?? "unknown"),
        input: state.input,
        output,
        exit_code: typeof exit === "number" ? exit : state.status === "error" ? null : undefined,
        is_error: state.status === "error",
      });
      t.messages.push({ role: "tool", text: output });
      if (state.status === "error" && /permission|rejected|denied/i.test(output))
        t.error ??= `opencode was refused permission for ${part.tool}: ${output.slice(0, 300)}`;
    } else if (e.type === "text" && part.text) {
      t.messages.push({ role: "assistant", text: part.text });
      t.final = part.text;
    } else if (e.type === "step_finish") {
      steps++;
      if (part.tokens) {
        sawTokens = true;
        tokens.input += (part.tokens.input ?? 0) + (part.tokens.cache?.read ?? 0);
        tokens.output += part.tokens.output ?? 0;
      }
      if (typeof part.cost === "number") cost += part.cost;
    } else if (e.type === "error") {
      const err = e.error ?? {};
      t.error ??= `opencode failed: ${err.data?.message ?? err.message ?? err.name ?? JSON.stringify(err).slice(0, 300)}`;
    }
  }
  t.turns = steps;
  if (sawTokens) t.tokens = tokens;
  t.cost_usd = cost;
  return t;
}
