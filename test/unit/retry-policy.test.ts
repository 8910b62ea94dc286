import { describe, expect, it } from "vitest";
import { CliError } from "../../src/runtime/errors.js";
import type { Command, Flag } from "../../src/runtime/manifest.js";
import {
  backoffMs,
  decide,
  maxRetryWait,
  parseRetryAfter,
  replayable,
  retryError,
  retrying,
  retryPlan,
  retryPolicy,
  withIdempotencyKey,
  type Answer,
  type Clock,
  type RetryPolicy,
} from "../../src/runtime/retry.js";

const NOW = Date.parse("2026-03-01T12:00:00Z");

/** A clock that never sleeps: it records the waits asked for and moves its time on by them. */
function fakeClock(random = 0.5): Clock & { slept: number[] } {
  let now = NOW;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    random: () => random,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

const policy = (over: Partial<RetryPolicy> = {}): RetryPolicy => ({
  maxAttempts: 4,
  maxWaitMs: 30_000,
  baseMs: 500,
  ...over,
});
const answer = (status: number, retryAfter?: string): Answer => ({
  status,
  headers: retryAfter === undefined ? {} : { "retry-after": retryAfter },
});

describe("Retry-After", () => {
  it("reads delay-seconds and HTTP dates; a past date is 0; anything else is no header", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter(" 120 ", NOW)).toBe(120_000);
    expect(parseRetryAfter("31536000", NOW)).toBe(31_536_000_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 12:00:30 GMT", NOW)).toBe(30_000);
    expect(parseRetryAfter("Sun, 01 Mar 2026 11:00:00 GMT", NOW)).toBe(0);
    expect(parseRetryAfter("Sunday, 01-Mar-26 12:01:00 GMT", NOW)).toBe(60_000);
    expect(parseRetryAfter(["5", "7"], NOW)).toBe(5000);
    for (const bad of [undefined, "", "  ", "-5", "1.5", "soon", "12:00", "1e3", []])
      expect(parseRetryAfter(bad as string | undefined, NOW), String(bad)).toBeUndefined();
  });
});

describe("backoff and decisions", () => {
  it("backs off exponentially, half of each wait random", () => {
    expect([1, 2, 3].map((r) => backoffMs(r, 500, () => 0))).toEqual([250, 500, 1000]);
    expect([1, 2, 3].map((r) => backoffMs(r, 500, () => 1))).toEqual([500, 1000, 2000]);
    expect(backoffMs(1, 0, () => 1)).toBe(0);
  });

  it("retries only 429 and 503; honours Retry-After with jitter within the cap; stops past the cap at once", () => {
    const state = { attempt: 1, waitedMs: 0 };
    for (const status of [200, 400, 401, 404, 500, 502, 504])
      expect(decide(answer(status, "0"), state, policy(), NOW, () => 0)).toEqual({ retry: false });
    expect(decide(answer(429, "0"), state, policy(), NOW, () => 0)).toEqual({ retry: true, delayMs: 0 });
    expect(decide(answer(503, "2"), state, policy(), NOW, () => 1)).toEqual({ retry: true, delayMs: 2500 });
    // Jitter never carries a wait past the cap.
    expect(decide(answer(429, "30"), state, policy(), NOW, () => 1)).toEqual({ retry: true, delayMs: 30_000 });
    expect(decide(answer(429, "31"), state, policy(), NOW, () => 0)).toMatchObject({
      retry: false,
      stop: "beyond-cap",
      retryAfterMs: 31_000,
      fromHeader: true,
    });
    // What is left of the cap counts, not the cap.
    expect(decide(answer(429, "10"), { attempt: 2, waitedMs: 25_000 }, policy(), NOW, () => 0)).toMatchObject({
      stop: "beyond-cap",
    });
    // Without Retry-After: the backoff, cut to what is left; nothing left, no retry.
    expect(decide(answer(503), { attempt: 3, waitedMs: 0 }, policy(), NOW, () => 1)).toEqual({
      retry: true,
      delayMs: 2000,
    });
    expect(decide(answer(503), { attempt: 3, waitedMs: 29_500 }, policy(), NOW, () => 1)).toEqual({
      retry: true,
      delayMs: 500,
    });
    expect(decide(answer(503), { attempt: 1, waitedMs: 0 }, policy({ maxWaitMs: 0 }), NOW, () => 1)).toMatchObject({
      retry: false,
      stop: "beyond-cap",
      fromHeader: false,
    });
    expect(decide(answer(429, "0"), { attempt: 4, waitedMs: 0 }, policy(), NOW, () => 0)).toMatchObject({
      stop: "exhausted",
    });
    expect(decide(answer(429, "0"), state, policy({ off: "--no-retry" }), NOW, () => 0)).toMatchObject({
      stop: "off",
      retryAfterMs: 0,
    });
  });

  it("sends once with --no-retry, for a POST or PATCH without an idempotency key, and for a body that cannot be re-sent", () => {
    const on = { enabled: true, maxWaitS: 30, replayable: true };
    for (const method of ["GET", "head", "PUT", "DELETE", "OPTIONS"])
      expect(retryPolicy(method, on).off, method).toBeUndefined();
    expect(retryPolicy("POST", on).off).toBe("POST without an idempotency key header: sent twice it could act twice");
    expect(retryPolicy("patch", on).off).toMatch(/^PATCH without/);
    expect(retryPolicy("POST", { ...on, idempotencyHeader: "Idempotency-Key" }).off).toBeUndefined();
    expect(retryPolicy("GET", { ...on, enabled: false }).off).toBe("--no-retry");
    expect(retryPolicy("PUT", { ...on, replayable: false }).off).toMatch(/stdin/);
    expect(retryPolicy("GET", { ...on, maxWaitS: 1.5 })).toMatchObject({ maxAttempts: 4, maxWaitMs: 1500 });
  });

  it("knows a body it can send again: none, a string or bytes; a stream only when it says so", () => {
    expect(replayable({})).toBe(true);
    expect(replayable({ body: "{}" })).toBe(true);
    expect(replayable({ body: Buffer.from("x") })).toBe(true);
    expect(replayable({ body: { pipe() {} } })).toBe(false);
    expect(replayable({ body: { pipe() {} }, replayable: true })).toBe(true);
    expect(replayable({ body: "x", replayable: false })).toBe(false);
  });
});

describe("the loop", () => {
  const server = (answers: Answer[], otherwise: Answer) => {
    let calls = 0;
    const attempt = async (n: number) => {
      calls += 1;
      expect(n).toBe(calls);
      return answers.shift() ?? otherwise;
    };
    return { attempt, calls: () => calls };
  };

  it("stops at the first answer that is not 429 or 503", async () => {
    const clock = fakeClock();
    const api = server([answer(429, "1"), answer(503)], answer(200));
    const { response, retry } = await retrying(api.attempt, policy(), { clock });
    expect(response.status).toBe(200);
    expect(api.calls()).toBe(3);
    expect(clock.slept).toEqual([1250, 750]);
    expect(retry).toEqual({ attempts: 3, waitedMs: 2000 });
  });

  it("a server that answers 429 forever: bounded attempts, waiting within the cap", async () => {
    for (const header of ["0", undefined, "5", "20"]) {
      const clock = fakeClock(1);
      const api = server([], answer(429, header));
      const { response, retry } = await retrying(api.attempt, policy(), { clock });
      expect(response.status).toBe(429);
      expect(api.calls()).toBeLessThanOrEqual(4);
      expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(30_000);
      expect(retry.waitedMs).toBe(clock.slept.reduce((a, b) => a + b, 0));
      expect(retry.stop, header).toBe(header === "20" ? "beyond-cap" : "exhausted");
    }
  });

  it("hands each answer it retries to discard, never the last", async () => {
    const discarded: number[] = [];
    const api = server([answer(429, "0"), answer(503, "0")], answer(201));
    await retrying(api.attempt, policy(), {
      clock: fakeClock(),
      discard: (a) => void discarded.push(a.status),
    });
    expect(discarded).toEqual([429, 503]);
  });

  it("a Retry-After of a year: one attempt, no sleep, and the error says when to retry", async () => {
    const clock = fakeClock();
    const api = server([], answer(429, "31536000"));
    const p = policy();
    const { retry } = await retrying(api.attempt, p, { clock });
    expect(api.calls()).toBe(1);
    expect(clock.slept).toEqual([]);
    const error = retryError(
      new CliError("RATE_LIMITED", "Too many requests (HTTP 429)", "Wait and retry later.", { status: 429 }),
      retry,
      p,
    );
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.exitCode).toBe(1);
    expect(error.message).toBe(
      "Too many requests (HTTP 429); not retried: the API asks to wait 31536000 s (Retry-After), more than the 30 s left of --max-retry-wait.",
    );
    expect(error.suggestion).toBe(
      "Retry after 31536000 s (at 2027-03-01T12:00:00Z), or allow a longer wait with --max-retry-wait <seconds> (at most 3600).",
    );
    expect(error.details).toEqual({
      status: 429,
      retry_after: 31536000,
      retry_at: "2027-03-01T12:00:00Z",
      attempts: 1,
      retry: "beyond-cap",
    });
  });

  it("a Retry-After of more digits than a date can hold: a finite wait, and no retry_at", async () => {
    expect(parseRetryAfter("9".repeat(400), NOW)).toBe(Number.MAX_SAFE_INTEGER);
    const p = policy();
    const { retry } = await retrying(async () => answer(429, "9".repeat(400)), p, { clock: fakeClock() });
    const error = retryError(new CliError("RATE_LIMITED", "x (HTTP 429)", "y", { status: 429 }), retry, p);
    expect(error.details).toEqual({ status: 429, retry_after: 9007199254741, attempts: 1, retry: "beyond-cap" });
    expect(error.suggestion).toMatch(/^Retry after 9007199254741 s, or allow/);
  });

  it("leaves other errors as they are", () => {
    const error = new CliError("NOT_FOUND", "x", "y", { status: 404 });
    expect(retryError(error, { attempts: 1, waitedMs: 0 }, policy())).toBe(error);
  });
});

describe("what the CLI says and sends", () => {
  it("plans for --dry-run and --describe", () => {
    expect(retryPlan(policy(), undefined)).toEqual({ on: [429, 503], max_attempts: 4, max_wait_s: 30 });
    expect(retryPlan(policy({ off: "--no-retry" }), "Idempotency-Key", false)).toEqual({
      on: [],
      reason: "--no-retry",
    });
    expect(retryPlan(policy({ maxWaitMs: 0 }), "Idempotency-Key", true)).toEqual({
      on: [429, 503],
      max_attempts: 4,
      max_wait_s: 0,
      idempotency_header: "Idempotency-Key",
      idempotency_key: "given",
    });
  });

  it("--max-retry-wait takes seconds from 0 to 3600", () => {
    expect(maxRetryWait("0")).toBe(0);
    expect(maxRetryWait("2.5")).toBe(2.5);
    expect(maxRetryWait("3600")).toBe(3600);
    for (const bad of ["-1", "3601", "", " ", "1e9", "NaN", "Infinity", "ten"]) {
      let thrown: unknown;
      try {
        maxRetryWait(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(CliError);
      expect((thrown as CliError).code).toBe("INVALID_VALUE");
      expect((thrown as CliError).details).toMatchObject({ flag: "max-retry-wait" });
    }
  });

  it("puts one idempotency key in the values, generated unless given", () => {
    const flag: Flag = {
      flag: "idempotency-key",
      in: "header",
      wire: "Idempotency-Key",
      type: "string",
      required: false,
    };
    const command = { flags: [flag], retry: { idempotencyHeader: "Idempotency-Key" } } as unknown as Command;
    const values = new Map<Flag, unknown>();
    expect(withIdempotencyKey(command, values)).toBe(false);
    const key = values.get(flag);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(withIdempotencyKey(command, values)).toBe(true);
    expect(values.get(flag)).toBe(key);
    expect(withIdempotencyKey({ flags: [] } as unknown as Command, new Map())).toBeUndefined();
    // The generated key fits the header's own limits.
    const limited = (limits: Partial<Flag>) => {
      const f: Flag = { ...flag, ...limits };
      const vs = new Map<Flag, unknown>();
      withIdempotencyKey({ flags: [f], retry: { idempotencyHeader: "Idempotency-Key" } } as unknown as Command, vs);
      return String(vs.get(f));
    };
    expect(limited({ maxLength: 32 })).toMatch(/^[0-9a-f]{32}$/);
    expect(limited({ maxLength: 16 })).toMatch(/^[0-9a-f]{16}$/);
    expect(limited({ pattern: "^[0-9a-f]{32}$" })).toMatch(/^[0-9a-f]{32}$/);
    expect(limited({ minLength: 40, maxLength: 80 })).toMatch(/^[0-9a-f]{64}$/);
    expect(limited({ minLength: 100 })).toMatch(/^[0-9a-f]{100}$/);
    // A header the document declares without a flag of its own (a candidate's flags renamed it away) still goes out.
    const bare = new Map<Flag, unknown>();
    withIdempotencyKey({ flags: [], retry: { idempotencyHeader: "X-Idempotency-Key" } } as unknown as Command, bare);
    expect([...bare.keys()]).toMatchObject([{ in: "header", wire: "X-Idempotency-Key" }]);
  });
});
