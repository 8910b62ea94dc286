import type { InterError } from "../core/errors.js";

/** The one JSON document `--json` prints. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printError(error: InterError, json: boolean): void {
  if (json) {
    printJson({
      ok: false,
      error: {
        code: error.code,
        message: error.message,
        suggestion: error.suggestion,
        ...(error.details ? { details: error.details } : {}),
      },
    });
    return;
  }
  const log = (error.details?.log as string[] | undefined) ?? [];
  const lines = [`error ${error.code}: ${error.message}`, ...log.map((l) => `  │ ${l}`), `  → ${error.suggestion}`];
  process.stderr.write(`${lines.join("\n")}\n`);
}
