import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { memoryFolder, ownedTempDir, sweepOrphanedTempDirs } from "../../src/core/temp-dirs.js";
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

it("puts an in-memory folder in the memory-backed folder only when the user chose no TMPDIR and it is usable", () => {
  const chosen = process.env.TMPDIR!;
  // A user's TMPDIR is where everything goes.
  const underTmp = ownedTempDir("inspect", { inMemory: true });
  expect(dirname(underTmp)).toBe(tmpdir());
  rmSync(underTmp, { recursive: true });
  // No machine has this much free: the memory folder is passed over.
  expect(memoryFolder(2 ** 60)).toBeUndefined();
  delete process.env.TMPDIR;
  try {
    const memory = memoryFolder(2 ** 30);
    const dir = ownedTempDir("inspect", { inMemory: true });
    try {
      expect(dirname(dir)).toBe(memory ?? tmpdir());
      // A program placed there runs (what memoryFolder checked).
      if (memory) {
        writeFileSync(join(dir, "runs"), "#!/bin/sh\necho ran\n", { mode: 0o755 });
        expect(execFileSync(join(dir, "runs"), { encoding: "utf8" })).toBe("ran\n");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    process.env.TMPDIR = chosen;
  }
  // Nothing of the check is left in the memory folder.
  expect(
    (existsSync("/dev/shm") ? readdirSync("/dev/shm") : []).filter((n) => n.includes(`-p${process.pid}-`)),
  ).toEqual([]);
});
