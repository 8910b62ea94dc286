/**
 * Anthropic Messages: POST `{baseUrl}/v1/messages` with the answer's schema as the `input_schema` of one tool the model
 * is made to call (`tool_choice: { type: "tool" }`); the answer is that `tool_use` block's `input`.
 * `baseUrl` may be "https://api.anthropic.com" or "https://api.anthropic.com/v1": a trailing `/v1` is dropped before
 * `/v1/messages` is appended, and an address already ending in `/v1/messages` is used as it is.
 */
import type { ParsedAnswer, ProviderAdapter, StructuredRequest, Usage } from "./types.js";
import { count, excerptOf } from "./parse.js";

const ANTHROPIC_VERSION = "2023-06-01";

export function anthropicAdapter(baseUrl: URL, model: string): ProviderAdapter {
  const endpoint = new URL(baseUrl.href);
  const path = endpoint.pathname.replace(/\/+$/, "");
  endpoint.pathname = path.endsWith("/v1/messages") ? path : `${path.replace(/\/v1$/, "")}/v1/messages`;
  return {
    provider: "anthropic",
    endpoint,
    headers: (key) => ({
      ...(key ? { "x-api-key": key } : {}),
      "anthropic-version": ANTHROPIC_VERSION,
      "content-type": "application/json",
      accept: "application/json",
    }),
    body: (request, { maxTokens }) => ({
      model,
      max_tokens: maxTokens,
      system: request.system,
      messages: [{ role: "user", content: request.user }],
      tools: [
        {
          name: request.schemaName,
          description: `Record the ${request.schemaName} answer. Call this tool exactly once, with the whole answer as its input.`,
          input_schema: request.schema,
        },
      ],
      tool_choice: { type: "tool", name: request.schemaName },
    }),
    parse: (payload, request) => parseMessage(payload, request),
  };
}

function parseMessage(payload: unknown, request: StructuredRequest): ParsedAnswer {
  const body = (payload ?? {}) as {
    content?: Array<{ type?: unknown; name?: unknown; input?: unknown; text?: unknown }>;
    stop_reason?: unknown;
    usage?: Record<string, unknown>;
  };
  const u = body.usage ?? {};
  // Prompt-cache reads and writes are input tokens too (billed at other rates; estimateCost prices them as input).
  const usage: Usage = {
    inputTokens: count(u.input_tokens) + count(u.cache_creation_input_tokens) + count(u.cache_read_input_tokens),
    outputTokens: count(u.output_tokens),
  };
  const blocks = Array.isArray(body.content) ? body.content : [];
  const text = blocks.map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join(" ");
  if (body.stop_reason === "refusal")
    return {
      ok: false,
      reason: "refusal",
      message: "the model refused to answer (stop_reason: refusal)",
      usage,
      excerpt: excerptOf(text),
    };
  if (body.stop_reason === "max_tokens")
    return {
      ok: false,
      reason: "truncated",
      message: "the answer was cut off at the output-token cap (stop_reason: max_tokens)",
      usage,
      excerpt: excerptOf(text),
    };
  const tool =
    blocks.find((b) => b?.type === "tool_use" && b.name === request.schemaName) ??
    blocks.find((b) => b?.type === "tool_use");
  if (!tool)
    return {
      ok: false,
      reason: "no-answer",
      message: `the answer has no tool_use block for ${request.schemaName}`,
      usage,
      excerpt: excerptOf(text),
    };
  if (typeof tool.input === "string")
    return {
      ok: false,
      reason: "not-json",
      message: "the tool_use block's input is a string, not a JSON object",
      usage,
      excerpt: excerptOf(tool.input),
    };
  return { ok: true, value: tool.input, usage };
}
