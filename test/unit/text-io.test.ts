import { createHash } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/core/atomic.js";
import { initHasher, noteSha256, sha256, sha256OfFile, xxh, xxhOfFile } from "../../src/core/hash.js";
import { BIG_TEXT, readTextFile, textSlices } from "../../src/core/text-io.js";
import type { TaskContext } from "../../src/engine/graph/task.js";
import { isPlainJson } from "../../src/core/plain-json.js";
import { readDepJson, writeBuildJson } from "../../src/pipeline/io.js";
import { tempDir } from "../helpers.js";

// Big texts go to files and hashes in slices (src/core/text-io.ts): the bytes must be exactly those of the text
// converted whole, whatever falls on a slice's edge.

/**
 * A text of about `length` code units: first four-byte characters whose high surrogates sit at every odd index (so a
 * slice of any even length would end inside one), then one-, two-, three- and four-byte characters mixed.
 */
function mixedText(length: number): string {
  const pieces = ["a", "é", "€", "😀", '{"k":"v"}\n', "𝄞x"];
  let text = `a${"😀".repeat(length / 4)}`;
  for (let i = 0; text.length < length; i++) text += pieces[i % pieces.length]!.repeat(1 + (i % 7));
  return text;
}

const utf8Sha = (text: string) => createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");

describe("big texts in slices", () => {
  it("never split a surrogate pair, and join back to the text", () => {
    const text = mixedText(3 * BIG_TEXT);
    const slices = [...textSlices(text)];
    expect(slices.length).toBeGreaterThan(3);
    expect(slices.join("")).toBe(text);
    for (const slice of slices) {
      const last = slice.charCodeAt(slice.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff, "a slice ends in a high surrogate").toBe(false);
    }
  });

  it("are written byte for byte as the whole text would be, with the mode asked for", () => {
    const dir = tempDir("inter-text-io-");
    for (const text of [mixedText(3 * BIG_TEXT + 17), "small é 😀\n", ""]) {
      const file = join(dir, "out", `${text.length}.json`);
      writeFileAtomic(file, text, 0o640);
      expect(readFileSync(file).equals(Buffer.from(text, "utf8"))).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o640 & ~process.umask());
    }
  });

  it("hash as the whole text's UTF-8 bytes would, and a file hashes as its bytes", () => {
    const dir = tempDir("inter-text-io-");
    const text = mixedText(2 * BIG_TEXT + 5);
    expect(sha256(text)).toBe(utf8Sha(text));
    expect(sha256("small é")).toBe(utf8Sha("small é"));
    const file = join(dir, "big.txt");
    writeFileSync(file, text);
    expect(sha256OfFile(file)).toEqual({ sha256: utf8Sha(text), size: Buffer.byteLength(text) });
  });

  it("in pieces are written and hashed as the joined text, also where two pieces split a surrogate pair", () => {
    const dir = tempDir("inter-text-io-");
    const big = mixedText(2 * BIG_TEXT + 9);
    const pair = "😀";
    for (const pieces of [
      [big, "\n"],
      ["{\n", big.slice(0, BIG_TEXT + 1), big.slice(BIG_TEXT + 1), ",\n", "x\n}\n"],
      [`${big}${pair[0]}`, `${pair[1]}tail`],
      ["small ", pair[0]!, pair[1]!, " é"],
      ["", big, ""],
      [],
    ]) {
      const whole = pieces.join("");
      expect([...textSlices(pieces)].join("")).toBe(whole);
      expect(sha256(pieces)).toBe(utf8Sha(whole));
      const file = join(dir, `${whole.length}.json`);
      writeFileAtomic(file, pieces);
      expect(readFileSync(file).equals(Buffer.from(whole, "utf8")), `${pieces.length} pieces`).toBe(true);
    }
  });

  it("hash as noted by their writer only while the file is the one written", () => {
    const dir = tempDir("inter-text-io-");
    const file = join(dir, "noted.json");
    writeFileAtomic(file, "{}\n");
    // A digest noted by the writer is taken as it is (here a made-up one, to show the file is not read again)…
    noteSha256(file, "f".repeat(64));
    expect(sha256OfFile(file)).toEqual({ sha256: "f".repeat(64), size: 3 });
    // …until the file is replaced, or touched in place: then its bytes are read.
    writeFileAtomic(file, "[]\n");
    expect(sha256OfFile(file)).toEqual({ sha256: utf8Sha("[]\n"), size: 3 });
    noteSha256(file, "f".repeat(64));
    writeFileSync(file, "[1]\n");
    expect(sha256OfFile(file).sha256).toBe(utf8Sha("[1]\n"));
  });

  it("key a file by xxh as its whole bytes would, however many reads it takes", async () => {
    await initHasher();
    const dir = tempDir("inter-text-io-");
    for (const size of [0, 1, 4096, 3 * BIG_TEXT + 7]) {
      const file = join(dir, `${size}.bin`);
      writeFileSync(file, Buffer.from(mixedText(size)).subarray(0, size));
      expect(xxhOfFile(file), `${size} bytes`).toBe(xxh(readFileSync(file)));
    }
  });

  it("are read back as readFileSync reads them, also when a character straddles two reads", () => {
    const dir = tempDir("inter-text-io-");
    for (const text of [mixedText(3 * BIG_TEXT + 3), "é", "", "x".repeat(BIG_TEXT)]) {
      const file = join(dir, `${text.length}.txt`);
      writeFileSync(file, text);
      expect(readTextFile(file)).toBe(readFileSync(file, "utf8"));
    }
    // Bytes that are not UTF-8 are read as readFileSync reads them too (U+FFFD), wherever they fall.
    const broken = join(dir, "broken.txt");
    writeFileSync(
      broken,
      Buffer.concat([Buffer.alloc(BIG_TEXT * 3 - 1, 0x61), Buffer.from([0xe2, 0x82]), Buffer.from("ok")]),
    );
    expect(readTextFile(broken)).toBe(readFileSync(broken, "utf8"));
  });
});

describe("a dependency's JSON handed over in memory", () => {
  const ctxFor = (root: string, path: string, file: string) =>
    ({ root, deps: { model: { outputs: [{ path, ...sha256OfFile(file) }] } } }) as unknown as TaskContext;

  it("is the file's value, also when the file changed after its task wrote it", () => {
    const root = tempDir("inter-handover-");
    const path = ".intermesh/build/model.json";
    writeBuildJson(root, path, { operations: ["list", "get"] });
    // What the cache recorded is what is on disk; the dependent gets that, never the text kept from before.
    writeFileSync(join(root, path), '{"operations":["changed on disk"]}\n');
    expect(readDepJson(ctxFor(root, path, join(root, path)), "model", path)).toEqual({
      operations: ["changed on disk"],
    });
    writeBuildJson(root, path, { operations: ["again", "😀".repeat(BIG_TEXT)] });
    const value = readDepJson<{ operations: string[] }>(ctxFor(root, path, join(root, path)), "model", path);
    expect(value.operations[0]).toBe("again");
    expect(value).toEqual(JSON.parse(readFileSync(join(root, path), "utf8")));
  });

  it("is the value it was written from when the text would parse back to it, else what the text parses to", () => {
    const root = tempDir("inter-handover-");
    const path = ".intermesh/build/plan.json";
    const plain = { commands: [{ name: "list", flags: [], limit: 10, hidden: false, note: null }] };
    writeBuildJson(root, path, plain);
    // No parse: the dependent takes the writer's value itself (a large description's plans are tens of MB).
    expect(readDepJson(ctxFor(root, path, join(root, path)), "model", path)).toBe(plain);
    // A member JSON leaves out, a Date, a -0: the dependent must see exactly what the file says, as a later build
    // reading the file from the cache would.
    for (const odd of [{ a: 1, gone: undefined }, { at: new Date(0) }, { n: -0 }, { list: [1, , 3] }]) {
      writeBuildJson(root, path, odd);
      const value = readDepJson(ctxFor(root, path, join(root, path)), "model", path);
      expect(value).not.toBe(odd);
      expect(value).toStrictEqual(JSON.parse(readFileSync(join(root, path), "utf8")));
    }
  });
});

describe("a value that JSON gives back as it is", () => {
  it("is plain data: objects, arrays, strings, finite numbers, booleans and null, however deep", () => {
    let deep: unknown = { leaf: [1, "two", true, null] };
    for (let i = 0; i < 100_000; i++) deep = { next: [deep] };
    expect(isPlainJson(deep)).toBe(true);
    expect(isPlainJson("text")).toBe(true);
  });

  it("is not anything JSON would change on the way: undefined, holes, -0, NaN, Infinity, Dates, Maps, toJSON", () => {
    class Thing {
      name = "x";
    }
    for (const odd of [
      { a: undefined },
      [undefined],
      [1, , 3],
      { n: -0 },
      { n: Number.NaN },
      [Number.POSITIVE_INFINITY],
      { at: new Date(0) },
      { map: new Map() },
      { toJSON: "data here, but a name readers may mistake: refused to be safe" },
      { toJSON: () => 1 },
      { big: 1n },
      new Thing(),
      Object.create(null),
      { deep: { deeper: [{ fn: () => 0 }] } },
    ])
      expect(isPlainJson(odd), String(JSON.stringify(odd, (_k, v) => (typeof v === "bigint" ? "1n" : v)))).toBe(false);
  });
});
