/**
 * When to try a model request again and how long to wait: 408, 409, 429 and 5xx (529 "overloaded" included),
 * timeouts and network errors are transient; every other status is an answer about the request and is not retried.
 */

export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/**
 * The wait a server asks for, in ms: `retry-after-ms` (OpenAI) or `retry-after` as seconds or an HTTP date; undefined
 * when absent or unreadable. A date in the past is 0.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry `retry` (1 for the first retry): the server's `retry-after` when it sent one, else
 * exponential backoff (`baseDelayMs` · 2^(retry−1)) with jitter (half of it random, so parallel clients spread out);
 * both capped at `maxDelayMs`.
 */
export function retryDelay(
  retry: number,
  options: { baseDelayMs: number; maxDelayMs: number; retryAfterMs?: number },
  random = Math.random,
): number {
  if (options.retryAfterMs !== undefined) return Math.min(options.maxDelayMs, options.retryAfterMs);
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
