import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  compileSchema,
  schemaChecker,
  shippedSchemaValidator,
  type ShippedSchema,
} from "../../src/core/json-schema.js";

const require = createRequire(import.meta.url);
const PRECOMPILED = new URL("../../lib/json-schema-2020-meta.cjs", import.meta.url);

/** Schemas right and wrong in the ways a tool's input schema can be, each keyword of the meta-schema's vocabularies. */
const CORPUS: object[] = [
  { type: "object", properties: { a: { type: "string", minLength: 1, maxLength: 3, pattern: "^a" } } },
  { type: "object", properties: { a: { type: "foo" } } },
  { type: ["string", "null"] },
  { type: [] },
  { type: 5 },
  { required: "id" },
  { required: ["a", "a"] },
  { enum: [] },
  { enum: [1, "a", null] },
  { const: { a: 1 } },
  { minimum: "1" },
  { exclusiveMinimum: 0, multipleOf: 0 },
  { multipleOf: 2.5 },
  { items: { type: "integer" }, prefixItems: [{ type: "string" }], minItems: -1 },
  { items: [{ type: "string" }] },
  { additionalProperties: false, propertyNames: { pattern: "^[a-z]+$" } },
  { patternProperties: { "^x-": { type: "string" } }, unevaluatedProperties: false },
  { allOf: [], anyOf: [{ type: "string" }], oneOf: [{}, true] },
  { not: "string" },
  { if: { type: "string" }, then: { minLength: 1 }, else: false },
  { $defs: { a: { type: "string" } }, $ref: "#/$defs/a" },
  { $defs: { a: { type: 7 } } },
  { $id: "https://example.com/s", $anchor: "x", $comment: "c" },
  { $anchor: "not an anchor!" },
  { dependentRequired: { a: ["b"] }, dependentSchemas: { a: { required: ["c"] } } },
  { dependentRequired: { a: "b" } },
  { format: "date-time", contentMediaType: "application/json", deprecated: true, readOnly: "yes" },
  { title: 1, description: ["x"], default: null, examples: "x" },
  { discriminator: { propertyName: "kind" }, oneOf: [{ properties: { kind: { const: "a" } } }] },
  { contains: { type: "string" }, minContains: 1, maxContains: "2" },
];

describe("the meta-schema validator npm run build compiles (scripts/build.mjs)", () => {
  it("judges every schema as ajv's own meta-schema check does", async () => {
    expect(existsSync(PRECOMPILED)).toBe(true);
    const precompiled = require(PRECOMPILED.pathname) as ((s: object) => boolean) & { default?: unknown };
    const validate = (typeof precompiled.default === "function" ? precompiled.default : precompiled) as (
      s: object,
    ) => boolean;
    const Ajv2020 = (
      require("ajv/dist/2020.js") as { default: new (o: object) => { validateSchema(s: object): boolean } }
    ).default;
    const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true });
    (require("ajv-formats") as (a: unknown) => void)(ajv);
    const verdicts = CORPUS.map((schema) => [validate(schema), ajv.validateSchema(schema)]);
    expect(verdicts.map(([mine]) => mine)).toEqual(verdicts.map(([, theirs]) => theirs));
    // The corpus has both kinds.
    expect(new Set(verdicts.map(([mine]) => mine))).toEqual(new Set([true, false]));
  });

  it("compiles as before: a refused schema is refused with ajv's words, another $schema is held to its own", async () => {
    await expect(compileSchema({ type: "object", properties: { id: { type: 12 } } })).rejects.toThrow(
      /^schema is invalid: data\/properties\/id\/type must be/,
    );
    const validate = await compileSchema({ type: "object", required: ["a"] });
    expect(validate({ a: 1 })).toBe(true);
    expect(validate({})).toBe(false);
    const declared = await compileSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "string" });
    expect(declared("x")).toBe(true);
    await expect(compileSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", type: 12 })).rejects.toThrow(
      /schema is invalid/,
    );
    // A meta-schema this compiler does not know is refused, as it always was.
    await expect(compileSchema({ $schema: "http://example.com/unknown", type: "string" })).rejects.toThrow();
  });
});

describe("the shipped schemas' validators npm run build compiles (scripts/build.mjs)", () => {
  const SHIPPED: ShippedSchema[] = ["eval-plan", "results", "trigger-queries", "overlay", "diff-ignore"];
  const PLANS = new URL("../plans/", import.meta.url);
  // Every plan of test/plans that is JSON at all (one is there for its broken syntax).
  const plans = ["valid", "invalid"].flatMap((kind) =>
    readdirSync(new URL(kind, PLANS))
      .filter((f) => f.endsWith(".json"))
      .flatMap((f) => {
        try {
          return [JSON.parse(readFileSync(new URL(`${kind}/${f}`, PLANS), "utf8")) as unknown];
        } catch {
          return [];
        }
      }),
  );
  // Values right and wrong for each schema: those plans for the plan's, a few shapes for the others.
  const samples: Record<ShippedSchema, unknown[]> = {
    "eval-plan": plans,
    results: [{}, { schema_version: 1 }, []],
    "trigger-queries": [{ queries: [{ query: "list rooms", expected_skill: null }] }, { queries: [{ query: 5 }] }, {}],
    overlay: [{ format: "intermesh-overlay/1", groups: {}, skills: {} }, { commands: 5 }, { nonsense: true }],
    "diff-ignore": [
      { format: "intermesh-diff-ignore/1", accept: [{ change: "flag-removed a b --c", reason: "agreed" }] },
      { format: "intermesh-diff-ignore/1", accept: [{ change: "x", reason: 5 }] },
      [],
    ],
  };

  it.each(SHIPPED)(
    "%s: the one compiled from this very file is used, and judges as compiling the file does",
    async (name) => {
      const text = readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url));
      const built = require(new URL(`../../lib/schemas/${name}.cjs`, import.meta.url).pathname) as {
        default: (v: unknown) => boolean;
        sourceSha256: string;
      };
      expect(built.sourceSha256).toBe(createHash("sha256").update(text).digest("hex"));
      const shipped = await shippedSchemaValidator(name);
      expect(shipped).toBe(built.default);
      const fresh = await compileSchema(JSON.parse(text.toString("utf8")) as object);
      const verdicts = samples[name].map((value) => {
        const mine = [shipped(value), shipped.errors ?? null];
        return { mine, theirs: [fresh(value), fresh.errors ?? null] };
      });
      expect(verdicts.map((v) => v.mine)).toEqual(verdicts.map((v) => v.theirs));
      // Both verdicts are seen (a whole results file is an evaluation's; its refusals are compared only).
      if (name !== "results") expect(new Set(verdicts.map((v) => v.mine[0]))).toEqual(new Set([true, false]));
    },
  );
});

// The MCP certification holds every tool's input schema to what a client's compiler accepts (stages/inspect/mcp.ts):
// checked against the meta-schema, and compiled only where compiling can find more.
describe("schemaChecker", () => {
  it("accepts a tool's input schema, a property named like a keyword included", async () => {
    const check = schemaChecker();
    await expect(
      check({
        type: "object",
        properties: {
          pattern: { type: "string", pattern: "^[a-z]+$" },
          ref: { type: "object", properties: { $ref: { type: "string" } } },
        },
        required: ["pattern"],
      }),
    ).resolves.toBeUndefined();
  });

  it("refuses a schema its meta-schema refuses", async () => {
    const check = schemaChecker();
    await expect(check({ type: "object", properties: { id: { type: 12 } } })).rejects.toThrow();
    await expect(check({ type: "object", required: "id" })).rejects.toThrow();
  });

  it("refuses a pattern that is no Unicode regular expression, wherever it sits", async () => {
    const check = schemaChecker();
    await expect(
      check({ type: "object", properties: { id: { type: "string", pattern: "([a-z]" } } }),
    ).rejects.toThrow();
    // Valid without the u flag, not with it: the compiler reads patterns with it.
    await expect(check({ type: "object", properties: { id: { type: "string", pattern: "\\-x" } } })).rejects.toThrow();
    await expect(check({ type: "object", patternProperties: { "([": { type: "string" } } })).rejects.toThrow();
  });

  it("refuses a reference that resolves to nothing, and accepts one that resolves", async () => {
    const check = schemaChecker();
    await expect(check({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } })).rejects.toThrow();
    await expect(
      check({ type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } }),
    ).resolves.toBeUndefined();
  });

  it("checks the same schema twice, and two schemas of one $id, without a collision", async () => {
    const check = schemaChecker();
    const schema = {
      $id: "https://example.com/tool",
      type: "object",
      properties: { a: { $ref: "#/$defs/a" } },
      $defs: { a: { type: "string" } },
    };
    await expect(check(schema)).resolves.toBeUndefined();
    await expect(check({ ...schema })).resolves.toBeUndefined();
  });
});
