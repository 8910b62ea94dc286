import { getJsonSchemaRefParserDefaultOptions, type FileInfo } from "@apidevtools/json-schema-ref-parser";
import { describe, expect, it } from "vitest";
import { yamlPlugin } from "../../src/stages/openapi/yaml-parser.js";

// The `$ref` parser's own YAML plugin (js-yaml 5), which every document was read with before: the faster one must give
// exactly what it gives, and fail exactly where it fails.
const own = getJsonSchemaRefParserDefaultOptions().parse.yaml as { parse(file: FileInfo): unknown };

const file = (text: string, asBuffer = true): FileInfo => ({
  url: "/project/openapi.yaml",
  extension: ".yaml",
  data: asBuffer ? Buffer.from(text) : text,
  hash: "",
});

async function outcome(plugin: { parse(file: FileInfo): unknown }, text: string) {
  try {
    return { value: await plugin.parse(file(text)) };
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

const documents: Record<string, string> = {
  "core scalars": [
    "openapi: 3.0.3",
    "ints: [0, -0, -17, +3, 0x1F, 0o17, 017, 09, 00]",
    "floats: [1.5, -0.0, 1., .5, +.5, -1.5e-3, 1e3, 6.02E+23, .inf, -.Inf, +.INF, .NaN, .nan]",
    // Where YAML 1.1 (and js-yaml 4's own schema) reads numbers and YAML 1.2 reads strings.
    "yaml11: [1_000, 1_000.5, 0b1010, -0x1F, +0x1F, -0o17, 0o19, 0xG, 1:30, 190:20:30, 1__0, .inf_, 0x]",
    // Numbers no double holds stay strings; a long one that fits is a number.
    `huge: [1e999, -1e999, ${"9".repeat(400)}, ${"1".repeat(30)}, 0x${"f".repeat(300)}]`,
    "nulls: [~, null, Null, NULL, '']",
    "empty:",
    "bools: [true, True, FALSE, yes, no, on, off, y, n]",
    "dates: [2024-01-01, 2024-01-01T10:00:00Z, 12:30:00]",
    "strings: ['single', \"double \\u00e9 \\n\", plain text, 'it''s', \"#not a comment\"]",
    "version: 1.10",
  ].join("\n"),
  "block scalars and nesting": [
    "info:",
    "  title: Rooms",
    "  description: |",
    "    Line one",
    "      indented",
    "",
    "    Line three",
    "  summary: >-",
    "    folded",
    "    text",
    "paths:",
    "  /rooms/{id}:",
    "    get:",
    "      parameters:",
    "        - name: id",
    "          in: path",
    "          required: true",
    "          schema: { type: string, enum: [a, 'b', \"c\"] }",
    "      responses:",
    "        '200': {description: ok}",
    "        default:",
    "          $ref: '#/components/responses/Error'",
  ].join("\n"),
  "anchors, aliases and a merge key, which the core schema keeps as a key": [
    "base: &base {type: object, properties: {id: {type: string}}}",
    "copy: *base",
    "merged:",
    "  <<: *base",
    "  extra: true",
  ].join("\n"),
  "JSON in a .yaml file": JSON.stringify({ openapi: "3.1.0", paths: { "/a": { get: { responses: {} } } } }, null, 2),
  "a byte-order mark and comments": "\uFEFF# a comment\nopenapi: 3.0.0 # trailing\n",
  "an explicit tag of the extended schema": "created: !!timestamp 2024-01-01\nraw: !!binary aGVsbG8=\n",
  "an empty document": "",
  "only a comment": "# nothing here\n",
  "a syntax error": "openapi: 3.0.0\npaths:\n  /a:\n   get: 1\n  bad: [unclosed\n",
  "a duplicate key": "openapi: 3.0.0\nopenapi: 3.1.0\n",
  "two documents": "openapi: 3.0.0\n---\nopenapi: 3.1.0\n",
  "a tab for indentation": "paths:\n\t/a: 1\n",
  "nesting past any recursion": "a: " + "[".repeat(20_000) + "]".repeat(20_000),
};

describe("the OpenAPI document's YAML plugin (js-yaml 4 where it can)", () => {
  for (const [what, text] of Object.entries(documents)) {
    it(`reads ${what} exactly as the $ref parser's own plugin does`, async () => {
      const mine = await outcome(yamlPlugin, text);
      expect(mine).toEqual(await outcome(own, text));
    });
  }

  it("takes the text as a string too, and hands a value that is not text on as it is", async () => {
    expect(await yamlPlugin.parse(file("a: 1", false))).toEqual({ a: 1 });
    const value = { already: "parsed" };
    expect(await yamlPlugin.parse({ ...file(""), data: value as never })).toBe(value);
  });

  it("keeps a __proto__ key an own key: the prototype is never set, nothing is polluted", async () => {
    const text = "a:\n  __proto__:\n    polluted: yes\nb: &x {__proto__: {p: 1}}\nc: *x\n";
    const value = (await yamlPlugin.parse(file(text))) as Record<string, object>;
    expect(value).toEqual((await outcome(own, text)).value);
    expect(Object.getPrototypeOf(value.a)).toBe(Object.prototype);
    expect(Object.keys(value.a!)).toEqual(["__proto__"]);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("keeps a date-like value a string and an omitted value null, as descriptions need", async () => {
    expect(await yamlPlugin.parse(file("example: 2024-01-01\nnothing:\n"))).toEqual({
      example: "2024-01-01",
      nothing: null,
    });
  });
});
