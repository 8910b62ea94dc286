import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/core/hash.js";
import { toPlainJson } from "../../src/core/json-plain.js";
import type { TaskContext } from "../../src/engine/graph/task.js";
import { readDepJson, writeBuildJson } from "../../src/pipeline/io.js";
import { tempDir } from "../helpers.js";

const PATH = ".intermesh/build/plan.json";

/** What the scheduler hands a dependant: the dependency's output as it hashed the file on disk. */
function dependant(root: string): TaskContext {
  const bytes = readFileSync(join(root, PATH));
  return {
    root,
    slice: null,
    signal: new AbortController().signal,
    deps: { plan: { data: null, outputs: [{ path: PATH, sha256: sha256(bytes), size: bytes.length, mode: 0o644 }] } },
    inputs: {},
    log: () => {},
    force: false,
    interVersion: "test",
  };
}

class Money {
  constructor(readonly cents: number) {}
}

describe("a task's JSON output handed to its dependants in memory", () => {
  it("gives the dependant exactly what parsing the file gives, for values JSON cannot hold", () => {
    const root = tempDir();
    const shared = { id: "s" };
    const value = {
      kept: "x",
      gone: undefined,
      fn: () => 1,
      sym: Symbol("s"),
      nan: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      negativeZero: -0,
      list: [1, undefined, () => 2, Number.NaN, -0, { deep: undefined, also: [undefined] }],
      twice: [shared, shared],
      "10": "integer-like key first",
    };
    writeBuildJson(root, PATH, value);
    const read = readDepJson<Record<string, unknown>>(dependant(root), "plan", PATH);
    const parsed = JSON.parse(readFileSync(join(root, PATH), "utf8")) as unknown;
    expect(read).toStrictEqual(parsed);
    expect(Object.keys(read)).toEqual(Object.keys(parsed as object));
    expect(Object.is(read.negativeZero, 0)).toBe(true);
    // Handed over, not parsed: an object reached twice is still one (parsing copies it), and nothing stringify keeps
    // was copied.
    const twice = read.twice as object[];
    expect(twice[0]).toBe(twice[1]);
    expect(twice[0]).toBe(shared);
  });

  it("parses the file when the value holds what JSON writes otherwise (a Date, a class, toJSON, a Map)", () => {
    for (const odd of [new Date(0), new Money(5), { toJSON: () => "said" }, new Map([["a", 1]])]) {
      const root = tempDir();
      const value = { odd, list: [odd] };
      writeBuildJson(root, PATH, value);
      const read = readDepJson<unknown>(dependant(root), "plan", PATH);
      expect(read).not.toBe(value);
      expect(read).toStrictEqual(JSON.parse(readFileSync(join(root, PATH), "utf8")));
    }
  });

  it("reads the file again when its bytes are not those written (a cache hit restored other content)", () => {
    const root = tempDir();
    const value = { plan: "first" };
    writeBuildJson(root, PATH, value);
    writeFileSync(join(root, PATH), `${JSON.stringify({ plan: "restored" })}\n`);
    expect(readDepJson(dependant(root), "plan", PATH)).toStrictEqual({ plan: "restored" });
  });

  it("keeps the value first known for the same bytes, so readers' work kept by identity still holds", () => {
    const root = tempDir();
    const first = { commands: [{ name: "a" }] };
    writeBuildJson(root, PATH, first);
    expect(readDepJson(dependant(root), "plan", PATH)).toBe(first);
    writeBuildJson(root, PATH, { commands: [{ name: "a" }] });
    expect(readDepJson(dependant(root), "plan", PATH)).toBe(first);
  });

  it("refuses what parsing would not give back as it is: a bigint, an object without a prototype, a scalar", () => {
    expect(toPlainJson({ n: 1n })).toBeUndefined();
    expect(toPlainJson([1n])).toBeUndefined();
    expect(toPlainJson("text")).toBeUndefined();
    expect(toPlainJson({ inner: Object.assign(Object.create(null) as object, { a: 1 }) })).toBeUndefined();
  });

  it("gives up on a value nested deeper than the stack, or a cycle, instead of overflowing (readers parse the file)", () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 100_000; i++) deep = { deep };
    expect(toPlainJson(deep)).toBeUndefined();
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle.self = [cycle];
    expect(toPlainJson(cycle)).toBeUndefined();
  });

  it("keeps an own __proto__ property a property, as parsing does, when it copies the object holding it", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "kept": 1}') as Record<string, unknown>;
    value.gone = undefined;
    const plain = toPlainJson(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(["__proto__", "kept"]);
    expect(JSON.stringify(plain)).toBe('{"__proto__":{"polluted":true},"kept":1}');
  });

  it("parses the file when it changed after the task wrote it, even to bytes of the same length", () => {
    const root = tempDir();
    writeBuildJson(root, PATH, { plan: "aaaa" });
    writeFileSync(join(root, PATH), `${JSON.stringify({ plan: "bbbb" })}\n`);
    expect(readDepJson(dependant(root), "plan", PATH)).toStrictEqual({ plan: "bbbb" });
  });
});
