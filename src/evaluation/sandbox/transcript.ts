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
 * What the presets' readers (presets/*.ts) share. The stream is the agent's own output, so nothing in it
 * is trusted to have these shapes: every field is optional and read defensively, and text is coerced where it is shown.
 */

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  cached_input_tokens?: number;
}

/** The JSON objects of an event stream, one per line; any other line (a warning printed to stdout) is skipped. */
export function* events<T extends object>(stdout: string): Generator<T> {
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

export const text = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content
          .map((c: unknown) => (typeof c === "string" ? c : String((c as { text?: unknown } | null)?.text ?? "")))
          .join("")
      : "";
