import { readFileSync } from "node:fs";

/** What /proc/<pid>/stat says of a process; undefined where there is no /proc or the process is gone. */
function statOf(pid: number): { ticks: number; waitingOnMachine: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: the fields after it start past the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    // R: running or waiting for a CPU; D: waiting for the disk. Either way the machine, not input, holds it up.
    return Number.isFinite(ticks) ? { ticks, waitingOnMachine: fields[0] === "R" || fields[0] === "D" } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU time a process has used so far, in clock ticks (utime + stime of /proc/<pid>/stat); undefined where there is no
 * /proc or the process is gone.
 */
export const cpuTicks = (pid: number): number | undefined => statOf(pid)?.ticks;

/**
 * How much CPU time, in bounds, a process may use past its bound before it is stopped anyway: one that has computed for
 * four bounds is looping, however slowly the machine ran it. CPU time, not the clock, so a loaded machine moves no
 * verdict (a process waiting for a CPU uses none).
 */
const MAX_CPU_STRETCH = 4;
/** The clock's own ceiling, in bounds: past it a process is stopped whatever it does. */
const MAX_WALL_STRETCH = 20;
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ: 100 on every Linux build Node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * A bound on how long a process may run that tells a hang from a starved machine. Past `timeoutMs`, a process that used
 * no CPU during the last half-bound and sleeps is waiting on something (input that never comes, a prompt) and `expire`
 * is called; one still using CPU, or waiting for a CPU or the disk, is slow, not stuck — on a two-core machine running
 * two test suites a Node start alone took seconds — and gets another half-bound, until it has used MAX_CPU_STRETCH ×
 * `timeoutMs` of CPU time since it was first seen (a loop), or the clock reaches MAX_WALL_STRETCH × `timeoutMs`. A
 * half-bound in which the check itself ran late by a tenth of it or more says nothing of the process: whatever kept the
 * check from running (a paused virtual machine, a starved event loop) may have kept the process from running too, so it
 * counts as working. Where CPU time cannot be read (no /proc), the bound is `timeoutMs` as given. `pid` is asked at each
 * check: it may be unknown until the process has started. Returns a function that cancels the bound.
 */
export function progressDeadline(pid: () => number | undefined, timeoutMs: number, expire: () => void): () => void {
  const started = performance.now();
  const step = Math.max(1, Math.floor(timeoutMs / 2));
  let last: number | undefined;
  let first: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let due = started + step;
  const check = () => {
    const starved = performance.now() - due >= step / 10;
    const id = pid();
    const stat = id === undefined ? undefined : statOf(id);
    const now = stat?.ticks;
    // Without an earlier sample (the first check ran late) there is nothing to compare: sample and look again.
    const working = now !== undefined && (last === undefined || now > last || starved || stat!.waitingOnMachine);
    last = now;
    first ??= now;
    const elapsed = performance.now() - started;
    const cpuMs = now !== undefined && first !== undefined ? ((now - first) * 1000) / TICKS_PER_SECOND : 0;
    if (
      elapsed >= timeoutMs &&
      (!working || cpuMs >= timeoutMs * MAX_CPU_STRETCH || elapsed >= timeoutMs * MAX_WALL_STRETCH)
    ) {
      timer = undefined;
      expire();
      return;
    }
    const wait = elapsed < timeoutMs ? Math.min(step, timeoutMs - elapsed) : step;
    due = performance.now() + wait;
    timer = setTimeout(check, wait);
    timer.unref();
  };
  timer = setTimeout(check, step);
  timer.unref();
  return () => clearTimeout(timer);
}

/** The longest `progressDeadline` lets a process run: for whoever waits on one from outside. */
export const longestRun = (timeoutMs: number) => timeoutMs * MAX_WALL_STRETCH;
