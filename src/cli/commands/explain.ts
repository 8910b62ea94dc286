import { Command, Option } from "clipanion";
import { describeChange, diffKeys, type Change } from "../../engine/cache/fingerprint.js";
import { initHasher } from "../../core/hash.js";
import { StatIndex } from "../../engine/cache/stat-index.js";
import { InterError } from "../../core/errors.js";
import { selectTasks } from "../../engine/graph/build-graph.js";
import { usableRecord } from "../../engine/cache/cache.js";
import { dependencyDigests, taskKey } from "../../engine/graph/key.js";
import type { DepResult } from "../../engine/graph/task.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { openProject } from "../project.js";
import { INTER_BUILD } from "../../core/version.js";

type Status = "up-to-date" | "will-run" | "blocked";

/** What explain found for the task asked about: one shape per answer. */
type Verdict =
  | {
      status: "up-to-date";
      fingerprint: string;
      lastRun: { fingerprint: string; createdAt: string; durationMs: number; reasons: string[] };
    }
  | { status: "will-run"; fingerprint: string; changes: Change[] }
  /** A dependency is not up to date: whether this task re-runs depends on what that one produces. */
  | { status: "blocked"; by: string };

export class ExplainCommand extends BaseCommand {
  static paths = [["explain"]];
  static usage = Command.Usage({
    description: "Say whether a task is up to date and why it ran or will run",
    details:
      "Compares the task's inputs, config slice, dependencies, environment and tool versions with its last record. For an up-to-date task it also says why its last run happened.",
    examples: [["Why does design re-run?", "inter explain design"]],
  });
  task = Option.String({ name: "task" });

  async run(): Promise<CommandResult> {
    const project = await openProject({ cwd: this.cwd, config: this.configFile });
    const { graph, store, loaded } = project;
    if (!graph.tasks.has(this.task)) {
      throw new InterError(
        "TASK_NOT_FOUND",
        `No task named "${this.task}".`,
        `Use one of: ${[...graph.tasks.keys()].join(", ")}.`,
        { name: this.task },
      );
    }
    await initHasher();
    const statIndex = StatIndex.load(project.cacheDir);
    const results = new Map<string, { result: DepResult; digest: string }>();
    const status = new Map<string, Status>();
    let target: Verdict | undefined;

    for (const id of selectTasks(graph, [this.task])) {
      const spec = graph.tasks.get(id)!;
      const stale = spec.deps.find((d) => status.get(d) !== "up-to-date");
      if (stale) {
        status.set(id, "blocked");
        if (id === this.task) target = { status: "blocked", by: stale };
        continue;
      }
      const { key, fingerprint } = await taskKey(
        spec,
        loaded.root,
        statIndex,
        (task, base) => store.readReads(task, base),
        INTER_BUILD,
        dependencyDigests(spec, results),
      );
      // The scheduler's own rule for a hit (engine/graph/key.ts): a record whose outputs cannot be restored is a miss.
      const stored = spec.cache === false ? undefined : store.readRecord(id, fingerprint);
      const record = stored && usableRecord(stored, loaded.root, store) ? stored : undefined;
      status.set(id, record ? "up-to-date" : "will-run");
      if (record) results.set(id, { result: { data: record.data, outputs: record.outputs }, digest: record.digest });
      if (id !== this.task) continue;

      const latest = store.readLatest(id);
      const latestRecord = store.latestRecord(id);
      if (record) {
        const previous =
          latest?.fingerprint === fingerprint && latest.previous ? store.readRecord(id, latest.previous) : undefined;
        const reasons = previous ? diffKeys(previous.key, record.key) : [{ kind: "first-run" } as Change];
        target = {
          status: "up-to-date",
          fingerprint,
          lastRun: {
            fingerprint,
            createdAt: record.createdAt,
            durationMs: record.durationMs,
            reasons: reasons.map(describeChange),
          },
        };
      } else {
        const changes =
          spec.cache === false
            ? [{ kind: "uncached" } as Change]
            : latestRecord
              ? diffKeys(latestRecord.key, key)
              : [{ kind: "first-run" } as Change];
        target = { status: "will-run", fingerprint, changes: changes.length ? changes : [{ kind: "first-run" }] };
      }
    }
    const verdict = target!;
    const described = (changes: Change[]) => changes.map((c) => ({ ...c, description: describeChange(c) }));
    switch (verdict.status) {
      case "up-to-date": {
        const { fingerprint, lastRun } = verdict;
        return {
          data: { task: this.task, status: "up-to-date", fingerprint, changes: [], lastRun },
          human: `${this.task} is up to date (cache hit for ${fingerprint}).\nIts last run (${lastRun.createdAt}, ${lastRun.durationMs} ms) happened because:\n${lastRun.reasons.map((r) => `  - ${r}`).join("\n")}`,
        };
      }
      case "will-run": {
        const changes = described(verdict.changes);
        return {
          data: { task: this.task, status: "will-run", fingerprint: verdict.fingerprint, changes },
          human: `${this.task} will run because:\n${changes.map((c) => `  - ${c.description}`).join("\n")}`,
        };
      }
      case "blocked":
        // Said as will-run in --json (what a script acts on), with the dependency as the change.
        return {
          data: {
            task: this.task,
            status: "will-run",
            changes: described([{ kind: "dependency", task: verdict.by }]),
          },
          human: `${this.task} depends on ${verdict.by}, which is not up to date; ${this.task} re-runs if that task's output changes.`,
        };
    }
  }
}
