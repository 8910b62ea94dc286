/** Whether a process with this pid exists (one we may not signal still does). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How long a stopped process group has to exit on SIGTERM before it gets SIGKILL. */
const STOP_GRACE_MS = 2000;

/** Sends a signal to a process group (a child started `detached` leads its own); a group already gone is fine. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Stops a process group the one way inter stops anything it started: SIGTERM, then SIGKILL once the leader has
 * exited (what it left behind must not outlive it) or after STOP_GRACE_MS, whichever comes first. The grace timer
 * never holds the process open.
 */
export async function stopGroup(pid: number | undefined, exited: Promise<unknown>): Promise<void> {
  signalGroup(pid, "SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    exited.then(
      () => undefined,
      () => undefined,
    ),
    new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS).unref())),
  ]);
  clearTimeout(timer);
  signalGroup(pid, "SIGKILL");
}
