import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { linkOrWriteAtomic } from "../../src/core/atomic.js";
import { initHasher } from "../../src/core/hash.js";
import { collectGarbage } from "../../src/engine/cache/maintenance.js";
import { Store } from "../../src/engine/cache/store.js";
import { tempDir } from "../helpers.js";

// A task's outputs are kept in the cache by a hard link where one can be made (src/core/atomic.ts linkOrWriteAtomic):
// what a user then does to the output must never come back as another run's output.

beforeAll(() => initHasher());

describe("cache objects kept from an output file", () => {
  it("are the output's own bytes by a link, not a copy", () => {
    const root = tempDir("inter-objects-");
    const output = join(root, "out.json");
    writeFileSync(output, '{"a":1}\n');
    const store = new Store(join(root, ".cache"));
    const { sha256: hash, size } = store.putFile(output);
    expect(size).toBe(8);
    expect(statSync(store.objectPath(hash)).ino).toBe(statSync(output).ino);
    expect(store.readObject(hash)?.toString()).toBe('{"a":1}\n');
  });

  it("an output edited in place afterwards is never served as the kept bytes: the object is dropped", () => {
    const root = tempDir("inter-objects-");
    const output = join(root, "out.json");
    writeFileSync(output, '{"a":1}\n');
    const store = new Store(join(root, ".cache"));
    const { sha256: hash } = store.putFile(output);
    // Written in place (the same inode), as a user's script or editor may.
    writeFileSync(output, '{"a":2}\n');
    expect(store.readObject(hash)).toBeUndefined();
    expect(existsSync(store.objectPath(hash))).toBe(false);
    // Kept again, it is whole.
    const again = store.putObject(Buffer.from('{"a":1}\n'));
    expect(again).toBe(hash);
    expect(store.readObject(hash)?.toString()).toBe('{"a":1}\n');
  });

  it("are copied when no link can be made: the output is gone, or the cache is on another file system", () => {
    const root = tempDir("inter-objects-");
    const store = new Store(join(root, ".cache"));
    // The bytes are asked for only when the link is refused.
    const target = join(root, "copied", "gone.txt");
    linkOrWriteAtomic(join(root, "no-such-output"), target, () => "gone\n");
    expect(readFileSync(target, "utf8")).toBe("gone\n");
    // /dev/shm is a tmpfs beside the temporary folder's disk where there is one: a link across is refused (EXDEV).
    if (!existsSync("/dev/shm")) return;
    const elsewhere = mkdtempSync("/dev/shm/inter-objects-");
    try {
      const output = join(elsewhere, "out.txt");
      writeFileSync(output, "across\n");
      const { sha256: hash } = store.putFile(output);
      expect(store.readObject(hash)?.toString()).toBe("across\n");
      if (statSync(output).dev !== statSync(root).dev)
        expect(statSync(store.objectPath(hash)).ino).not.toBe(statSync(output).ino);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("the objects folder of an earlier version", () => {
  it("is neither read nor listed, and `cache gc` removes it whole, counting what it frees", () => {
    const root = tempDir("inter-objects-");
    const store = new Store(join(root, ".cache"));
    const output = join(root, "out.json");
    writeFileSync(output, '{"kept":true}\n');
    const { sha256: kept } = store.putFile(output);
    expect(store.objectPath(kept)).toBe(join(root, ".cache", "objects", kept));
    // Earlier versions kept objects/<two hex digits>/<sha256>.
    const hash = "ab".padEnd(64, "0");
    mkdirSync(join(root, ".cache", "objects", "ab"));
    writeFileSync(join(root, ".cache", "objects", "ab", hash), "old bytes\n");
    expect(store.listObjects().map((o) => o.hash)).toEqual([kept]);
    expect(store.readObject(hash)).toBeUndefined();
    const report = collectGarbage(store, Number.MAX_SAFE_INTEGER);
    expect(report).toMatchObject({ removedObjects: 2, freedBytes: 14 + 10 });
    expect(existsSync(join(root, ".cache", "objects", "ab"))).toBe(false);
  });
});
