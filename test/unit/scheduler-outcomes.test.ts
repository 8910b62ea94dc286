import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import type { LoadedConfig } from "../../src/config/types.js";
import { InterError } from "../../src/core/errors.js";
import { initHasher } from "../../src/core/hash.js";
import { LocalCache } from "../../src/engine/cache/cache.js";
import { StatIndex } from "../../src/engine/cache/stat-index.js";
import { Store } from "../../src/engine/cache/store.js";
import { finishedData, tally, type TaskOutcome } from "../../src/engine/graph/outcome.js";
import { plainReporter, silentReporter, summaryLine } from "../../src/engine/graph/progress.js";
import { runTasks, type Reporter } from "../../src/engine/graph/scheduler.js";
import type { Graph, TaskContext, TaskResult, TaskSpec } from "../../src/engine/graph/task.js";
import { tempDir } from "../helpers.js";

beforeAll(() => initHasher());

const task = (id: string, run: (ctx: TaskContext) => Promise<TaskResult>, more: Partial<TaskSpec> = {}): TaskSpec => ({
  id,
  kind: "command",
  description: id,
  impl: "1",
  deps: [],
  config: null,
  inputs: [],
  outputs: [],
  env: [],
  run,
  ...more,
});

/** Runs `tasks` in a project folder of its own with the real local cache; the same folder on every call of `run`. */
function project(tasks: TaskSpec[]) {
  const root = tempDir("inter-scheduler-");
  const loaded: LoadedConfig = {
    config: {} as LoadedConfig["config"],
    file: join(root, "intermesh.config.ts"),
    root,
    sources: [],
  };
  const graph: Graph = { tasks: new Map(tasks.map((t) => [t.id, t])), targets: {} };
  return {
    root,
    async run(options: { signal?: AbortSignal; reporter?: Reporter } = {}): Promise<TaskOutcome[]> {
      const statIndex = StatIndex.load(join(root, ".cache"));
      const store = new Store(join(root, ".cache"));
      return runTasks({
        loaded,
        graph,
        ids: tasks.map((t) => t.id),
        cache: new LocalCache(store, root, statIndex),
        statIndex,
        interVersion: "test",
        concurrency: 2,
        force: false,
        signal: options.signal ?? new AbortController().signal,
        reporter: options.reporter ?? silentReporter,
      });
    },
  };
}

const byId = (outcomes: TaskOutcome[]) => Object.fromEntries(outcomes.map((o) => [o.id, o]));

describe("what the scheduler reports of each task: one shape per status", () => {
  const graph = () => [
    task(
      "make",
      async ({ root }) => {
        writeFileSync(join(root, "made.txt"), "made");
        return { data: { n: 1 }, warnings: ["a warning kept with the record"] };
      },
      { outputs: ["made.txt"] },
    ),
    task(
      "broken",
      async () => {
        throw new InterError("USAGE_ERROR", "broken was given bad input", "Give it good input.", { field: "x" });
      },
      { deps: ["make"] },
    ),
    task("after", async () => ({ data: "never" }), { deps: ["broken"] }),
    task("later", async () => ({ data: "never" }), { deps: ["after"] }),
  ];

  it("ran, failed and skipped carry what each status means, and a second run serves the finished task from the cache", async () => {
    const p = project(graph());
    const first = byId(await p.run());
    expect(first.make).toMatchObject({
      status: "ran",
      reasons: ["no earlier record of this task"],
      data: { n: 1 },
      outputs: ["made.txt"],
      warnings: ["a warning kept with the record"],
      fingerprint: expect.stringMatching(/\S/),
    });
    expect(first.broken).toMatchObject({
      status: "failed",
      error: { code: "USAGE_ERROR", message: "broken was given bad input", suggestion: "Give it good input." },
    });
    expect(first.broken!.durationMs).toBeGreaterThanOrEqual(0);
    // Skipped tasks name the task that stopped them: the failed one, or the skipped one before them.
    expect(first.after).toEqual({ id: "after", status: "skipped", durationMs: 0, blockedBy: "broken", warnings: [] });
    expect(first.later).toMatchObject({ status: "skipped", blockedBy: "after" });

    const second = await p.run();
    expect(byId(second).make).toMatchObject({
      status: "cached",
      source: "local",
      fingerprint: (first.make as { fingerprint: string }).fingerprint,
      data: { n: 1 },
      warnings: ["a warning kept with the record"],
    });
    expect(byId(second).make).not.toHaveProperty("reasons");
    expect(tally(second)).toEqual({ ran: 0, cached: 1, failed: 1, skipped: 2, interrupted: 0 });
    expect(finishedData(second, "make")).toEqual({ n: 1 });
    expect(finishedData(second, "broken")).toBeUndefined();
  });

  it("an abort makes the running task and everything not started interrupted, with no error of their own", async () => {
    const controller = new AbortController();
    const p = project([
      task("hang", ({ signal }) => {
        controller.abort();
        return new Promise((_, reject) =>
          signal.aborted
            ? reject(new Error("killed"))
            : signal.addEventListener("abort", () => reject(new Error("killed"))),
        );
      }),
      task("next", async () => ({}), { deps: ["hang"] }),
    ]);
    const outcomes = await p.run({ signal: controller.signal });
    expect(outcomes.map((o) => o.status)).toEqual(["interrupted", "interrupted"]);
    for (const o of outcomes) {
      expect(o).not.toHaveProperty("error");
      expect(o).not.toHaveProperty("blockedBy");
    }
  });

  it("the plain reporter says each status in its own words, and the summary counts them", async () => {
    const out = new PassThrough();
    let text = "";
    out.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    const outcomes = await project(graph()).run({ reporter: plainReporter(out) });
    expect(text).toMatch(/^✔ make \(\d+(\.\d+)? ?m?s; no earlier record of this task\)$/m);
    expect(text).toContain("  ⚠ make: a warning kept with the record\n");
    expect(text).toContain("✖ broken failed: broken was given bad input\n");
    expect(text).toContain("↓ after skipped (dependency broken did not finish)\n");
    expect(text).toContain("↓ later skipped (dependency after did not finish)\n");
    expect(summaryLine(outcomes, 1500)).toMatch(/^4 tasks: 1 ran, 0 cached, 1 failed, 2 skipped in \S+/);
    expect(summaryLine(outcomes.slice(0, 1), 10)).toMatch(/^1 task: 1 ran, 0 cached, 0 failed, 0 skipped in /);
  });
});
