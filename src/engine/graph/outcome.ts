/**
 * What became of one task in a run: one shape per status, so a consumer that switches on `status` is told by the
 * compiler which fields it may read (a cached task has a source, a skipped one the dependency that blocked it, a
 * failed one its error) and is made to handle every status the scheduler can produce.
 */

/** The error of a failed task, as `--json` prints it (an InterError's fields). */
export interface TaskError {
  code: string;
  message: string;
  suggestion: string;
  details?: Record<string, unknown>;
}

interface Common {
  id: string;
  /** Wall time from the task's start (cache lookup included) to its end; 0 for a task that never started. */
  durationMs: number;
  /** The task's warnings: fresh when it ran, replayed from its record when it was a hit; none otherwise. */
  warnings: string[];
}

/** What a task that finished left: its record's fingerprint, result data and output files. */
interface Finished extends Common {
  fingerprint: string;
  data: unknown;
  outputs: string[];
}

export interface RanOutcome extends Finished {
  status: "ran";
  /** Why the task ran instead of hitting the cache (engine/cache/fingerprint.ts's describeChange). */
  reasons: string[];
}

export interface CachedOutcome extends Finished {
  status: "cached";
  /** Whether the record came from this machine's cache or the remote one. */
  source: "local" | "remote";
}

export interface FailedOutcome extends Common {
  status: "failed";
  error: TaskError;
}

export interface SkippedOutcome extends Common {
  status: "skipped";
  /** The dependency that failed (or was itself skipped or interrupted) and so stopped this task. */
  blockedBy: string;
}

export interface InterruptedOutcome extends Common {
  status: "interrupted";
}

export type TaskOutcome = RanOutcome | CachedOutcome | FailedOutcome | SkippedOutcome | InterruptedOutcome;

export type TaskStatus = TaskOutcome["status"];

/** A task that finished, whether it ran or came from the cache: what its dependents and the user read. */
export function finished(outcome: TaskOutcome): outcome is RanOutcome | CachedOutcome {
  switch (outcome.status) {
    case "ran":
    case "cached":
      return true;
    case "failed":
    case "skipped":
    case "interrupted":
      return false;
  }
}

/** The result data of task `id` when it finished in this run; undefined when it did not run or did not finish. */
export function finishedData(outcomes: readonly TaskOutcome[], id: string): unknown {
  const outcome = outcomes.find((o) => o.id === id);
  return outcome && finished(outcome) ? outcome.data : undefined;
}

/** How many tasks ended in each status; every status is present, zero or not. */
export function tally(outcomes: readonly TaskOutcome[]): Record<TaskStatus, number> {
  const counts: Record<TaskStatus, number> = { ran: 0, cached: 0, failed: 0, skipped: 0, interrupted: 0 };
  for (const outcome of outcomes) counts[outcome.status] += 1;
  return counts;
}

/** The ids of the tasks that ended in `status`, in run order. */
export function idsWith(outcomes: readonly TaskOutcome[], status: TaskStatus): string[] {
  return outcomes.filter((o) => o.status === status).map((o) => o.id);
}

/** Failed tasks, narrowed so their `error` can be read. */
export function failures(outcomes: readonly TaskOutcome[]): FailedOutcome[] {
  return outcomes.filter((o): o is FailedOutcome => o.status === "failed");
}
