import { execa } from "execa";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InterError } from "../../src/core/errors.js";
import {
  Budget,
  createModelClient,
  estimateCost,
  mapLimit,
  type ModelProvider,
  type ModelSettings,
  type RetryInfo,
  type StructuredRequest,
} from "../../src/model/client.js";
import { retryAfterMs, retryDelay } from "../../src/model/retry.js";
import { DESIGN_MODEL_KEY, startDesignModelServer } from "../fixtures/design-model-server.mjs";
import { REPO, tempDir } from "../helpers.js";

// The model client (src/model) against the scripted model server (test/fixtures/design-model-server.mjs), both
// providers: answers, retries, timeouts, cancellation, budgets, and the key kept out of everything it reports.

const KEY_ENV = "DESIGN_TEST_MODEL_KEY";
const ENV = { [KEY_ENV]: DESIGN_MODEL_KEY };
const SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["name", "summary"],
  properties: { name: { type: "string", maxLength: 40 }, summary: { type: "string" } },
};
const REQUEST: StructuredRequest = {
  system: "You name the commands of a CLI.",
  user: "GET /rooms lists the rooms.",
  schemaName: "command_names",
  schema: SCHEMA,
};
const GOOD = { name: "rooms list", summary: "List the rooms." };
const FAST = { baseDelayMs: 5, maxDelayMs: 50 };
const PROVIDERS: ModelProvider[] = ["openai-compatible", "anthropic"];

type Server = Awaited<ReturnType<typeof startDesignModelServer>>;
type Script = Parameters<typeof startDesignModelServer>[0]["script"];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Script): Promise<Server> {
  const server = await startDesignModelServer({ script });
  servers.push(server);
  return server;
}

const settingsFor = (provider: ModelProvider, url: string, extra: Partial<ModelSettings> = {}): ModelSettings => ({
  provider,
  model: provider === "anthropic" ? "claude-sonnet-4-5" : "deepseek-chat",
  baseUrl: provider === "anthropic" ? url : `${url}/v1`,
  keyEnv: KEY_ENV,
  ...extra,
});

/** The rejection of `promise`, checked to be an InterError that never holds `key`. */
async function rejection(promise: Promise<unknown>, key = DESIGN_MODEL_KEY): Promise<InterError> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InterError);
  const e = error as InterError;
  const everything = JSON.stringify({
    code: e.code,
    message: e.message,
    suggestion: e.suggestion,
    details: e.details,
    stack: e.stack,
  });
  expect(everything).not.toContain(key);
  return e;
}

/** Waits (polling) until `condition` holds. */
async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe.each(PROVIDERS)("the model client, %s", (provider) => {
  it("sends the structured request with the key in its header and returns the validated answer and usage", async () => {
    const server = await serve(() => ({ answer: GOOD, usage: { input: 120, output: 30 } }));
    const answer = await createModelClient(settingsFor(provider, server.url, { maxTokens: 1000 }), ENV).complete(
      REQUEST,
    );
    expect(answer).toEqual({ value: GOOD, usage: { inputTokens: 120, outputTokens: 30 }, attempts: 1 });

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.keyOk).toBe(true);
    expect(JSON.stringify(sent)).not.toContain(DESIGN_MODEL_KEY);
    expect(sent.schemaName).toBe("command_names");
    expect(sent.system).toContain("You name the commands");
    expect(sent.user).toBe(REQUEST.user);
    if (provider === "anthropic") {
      expect(sent.path).toBe("/v1/messages");
      expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
      expect(sent.body).toMatchObject({
        model: "claude-sonnet-4-5",
        max_tokens: 1000,
        system: REQUEST.system,
        tools: [{ name: "command_names", input_schema: SCHEMA }],
        tool_choice: { type: "tool", name: "command_names" },
      });
    } else {
      expect(sent.path).toBe("/v1/chat/completions");
      expect(sent.body).toMatchObject({
        model: "deepseek-chat",
        max_tokens: 1000,
        response_format: { type: "json_schema", json_schema: { name: "command_names", schema: SCHEMA, strict: true } },
      });
      expect(sent.body.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    }
  });

  it("refuses content that is not the structured answer, a truncated one and one off the schema (MODEL_OUTPUT_INVALID, not retried)", async () => {
    const steps = [
      { raw: "Sure! Here are the names: {name: rooms" },
      { truncated: true, answer: GOOD },
      { answer: { name: "x".repeat(41), summary: 3 } },
      { refusal: "I can't help with that." },
    ];
    const server = await serve(({ n }) => steps[n - 1]);
    const client = createModelClient(settingsFor(provider, server.url), ENV, FAST);
    const reasons = [];
    for (const _ of steps) {
      const error = await rejection(client.complete(REQUEST));
      expect(error.code).toBe("MODEL_OUTPUT_INVALID");
      expect(error.exitCode).toBe(1);
      expect(error.message).toContain(new URL(server.url).origin);
      expect(error.details).toMatchObject({ provider, attempts: 1 });
      reasons.push(error.details!.reason);
    }
    expect(reasons).toEqual([provider === "anthropic" ? "no-answer" : "not-json", "truncated", "schema", "refusal"]);
    expect(server.requests).toHaveLength(steps.length);
  });

  it("waits out a 429's retry-after (capped by maxDelayMs) and then succeeds", async () => {
    const server = await serve(({ n }) => (n === 1 ? { status: 429, retryAfter: 1 } : { answer: GOOD }));
    const retries: RetryInfo[] = [];
    const answer = await createModelClient(settingsFor(provider, server.url), ENV, {
      baseDelayMs: 5,
      maxDelayMs: 150,
      onRetry: (info) => retries.push(info),
    }).complete(REQUEST);
    expect(answer.attempts).toBe(2);
    expect(answer.value).toEqual(GOOD);
    expect(retries).toEqual([{ attempt: 1, status: 429, delayMs: 150, reason: "HTTP 429" }]);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(140);
  });

  it("retries 500 twice with backoff, then succeeds", async () => {
    const server = await serve(({ n }) =>
      n <= 2 ? { status: provider === "anthropic" && n === 2 ? 529 : 500 } : { answer: GOOD },
    );
    const retries: RetryInfo[] = [];
    const answer = await createModelClient(settingsFor(provider, server.url), ENV, {
      ...FAST,
      onRetry: (info) => retries.push(info),
    }).complete(REQUEST);
    expect(answer.attempts).toBe(3);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(retries.every((r) => r.delayMs <= 50)).toBe(true);
  });

  it("stops at 401 without retrying (MODEL_AUTH_FAILED, exit 2), the server's echo of the key redacted", async () => {
    const server = await serve(() => ({ status: 401 }));
    const error = await rejection(createModelClient(settingsFor(provider, server.url), ENV, FAST).complete(REQUEST));
    expect(error.code).toBe("MODEL_AUTH_FAILED");
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(KEY_ENV);
    expect(error.message).toContain(new URL(server.url).origin);
    expect(error.message).toContain("[REDACTED]"); // the scripted 401 says "Incorrect API key provided: <key>"
    expect(server.requests).toHaveLength(1);
  });

  it("retries a request that outlives timeoutMs, and gives MODEL_UNREACHABLE when none answers in time", async () => {
    const server = await serve(({ n }) =>
      n === 1 ? { delayMs: 3000, answer: GOOD } : n === 2 ? { answer: GOOD } : { delayMs: 3000, answer: GOOD },
    );
    const client = createModelClient(settingsFor(provider, server.url, { timeoutMs: 200 }), ENV, {
      ...FAST,
      retries: 1,
    });
    const answer = await client.complete(REQUEST);
    expect(answer.attempts).toBe(2);

    const started = Date.now();
    const error = await rejection(
      createModelClient(settingsFor(provider, server.url, { timeoutMs: 200 }), ENV, { ...FAST, retries: 0 }).complete(
        REQUEST,
      ),
    );
    expect(error.code).toBe("MODEL_UNREACHABLE");
    expect(error.details).toMatchObject({ attempts: 1, timeout_ms: 200 });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("retries a dropped connection", async () => {
    const server = await serve(({ n }) => (n === 1 ? { destroy: true } : { answer: GOOD }));
    const answer = await createModelClient(settingsFor(provider, server.url), ENV, FAST).complete(REQUEST);
    expect(answer.attempts).toBe(2);
  });

  it("stops at once when the caller's signal aborts: INTERRUPTED, a deadline's TimeoutError → MODEL_UNREACHABLE, an InterError reason as it is", async () => {
    const server = await serve(() => ({ delayMs: 5000, answer: GOOD }));
    const client = createModelClient(settingsFor(provider, server.url), ENV, FAST);

    const controller = new AbortController();
    const started = Date.now();
    const pending = client.complete(REQUEST, controller.signal);
    await until(() => server.requests.length === 1);
    controller.abort();
    const interrupted = await rejection(pending);
    expect(interrupted.code).toBe("INTERRUPTED");
    // Before the server's answer, due 5 s after the request: the client did not wait for it.
    expect(Date.now() - started).toBeLessThan(5000);

    const deadline = await rejection(client.complete(REQUEST, AbortSignal.timeout(100)));
    expect(deadline.code).toBe("MODEL_UNREACHABLE");
    expect(deadline.details).toMatchObject({ deadline: true });

    // Whether the deadline's request reached the server within its 100 ms depends on the machine's load; the
    // pre-aborted signal's never does.
    const sent = server.requests.length;
    const own = new InterError("MODEL_BUDGET_EXCEEDED", "over", "raise it");
    const mine = new AbortController();
    mine.abort(own);
    expect(await rejection(client.complete(REQUEST, mine.signal))).toBe(own);
    expect(server.requests).toHaveLength(sent);
  });
});

describe("the model client", () => {
  it("refuses to start without the key (MODEL_KEY_MISSING names the variable, never a value)", async () => {
    for (const env of [{}, { [KEY_ENV]: "" }, { [KEY_ENV]: "   " }]) {
      const error = await rejection(
        Promise.resolve().then(() => createModelClient(settingsFor("anthropic", "http://127.0.0.1:9"), env)),
      );
      expect(error.code).toBe("MODEL_KEY_MISSING");
      expect(error.exitCode).toBe(2);
      expect(error.message).toContain(KEY_ENV);
      expect(error.suggestion).toContain(`export ${KEY_ENV}=`);
    }
    const spaced = "sk-has a-space-inside-0000";
    const error = await rejection(
      Promise.resolve().then(() =>
        createModelClient(settingsFor("openai-compatible", "http://127.0.0.1:9"), { [KEY_ENV]: spaced }),
      ),
      spaced,
    );
    expect(error.code).toBe("MODEL_KEY_MISSING");
  });

  it("gives MODEL_UNREACHABLE for a dead port after its retries, naming the origin and the cause", async () => {
    const port = await deadPort();
    const retries: RetryInfo[] = [];
    const error = await rejection(
      createModelClient(settingsFor("openai-compatible", `http://127.0.0.1:${port}`), ENV, {
        ...FAST,
        retries: 2,
        onRetry: (i) => retries.push(i),
      }).complete(REQUEST),
    );
    expect(error.code).toBe("MODEL_UNREACHABLE");
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain(`http://127.0.0.1:${port}`);
    expect(error.details).toMatchObject({ attempts: 3, cause: "ECONNREFUSED" });
    expect(retries.map((r) => r.reason)).toEqual(["ECONNREFUSED", "ECONNREFUSED"]);
  });

  it("redacts a wrong key the server echoes back", async () => {
    const server = await serve(() => ({ answer: GOOD }));
    const wrong = "sk-wrong-key-0123456789abcdef";
    for (const provider of PROVIDERS) {
      const error = await rejection(
        createModelClient(settingsFor(provider, server.url), { [KEY_ENV]: wrong }).complete(REQUEST),
        wrong,
      );
      expect(error.code).toBe("MODEL_AUTH_FAILED");
      expect(error.message).toContain("Incorrect API key provided: [REDACTED]");
    }
    expect(server.requests.map((r) => r.keyOk)).toEqual([false, false]);
  });

  it("does not retry 400 or 404 (MODEL_REQUEST_REJECTED) and never follows a redirect", async () => {
    const steps = [
      { status: 400, message: "model is required" },
      { status: 404, message: "The model `nope` does not exist" },
      { status: 422 },
    ];
    const server = await serve(({ n }) => steps[n - 1]);
    const client = createModelClient(settingsFor("openai-compatible", server.url), ENV, FAST);
    for (const step of steps) {
      const error = await rejection(client.complete(REQUEST));
      expect(error.code).toBe("MODEL_REQUEST_REJECTED");
      expect(error.details).toMatchObject({ status: step.status, attempts: 1 });
    }
    expect(server.requests).toHaveLength(3);
  });

  it("asks a server that refuses json_schema again in JSON mode, and stays in JSON mode", async () => {
    const server = await serve(({ body }) =>
      body.response_format?.type === "json_schema"
        ? { status: 400, message: "This response_format type is unavailable now" }
        : { raw: `\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\`` },
    );
    const client = createModelClient(settingsFor("openai-compatible", server.url), ENV, FAST);
    expect(await client.complete(REQUEST)).toMatchObject({ value: GOOD, attempts: 2 });
    expect(await client.complete(REQUEST)).toMatchObject({ value: GOOD, attempts: 1 });
    expect(server.requests.map((r) => r.body.response_format.type)).toEqual([
      "json_schema",
      "json_object",
      "json_object",
    ]);
    expect(server.requests[1]!.system).toContain('"required":["name","summary"]');
  });

  it("builds each provider's address from the base URL forms people write", async () => {
    const server = await serve(() => ({ answer: GOOD }));
    for (const baseUrl of [server.url, `${server.url}/`, `${server.url}/v1`, `${server.url}/v1/messages`])
      await createModelClient({ ...settingsFor("anthropic", server.url), baseUrl }, ENV).complete(REQUEST);
    for (const baseUrl of [`${server.url}/v1/`, `${server.url}/v1/chat/completions`, `${server.url}/api`])
      await createModelClient({ ...settingsFor("openai-compatible", server.url), baseUrl }, ENV).complete(REQUEST);
    expect(server.requests.map((r) => r.path)).toEqual([
      "/v1/messages",
      "/v1/messages",
      "/v1/messages",
      "/v1/messages",
      "/v1/chat/completions",
      "/v1/chat/completions",
      "/api/chat/completions",
    ]);

    for (const baseUrl of [
      "api.openai.com/v1",
      "ftp://example.com",
      `https://user:${DESIGN_MODEL_KEY}@example.com/v1`,
    ]) {
      const error = await rejection(
        Promise.resolve().then(() =>
          createModelClient({ ...settingsFor("openai-compatible", server.url), baseUrl }, ENV),
        ),
      );
      expect(error.code).toBe("CONFIG_INVALID");
    }
  });

  it("never sends a prompt that holds the key", async () => {
    const server = await serve(() => ({ answer: GOOD }));
    const error = await rejection(
      createModelClient(settingsFor("anthropic", server.url), ENV).complete({
        ...REQUEST,
        user: `the key is ${DESIGN_MODEL_KEY}`,
      }),
    );
    expect(error.message).toContain(KEY_ENV);
    expect(server.requests).toHaveLength(0);
  });

  it("stops a run cleanly when the token budget is spent, keeping what was answered", async () => {
    const server = await serve(({ n }) => ({
      answer: { ...GOOD, name: `group ${n}` },
      usage: { input: 100, output: 50 },
    }));
    const client = createModelClient(settingsFor("openai-compatible", server.url), ENV);
    const budget = new Budget({ maxTokens: 250 });
    const kept: string[] = [];
    const error = await rejection(
      mapLimit(["a", "b", "c", "d", "e"], 1, async () => {
        budget.check();
        const answer = await client.complete(REQUEST);
        kept.push((answer.value as typeof GOOD).name);
        budget.charge("deepseek-chat", answer.usage);
      }),
    );
    expect(error.code).toBe("MODEL_BUDGET_EXCEEDED");
    expect(error.exitCode).toBe(1);
    expect(error.message).toContain("300 tokens");
    expect(kept).toEqual(["group 1", "group 2"]);
    expect(server.requests).toHaveLength(2);
    expect(budget.exceeded).toBe(true);
    expect(budget.spent()).toMatchObject({ inputTokens: 200, outputTokens: 100 });
    expect(() => budget.check()).toThrow(InterError);
  });

  it("caps the estimated cost too, and refuses a cost cap for a model without a price", () => {
    const budget = new Budget({ maxCostUsd: 0.0015 });
    expect(budget.charge("claude-sonnet-4-5-20250929", { inputTokens: 100, outputTokens: 50 }).usd).toBeCloseTo(
      0.00105,
      8,
    );
    expect(() => budget.charge("claude-sonnet-4-5", { inputTokens: 100, outputTokens: 50 })).toThrow(
      expect.objectContaining({ code: "MODEL_BUDGET_EXCEEDED" }),
    );
    const unpriced = new Budget({ maxCostUsd: 1 });
    expect(unpriced.admits("my-local-llama")).toBe(false);
    expect(() => unpriced.charge("my-local-llama", { inputTokens: 1, outputTokens: 1 })).toThrow(
      expect.objectContaining({ code: "USAGE_ERROR" }),
    );
    const tokensOnly = new Budget({ maxTokens: 10 });
    expect(tokensOnly.admits("my-local-llama")).toBe(true);
    expect(tokensOnly.charge("my-local-llama", { inputTokens: 4, outputTokens: 4 })).toEqual({
      inputTokens: 4,
      outputTokens: 4,
      usd: null,
    });
  });
});

describe("cost, backoff and concurrency helpers", () => {
  it("estimates cost from the price table, dated ids and vendor prefixes included, and null for unknown models", () => {
    expect(estimateCost("gpt-4.1-mini", { inputTokens: 1_000_000, outputTokens: 1_000_000 }).usd).toBeCloseTo(2.0, 8);
    expect(estimateCost("gpt-4.1-mini-2025-04-14", { inputTokens: 1_000_000, outputTokens: 0 }).usd).toBeCloseTo(
      0.4,
      8,
    );
    expect(estimateCost("openai/gpt-4.1", { inputTokens: 0, outputTokens: 1_000_000 }).usd).toBeCloseTo(8, 8);
    expect(estimateCost("claude-opus-4-1-20250805", { inputTokens: 1_000_000, outputTokens: 0 }).usd).toBeCloseTo(
      15,
      8,
    );
    expect(estimateCost("deepseek-chat", { inputTokens: 0, outputTokens: 0 })).toEqual({
      usd: 0,
      basis: expect.stringContaining("DeepSeek"),
    });
    expect(estimateCost("gpt-4.1-turbo-x", { inputTokens: 10, outputTokens: 10 }).usd).toBeNull();
    expect(estimateCost("llama3.1:8b", { inputTokens: 10, outputTokens: 10 })).toEqual({
      usd: null,
      basis: expect.stringContaining("llama3.1:8b"),
    });
  });

  it("reads retry-after as seconds, milliseconds or an HTTP date, and caps and jitters the backoff", () => {
    const now = Date.parse("2025-06-01T12:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "2" }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "Sun, 01 Jun 2025 12:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ "retry-after": "Sun, 01 Jun 2025 11:00:00 GMT" }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryDelay(1, { baseDelayMs: 100, maxDelayMs: 1000, retryAfterMs: 60_000 })).toBe(1000);
    expect(retryDelay(1, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 0)).toBe(50);
    expect(retryDelay(3, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 1)).toBe(400);
    expect(retryDelay(10, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 1)).toBe(1000);
  });

  it("mapLimit keeps order, bounds concurrency, and on a failure starts nothing more but waits for what runs", async () => {
    let running = 0;
    let peak = 0;
    const results = await mapLimit([5, 1, 3, 2, 4], 2, async (ms, i) => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return i * 10;
    });
    expect(results).toEqual([0, 10, 20, 30, 40]);
    expect(peak).toBe(2);

    const started: number[] = [];
    const finished: number[] = [];
    await expect(
      mapLimit([0, 1, 2, 3, 4, 5], 2, async (_, i) => {
        started.push(i);
        if (i === 1) throw new Error("boom");
        await new Promise((r) => setTimeout(r, 20));
        finished.push(i);
      }),
    ).rejects.toThrow("boom");
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([0]);
  });
});

describe("the scripted model server as a program", () => {
  it("starts from the command line with a script module, logs each request without the key, and answers", async () => {
    const dir = tempDir("inter-model-");
    writeFileSync(
      join(dir, "script.mjs"),
      `export default ({ n, schemaName }) => ({ answer: { name: "from cli " + n, summary: schemaName } });\n`,
    );
    const child = execa(
      "node",
      [
        join(REPO, "test/fixtures/design-model-server.mjs"),
        "--script",
        join(dir, "script.mjs"),
        "--port",
        "0",
        "--log",
        join(dir, "requests.jsonl"),
      ],
      { reject: false },
    );
    try {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d));
      await until(() => /model listening on (\S+)/.test(out), 60_000);
      const url = /model listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
      const answer = await createModelClient(settingsFor("anthropic", url), ENV).complete(REQUEST);
      expect(answer.value).toEqual({ name: "from cli 1", summary: "command_names" });
      const logged = readFileSync(join(dir, "requests.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ provider: "anthropic", keyOk: true, schemaName: "command_names" });
      expect(JSON.stringify(logged)).not.toContain(DESIGN_MODEL_KEY);
      expect(await (await fetch(`${url}/_requests`)).json()).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
      await child;
    }
  });
});
