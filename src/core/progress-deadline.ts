import { readFileSync } from "node:fs";

/**
 * CPU time a process has used so far, in clock ticks (utime + stime of /proc/<pid>/stat); undefined where there is no
 * /proc or the process is gone.
 */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: the fields after it start past the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** How far past its bound a process that is still using CPU may run before it is stopped anyway. */
const MAX_STRETCH = 4;

/**
 * A bound on how long a process may run that tells a hang from a starved machine. Past `timeoutMs`, a process that used
 * no CPU during the last half-bound is waiting on something (input that never comes, a prompt) and `expire` is called;
 * one still using CPU is slow, not stuck — on a two-core machine running two test suites a Node start alone took
 * seconds — and gets another half-bound, up to MAX_STRETCH × `timeoutMs`. Where CPU time cannot be read (no /proc), the
 * bound is `timeoutMs` as given. `pid` is asked at each check: it may be unknown until the process has started.
 * Returns a function that cancels the bound.
 */
export function progressDeadline(pid: () => number | undefined, timeoutMs: number, expire: () => void): () => void {
  const started = performance.now();
  const step = Math.max(1, Math.floor(timeoutMs / 2));
  let last: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const id = pid();
    const now = id === undefined ? undefined : cpuTicks(id);
    // Without an earlier sample (the first check ran late) there is nothing to compare: sample and look again.
    const working = now !== undefined && (last === undefined || now > last);
    last = now;
    const elapsed = performance.now() - started;
    if (elapsed >= timeoutMs && (!working || elapsed >= timeoutMs * MAX_STRETCH)) {
      timer = undefined;
      expire();
      return;
    }
    timer = setTimeout(check, elapsed < timeoutMs ? Math.min(step, timeoutMs - elapsed) : step);
    timer.unref();
  };
  timer = setTimeout(check, step);
  timer.unref();
  return () => clearTimeout(timer);
}

/** The longest `progressDeadline` lets a process run: for whoever waits on one from outside. */
export const longestRun = (timeoutMs: number) => timeoutMs * MAX_STRETCH;
