import { writeSync } from "node:fs";
import { isatty } from "node:tty";
import { formatDuration } from "../core/duration.js";
import { readValidRecord } from "./noop-record.js";

/**
 * Writes straight to the descriptor: touching process.stdout/stderr builds a stream object (a socket for a pipe),
 * which alone costs more than answering. A pipe whose reader is behind answers EAGAIN; wait a moment and go on.
 */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }
}

/**
 * The warm no-op `inter build`: when the last identical build changed nothing and nothing it looked at has changed
 * since (cli/noop-record.ts), print what it printed and exit — before clipanion, the config compiler and the task
 * graph are loaded. Returns false to let the normal path run; it never guesses.
 */
export function answerNoop(argv: string[]): boolean {
  // Timed like the normal path's summary: the work of answering, not Node's own start.
  const started = performance.now();
  if (process.env.INTER_NO_FAST_PATH) return false;
  const json = argv.length === 2 && argv[0] === "build" && argv[1] === "--json";
  if (!json && !(argv.length === 1 && argv[0] === "build")) return false;
  // The live progress display is drawn for a terminal; the record holds the plain lines.
  if (!json && isatty(2) && !process.env.CI) return false;
  let record;
  try {
    record = readValidRecord(process.cwd(), json);
  } catch {
    return false;
  }
  if (!record) return false;
  const elapsed = performance.now() - started;
  if (json && record.data) {
    record.data.summary.durationMs = Math.round(elapsed);
    writeAll(1, `${JSON.stringify({ ok: true, data: record.data }, null, 2)}\n`);
    return true;
  }
  if (!json && record.stderr) {
    writeAll(
      2,
      `${record.stderr.before}${record.stderr.summary} in ${formatDuration(elapsed)}\n${record.stderr.after}`,
    );
    return true;
  }
  return false;
}
