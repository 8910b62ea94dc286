import { processAlive } from "../../core/process.js";
import { mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync, closeSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { InterError } from "../../core/errors.js";

/** Whether a process exists (EPERM: it does, under another user). */

function holder(file: string): number | undefined {
  try {
    const pid = Number(JSON.parse(readFileSync(file, "utf8")).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export interface Lock {
  release(): void;
}

/**
 * One writer per project at a time. A lock left by a killed process (its pid is gone) is taken over; a live holder is
 * waited for, so two `inter build`s in one project run one after the other and the second finds the first's work.
 */
export async function acquireLock(
  file: string,
  options: { timeoutMs: number; onWait: (pid: number) => void; signal?: AbortSignal },
): Promise<Lock> {
  mkdirSync(dirname(file), { recursive: true });
  const deadline = Date.now() + options.timeoutMs;
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          if (holder(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const pid = holder(file);
    if (pid === undefined || !processAlive(pid)) {
      // A half-written lock or a dead holder. Renaming first means only one contender removes it.
      const stale = `${file}.stale-${process.pid}`;
      try {
        if (pid !== undefined || Date.now() - lockAge(file) > 2000) {
          renameSync(file, stale);
          rmSync(stale, { force: true });
        }
      } catch {
        // someone else took it over first
      }
      await sleep(20);
      continue;
    }
    if (!announced) {
      options.onWait(pid);
      announced = true;
    }
    if (options.signal?.aborted)
      throw new InterError(
        "INTERRUPTED",
        `Interrupted while waiting for pid ${pid} to release ${file}.`,
        "Run the command again.",
        { pid, file },
      );
    if (Date.now() > deadline) {
      throw new InterError(
        "LOCK_TIMEOUT",
        `Another inter process (pid ${pid}) has held ${file} for too long.`,
        `Wait for pid ${pid} to finish, or stop it; a lock of a dead process is taken over automatically.`,
        { pid, file },
      );
    }
    await sleep(50);
  }
}

function lockAge(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
