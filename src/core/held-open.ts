/** How far past its own timeouts work is waited for before it is given up as work that will never settle. */
const GRACE_MS = 1_000;

/**
 * Runs `work` with the process held open while it has not settled, for up to `timeoutMs` (the longest the work's own
 * timeouts allow) and a little more. A request bounded by `AbortSignal.timeout` is not held so: that signal's timer is
 * unref'd, and a request that neither answered nor failed (its socket gone without a word), with nothing else to wait
 * on, would let Node end the process at once — before the command printed its result, with exit code 0. Held, the
 * request ends at its timeout like any other; work that ignores its timeouts is not held forever (src/cli/entry.ts
 * then says the command has no result).
 */
export async function heldOpen<T>(work: () => Promise<T>, timeoutMs: number): Promise<T> {
  const holder = setTimeout(() => undefined, timeoutMs + GRACE_MS);
  try {
    return await work();
  } finally {
    clearTimeout(holder);
  }
}
