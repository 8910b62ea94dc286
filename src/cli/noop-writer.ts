import { lstatSync } from "node:fs";
import type { Trail } from "../engine/cache/trail.js";
import { summaryLine } from "../engine/graph/progress.js";
import type { GraphRun } from "./execute-graph.js";
import { writeFileAtomic } from "../core/atomic.js";
import { noopRecordFile, type NoopRecord } from "./noop-record.js";
import type { Project } from "./project.js";
import { INTER_BUILD } from "../core/version.js";

/** Files younger than this are not vouched for: an edit within the clock's resolution would keep their stat. */
const SETTLE_MS = 200;

/**
 * After an `inter build` in which every task was a local cache hit, saves what it looked at and what it printed
 * (cli/noop-record.ts), so the next identical build can answer without loading the graph. Anything the record could
 * not vouch for — a remote hit, a warning about the cache, a glob too wide to follow — saves nothing.
 */
export function recordNoop(
  project: Project,
  run: GraphRun,
  trail: Trail,
  context: { json: boolean; cwd: string; env: string; stderr?: string },
): void {
  const { summary } = run;
  if (summary.ran || summary.failed || summary.skipped || summary.interrupted || summary.cached !== summary.total)
    return;
  if (run.cache || trail.unbounded) return;
  const createdAt = Date.now();
  const paths = new Set<string>([project.loaded.file, ...project.loaded.sources, ...trail.files]);
  for (const task of run.tasks) {
    if (task.status !== "cached" || task.source === "remote") return;
    const record = project.store.readRecord(task.id, task.fingerprint);
    if (!record) return;
    paths.add(project.store.recordPath(task.id, task.fingerprint));
    paths.add(project.store.latestFile(task.id));
    for (const output of record.outputs) paths.add(project.store.objectPath(output.sha256));
  }
  const files: NoopRecord["files"] = [];
  for (const path of [...paths].sort()) {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return;
    }
    if (stat.mtimeMs > createdAt - SETTLE_MS || stat.ctimeMs > createdAt - SETTLE_MS) return;
    files.push([path, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino]);
  }
  const dirs: NoopRecord["dirs"] = [...trail.dirs].sort().map((dir) => {
    try {
      return [dir, lstatSync(dir).mtimeMs];
    } catch {
      return [dir, -1];
    }
  });
  if (dirs.some(([, mtimeMs]) => mtimeMs > createdAt - SETTLE_MS)) return;
  const base = {
    schema: 1 as const,
    inter: INTER_BUILD,
    node: process.version,
    json: context.json,
    cwd: context.cwd,
    config: project.loaded.file,
    createdAt,
    env: context.env,
    files,
    absent: [...trail.absent].sort(),
    dirs,
  };
  if (context.json) {
    saveRecord(project.loaded.root, { ...base, data: run as unknown as NoopRecord["data"] });
    return;
  }
  const line = `${summaryLine(run.tasks, summary.durationMs)}\n`;
  const at = context.stderr?.lastIndexOf(line) ?? -1;
  if (at < 0) return;
  const text = context.stderr!;
  saveRecord(project.loaded.root, {
    ...base,
    stderr: {
      before: text.slice(0, at),
      summary: line.slice(0, line.lastIndexOf(" in ")),
      after: text.slice(at + line.length),
    },
  });
}

function saveRecord(root: string, record: NoopRecord): void {
  writeFileAtomic(noopRecordFile(root, record.json), JSON.stringify(record));
}

/** Copies everything written to stderr while `work` runs (the plain progress lines, the summary, the candidate). */
export async function teeStderr<T>(work: () => Promise<T>): Promise<{ value: T; text: string }> {
  const chunks: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    return { value: await work(), text: chunks.join("") };
  } finally {
    process.stderr.write = write;
  }
}
