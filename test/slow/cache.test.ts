import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import {
  BUILTIN_TASKS,
  inter,
  read,
  statuses as allStatuses,
  statusesOf,
  writeFiles,
  type InterResult,
  tempDir,
} from "../helpers.js";

const statuses = (r: InterResult) => statusesOf(r, ["discover", "gen", "pack", "lint"]);
import { builtBaseProject, makeBaseProject, PACK, projectConfig, runs, tasksBody } from "../e2e/fixture.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";

/** One record as `inter cache ls --json` lists it (src/cli/commands/cache.ts), the fields the tests read. */
interface ListedRecord {
  task: string;
  latest: boolean;
}

const ranCommands = (dir: string) => (existsSync(join(dir, "runs.log")) ? runs(read(dir, "runs.log")) : []);
const resetRuns = (dir: string) => rmSync(join(dir, "runs.log"), { force: true });

describe("content-hash cache", () => {
  it("runs everything once, then hits the cache for every task when nothing changed", async () => {
    const dir = makeBaseProject();
    const first = await inter(dir, ["build", "--json"]);
    expect(first.exitCode).toBe(0);
    expect(statuses(first)).toEqual({ discover: "ran", gen: "ran", pack: "ran", lint: "ran" });
    expect(read(dir, "out/pack.txt")).toBe("ALPHA\nBETA\n");

    resetRuns(dir);
    const second = await inter(dir, ["build", "--json"]);
    expect(statuses(second)).toEqual({ discover: "cached", gen: "cached", pack: "cached", lint: "cached" });
    expect(second.json.data.summary).toMatchObject({ ran: 0, cached: BUILTIN_TASKS.length + 3, failed: 0, skipped: 0 });
    expect(Object.values(allStatuses(second)).every((s) => s === "cached")).toBe(true);
    expect(ranCommands(dir)).toEqual([]);
  });

  it("misses after a content change but not after a touch", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    resetRuns(dir);

    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "src/a.txt"), later, later);
    const touched = await inter(dir, ["build", "--json"]);
    expect(statuses(touched)).toMatchObject({ gen: "cached", pack: "cached", lint: "cached" });
    expect(ranCommands(dir)).toEqual([]);

    writeFileSync(join(dir, "src/a.txt"), "ALPHA CHANGED\n");
    const changed = await inter(dir, ["build", "--json"]);
    expect(statuses(changed)).toMatchObject({ gen: "ran", pack: "ran", lint: "ran" });
    expect(changed.json.data.tasks.find((t: TaskOutcome) => t.id === "gen").reasons).toContain(
      "input src/a.txt modified",
    );
    expect(read(dir, "out/pack.txt")).toBe("ALPHA CHANGED\nBETA\n");
  });

  it("keys on paths: renaming an input or swapping two inputs' contents is a miss", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    writeFileSync(join(dir, "src/a.txt"), "beta\n");
    writeFileSync(join(dir, "src/b.txt"), "alpha\n");
    const swapped = await inter(dir, ["build", "--json"]);
    expect(statuses(swapped).gen).toBe("ran");
    expect(read(dir, "out/gen.txt")).toBe("beta\nalpha\n");

    renameSync(join(dir, "src/b.txt"), join(dir, "src/c.txt"));
    const renamed = await inter(dir, ["build", "--json"]);
    expect(statuses(renamed).gen).toBe("ran");
    const reasons = renamed.json.data.tasks.find((t: TaskOutcome) => t.id === "gen").reasons;
    expect(reasons).toEqual(expect.arrayContaining(["input src/b.txt removed", "input src/c.txt added"]));
  });

  it("re-reads a file replaced by mv even when it keeps the old size and mtime", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    const original = statSync(join(dir, "src/a.txt"));
    writeFileSync(join(dir, "replacement"), "ALPHA\n"); // same size as "alpha\n"
    await execa("touch", ["-r", join(dir, "src/a.txt"), join(dir, "replacement")]); // same mtime, to the nanosecond
    renameSync(join(dir, "replacement"), join(dir, "src/a.txt"));
    expect(statSync(join(dir, "src/a.txt")).mtimeMs).toBe(original.mtimeMs);
    const result = await inter(dir, ["build", "--json"]);
    expect(statuses(result).gen).toBe("ran");
    expect(read(dir, "out/gen.txt")).toBe("ALPHA\nbeta\n");
  });

  it("re-runs only the tasks that read a changed config field or environment variable", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    resetRuns(dir);

    // Only pack's command changes.
    writeFiles(dir, {
      "intermesh.config.ts": projectConfig(tasksBody("", PACK.replace(".toUpperCase()", '.toUpperCase() + "!"'))),
    });
    const edited = await inter(dir, ["build", "--json"]);
    expect(statuses(edited)).toEqual({ discover: "cached", gen: "cached", pack: "ran", lint: "cached" });
    expect(statusesOf(edited, ["openapi", "commands", "skills", "design"])).toEqual({
      openapi: "cached",
      commands: "cached",
      skills: "cached",
      design: "cached",
    });
    expect(edited.json.data.tasks.find((t: TaskOutcome) => t.id === "pack").reasons).toEqual([
      "config field command changed",
    ]);
    expect(read(dir, "out/pack.txt")).toBe("ALPHA\nBETA\n!");

    // Only lint declares LINT_LEVEL; its value keys lint's cache and nothing else.
    resetRuns(dir);
    const withEnv = await inter(dir, ["build", "--json"], { LINT_LEVEL: "strict" });
    expect(statuses(withEnv)).toEqual({ discover: "cached", gen: "cached", pack: "cached", lint: "ran" });
    expect(ranCommands(dir)).toEqual(["lint"]);
  });

  it("re-runs discover, and nothing downstream of unrelated inputs, when an input path in the config changes", async () => {
    const dir = await builtBaseProject({ "inputs/brief.md": "# Brief\n" });
    await inter(dir, ["build"]);
    writeFiles(dir, {
      "intermesh.config.ts": read(dir, "intermesh.config.ts").replace(
        'context: "inputs/context.md"',
        'context: "inputs/brief.md"',
      ),
    });
    const result = await inter(dir, ["build", "--json"]);
    expect(statuses(result)).toEqual({ discover: "ran", gen: "cached", pack: "cached", lint: "cached" });
    const discover = result.json.data.tasks.find((t: TaskOutcome) => t.id === "discover");
    expect(discover.reasons).toEqual(
      expect.arrayContaining([
        "config field inputs.context changed",
        "input inputs/brief.md added",
        "input inputs/context.md removed",
      ]),
    );
    expect(discover.data.inputs.context.map((f: { path: string }) => f.path)).toEqual(["inputs/brief.md"]);
  });

  it("restores deleted outputs from the cache without running the task", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    resetRuns(dir);
    rmSync(join(dir, "out"), { recursive: true });
    const result = await inter(dir, ["build", "--json"]);
    expect(statuses(result)).toMatchObject({ gen: "cached", pack: "cached" });
    expect(ranCommands(dir)).toEqual([]);
    expect(read(dir, "out/gen.txt")).toBe("alpha\nbeta\n");
    expect(read(dir, "out/pack.txt")).toBe("ALPHA\nBETA\n");
  });

  it("overwrites an output that was edited by hand with the cached content", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    writeFileSync(join(dir, "out/pack.txt"), "tampered");
    await inter(dir, ["build"]);
    expect(read(dir, "out/pack.txt")).toBe("ALPHA\nBETA\n");
  });

  it("treats a corrupt cached object as a miss and repairs it", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    // Corrupt the stored copies of the two outputs, then delete the outputs so they must come from the store.
    for (const output of ["out/gen.txt", "out/pack.txt"]) {
      const hash = createHash("sha256")
        .update(readFileSync(join(dir, output)))
        .digest("hex");
      const object = join(dir, ".intermesh/cache/objects", hash);
      chmodSync(object, 0o644);
      writeFileSync(object, "garbage");
    }
    rmSync(join(dir, "out"), { recursive: true });
    resetRuns(dir);

    const result = await inter(dir, ["build", "--json"]);
    expect(result.exitCode).toBe(0);
    expect(statuses(result)).toMatchObject({ gen: "ran", pack: "ran" });
    expect(read(dir, "out/pack.txt")).toBe("ALPHA\nBETA\n");

    const verify = await inter(dir, ["cache", "verify", "--json"]);
    expect(verify.json.data).toMatchObject({ healthy: true, corruptObjects: [] });
    const again = await inter(dir, ["build", "--json"]);
    expect(statuses(again)).toMatchObject({ gen: "cached", pack: "cached" });
  });

  it("treats a truncated or foreign record as a miss", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    const records = join(dir, ".intermesh/cache/records/gen");
    for (const name of readdirSync(records)) writeFileSync(join(records, name), '{"schema": 1, "trunc');
    const result = await inter(dir, ["build", "--json"]);
    expect(result.exitCode).toBe(0);
    expect(statuses(result).gen).toBe("ran");
    expect(statuses(result).pack).toBe("cached");
  });

  it("--force runs every task even when cached", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    resetRuns(dir);
    const result = await inter(dir, ["build", "--force", "--json"]);
    expect(statuses(result)).toEqual({ discover: "ran", gen: "ran", pack: "ran", lint: "ran" });
    expect(ranCommands(dir).sort()).toEqual(["gen", "lint", "pack"]);
  });

  it("keys on the Node version: a record made by another Node is not a hit", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    const records = join(dir, ".intermesh/cache/records/gen");
    const [name] = readdirSync(records);
    const record = JSON.parse(readFileSync(join(records, name!), "utf8"));
    expect(record.key.tool).toEqual({
      inter: expect.any(String),
      node: process.version,
      platform: process.platform,
      arch: process.arch,
    });
  });
});

describe("inter explain", () => {
  it("names the changed file, config field and dependency", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);

    const fresh = await inter(dir, ["explain", "gen", "--json"]);
    expect(fresh.json.data).toMatchObject({ task: "gen", status: "up-to-date", changes: [] });
    expect(fresh.json.data.lastRun.reasons).toEqual(["no earlier record of this task"]);

    writeFileSync(join(dir, "src/b.txt"), "BETA?\n");
    const stale = await inter(dir, ["explain", "gen", "--json"]);
    expect(stale.json.data.status).toBe("will-run");
    expect(stale.json.data.changes).toEqual([
      { kind: "input", path: "src/b.txt", change: "modified", description: "input src/b.txt modified" },
    ]);

    const blocked = await inter(dir, ["explain", "pack"]);
    expect(blocked.stdout).toContain("pack depends on gen, which is not up to date");

    await inter(dir, ["build"]);
    const afterBuild = await inter(dir, ["explain", "pack", "--json"]);
    expect(afterBuild.json.data.status).toBe("up-to-date");
    expect(afterBuild.json.data.lastRun.reasons).toEqual(["dependency gen produced different output"]);
  });
});

describe("inter explain agrees with the build", () => {
  it("a record whose stored output is gone is not up to date for explain, and the build runs the task", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    expect((await inter(dir, ["explain", "gen", "--json"])).json.data.status).toBe("up-to-date");
    const hash = createHash("sha256")
      .update(readFileSync(join(dir, "out/gen.txt")))
      .digest("hex");
    rmSync(join(dir, ".intermesh/cache/objects", hash));
    rmSync(join(dir, "out/gen.txt"));
    const explained = await inter(dir, ["explain", "gen", "--json"]);
    expect(explained.json.data.status).toBe("will-run");
    resetRuns(dir);
    const built = await inter(dir, ["build", "--json"]);
    expect(statuses(built).gen).toBe("ran");
  });
});

describe("inter cache", () => {
  it("lists records, keeps the newest per task in gc, and cleans everything", async () => {
    // Built here, not copied: a copy's store also holds the template's own newest-record pointers, which gc keeps.
    const dir = makeBaseProject();
    await inter(dir, ["build"]);
    writeFileSync(join(dir, "src/a.txt"), "alpha 2\n");
    await inter(dir, ["build"]);

    const ls = await inter(dir, ["cache", "ls", "--json"]);
    const gens = ls.json.data.records.filter((r: ListedRecord) => r.task === "gen");
    expect(gens).toHaveLength(2);
    expect(gens.filter((r: ListedRecord) => r.latest)).toHaveLength(1);

    const gc = await inter(dir, ["cache", "gc", "--max-size", "1B", "--json"]);
    expect(gc.exitCode).toBe(0);
    expect(gc.json.data.removedRecords).toBe(3); // the older gen, pack and lint records
    const after = await inter(dir, ["cache", "ls", "--json"]);
    expect(after.json.data.records.every((r: ListedRecord) => r.latest)).toBe(true);
    const hit = await inter(dir, ["build", "--json"]);
    expect(hit.json.data.summary.ran).toBe(0);

    const clean = await inter(dir, ["cache", "clean", "--json"]);
    expect(clean.exitCode).toBe(0);
    expect(existsSync(join(dir, ".intermesh/cache"))).toBe(false);
    const rebuilt = await inter(dir, ["build", "--json"]);
    expect(rebuilt.json.data.summary.ran).toBe(BUILTIN_TASKS.length + 3);
  });

  it("gc in one of two projects sharing cache.dir keeps the other's newest records", async () => {
    const shared = tempDir("inter-shared-cache-");
    const withShared = (dir: string) =>
      writeFileSync(
        join(dir, "intermesh.config.ts"),
        read(dir, "intermesh.config.ts").replace("tasks:", `cache: { dir: ${JSON.stringify(shared)} },\n  tasks:`),
      );
    const a = makeBaseProject();
    const b = makeBaseProject({ "src/a.txt": "other alpha\n" });
    withShared(a);
    withShared(b);
    expect((await inter(a, ["build"])).exitCode).toBe(0);
    expect((await inter(b, ["build"])).exitCode).toBe(0);
    // a's newest gen record is an old one from b's point of view (b built after a), and the other way round.
    const gc = await inter(a, ["cache", "gc", "--max-size", "1B", "--json"]);
    expect(gc.exitCode).toBe(0);
    for (const dir of [a, b]) {
      resetRuns(dir);
      const hit = await inter(dir, ["build", "--json"]);
      expect(hit.json.data.summary.ran, dir).toBe(0);
    }
    rmSync(shared, { recursive: true, force: true });
  });

  it("verify removes records that would write outside the project and read-lists naming folders or devices", async () => {
    const dir = await builtBaseProject();
    await inter(dir, ["build"]);
    const records = join(dir, ".intermesh/cache/records/gen");
    const [name] = readdirSync(records);
    const record = JSON.parse(readFileSync(join(records, name!), "utf8"));
    record.outputs[0].path = "../escaped.txt";
    writeFileSync(join(records, name!), JSON.stringify(record));
    writeFiles(join(dir, ".intermesh/cache"), {
      "reads/openapi/0123.json": JSON.stringify(["/dev/zero"]),
      "reads/openapi/4567.json": JSON.stringify(["inputs/openapi.yaml"]),
    });

    const verify = await inter(dir, ["cache", "verify", "--json"]);
    expect(verify.json.data).toMatchObject({
      healthy: false,
      unsafeRecords: [{ task: "gen", path: "../escaped.txt" }],
      unsafeReads: ["openapi/0123.json"],
    });
    expect(existsSync(join(dir, ".intermesh/cache/reads/openapi/4567.json"))).toBe(true);
    expect((await inter(dir, ["cache", "verify", "--json"])).json.data.healthy).toBe(true);
    const rebuilt = await inter(dir, ["build", "--json"]);
    expect(statuses(rebuilt).gen).toBe("ran");
    expect(existsSync(join(dir, "..", "escaped.txt"))).toBe(false);
  });
});
