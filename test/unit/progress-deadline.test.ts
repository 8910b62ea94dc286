import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cpuTicks, longestRun, progressDeadline } from "../../src/core/progress-deadline.js";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
});

function node(code: string): ChildProcess {
  const child = spawn(process.execPath, ["-e", code], { stdio: ["pipe", "ignore", "ignore"] });
  started.push(child);
  return child;
}

/** How long after it was set the deadline expired, the process still running. */
function expiry(child: ChildProcess, timeoutMs: number): Promise<number> {
  const begun = performance.now();
  return new Promise((resolve, reject) => {
    child.once("exit", () => reject(new Error("the process exited before the deadline")));
    progressDeadline(
      () => child.pid,
      timeoutMs,
      () => resolve(performance.now() - begun),
    );
  });
}

describe.runIf(cpuTicks(process.pid) !== undefined)("progressDeadline: a hang, told from a slow machine", () => {
  it("reads a process's CPU time, and nothing for one that is gone", () => {
    expect(cpuTicks(process.pid)).toBeGreaterThanOrEqual(0);
    expect(cpuTicks(2 ** 22 + 12345)).toBeUndefined();
  });

  it("stops a process waiting for input that never comes at its bound, not later", async () => {
    const waiting = node("process.stdin.resume()");
    const after = await expiry(waiting, 2000);
    expect(after).toBeGreaterThanOrEqual(2000);
    // It used no CPU once started: not stretched to the longest run a working process gets.
    expect(after).toBeLessThan(longestRun(2000));
  });

  it("lets a process that is still working run past its bound until it has used four bounds of CPU, however long that takes", async () => {
    // A short bound: the process burns a core for two seconds of CPU, which the rest of the suite needs meanwhile. On
    // a loaded machine that takes longer on the clock, and the process is let run: CPU time, not the clock, stops it.
    const working = node("for (;;) {}");
    const after = await expiry(working, 500);
    const ticks = cpuTicks(working.pid!)!;
    expect(after).toBeGreaterThanOrEqual(4 * 500);
    // Ticks are hundredths of a second; the first sample comes at the first half-bound.
    expect(ticks).toBeGreaterThanOrEqual(4 * 50);
    expect(after).toBeLessThan(longestRun(500));
  });

  it("does not judge a half-bound in which it was starved itself (a paused machine): the process counts as working", async () => {
    const waiting = node("process.stdin.resume()");
    let expired = false;
    progressDeadline(
      () => waiting.pid,
      1000,
      () => (expired = true),
    );
    // The first check (due at 0.5 s) samples the idle process; then this process stops for well past the bound, as a
    // paused machine does, and the second check (due at 1 s) runs late.
    await new Promise((resolve) => setTimeout(resolve, 550));
    // Blocked without spinning, as a paused machine is: no timer runs meanwhile, and no core is spent on it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1300);
    // A timer set now runs after the late check, which was due first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(expired).toBe(false);
    // The next half-bound, on time, sees no progress: the idle process expires after all.
    await vi.waitFor(() => expect(expired).toBe(true), { timeout: 30_000, interval: 50 });
  });

  it("expires on time when the process cannot be read (no pid yet, or gone)", async () => {
    const begun = performance.now();
    const after = await new Promise<number>((resolve) =>
      progressDeadline(
        () => undefined,
        500,
        () => resolve(performance.now() - begun),
      ),
    );
    expect(after).toBeGreaterThanOrEqual(500);
    expect(after).toBeLessThan(longestRun(500));
  });

  it("never expires once cancelled", async () => {
    const waiting = node("process.stdin.resume()");
    let expired = false;
    const cancel = progressDeadline(
      () => waiting.pid,
      200,
      () => (expired = true),
    );
    cancel();
    // A later deadline on the same process expires; by then the cancelled one would have.
    await expiry(waiting, 1000);
    expect(expired).toBe(false);
  });
});
