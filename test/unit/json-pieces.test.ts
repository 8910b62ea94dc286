import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indented, jsonPieces } from "../../src/core/json-pieces.js";
import { isPlainJson } from "../../src/core/plain-json.js";
import { capabilitiesText } from "../../src/pipeline/capabilities-text.js";

// Large values are written from their pieces (src/core/json-pieces.ts): the pieces must join to JSON.stringify's text
// and its newline exactly, or a build's outputs (and the hashes that key the cache) would change with the writer.

const joined = (value: unknown, indent: 0 | 2) => [...jsonPieces(value, indent)].join("");
const stringified = (value: unknown, indent: 0 | 2) => `${JSON.stringify(value, null, indent)}\n`;

describe("jsonPieces: JSON.stringify's text, made piece by piece", () => {
  it("joins to JSON.stringify's text for any plain JSON value, compact and indented", () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => isPlainJson(v)),
        (value) => {
          expect(joined(value, 0)).toBe(stringified(value, 0));
          expect(joined(value, 2)).toBe(stringified(value, 2));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("is right where empty and deep containers, odd keys and non-ASCII text meet the split depth", () => {
    const value = {
      empty: [],
      none: {},
      'key "quoted"\n': [[], {}, [[[]]], { a: { b: { c: [1, "x"] } } }],
      "10": "integer-like keys come first, as JSON.stringify writes them",
      commands: [{ name: "rooms list", text: "ünïcödé ✓ \u2028 😀", flags: [] }, null, 3.5, "s", true],
      nested: { deeper: { deepest: [{ x: [] }] } },
    };
    for (const indent of [0, 2] as const) expect(joined(value, indent)).toBe(stringified(value, indent));
    for (const top of [[], {}, "text", 0, null, [[]], [{}]]) {
      expect(joined(top, 0)).toBe(stringified(top, 0));
      expect(joined(top, 2)).toBe(stringified(top, 2));
    }
  });

  it("gives a value as it reads some levels in, every line after the first indented", () => {
    const value = { a: [1, { b: [] }], c: "d" };
    for (const depth of [0, 1, 2, 3])
      expect(indented(value, depth)).toBe(JSON.stringify(value, null, 2).replaceAll("\n", `\n${"  ".repeat(depth)}`));
  });
});

describe("capabilitiesText: whether capabilities.json's value may stand for its text", () => {
  const caps = (extra: Record<string, unknown> = {}, commands: object[] = [{ name: "room get", flags: [] }]) => ({
    schemaVersion: "1.0.0",
    groups: [{ name: "room" }],
    commands,
    ...extra,
  });

  it("is plain only when every member is: no member JSON leaves out, no Date, no -0", () => {
    expect(capabilitiesText(caps()).plain).toBe(true);
    expect(capabilitiesText(caps({ gone: undefined })).plain).toBe(false);
    expect(capabilitiesText(caps({ at: new Date(0) })).plain).toBe(false);
    expect(capabilitiesText(caps({}, [{ name: "x", n: -0 }])).plain).toBe(false);
    for (const value of [caps({ gone: undefined }), caps({}, [{ name: "x", n: -0, at: new Date(0) }])])
      expect(capabilitiesText(value).text.join("")).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });
});
