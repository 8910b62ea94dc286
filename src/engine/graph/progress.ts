import { formatDuration } from "../../core/duration.js";
import { count } from "../../core/plural.js";
import { tally, type TaskOutcome, type TaskStatus } from "./outcome.js";
import type { Reporter } from "./scheduler.js";

const ms = formatDuration;

function label(outcome: TaskOutcome): string {
  switch (outcome.status) {
    case "cached":
      return `${outcome.id} (cached${outcome.source === "remote" ? ", from the remote cache" : ""})`;
    case "ran":
      return `${outcome.id} (${ms(outcome.durationMs)}${outcome.reasons.length ? `; ${outcome.reasons[0]}${outcome.reasons.length > 1 ? ` +${outcome.reasons.length - 1}` : ""}` : ""})`;
    case "failed":
      return `${outcome.id} failed: ${outcome.error.message}`;
    case "skipped":
      return `${outcome.id} skipped (dependency ${outcome.blockedBy} did not finish)`;
    case "interrupted":
      return `${outcome.id} interrupted`;
  }
}

const MARK: Record<TaskStatus, string> = {
  ran: "✔",
  cached: "✔",
  failed: "✖",
  skipped: "↓",
  interrupted: "■",
};

/** No progress at all: `--json` keeps stderr quiet and stdout for the one document. */
export const silentReporter: Reporter = { begin() {}, taskStarted() {}, taskLog() {}, taskFinished() {} };

/** One line per event on stderr: for CI logs and pipes, where redrawing would garble the output. */
export function plainReporter(stream: NodeJS.WritableStream = process.stderr): Reporter {
  return {
    begin() {},
    taskStarted(id) {
      stream.write(`▶ ${id}\n`);
    },
    taskLog(id, line) {
      stream.write(`  ${id} │ ${line}\n`);
    },
    taskFinished(outcome) {
      stream.write(`${MARK[outcome.status]} ${label(outcome)}\n`);
      for (const warning of outcome.warnings) stream.write(`  ⚠ ${outcome.id}: ${warning}\n`);
    },
  };
}

/** Live task list on a terminal (listr2), drawn on stderr; the scheduler drives it, listr2 only displays. */
export async function liveReporter(): Promise<Reporter & { done(): Promise<void> }> {
  const { Listr, ListrLogger, ProcessOutput } = await import("listr2");
  const waiters = new Map<string, { resolve(o: TaskOutcome): void; promise: Promise<TaskOutcome> }>();
  const logs = new Map<string, (line: string) => void>();
  let run: Promise<unknown> = Promise.resolve();
  const waiter = (id: string) => {
    let resolve!: (o: TaskOutcome) => void;
    const promise = new Promise<TaskOutcome>((r) => (resolve = r));
    waiters.set(id, { resolve, promise });
  };
  return {
    begin(ids) {
      ids.forEach(waiter);
      const list = new Listr(
        ids.map((id) => ({
          title: id,
          task: async (_ctx: unknown, task: { title: string; output: string; skip(msg?: string): void }) => {
            logs.set(id, (line) => (task.output = line));
            const outcome = await waiters.get(id)!.promise;
            task.title = label(outcome);
            switch (outcome.status) {
              case "failed":
                throw new Error(outcome.error.message);
              case "skipped":
              case "interrupted":
                task.skip(label(outcome));
                return;
              case "ran":
              case "cached":
                for (const warning of outcome.warnings) task.output = `⚠ ${warning}`;
            }
          },
        })),
        {
          concurrent: true,
          exitOnError: false,
          collectErrors: false,
          rendererOptions: {
            logger: new ListrLogger({ processOutput: new ProcessOutput(process.stderr, process.stderr) }),
            collapseErrors: false,
            showErrorMessage: false,
          },
        },
      );
      run = list.run().catch(() => undefined);
    },
    taskStarted() {},
    taskLog(id, line) {
      logs.get(id)?.(line);
    },
    taskFinished(outcome) {
      waiters.get(outcome.id)?.resolve(outcome);
    },
    async done() {
      await run;
    },
  };
}

export function summaryLine(outcomes: TaskOutcome[], durationMs: number): string {
  const n = tally(outcomes);
  const parts = [`${n.ran} ran`, `${n.cached} cached`, `${n.failed} failed`, `${n.skipped} skipped`];
  if (n.interrupted) parts.push(`${n.interrupted} interrupted`);
  return `${count(outcomes.length, "task")}: ${parts.join(", ")} in ${ms(durationMs)}`;
}
