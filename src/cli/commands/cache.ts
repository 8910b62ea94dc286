import { Command, Option } from "clipanion";
import { rmSync } from "node:fs";
import { join } from "node:path";
import * as t from "typanion";
import { acquireLock } from "../../engine/cache/lock.js";
import { collectGarbage, parseSize, verifyStore } from "../../engine/cache/maintenance.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { openProject, type Project } from "../project.js";
import { count } from "../../core/plural.js";
import { compareText } from "../../core/text-order.js";

const kib = (n: number) => (n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

async function withLock<T>(project: Project, json: boolean, work: () => T): Promise<T> {
  const lock = await acquireLock(join(project.stateDir, "lock"), {
    timeoutMs: 10 * 60 * 1000,
    onWait: (pid) => json || process.stderr.write(`inter: waiting for another inter process (pid ${pid})…\n`),
  });
  try {
    return work();
  } finally {
    lock.release();
  }
}

export class CacheLsCommand extends BaseCommand {
  static paths = [["cache", "ls"]];
  static usage = Command.Usage({ description: "List cache records: task, fingerprint, age and output size" });

  async run(): Promise<CommandResult> {
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    const objects = new Map(project.store.listObjects().map((o) => [o.hash, o.size]));
    const records = project.store
      .listRecords()
      .map(({ record }) => ({
        task: record.task,
        fingerprint: record.fingerprint,
        createdAt: record.createdAt,
        latest: project.store.readLatest(record.task)?.fingerprint === record.fingerprint,
        outputs: record.outputs.length,
        bytes: record.outputs.reduce((n, o) => n + o.size, 0),
        complete: record.outputs.every((o) => objects.has(o.sha256)),
      }))
      .sort((a, b) => compareText(a.task, b.task) || compareText(b.createdAt, a.createdAt));
    const bytes = [...objects.values()].reduce((a, b) => a + b, 0);
    const data = { dir: project.cacheDir, records, totals: { records: records.length, objects: objects.size, bytes } };
    const human = [
      ...records.map(
        (r) =>
          `${r.latest ? "*" : " "} ${r.task.padEnd(16)} ${r.fingerprint.slice(0, 12)}  ${r.createdAt}  ${String(r.outputs).padStart(3)} output${r.outputs === 1 ? " " : "s"}  ${kib(r.bytes)}${r.complete ? "" : "  (incomplete: will re-run)"}`,
      ),
      `${count(records.length, "record")}, ${count(objects.size, "object")}, ${kib(bytes)} in ${project.cacheDir}  (* = newest record of its task)`,
    ].join("\n");
    return { data, human };
  }
}

export class CacheVerifyCommand extends BaseCommand {
  static paths = [["cache", "verify"]];
  static usage = Command.Usage({
    description: "Re-hash every stored object and check every record; damaged entries are removed so they are rebuilt",
  });

  async run(): Promise<CommandResult> {
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    const report = await withLock(project, this.json, () => verifyStore(project.store, project.loaded.root));
    const unsafe = report.unsafeRecords.length + report.unsafeReads.length;
    const problems =
      report.corruptObjects.length + report.unreadableRecords.length + report.incompleteRecords.length + unsafe;
    const human = problems
      ? `Checked ${count(report.objects, "object")} and ${count(report.records, "record")}: removed ${count(report.corruptObjects.length, "corrupt object")}, ${count(report.unreadableRecords.length, "unreadable record")} and ${count(unsafe, "record or read-list", "records or read-lists")} naming paths outside the project; ${count(report.incompleteRecords.length, "record")} lost outputs and will re-run.`
      : `Checked ${count(report.objects, "object")} and ${count(report.records, "record")}: all intact.`;
    return { data: { ...report, healthy: problems === 0 }, human };
  }
}

export class CacheGcCommand extends BaseCommand {
  static paths = [["cache", "gc"]];
  static usage = Command.Usage({
    description:
      "Delete the oldest records (never a task's newest) until the cache fits its size bound, then unreferenced objects and leftovers of killed runs",
    examples: [["Keep at most 200 MB", "inter cache gc --max-size 200MB"]],
  });
  maxSize = Option.String("--max-size", {
    description: "Size bound, e.g. 500MB (default: cache.maxSize from the config, else 1GB)",
    validator: t.cascade(t.isString(), [t.matchesRegExp(/^\d+(\.\d+)?\s*(B|KB|MB|GB)?$/i)]),
  });

  async run(): Promise<CommandResult> {
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    const bound = parseSize(this.maxSize ?? project.loaded.config.cache?.maxSize ?? "1GB");
    const report = await withLock(project, this.json, () => collectGarbage(project.store, bound));
    const human = `Kept ${count(report.keptRecords, "record")} (${kib(report.keptBytes)} of ${kib(bound)} allowed); removed ${count(report.removedRecords, "record")}, ${count(report.removedObjects, "object")} (${kib(report.freedBytes)}) and ${count(report.removedTemp, "temp file")}.`;
    return { data: { maxBytes: bound, ...report }, human };
  }
}

export class CacheCleanCommand extends BaseCommand {
  static paths = [["cache", "clean"]];
  static usage = Command.Usage({ description: "Delete the whole local cache; the next build runs every task" });

  async run(): Promise<CommandResult> {
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    await withLock(project, this.json, () => rmSync(project.cacheDir, { recursive: true, force: true }));
    return { data: { removed: project.cacheDir }, human: `Removed ${project.cacheDir}.` };
  }
}
