import { describe, expect, it } from "vitest";
import { schemaChecker } from "../../src/core/json-schema.js";

// The MCP certification holds every tool's input schema to what a client's compiler accepts (stages/inspect/mcp.ts):
// checked against the meta-schema, and compiled only where compiling can find more.
describe("schemaChecker", () => {
  it("accepts a tool's input schema, a property named like a keyword included", async () => {
    const check = await schemaChecker();
    expect(() =>
      check({
        type: "object",
        properties: {
          pattern: { type: "string", pattern: "^[a-z]+$" },
          ref: { type: "object", properties: { $ref: { type: "string" } } },
        },
        required: ["pattern"],
      }),
    ).not.toThrow();
  });

  it("refuses a schema its meta-schema refuses", async () => {
    const check = await schemaChecker();
    expect(() => check({ type: "object", properties: { id: { type: 12 } } })).toThrow();
    expect(() => check({ type: "object", required: "id" })).toThrow();
  });

  it("refuses a pattern that is no Unicode regular expression, wherever it sits", async () => {
    const check = await schemaChecker();
    expect(() => check({ type: "object", properties: { id: { type: "string", pattern: "([a-z]" } } })).toThrow();
    // Valid without the u flag, not with it: the compiler reads patterns with it.
    expect(() => check({ type: "object", properties: { id: { type: "string", pattern: "\\-x" } } })).toThrow();
    expect(() => check({ type: "object", patternProperties: { "([": { type: "string" } } })).toThrow();
  });

  it("refuses a reference that resolves to nothing, and accepts one that resolves", async () => {
    const check = await schemaChecker();
    expect(() => check({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } })).toThrow();
    expect(() =>
      check({ type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } }),
    ).not.toThrow();
  });

  it("checks the same schema twice, and two schemas of one $id, without a collision", async () => {
    const check = await schemaChecker();
    const schema = {
      $id: "https://example.com/tool",
      type: "object",
      properties: { a: { $ref: "#/$defs/a" } },
      $defs: { a: { type: "string" } },
    };
    expect(() => check(schema)).not.toThrow();
    expect(() => check({ ...schema })).not.toThrow();
  });
});
