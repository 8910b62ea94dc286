import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputWatcher } from "../../src/engine/graph/watcher.js";

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function until(condition: () => boolean): Promise<void> {
  const bound = performance.now() + 60_000;
  while (!condition()) {
    if (performance.now() > bound) throw new Error("condition not met within 60 s");
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Holds this process's event loop, as a starved process on a loaded machine is held. */
function starve(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("InputWatcher: one burst of saves, one change", () => {
  it("a quiet timer held up by a starved process waits for the burst's queued events", async () => {
    const dir = mkdtempSync(join(tmpdir(), "inter-watcher-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "context.md");
    const other = join(dir, "openapi.yaml");
    writeFileSync(file, "brief\n");
    writeFileSync(other, "openapi: 3.1.0\n");
    const calls: string[][] = [];
    const watcher = new InputWatcher((paths) => calls.push(paths));
    cleanup.push(() => watcher.close());
    await watcher.update({ root: dir, files: new Set([file, other]), globs: [], produced: new Set() });

    writeFileSync(file, "brief, save 1\n");
    // The first save is seen (its quiet timer armed) before the process is held.
    await until(() => (watcher as unknown as { changed: Set<string> }).changed.size > 0);
    starve(400);
    // Saved while the process was held: its event is queued behind the overdue timer.
    writeFileSync(file, "brief, save 2\n");
    await until(() => calls.length > 0);
    // A later save of another file is the next change: a second change of the burst would have come before it.
    writeFileSync(other, "openapi: 3.1.1\n");
    await until(() => calls.some((paths) => paths.includes(other)));
    expect(calls).toEqual([[file], [other]]);
  });
});
