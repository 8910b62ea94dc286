/**
 * The model client of the design loop: one structured question, one validated answer object.
 *
 * - Providers: `openai-compatible` (Chat Completions with `response_format: json_schema`, strict; OpenAI, DeepSeek,
 *   OpenRouter, local servers) and `anthropic` (Messages with one forced tool whose `input_schema` is the schema).
 *   See openai.ts and anthropic.ts for the addresses each builds from `baseUrl`.
 * - Every answer is validated against the request's schema here, whatever the provider promised; a server that
 *   refuses `json_schema` (HTTP 400 naming response_format, as DeepSeek does) is asked once more in JSON mode, and
 *   the client keeps JSON mode for its later requests.
 * - Retries: 408/409/429/5xx, timeouts and network errors, up to `retries` times, waiting `retry-after` (seconds, HTTP
 *   date, or `retry-after-ms`) or exponential backoff with jitter, each wait capped at `maxDelayMs`. 400/401/403/404/
 *   422 and other statuses are answers about the request and fail at once. Redirects are not followed (the key would
 *   go with them).
 * - Time: `timeoutMs` bounds each request (headers and body; a timed-out request is retried); the caller's `signal`
 *   bounds the whole run. When it aborts, the request and any backoff wait stop at once and `complete` rejects with
 *   the signal's reason if that is an InterError, with MODEL_UNREACHABLE if it is a TimeoutError
 *   (`AbortSignal.timeout`: a deadline, `details.deadline: true`), and with INTERRUPTED otherwise.
 * - Errors are InterErrors with MODEL_* codes (README, "Exit codes and error codes"); each names the provider and
 *   the base URL's origin and says what to do. The key is read once from `env[keyEnv]`, sent only in its header, and
 *   replaced by "[REDACTED]" in every message, suggestion and detail, server text echoed back included.
 */
import { formatDuration } from "../core/duration.js";
import { InterError, type ErrorCode } from "../core/errors.js";
import { heldOpen } from "../core/held-open.js";
import { compileSchema, type SchemaValidator } from "../core/json-schema.js";
import { anthropicAdapter } from "./anthropic.js";
import { openAiAdapter } from "./openai.js";
import { excerptOf } from "./parse.js";
import { redactDeep } from "../core/redact.js";
import { redactor } from "../core/redact.js";
import { isRetryableStatus, retryAfterMs, retryDelay, sleep } from "./retry.js";
import type {
  ClientOptions,
  ModelClient,
  ModelProvider,
  ModelSettings,
  ParsedAnswer,
  ProviderAdapter,
  StructuredAnswer,
  StructuredRequest,
} from "./types.js";

export type {
  ClientOptions,
  ModelClient,
  ModelProvider,
  ModelSettings,
  RetryInfo,
  StructuredRequest,
  Usage,
} from "./types.js";
export { estimateCost } from "./pricing.js";
export { Budget, type Spent } from "./budget.js";
export { mapLimit } from "../core/map-limit.js";

const MODEL_DEFAULTS = {
  maxTokens: 8192,
  timeoutMs: 120_000,
  retries: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
} as const;

/** An answer body larger than this is refused (MODEL_OUTPUT_INVALID) instead of being held in memory. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const PROVIDERS: Record<ModelProvider, { label: string; adapter: (baseUrl: URL, model: string) => ProviderAdapter }> = {
  "openai-compatible": { label: "OpenAI-compatible", adapter: openAiAdapter },
  anthropic: { label: "Anthropic", adapter: anthropicAdapter },
};

const SCHEMA_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A client for the config's `design.model`. Only the request settings pass on: the config's `maxTokens` is a budget
 * for a whole run (cli/suggest-run.ts), not a cap of each request.
 */
export function configuredModelClient(
  settings: Pick<ModelSettings, "provider" | "model" | "baseUrl" | "keyEnv" | "timeoutMs"> & { retries?: number },
  env: NodeJS.ProcessEnv,
  options: Omit<ClientOptions, "retries"> = {},
): ModelClient {
  return createModelClient(
    {
      provider: settings.provider,
      model: settings.model,
      baseUrl: settings.baseUrl,
      ...(settings.keyEnv !== undefined ? { keyEnv: settings.keyEnv } : {}),
      ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
    },
    env,
    { ...options, ...(settings.retries !== undefined ? { retries: settings.retries } : {}) },
  );
}

/**
 * A client for `settings`, with the key read now from `env[settings.keyEnv]`.
 * Throws CONFIG_INVALID for an unusable setting (unknown provider, a base URL that is not http(s) or holds a user name
 * or password) and MODEL_KEY_MISSING when the variable is unset, empty, or holds spaces or control characters.
 */
export function createModelClient(
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
  options: ClientOptions = {},
): ModelClient {
  const { provider, baseUrl } = checkedSettings(settings);
  const where = `the ${provider.label} model server at ${baseUrl.origin}`;
  return new HttpModelClient(settings, provider, baseUrl, keyOf(settings, env, where, baseUrl.origin), options);
}

/** The provider and the base URL of usable settings; CONFIG_INVALID naming the field otherwise. */
function checkedSettings(settings: ModelSettings): { provider: (typeof PROVIDERS)[ModelProvider]; baseUrl: URL } {
  const provider = PROVIDERS[settings.provider];
  if (!provider)
    throw new InterError(
      "CONFIG_INVALID",
      `Unknown model provider ${JSON.stringify(settings.provider)}.`,
      `Use "openai-compatible" (OpenAI, DeepSeek, local servers) or "anthropic".`,
      { field: "provider" },
    );
  if (typeof settings.model !== "string" || !settings.model.trim())
    throw new InterError(
      "CONFIG_INVALID",
      "The model setting has no model name.",
      'Name the provider\'s model id, e.g. "deepseek-chat", "gpt-4.1-mini" or "claude-sonnet-4-5".',
      { field: "model" },
    );
  if (settings.keyEnv !== undefined && (typeof settings.keyEnv !== "string" || !ENV_NAME.test(settings.keyEnv)))
    throw new InterError(
      "CONFIG_INVALID",
      `keyEnv must be the NAME of an environment variable (letters, digits, _), not ${typeof settings.keyEnv === "string" ? "a value like that" : String(settings.keyEnv)}.`,
      'Set keyEnv to e.g. "DEEPSEEK_API_KEY" and export the key under that name; the config never holds the key.',
      { field: "keyEnv" },
    );
  const baseUrl = parseBaseUrl(settings.baseUrl);
  for (const field of ["maxTokens", "timeoutMs"] as const) {
    const value = settings[field];
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new InterError(
        "CONFIG_INVALID",
        `The model's ${field} must be a positive whole number, not ${String(value)}.`,
        `Remove ${field} to use the default (${MODEL_DEFAULTS[field]}) or give a positive integer.`,
        { field },
      );
  }
  return { provider, baseUrl };
}

/** The key from the environment ("" for a server that takes none); MODEL_KEY_MISSING when it is unusable. */
function keyOf(settings: ModelSettings, env: NodeJS.ProcessEnv, where: string, origin: string): string {
  // No keyEnv: a server that takes no key (a local one); requests carry no key header.
  const key = settings.keyEnv === undefined ? "" : (env[settings.keyEnv] ?? "").trim();
  const details = { key_env: settings.keyEnv, provider: settings.provider, origin };
  if (settings.keyEnv !== undefined && !key)
    throw new InterError(
      "MODEL_KEY_MISSING",
      `${settings.keyEnv} is not set: it should hold the API key for ${where}.`,
      `export ${settings.keyEnv}=<your key> (the config names the variable; the key stays out of every file), then run again.`,
      details,
    );
  if (/[^\x21-\x7e]/.test(key))
    throw new InterError(
      "MODEL_KEY_MISSING",
      `${settings.keyEnv} is set but holds no usable key: it contains spaces, control or non-ASCII characters.`,
      `Export the key alone: export ${settings.keyEnv}=<your key> (no quotes, spaces or line breaks inside).`,
      details,
    );
  return key;
}

/** One request's outcome: an answer to judge, a failure worth retrying, or a server that wants JSON mode. */
type Outcome =
  | { kind: "answer"; parsed: ParsedAnswer }
  | { kind: "retry"; status?: number; reason: string; error: InterError; retryAfterMs?: number }
  | { kind: "json-mode" };

/** The model client over HTTP: one adapter, one key, and the retry policy of the module's comment. */
class HttpModelClient implements ModelClient {
  private readonly adapter: ProviderAdapter;
  private readonly origin: string;
  private readonly where: string;
  private readonly redact: (text: string) => string;
  private readonly maxTokens: number;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly validators = new WeakMap<object, Promise<SchemaValidator>>();
  /** Set once a server refused json_schema: every later request asks for a JSON object instead. */
  private jsonObjectMode = false;

  constructor(
    private readonly settings: ModelSettings,
    provider: (typeof PROVIDERS)[ModelProvider],
    private readonly baseUrl: URL,
    private readonly key: string,
    private readonly options: ClientOptions,
  ) {
    this.adapter = provider.adapter(baseUrl, settings.model);
    this.origin = baseUrl.origin;
    this.where = `the ${provider.label} model server at ${this.origin}`;
    this.redact = redactor([key]);
    this.maxTokens = settings.maxTokens ?? MODEL_DEFAULTS.maxTokens;
    this.timeoutMs = settings.timeoutMs ?? MODEL_DEFAULTS.timeoutMs;
    this.retries = Math.max(0, Math.floor(options.retries ?? MODEL_DEFAULTS.retries));
    this.baseDelayMs = Math.max(0, options.baseDelayMs ?? MODEL_DEFAULTS.baseDelayMs);
    this.maxDelayMs = Math.max(0, options.maxDelayMs ?? MODEL_DEFAULTS.maxDelayMs);
  }

  async complete(request: StructuredRequest, signal?: AbortSignal): Promise<StructuredAnswer> {
    const validate = await this.checkedRequest(request);
    let attempts = 0;
    let retried = 0;
    for (;;) {
      if (signal?.aborted) throw this.aborted(signal, attempts);
      attempts++;
      // One request and its answer, bounded by timeoutMs.
      const outcome = await heldOpen(() => this.attempt(request, attempts, signal), this.timeoutMs);
      if (outcome.kind === "json-mode") {
        this.jsonObjectMode = true;
        continue;
      }
      if (outcome.kind === "retry") {
        if (retried >= this.retries) throw outcome.error;
        retried++;
        await this.backOff(outcome, retried, attempts, signal);
        continue;
      }
      return this.judged(outcome.parsed, validate, request, attempts);
    }
  }

  /** Every error leaves through here: the key is redacted from all its text. */
  private fail(code: ErrorCode, message: string, suggestion: string, details: Record<string, unknown>): InterError {
    const { provider, model } = this.settings;
    return new InterError(
      code,
      this.redact(message),
      this.redact(suggestion),
      redactDeep({ provider, origin: this.origin, model, ...details }, this.redact),
    );
  }

  /** The request's own faults, before anything is sent; the validator of its answer schema. */
  private async checkedRequest(request: StructuredRequest): Promise<SchemaValidator> {
    if (!SCHEMA_NAME.test(request.schemaName))
      throw new InterError(
        "INTERNAL_ERROR",
        `The model request's schemaName ${JSON.stringify(request.schemaName)} is not 1–64 letters, digits, _ or -.`,
        "This is a bug in inter's caller of the model client; report it.",
      );
    const { key } = this;
    if (
      key.length >= 8 &&
      (request.system.includes(key) || request.user.includes(key) || JSON.stringify(request.schema).includes(key))
    )
      throw new InterError(
        "INTERNAL_ERROR",
        `The prompt for ${request.schemaName} holds the value of ${this.settings.keyEnv}; nothing was sent.`,
        "This is a bug in what inter put in the prompt; report it (without the key).",
        { key_env: this.settings.keyEnv },
      );
    try {
      return await this.validatorFor(request.schema);
    } catch (error) {
      throw new InterError(
        "INTERNAL_ERROR",
        `The answer schema ${request.schemaName} does not compile: ${this.redact((error as Error).message)}.`,
        "This is a bug in inter's caller of the model client; report it.",
      );
    }
  }

  private validatorFor(schema: object): Promise<SchemaValidator> {
    let validator = this.validators.get(schema);
    if (!validator) {
      // The answer schema is validated as 2020-12 whatever it declares (its keywords are the common subset).
      const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
      validator = compileSchema(rest);
      this.validators.set(schema, validator);
    }
    return validator;
  }

  /** Waits before the next attempt (the server's retry-after, else backoff), telling the caller first. */
  private async backOff(
    outcome: Extract<Outcome, { kind: "retry" }>,
    retried: number,
    attempts: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const delayMs = retryDelay(retried, {
      baseDelayMs: this.baseDelayMs,
      maxDelayMs: this.maxDelayMs,
      retryAfterMs: outcome.retryAfterMs,
    });
    this.options.onRetry?.({
      attempt: attempts,
      ...(outcome.status !== undefined ? { status: outcome.status } : {}),
      delayMs,
      reason: this.redact(outcome.reason),
    });
    try {
      await sleep(delayMs, signal);
    } catch {
      throw this.aborted(signal!, attempts);
    }
  }

  /** An answer the model gave: its value where it parses and conforms to the request's schema, else why not. */
  private judged(
    parsed: ParsedAnswer,
    validate: SchemaValidator,
    request: StructuredRequest,
    attempts: number,
  ): StructuredAnswer {
    if (!parsed.ok) throw this.invalid(parsed, attempts);
    if (!validate(parsed.value)) {
      const errors = (validate.errors ?? [])
        .slice(0, 10)
        .map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
      throw this.fail(
        "MODEL_OUTPUT_INVALID",
        `The answer of ${this.settings.model} from ${this.origin} does not conform to the ${request.schemaName} schema: ${errors.slice(0, 3).join("; ")}.`,
        "Use a model that supports structured output (OpenAI json_schema, Anthropic tool use), or run again.",
        { attempts, reason: "schema", errors, usage: parsed.usage },
      );
    }
    return { value: parsed.value, usage: parsed.usage, attempts };
  }

  private aborted(signal: AbortSignal, attempts: number): InterError {
    const reason = signal.reason as unknown;
    if (reason instanceof InterError) return reason;
    if ((reason as Error | undefined)?.name === "TimeoutError")
      return this.fail(
        "MODEL_UNREACHABLE",
        `The run's deadline passed before ${this.where} answered.`,
        "Allow the run more time, or run it again: answers received before the deadline are kept.",
        { attempts, deadline: true },
      );
    return this.fail(
      "INTERRUPTED",
      `The request to ${this.where} was cancelled.`,
      "Run the command again; answers received before the cancellation are kept.",
      { attempts },
    );
  }

  /** One request: sent, and its answer read within timeoutMs, then judged by its status. */
  private async attempt(
    request: StructuredRequest,
    attempts: number,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const body = JSON.stringify(
      this.adapter.body(request, { maxTokens: this.maxTokens, jsonObjectMode: this.jsonObjectMode }),
    );
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.adapter.endpoint, {
        method: "POST",
        headers: this.adapter.headers(this.key),
        body,
        signal: both,
        redirect: "manual",
      });
      text = await readCapped(response, MAX_ANSWER_BYTES);
    } catch (error) {
      if (signal?.aborted) throw this.aborted(signal, attempts);
      if (error instanceof InterError) throw error;
      return this.unsent(error, timeout.aborted, attempts);
    }
    return this.answered(response, text, request, attempts);
  }

  /** A request that got no answer: timed out, or the network failed. Both are worth a retry. */
  private unsent(error: unknown, timedOut: boolean, attempts: number): Outcome {
    const { where, timeoutMs, origin, baseUrl } = this;
    const tries = `${attempts} attempt${attempts === 1 ? "" : "s"}`;
    if (timedOut) {
      const reason = `no answer within ${formatDuration(timeoutMs)}`;
      return {
        kind: "retry",
        reason,
        error: this.fail(
          "MODEL_UNREACHABLE",
          `${capital(where)} gave ${reason} (${tries}).`,
          `Check the server is up; for a slow model or a long answer raise the model's timeoutMs (now ${timeoutMs}).`,
          { attempts, timeout_ms: timeoutMs },
        ),
      };
    }
    const errno = errnoOf(error);
    const reason = errno ?? ((error as Error)?.message || "network error");
    const dns = errno === "ENOTFOUND" || errno === "EAI_AGAIN";
    return {
      kind: "retry",
      reason,
      error: this.fail(
        "MODEL_UNREACHABLE",
        `${capital(where)} could not be reached: ${reason} (${tries}).`,
        dns
          ? `Check the base URL's host name (${baseUrl.host}) and the network.`
          : `Check the base URL (${origin}${baseUrl.pathname === "/" ? "" : baseUrl.pathname}) and that the server is running and reachable from here.`,
        { attempts, cause: errno ?? null },
      ),
    };
  }

  /** What an answer's status means: an answer to parse, a retry, JSON mode, or an error about the request. */
  private answered(response: Response, text: string, request: StructuredRequest, attempts: number): Outcome {
    const { settings, where, adapter } = this;
    const status = response.status;
    if (status >= 200 && status < 300) {
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        throw this.fail(
          "MODEL_OUTPUT_INVALID",
          `${capital(where)} answered HTTP ${status} with a body that is not JSON (${excerptOf(text, 80) || "empty"}).`,
          `Check the base URL points at the API itself (${settings.provider === "anthropic" ? "https://api.anthropic.com" : "usually ending in /v1"}), not a web page or a proxy's login.`,
          { attempts, status, excerpt: excerptOf(text) },
        );
      }
      return { kind: "answer", parsed: adapter.parse(payload, request) };
    }
    const server = serverError(text);
    const said = server.message ? `: ${server.message}` : "";
    const details = { attempts, status, server_error: server };
    if (status >= 300 && status < 400) {
      const location = response.headers.get("location");
      let to = "another address";
      try {
        if (location) to = new URL(location, adapter.endpoint).origin + new URL(location, adapter.endpoint).pathname;
      } catch {}
      throw this.fail(
        "MODEL_REQUEST_REJECTED",
        `${capital(where)} answered HTTP ${status}, a redirect to ${to}; inter does not follow redirects, so the key goes nowhere else.`,
        "Set the base URL to the address the server redirects to.",
        details,
      );
    }
    if (status === 401 || status === 403) throw this.refusedKey(status, said, details);
    if (isRetryableStatus(status)) {
      const what = status === 429 ? "429 (rate limited)" : `HTTP ${status}`;
      return {
        kind: "retry",
        status,
        reason: `HTTP ${status}`,
        retryAfterMs: retryAfterMs(response.headers),
        error: this.fail(
          "MODEL_UNREACHABLE",
          `${capital(where)} answered ${what}${said} (${attempts} attempt${attempts === 1 ? "" : "s"}).`,
          status === 429
            ? "Wait and run again (answers received so far are kept), lower the concurrency, or raise the account's rate limit."
            : "The provider is failing for now; run again later (answers received so far are kept).",
          details,
        ),
      };
    }
    if (
      settings.provider === "openai-compatible" &&
      !this.jsonObjectMode &&
      (status === 400 || status === 422) &&
      /response_format|json_schema|structured output/i.test(text)
    )
      return { kind: "json-mode" };
    if (status === 404)
      throw this.fail(
        "MODEL_REQUEST_REJECTED",
        `${capital(where)} answered HTTP 404 for ${adapter.endpoint.pathname} (model ${settings.model})${said}.`,
        `Check the base URL (${settings.provider === "anthropic" ? "https://api.anthropic.com" : "for OpenAI-compatible servers it usually ends in /v1"}) and that the model name is one the server offers.`,
        details,
      );
    throw this.fail(
      "MODEL_REQUEST_REJECTED",
      `${capital(where)} rejected the request for ${settings.model} (HTTP ${status}${said}).`,
      "Check the model name and that the server supports structured output (OpenAI json_schema, Anthropic tools); a too-long prompt needs a model with a larger context.",
      details,
    );
  }

  /** HTTP 401 or 403: the key (or its absence) is what the server refused. */
  private refusedKey(status: number, said: string, details: Record<string, unknown>): InterError {
    const { settings, where, origin } = this;
    if (settings.keyEnv === undefined)
      return this.fail(
        "MODEL_AUTH_FAILED",
        `${capital(where)} wants a key (HTTP ${status}${said}); the config names none.`,
        `Set design.model.keyEnv to the NAME of a variable, e.g. "MODEL_API_KEY", and export the key under it.`,
        details,
      );
    return this.fail(
      "MODEL_AUTH_FAILED",
      `${capital(where)} refused the key in ${settings.keyEnv} (HTTP ${status}${said}).`,
      `Check that ${settings.keyEnv} holds a valid key for ${origin}${status === 403 ? ` and that the account may use ${settings.model}` : ""}; export ${settings.keyEnv}=<your key> and run again.`,
      details,
    );
  }

  private invalid(parsed: Extract<ParsedAnswer, { ok: false }>, attempts: number): InterError {
    const suggestion =
      parsed.reason === "truncated"
        ? `Raise the model's maxTokens (now ${this.maxTokens}) so the whole answer fits.`
        : parsed.reason === "refusal"
          ? "Run again, or use another model; the request is unchanged so the refusal may repeat."
          : "Use a model that supports structured output (OpenAI json_schema, Anthropic tool use), or run again.";
    return this.fail(
      "MODEL_OUTPUT_INVALID",
      `The answer of ${this.settings.model} from ${this.origin} is not usable: ${parsed.message}.`,
      suggestion,
      { attempts, reason: parsed.reason, usage: parsed.usage, ...(parsed.excerpt ? { excerpt: parsed.excerpt } : {}) },
    );
  }
}

function parseBaseUrl(value: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {}
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new InterError(
      "CONFIG_INVALID",
      `The model's baseUrl must be an http(s) address, not ${typeof value === "string" ? JSON.stringify(value.slice(0, 80)) : String(value)}.`,
      'Use e.g. "https://api.deepseek.com/v1", "https://api.openai.com/v1" or "https://api.anthropic.com".',
      { field: "baseUrl" },
    );
  }
  if (url.username || url.password) {
    throw new InterError(
      "CONFIG_INVALID",
      `The model's baseUrl for ${url.origin} holds a user name or password.`,
      "Remove them from the address: the key goes in the environment variable named by keyEnv.",
      { field: "baseUrl" },
    );
  }
  return url;
}

/** The body as text, refusing more than `limit` bytes. */
async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new InterError(
        "MODEL_OUTPUT_INVALID",
        `The model server at ${new URL(response.url || "http://unknown").origin} sent an answer over ${limit / 1024 / 1024} MiB; it was not read.`,
        "Lower the model's maxTokens, or check the base URL points at a model API.",
        { status: response.status, limit_bytes: limit },
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The error a provider put in its body: OpenAI `{error: {message, type, code}}`, Anthropic `{type: "error", error: {type, message}}`, or text. */
function serverError(text: string): { type?: string; message?: string } {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error: Record<string, unknown> =
      typeof body.error === "object" && body.error ? (body.error as Record<string, unknown>) : body;
    const type = [error.type, error.code].find((v) => typeof v === "string") as string | undefined;
    const message =
      typeof error.message === "string" ? error.message : typeof body.error === "string" ? body.error : undefined;
    return { ...(type ? { type } : {}), ...(message ? { message: excerptOf(message, 300) } : {}) };
  } catch {
    const plain = excerptOf(text.replace(/<[^>]*>/g, " "), 300);
    return plain ? { message: plain } : {};
  }
}

/** ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET… from fetch's "fetch failed" TypeError and its causes. */
function errnoOf(error: unknown): string | undefined {
  for (
    let e = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === "string") return e.code;
    const inner = Array.isArray(e.errors) ? (e.errors[0] as { code?: unknown } | undefined) : undefined;
    if (typeof inner?.code === "string") return inner.code;
  }
  return undefined;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
