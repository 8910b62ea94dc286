import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveDocument } from "../../src/stages/openapi/ref-reader.js";
import { tempDir } from "../helpers.js";

// Node's global `Headers` is a getter that loads the whole fetch implementation the first time it is read (~30 ms of
// CPU); the `$ref` parser reads it while merging its options. Here the global is a counting getter of the test's own.
describe("reading a description", () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, "Headers")!;
  afterEach(() => Object.defineProperty(globalThis, "Headers", original));

  it("never reads the global Headers, and leaves it as it was for fetch and everyone else", async () => {
    let reads = 0;
    const counting = {
      get: () => {
        reads++;
        return original.get ? original.get.call(globalThis) : original.value;
      },
      configurable: true,
      enumerable: false,
    };
    Object.defineProperty(globalThis, "Headers", counting);
    const dir = tempDir();
    writeFileSync(join(dir, "openapi.yaml"), "openapi: 3.1.0\ninfo: { title: T, version: '1' }\npaths: {}\n");
    writeFileSync(
      join(dir, "split.yaml"),
      "openapi: 3.1.0\ninfo: { title: T, version: '1' }\npaths: { /a: { $ref: 'paths.yaml#/a' } }\n",
    );
    writeFileSync(join(dir, "paths.yaml"), "a: { get: { responses: { '200': { description: ok } } } }\n");

    const alone = await resolveDocument(join(dir, "openapi.yaml"), dir);
    const split = await resolveDocument(join(dir, "split.yaml"), dir);

    expect(alone.root.openapi).toBe("3.1.0");
    expect(split.root.paths).toBeDefined();
    expect(reads).toBe(0);
    expect(Object.getOwnPropertyDescriptor(globalThis, "Headers")?.get).toBe(counting.get);
    expect(new Headers({ accept: "text/plain" }).get("accept")).toBe("text/plain");
    expect(reads).toBe(1);
  });
});
