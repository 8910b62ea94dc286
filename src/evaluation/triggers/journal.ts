/**
 * The trigger journal (journal.jsonl beside the results): one line per judged run, keyed by what it depended on, so
 * an unchanged run is never run again. Lines written before runs were tagged carry no `kind`: they were judged runs
 * (a harness error was never journaled), and read as such.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import * as t from "typanion";
import type { JudgedTriggerRun } from "./stats.js";

const isJournaledRun = t.isObject(
  {
    kind: t.isOptional(t.isLiteral("judged")),
    run: t.isNumber(),
    loaded: t.isArray(t.isString()),
    other: t.isArray(t.isString()),
    model: t.isOptional(t.isString()),
    duration_ms: t.isNumber(),
  },
  { extra: t.isUnknown() },
);

/** A journal line's run: judged, tagged or from before the tag; undefined for anything else (that run runs again). */
function journaledRun(value: unknown): JudgedTriggerRun | undefined {
  // An old line that says harness_error was no judged run, whatever else it holds.
  if (!isJournaledRun(value) || "harness_error" in value) return undefined;
  const { run, loaded, other, model, duration_ms } = value;
  return { kind: "judged", run, loaded, other, ...(model !== undefined ? { model } : {}), duration_ms };
}

/** The judged runs a journal holds, by key; a line cut by a kill, or of another shape, is left out. */
export function readJournal(file: string): Map<string, JudgedTriggerRun> {
  const done = new Map<string, JudgedTriggerRun>();
  if (!existsSync(file)) return done;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!entry || typeof entry !== "object") continue;
    const { key, run } = entry as { key?: unknown; run?: unknown };
    const judged = journaledRun(run);
    if (typeof key === "string" && judged) done.set(key, judged);
  }
  return done;
}

export function appendJournal(file: string, key: string, run: JudgedTriggerRun): void {
  appendFileSync(file, `${JSON.stringify({ key, run })}\n`);
}
