import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { refsAllLocal } from "../../src/stages/openapi/local-refs.js";
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

describe("a document whose bytes show every $ref is its own", () => {
  const local = (text: string) => refsAllLocal(Buffer.from(text, "utf8"));

  it('is told from its bytes when every $ref is a key of a quoted "#…" string', () => {
    expect(local('{"a":{"$ref":"#/b"},"b":{"type":"string"}}')).toBe(true);
    expect(local('{ "a" : { "$ref" :\n  "#/components/schemas/B" } }')).toBe(true);
    expect(local('a:\n  "$ref": "#/b"\n')).toBe(true);
    expect(local("a:\n  $ref: '#/b'\nc: { $ref: \"#/d\" }\ne:\n  - '$ref' :\n      '#/f'\n")).toBe(true);
    expect(local('{"description":"caf\\u00e9 \\u0023 \\n"}')).toBe(true);
    expect(local('{"description":"domain\\\\user, \\\\x24"}')).toBe(true);
    expect(local('{"/users/{id}/$ref":{"delete":{"$refs":1,"x$ref":2}}}')).toBe(true);
    expect(local("a:\n  !!str $ref: '#/b'\n")).toBe(true);
  });

  it("is never said to be so when a $ref may name another file, however it is written", () => {
    for (const text of [
      '{"a":{"$ref":"other.json#/b"}}',
      '{"a":{"$ref":""}}',
      '{"a":{"\\u0024ref":"other.json"}}',
      '{"a":{"$\\u0072ef":"other.json"}}',
      '{"a":{"$re\\u0066":"other.json"}}',
      '{"a":{"$ref":"\\u0023/b"}}',
      "a:\n  $ref: other.yaml\n",
      "a:\n  '$ref': other.yaml\n",
      "a:\n  $ref: '#/b'\nc:\n  $ref: other.yaml\n",
      "a:\n  $ref: *x\n",
      "a:\n  $ref: >-\n    #/b\n",
      'a:\n  "\\x24ref": other.yaml\n',
      'a:\n  "\\U00000024ref": other.yaml\n',
      'a:\n  "$r\\\n  ef": other.yaml\n',
      "description: use $ref to point elsewhere\n",
      'a: &x "$ref"\nb: { *x : other.yaml }\n',
      'a: { &x "$ref": "#/b" }\nc: { *x : other.yaml }\n',
      "a:\n  &x !!str $ref: '#/b'\nc:\n  *x : other.yaml\n",
      "a:\n  !!str &x '$ref': '#/b'\nc:\n  *x : other.yaml\n",
      '{"a":{"\\u00zzref":"x"}}',
    ])
      expect(local(text), text).toBe(false);
    expect(refsAllLocal(Buffer.from('{"a":{"$ref":"other.json"}}', "utf16le"))).toBe(false);
  });

  it("still reads the files a $ref names when only an escape spells the key", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "openapi.json"),
      '{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{"/a":{"\\u0024ref":"paths.json#/a"}}}',
    );
    writeFileSync(join(dir, "paths.json"), '{"a":{"get":{"responses":{"200":{"description":"ok"}}}}}');
    const { resolver } = await resolveDocument(join(dir, "openapi.json"), dir);
    expect([...resolver.files].map((f) => f.split("/").pop())).toContain("paths.json");
  });
});
