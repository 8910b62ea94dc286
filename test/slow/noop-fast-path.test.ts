import { existsSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inter, read, statusesOf, writeFiles, type InterResult } from "../helpers.js";
import { makeBaseProject } from "../e2e/fixture.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";

// The warm no-op fast path (src/cli/noop-fast-path.ts) answers `inter build` from a record without loading the graph.
// What it prints must be what the normal path prints, and anything that could change the answer must send the build
// down the normal path. Whether the fast path answered is told from outside: it never rewrites the stat index.
const STAT_INDEX = ".intermesh/cache/stat-index.json";
/**
 * Not a race's sleep but the product's own rule: a record vouches only for files older than its settle window
 * (SETTLE_MS, 200 ms, in src/cli/noop-writer.ts), so the build that saves one must start after the window has passed.
 */
const settle = () => new Promise((r) => setTimeout(r, 300));

async function warm(dir: string, args: string[] = ["build", "--json"]) {
  expect((await inter(dir, args)).exitCode).toBe(0);
  await settle();
  expect((await inter(dir, args)).exitCode).toBe(0); // a no-op through the normal path: saves the record
}

/** Runs a build; `fast` says whether the fast path answered it. */
async function build(dir: string, args: string[] = ["build", "--json"]) {
  rmSync(join(dir, STAT_INDEX), { force: true });
  const result = await inter(dir, args);
  return { ...result, fast: !existsSync(join(dir, STAT_INDEX)) };
}

const withoutTimes = (text: string) => text.replace(/ in \d+(\.\d+)? m?s/g, " in …");
/**
 * The lines of a build's display without their order: tasks that run side by side (gen, pack and lint here) are shown as
 * they finish, which on a loaded machine is not always the recorded order.
 */
const lines = (text: string) => withoutTimes(text).split("\n").sort();
const statuses = (r: Awaited<ReturnType<typeof build>>) => statusesOf(r, ["gen", "pack", "lint"]);

describe("the warm no-op fast path", () => {
  it("answers a repeated build with the normal path's output, for people and for --json", async () => {
    const dir = makeBaseProject();
    await warm(dir, ["build"]);
    const normal = await inter(dir, ["build"], { INTER_NO_FAST_PATH: "1" });
    const fast = await build(dir, ["build"]);
    expect(fast.fast).toBe(true);
    expect(fast.exitCode).toBe(0);
    expect(lines(fast.stderr)).toEqual(lines(normal.stderr));
    expect(fast.stdout).toBe(normal.stdout);

    await warm(dir, ["build", "--json"]);
    const json = await build(dir, ["build", "--json"]);
    expect(json.fast).toBe(true);
    const slow = await inter(dir, ["build", "--json"], { INTER_NO_FAST_PATH: "1" });
    const shape = (doc: InterResult["json"]) => ({
      ...doc,
      data: {
        ...doc.data,
        summary: { ...doc.data.summary, durationMs: 0 },
        // Unlike the display, --json lists tasks in the graph's order, whatever order they finished in.
        tasks: doc.data.tasks.map((t: TaskOutcome) => ({ ...t, durationMs: 0 })),
      },
    });
    expect(shape(json.json)).toEqual(shape(slow.json));
  });

  it("falls through, and gives the right answer, when anything it vouched for changed", async () => {
    const dir = makeBaseProject();
    await warm(dir);
    expect((await build(dir)).fast).toBe(true);

    // An input's content.
    writeFileSync(join(dir, "src/a.txt"), "alpha changed\n");
    const edited = await build(dir);
    expect(edited.fast).toBe(false);
    expect(statuses(edited).gen).toBe("ran");
    expect(read(dir, "out/pack.txt")).toBe("ALPHA CHANGED\nBETA\n");

    // A new file matching a glob input.
    await warm(dir);
    writeFileSync(join(dir, "src/c.txt"), "gamma\n");
    const added = await build(dir);
    expect(added.fast).toBe(false);
    expect(read(dir, "out/pack.txt")).toBe("ALPHA CHANGED\nBETA\nGAMMA\n");

    // An output deleted: restored from the cache by the normal path.
    await warm(dir);
    rmSync(join(dir, "out/pack.txt"));
    const deleted = await build(dir);
    expect(deleted.fast).toBe(false);
    expect(read(dir, "out/pack.txt")).toBe("ALPHA CHANGED\nBETA\nGAMMA\n");

    // The cache emptied: everything runs again.
    await warm(dir);
    await inter(dir, ["cache", "clean"]);
    const cleaned = await build(dir);
    expect(cleaned.fast).toBe(false);
    expect(statuses(cleaned)).toMatchObject({ gen: "ran", pack: "ran", lint: "ran" });

    // A file touched without a change: the normal path, which finds everything cached.
    await warm(dir);
    const now = new Date();
    utimesSync(join(dir, "src/b.txt"), now, now);
    const touched = await build(dir);
    expect(touched.fast).toBe(false);
    expect(statuses(touched)).toMatchObject({ gen: "cached", pack: "cached", lint: "cached" });

    // The environment (a config or a task may read any variable).
    await warm(dir);
    const env = await inter(dir, ["build", "--json"], { LINT_LEVEL: "strict" });
    expect(statusesOf(env, ["lint"]).lint).toBe("ran");

    // The config.
    await warm(dir);
    writeFiles(dir, {
      "intermesh.config.ts": read(dir, "intermesh.config.ts").replace('binary: "rooms"', 'binary: "rooms2"'),
    });
    expect((await build(dir)).fast).toBe(false);

    // A lock in the project (here one left by a process that is gone, which the normal path takes over at once; a lock
    // that does not say its holder is taken over only once it is two seconds old, src/engine/cache/lock.ts).
    await warm(dir);
    writeFileSync(join(dir, ".intermesh/lock"), JSON.stringify({ pid: 4194300, since: new Date().toISOString() }));
    const locked = await build(dir);
    expect(locked.fast).toBe(false);
    expect(locked.exitCode).toBe(0);
    // About 25 runs of inter, two of them full builds: past the suite's 180 s at a load average of 22 on two cores.
  }, 360_000);

  it("never answers --force, --watch, another folder's config or a terminal's live display", async () => {
    const dir = makeBaseProject();
    await warm(dir);
    const forced = await build(dir, ["build", "--force", "--json"]);
    expect(forced.fast).toBe(false);
    expect(forced.json.data.summary.ran).toBeGreaterThan(0);
    const other = await build(dir, ["build", "--json", "--cwd", dir]);
    expect(other.fast).toBe(false);
  });
});
