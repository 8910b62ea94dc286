/**
 * Runs `work` with the process held open for up to `atMostMs` while it has not settled. A request bounded by
 * `AbortSignal.timeout` is not held so: that signal's timer is unref'd, and a request that neither answered nor failed
 * (its socket gone without a word), with nothing else to wait on, would let Node end the process at once — before the
 * command printed its result, with exit code 0. Held, the request ends at its timeout like any other; `atMostMs` is a
 * little past the longest the work's own timeouts allow, so that work which ignores them is not held forever
 * (src/cli/entry.ts then says the command has no result).
 */
export async function heldOpen<T>(work: () => Promise<T>, atMostMs: number): Promise<T> {
  const holder = setTimeout(() => undefined, atMostMs);
  try {
    return await work();
  } finally {
    clearTimeout(holder);
  }
}
