/**
 * Rate limits and transient failures (docs/generated-cli.md, "Rate limits and retries"): when an answer of 429 or 503
 * is tried again, how long to wait, and what the agent is told when the CLI stops. The decisions are pure (the clock,
 * the sleep and the random source are parameters); `retrying` is the loop around an attempt function that signs and
 * sends the request each time (main.ts: built once, so every attempt carries the same bytes), so a signature or a
 * timestamp is made anew for every attempt.
 *
 * - Retried: 429 and 503, for idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS, TRACE), and for POST or PATCH only
 *   where the document declares an idempotency key header (then sent, the same on every attempt). A request whose body
 *   cannot be sent twice (streamed from stdin) is never retried.
 * - At most DEFAULT_MAX_RETRIES retries, and at most `--max-retry-wait` seconds of waiting in all. `Retry-After`
 *   (seconds or an HTTP date) is honoured, plus a little jitter; one beyond what is left of the cap fails at once,
 *   saying when to retry. Without `Retry-After`, exponential backoff with jitter, cut to what is left of the cap.
 */
import { nodeCrypto } from "../core/node-crypto.js";
import { count } from "../core/plural.js";
import { CliError } from "./errors.js";
import type { Command, Flag } from "./manifest.js";

/** The statuses that say "not now": too many requests, and service unavailable. */
const RETRY_STATUSES: readonly number[] = [429, 503];
/** Methods a repeated request cannot do twice (RFC 9110 §9.2.2). */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]);
/** Retries after the first attempt. */
export const DEFAULT_MAX_RETRIES = 3;
/** Seconds of waiting between attempts, in all, unless `--max-retry-wait` says otherwise. */
export const DEFAULT_MAX_RETRY_WAIT_S = 30;
/** The most `--max-retry-wait` takes: an hour. */
export const MAX_RETRY_WAIT_LIMIT_S = 3600;
/** A header parameter that makes a POST or PATCH safe to repeat (Idempotency-Key, X-Idempotency-Key, …-Token). */
export const IDEMPOTENCY_HEADER = /^(x-)?idempotency[-_]?(key|token)$/i;

/** Milliseconds: the first backoff without `Retry-After` (doubled each retry), and the most jitter added to one. */
function baseMs(): number {
  const value = process.env.AGENT_CLI_RETRY_BASE_MS;
  const n = value === undefined || value.trim() === "" ? NaN : Number(value);
  return Number.isFinite(n) && n >= 0 ? n : 500;
}

/** What the loop needs of an answer: its status and headers (the body is the caller's). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

export interface RetryPolicy {
  /** Why the request is sent once only (`--no-retry`, a POST without an idempotency key, a body read from stdin). */
  off?: string;
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Waiting between attempts, in all. */
  maxWaitMs: number;
  /** The first backoff and the most jitter, in ms. */
  baseMs: number;
}

export interface RetryOptions {
  /** False with `--no-retry`. */
  enabled: boolean;
  /** `--max-retry-wait`, in seconds. */
  maxWaitS: number;
  /** The command's idempotency key header, when the document declares one. */
  idempotencyHeader?: string;
  /** Whether the request can be sent again as it was (false for a body streamed from stdin). */
  replayable: boolean;
}

/** The policy for one call of a command. */
export function retryPolicy(method: string, options: RetryOptions): RetryPolicy {
  const policy = {
    maxAttempts: DEFAULT_MAX_RETRIES + 1,
    maxWaitMs: Math.round(options.maxWaitS * 1000),
    baseMs: baseMs(),
  };
  const off = whyNot(method, options);
  return off ? { off, ...policy } : policy;
}

function whyNot(method: string, options: RetryOptions): string | undefined {
  const upper = method.toUpperCase();
  if (!options.enabled) return "--no-retry";
  if (!IDEMPOTENT_METHODS.has(upper) && !options.idempotencyHeader)
    return `${upper} without an idempotency key header: sent twice it could act twice`;
  if (!options.replayable) return "the request body is read from stdin once and cannot be sent again";
  return undefined;
}

/**
 * Whether a request can be sent again as built: no body, or one held in memory, or a stream of bytes and files read
 * from their descriptors at offset 0 (http.ts writeStream) — not one that reads stdin (`-`), which is gone once read.
 * `replayable`, where a request states it, decides.
 */
export const replayable = (request: {
  body?: unknown;
  stream?: { chunks: readonly object[] };
  replayable?: boolean;
}): boolean =>
  request.replayable ??
  ((request.body === undefined || typeof request.body === "string" || request.body instanceof Uint8Array) &&
    !(request.stream?.chunks ?? []).some((c) => "file" in c && (c as { file?: { path?: string } }).file?.path === "-"));

/**
 * The wait a `Retry-After` header asks for, in ms: delay-seconds or an HTTP date (a date in the past is 0); undefined
 * when absent or unreadable. Of a repeated header, the first.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  // A number of any length stays a number (a wait too long to honour), never Infinity.
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  // Only dates: a bare or negative number, or other text Date.parse happens to read, is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The backoff before retry `retry` (1 for the first) without `Retry-After`: base·2^(retry−1), half of it random. */
export function backoffMs(retry: number, base: number, random: () => number): number {
  const exponential = base * 2 ** Math.max(0, retry - 1);
  return Math.round(exponential / 2 + (exponential / 2) * random());
}

/** Why the loop stopped on a 429 or 503. */
export type Stop = "off" | "exhausted" | "beyond-cap";

export type Decision =
  { retry: true; delayMs: number } | { retry: false; stop?: Stop; retryAfterMs?: number; fromHeader?: boolean };

/**
 * After attempt `attempt` (1 for the first) answered `status`, having waited `waitedMs` so far: retry after how long,
 * or stop and why. A stop on 429 or 503 says how long the API asked to wait (or the backoff that would have come next).
 */
export function decide(
  answer: Answer,
  state: { attempt: number; waitedMs: number },
  policy: RetryPolicy,
  now: number,
  random: () => number,
): Decision {
  if (!RETRY_STATUSES.includes(answer.status)) return { retry: false };
  const asked = parseRetryAfter(answer.headers["retry-after"], now);
  const backoff = backoffMs(state.attempt, policy.baseMs, random);
  const stop = (why: Stop): Decision => ({
    retry: false,
    stop: why,
    retryAfterMs: asked ?? backoff,
    fromHeader: asked !== undefined,
  });
  if (policy.off) return stop("off");
  if (state.attempt >= policy.maxAttempts) return stop("exhausted");
  const left = policy.maxWaitMs - state.waitedMs;
  if (asked !== undefined) {
    if (asked > left) return stop("beyond-cap");
    // The server's wait, and a little more at random so clients told the same moment do not return all at once.
    return { retry: true, delayMs: Math.min(left, Math.round(asked + random() * Math.min(policy.baseMs, 1000))) };
  }
  if (left <= 0) return stop("beyond-cap");
  return { retry: true, delayMs: Math.min(left, backoff) };
}

/** What the loop did: attempts made, the wait in all, and, when it stopped on 429 or 503, why and for how long. */
export interface RetryOutcome {
  attempts: number;
  waitedMs: number;
  status?: number;
  stop?: Stop;
  retryAfterMs?: number;
  fromHeader?: boolean;
  /** When the API may be tried again (epoch ms). */
  retryAt?: number;
}

export interface Clock {
  now(): number;
  random(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Runs `attempt` (given its number, 1 for the first) until it answers other than 429/503 or the policy stops: the
 * answer retried is handed to `discard` first (a streamed body to drain), the last one is returned with what was done.
 */
export async function retrying<R extends Answer>(
  attempt: (n: number) => Promise<R>,
  policy: RetryPolicy,
  options: { clock?: Clock; discard?: (answer: R) => unknown } = {},
): Promise<{ response: R; retry: RetryOutcome }> {
  const clock = options.clock ?? systemClock;
  let waitedMs = 0;
  for (let n = 1; ; n++) {
    const response = await attempt(n);
    const now = clock.now();
    const decision = decide(response, { attempt: n, waitedMs }, policy, now, () => clock.random());
    if (!decision.retry) {
      const retry: RetryOutcome = { attempts: n, waitedMs };
      if (decision.stop) {
        retry.status = response.status;
        retry.stop = decision.stop;
        retry.retryAfterMs = decision.retryAfterMs;
        retry.fromHeader = decision.fromHeader;
        retry.retryAt = now + (decision.retryAfterMs ?? 0);
      }
      return { response, retry };
    }
    await options.discard?.(response);
    await clock.sleep(decision.delayMs);
    waitedMs += decision.delayMs;
  }
}

const seconds = (ms: number) => Math.ceil(ms / 1000);

/**
 * The coded error of a 429 or 503 the CLI stopped on (errorFor's, RATE_LIMITED or SERVER_ERROR), saying what was
 * tried and when to try again: `details.retry_after` (seconds), `retry_at`, `attempts`, `retry` (why it stopped).
 * Any other error is returned as it is.
 */
export function retryError(error: CliError, retry: RetryOutcome, policy: RetryPolicy): CliError {
  if (!retry.stop || retry.retryAfterMs === undefined) return error;
  const after = seconds(retry.retryAfterMs);
  // A moment past what a date can hold (a Retry-After of many digits) is left unsaid; the seconds still say it.
  const when = new Date(retry.retryAt ?? Date.now());
  const at = Number.isNaN(when.getTime()) ? undefined : when.toISOString().replace(/\.\d{3}Z$/, "Z");
  const retryAt = at ? ` (at ${at})` : "";
  const asked = retry.fromHeader ? `the API asks to wait ${after} s (Retry-After)` : "no Retry-After given";
  const left = Math.max(0, policy.maxWaitMs - retry.waitedMs) / 1000;
  const stopped = retry.attempts === 1 ? "not retried" : `gave up after ${count(retry.attempts, "attempt")}`;
  const why =
    retry.stop === "off"
      ? `not retried (${policy.off})`
      : retry.stop === "beyond-cap"
        ? retry.fromHeader
          ? `${stopped}: ${asked}, more than the ${left} s left of --max-retry-wait`
          : `${stopped}: ${asked}, and none of --max-retry-wait is left for a backoff`
        : `gave up after ${count(retry.attempts, "attempt")} and ${seconds(retry.waitedMs)} s of waiting; ${asked}`;
  const suggestion =
    retry.stop === "beyond-cap"
      ? `Retry after ${after} s${retryAt}, or allow a longer wait with --max-retry-wait <seconds> (at most ${MAX_RETRY_WAIT_LIMIT_S}).`
      : retry.stop === "off" && policy.off !== "--no-retry"
        ? `Retry after ${after} s${retryAt} once you know the first request did not take effect (read the resource first).`
        : `Retry after ${after} s${retryAt}.`;
  return new CliError(error.code, `${error.message}; ${why}.`, suggestion, {
    ...error.details,
    retry_after: after,
    ...(at ? { retry_at: at } : {}),
    attempts: retry.attempts,
    retry: retry.stop,
  });
}

/** What a command does on 429 and 503, as `--describe` and `--dry-run` say it: `on` is empty when it sends once. */
export type RetryPlan =
  | {
      on: number[];
      max_attempts: number;
      max_wait_s: number;
      idempotency_header?: string;
      idempotency_key?: "generated" | "given";
    }
  | { on: []; reason: string };

/** The plan of a command: `keyGiven` when the user gave the idempotency key (a dry run), undefined in --describe. */
export function retryPlan(policy: RetryPolicy, idempotencyHeader: string | undefined, keyGiven?: boolean): RetryPlan {
  if (policy.off) return { on: [], reason: policy.off };
  return {
    on: [...RETRY_STATUSES],
    max_attempts: policy.maxAttempts,
    max_wait_s: policy.maxWaitMs / 1000,
    ...(idempotencyHeader
      ? {
          idempotency_header: idempotencyHeader,
          ...(keyGiven !== undefined
            ? { idempotency_key: keyGiven ? ("given" as const) : ("generated" as const) }
            : {}),
        }
      : {}),
  };
}

/** The retry rules in one sentence, for help and --describe. */
export const RETRY_SUMMARY = `429 and 503 answers are retried up to ${DEFAULT_MAX_RETRIES} times for GET, HEAD, PUT, DELETE and OPTIONS (and for POST or PATCH only where the API declares an idempotency key header, which the CLI then sends, generated once per call unless given), honouring Retry-After (seconds or an HTTP date) or else backing off exponentially with jitter, waiting at most --max-retry-wait seconds in all (default ${DEFAULT_MAX_RETRY_WAIT_S}); a Retry-After beyond that fails at once. Exhausted: RATE_LIMITED (503: SERVER_ERROR) with details.retry_after (seconds) and details.attempts. --no-retry sends once.`;

/** `--max-retry-wait`'s value, in seconds: a number from 0 to MAX_RETRY_WAIT_LIMIT_S. */
export function maxRetryWait(value: string): number {
  const n = value.trim() === "" ? NaN : Number(value);
  if (!Number.isFinite(n) || n < 0 || n > MAX_RETRY_WAIT_LIMIT_S)
    throw new CliError(
      "INVALID_VALUE",
      `--max-retry-wait must be a number of seconds from 0 to ${MAX_RETRY_WAIT_LIMIT_S} (got "${value}").`,
      `Use e.g. --max-retry-wait ${DEFAULT_MAX_RETRY_WAIT_S}, or --no-retry to send once.`,
      { flag: "max-retry-wait", value },
    );
  return n;
}

/**
 * Puts the command's idempotency key among the values the request is built from, generated once for this call unless
 * the user gave one, so every attempt (and every rebuild of the request) carries the same key. Returns whether the
 * user gave it; undefined when the command declares no idempotency key header.
 */
export function withIdempotencyKey(command: Command, values: Map<Flag, unknown>): boolean | undefined {
  const header = command.retry?.idempotencyHeader;
  if (!header) return undefined;
  const flag = command.flags.find((f) => f.in === "header" && f.wire.toLowerCase() === header.toLowerCase()) ?? {
    flag: header.toLowerCase(),
    in: "header" as const,
    wire: header,
    type: "string" as const,
    required: false,
  };
  if (values.has(flag)) return true;
  values.set(flag, newKey(flag));
  return false;
}

/**
 * A random key the header's own limits accept: a UUID, else its 32 hex digits, else as many random hex digits as
 * `maxLength` allows (at least `minLength`); a UUID when none fits (the API's limits then say what it wants).
 */
function newKey(flag: Pick<Flag, "minLength" | "maxLength" | "pattern">): string {
  const uuid = nodeCrypto().randomUUID();
  const hex = (n: number) =>
    Array.from({ length: Math.ceil(n / 32) }, () => nodeCrypto().randomUUID().replace(/-/g, ""))
      .join("")
      .slice(0, n);
  let pattern: RegExp | undefined;
  try {
    pattern = flag.pattern ? new RegExp(flag.pattern, "u") : undefined;
  } catch {
    pattern = undefined;
  }
  const fits = (key: string) =>
    key.length >= (flag.minLength ?? 0) &&
    key.length <= (flag.maxLength ?? Infinity) &&
    (!pattern || pattern.test(key));
  const sized = flag.maxLength !== undefined ? [hex(Math.max(flag.minLength ?? 0, Math.min(flag.maxLength, 64)))] : [];
  const longer = flag.minLength !== undefined ? [hex(flag.minLength)] : [];
  return [uuid, uuid.replace(/-/g, ""), ...sized, ...longer].find(fits) ?? uuid;
}
