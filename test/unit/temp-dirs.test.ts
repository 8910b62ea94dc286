import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sweepOrphanedTempDirs } from "../../src/core/temp-dirs.js";
import { tempDir } from "../helpers.js";

it("removes only inter's own folders of processes that are gone, never a look-alike", () => {
  const parent = tempDir("inter-sweep-test-");
  const names = {
    dead: "inter-owned-inspect-state-p4194300-abcDEF",
    live: `inter-owned-inspect-p${process.pid}-abcdef`,
    lookalike: "inter-bench-github-400-JpUW4u",
    another: "inter-owned-notes-p400",
  };
  for (const name of Object.values(names)) mkdirSync(join(parent, name));
  expect(sweepOrphanedTempDirs(parent)).toBe(1);
  expect(existsSync(join(parent, names.dead))).toBe(false);
  for (const kept of [names.live, names.lookalike, names.another])
    expect(existsSync(join(parent, kept)), kept).toBe(true);
  rmSync(parent, { recursive: true, force: true });
});
