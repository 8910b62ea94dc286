/**
 * OpenAI Chat Completions, as OpenAI, DeepSeek, OpenRouter, vLLM, llama.cpp and Ollama speak it: POST
 * `{baseUrl}/chat/completions`, the answer forced into shape by `response_format: json_schema` (strict), read from
 * `choices[0].message.content`.
 *
 * A server that refuses `json_schema` (DeepSeek takes only `json_object`) gets the same request once more in JSON mode,
 * with the schema in the system message; the client decides when (see client.ts) and validates the answer either way.
 */
import type { ParsedAnswer, ProviderAdapter, StructuredRequest, Usage } from "./types.js";
import { count, excerptOf, parseJsonText } from "./parse.js";

/** OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…) refuse `max_tokens` and take `max_completion_tokens`. */
const COMPLETION_TOKENS_MODELS = /^(o\d|gpt-5)/;

export function openAiAdapter(baseUrl: URL, model: string): ProviderAdapter {
  const endpoint = new URL(baseUrl.href);
  const path = endpoint.pathname.replace(/\/+$/, "");
  endpoint.pathname = path.endsWith("/chat/completions") ? path : `${path}/chat/completions`;
  const bareModel = model.slice(model.lastIndexOf("/") + 1);
  return {
    provider: "openai-compatible",
    endpoint,
    headers: (key) => ({
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      "content-type": "application/json",
      accept: "application/json",
    }),
    body(request, { maxTokens, jsonObjectMode }) {
      const system = jsonObjectMode
        ? `${request.system}\n\nAnswer with one JSON object and nothing else. It must conform to this JSON Schema (named ${request.schemaName}):\n${JSON.stringify(request.schema)}`
        : request.system;
      return {
        model,
        messages: [
          { role: "system", content: system },
          { role: "user", content: request.user },
        ],
        response_format: jsonObjectMode
          ? { type: "json_object" }
          : { type: "json_schema", json_schema: { name: request.schemaName, schema: request.schema, strict: true } },
        [COMPLETION_TOKENS_MODELS.test(bareModel) ? "max_completion_tokens" : "max_tokens"]: maxTokens,
        stream: false,
      };
    },
    parse: (payload, request) => parseChatCompletion(payload, request),
  };
}

function parseChatCompletion(payload: unknown, _request: StructuredRequest): ParsedAnswer {
  const body = (payload ?? {}) as {
    choices?: Array<{ message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }>;
    usage?: Record<string, unknown>;
  };
  const usage: Usage = {
    inputTokens: count(body.usage?.prompt_tokens),
    outputTokens: count(body.usage?.completion_tokens),
  };
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!choice || typeof choice !== "object")
    return { ok: false, reason: "no-answer", message: "the answer has no choices[0]", usage };
  const message = choice.message ?? {};
  if (typeof message.refusal === "string" && message.refusal)
    return {
      ok: false,
      reason: "refusal",
      message: "the model refused to answer",
      usage,
      excerpt: excerptOf(message.refusal),
    };
  const content =
    typeof message.content === "string"
      ? message.content
      : Array.isArray(message.content)
        ? message.content.map((part: { text?: unknown }) => (typeof part?.text === "string" ? part.text : "")).join("")
        : "";
  if (choice.finish_reason === "length")
    return {
      ok: false,
      reason: "truncated",
      message: "the answer was cut off at the output-token cap (finish_reason: length)",
      usage,
      excerpt: excerptOf(content),
    };
  if (!content.trim()) return { ok: false, reason: "no-answer", message: "choices[0].message.content is empty", usage };
  const parsed = parseJsonText(content);
  if (!parsed.ok)
    return {
      ok: false,
      reason: "not-json",
      message: `choices[0].message.content is not JSON (${parsed.error})`,
      usage,
      excerpt: excerptOf(content),
    };
  return { ok: true, value: parsed.value, usage };
}
