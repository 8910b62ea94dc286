/**
 * The shapes of the model client (src/model/client.ts). Kept apart from the client so the provider modules can use
 * them without importing the client (no import cycle).
 */

export type ModelProvider = "openai-compatible" | "anthropic";

/** Where and how to ask a model. Holds the NAME of the variable with the key, never the key itself. */
export interface ModelSettings {
  /** `openai-compatible` (OpenAI, DeepSeek, local servers: Chat Completions) or `anthropic` (Messages). */
  provider: ModelProvider;
  /** The provider's model id, e.g. "deepseek-chat", "gpt-4.1-mini", "claude-sonnet-4-5". */
  model: string;
  /**
   * openai-compatible: the address `/chat/completions` is appended to, e.g. "https://api.deepseek.com/v1",
   * "https://api.openai.com/v1", "http://127.0.0.1:11434/v1" (an address that already ends in /chat/completions is
   * used as it is). anthropic: "https://api.anthropic.com" and "https://api.anthropic.com/v1" both work
   * (`/v1/messages` is appended after dropping a trailing `/v1`; an address ending in /v1/messages is used as it is).
   */
  baseUrl: string;
  /**
   * The NAME of the environment variable holding the API key, e.g. "DEEPSEEK_API_KEY". Absent for a server that takes
   * no key (a local one): requests then carry no key header.
   */
  keyEnv?: string;
  /** The output-token cap of each request (default 8192). */
  maxTokens?: number;
  /** How long one request may take, headers and body, before it counts as failed and is retried (default 120 s). */
  timeoutMs?: number;
}

/** One question with a structured answer: the answer is an object that must conform to `schema`. */
export interface StructuredRequest {
  system: string;
  user: string;
  /** Names the answer: the json_schema name (OpenAI) or the tool name (Anthropic); `^[A-Za-z0-9_-]{1,64}$`. */
  schemaName: string;
  /**
   * JSON Schema of the answer object. For OpenAI strict mode every object must list all its properties in `required`
   * and set `additionalProperties: false`; the client validates every answer against it either way.
   */
  schema: object;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface StructuredAnswer {
  /** The answer object, already validated against the request's schema. */
  value: unknown;
  /** Tokens of the request that produced the answer, as the provider reported them. */
  usage: Usage;
  /** HTTP requests made for this answer, retries included (1 when the first one succeeded). */
  attempts: number;
}

export interface ModelClient {
  /** Asks once (retrying transient failures); rejects with an InterError whose code is one of the MODEL_* codes. */
  complete(request: StructuredRequest, signal?: AbortSignal): Promise<StructuredAnswer>;
}

export interface RetryInfo {
  /** The attempt that failed (1 for the first request). */
  attempt: number;
  /** Its HTTP status; absent for a timeout or a network error. */
  status?: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** What failed, for a progress line: "HTTP 429", "timed out after 30 s", "ECONNREFUSED". Never holds the key. */
  reason: string;
}

export interface ClientOptions {
  /** Retries after the first attempt for 408/409/429/5xx, timeouts and network errors (default 4). */
  retries?: number;
  /** First backoff delay; doubles each retry, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /** Cap of every wait, `retry-after` included (default 20 s). */
  maxDelayMs?: number;
  onRetry?: (info: RetryInfo) => void;
}

/** What a provider module gives the client: where to send, what, and how to read the answer. */
export interface ProviderAdapter {
  readonly provider: ModelProvider;
  /** The full address requests are posted to. */
  readonly endpoint: URL;
  headers(key: string): Record<string, string>;
  body(request: StructuredRequest, options: { maxTokens: number; jsonObjectMode: boolean }): object;
  parse(payload: unknown, request: StructuredRequest): ParsedAnswer;
}

export type ParsedAnswer =
  | { ok: true; value: unknown; usage: Usage }
  | {
      ok: false;
      reason: "not-json" | "no-answer" | "refusal" | "truncated";
      message: string;
      usage: Usage;
      excerpt?: string;
    };
