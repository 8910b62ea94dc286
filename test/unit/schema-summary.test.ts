import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { designDocument, tempDir } from "../helpers.js";

/** The body fields of the one operation of a document with these schemas and this body schema. */
async function bodyFields(body: unknown, schemas: Record<string, unknown> = {}) {
  const dir = tempDir();
  const file = join(dir, "openapi.json");
  writeFileSync(
    file,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Shapes", version: "1" },
      paths: {
        "/things": {
          put: {
            operationId: "putThing",
            requestBody: { required: true, content: { "application/json": { schema: body } } },
            responses: { "200": { description: "ok" } },
          },
        },
      },
      components: { schemas },
    }),
  );
  const { model } = await readOperationModel(file, dir);
  return Object.fromEntries(model.operations[0]!.body!.fields.map(({ name, ...f }) => [name, f]));
}

describe("a schema as flags read it", () => {
  it("reads the properties of allOf parts at the object's own depth (Azure's resource → proxy resource chain)", async () => {
    const fields = await bodyFields(
      { allOf: [{ $ref: "#/components/schemas/ProxyResource" }], properties: { properties: { type: "object" } } },
      {
        Resource: {
          properties: {
            id: { type: "string", readOnly: true },
            name: { type: "string", readOnly: true },
            type: { type: "string", readOnly: true },
          },
        },
        ProxyResource: { allOf: [{ $ref: "#/components/schemas/Resource" }] },
      },
    );
    // Read-only in the chain's root: no flags of a write (they were JSON object flags, read too deep to know them).
    expect(Object.keys(fields)).toEqual(["properties"]);
  });

  it("a list's enum of lists lists its elements' values; an enum of objects lists nothing, never an empty list", async () => {
    const fields = await bodyFields({
      type: "object",
      properties: {
        // Mailchimp's activity filters: the values an element takes, each written as a one-element list.
        action: { type: "array", items: { type: "string" }, enum: [["click"], ["open"], ["click"]] },
        shape: { type: "object", enum: [{ a: 1 }] },
        size: { type: "string", enum: [] },
      },
    });
    expect(fields.action).toMatchObject({ type: "array", items: "string", enum: ["click", "open"] });
    expect(fields.shape).not.toHaveProperty("enum");
    expect(fields.size).not.toHaveProperty("enum");
  });

  it("keeps the items of a list an allOf part gives (AWS wraps each list with its description)", async () => {
    const fields = await bodyFields(
      {
        type: "object",
        properties: {
          Filters: { allOf: [{ $ref: "#/components/schemas/FilterList" }, { description: "Filters to apply." }] },
        },
      },
      {
        FilterList: { type: "array", items: { $ref: "#/components/schemas/Filter" } },
        Filter: { type: "object", required: ["Key"], properties: { Key: { type: "string" } } },
      },
    );
    expect(fields.Filters).toMatchObject({
      type: "array",
      items: "object",
      requires: ["Key"],
      description: "Filters to apply.",
    });
  });

  it("a union of scalars is a string (numbers alone a number) with its types; steps and required keys are kept", async () => {
    const fields = await bodyFields({
      type: "object",
      properties: {
        ref: { oneOf: [{ type: "string" }, { type: "integer", minimum: 1 }] },
        weight: { anyOf: [{ type: "integer" }, { type: "number" }] },
        shape: { oneOf: [{ type: "string" }, { type: "object", properties: { a: { type: "string" } } }] },
        offset: { type: "integer", multipleOf: 20 },
        anchor: { anyOf: [{ type: "string", enum: ["now", "unchanged"] }, { type: "integer" }] },
        // A listed number beside free strings lists nothing: every string passes.
        level: { anyOf: [{ type: "string" }, { type: "integer", enum: [1, 2] }] },
        records: {
          type: "array",
          items: { type: "object", required: ["type"], properties: { type: { type: "string" } } },
        },
      },
    });
    expect(fields.ref).toMatchObject({ type: "string", anyOf: ["string", "integer"], minimum: 1 });
    expect(fields.weight).toMatchObject({ type: "number", anyOf: ["integer", "number"] });
    expect(fields.shape).toMatchObject({ type: "object" });
    expect(fields.shape!.anyOf).toBeUndefined();
    expect(fields.offset).toMatchObject({ type: "integer", multipleOf: 20 });
    expect(fields.anchor).toMatchObject({ type: "string", anyOf: ["string", "integer"], enum: ["now", "unchanged"] });
    expect(fields.level!.enum).toBeUndefined();
    expect(fields.records).toMatchObject({ type: "array", items: "object", requires: ["type"] });
  });

  it("a value or a list of such values is a list flag: one value goes as a list of one, which the union takes", async () => {
    const fields = await bodyFields({
      type: "object",
      properties: {
        // Telstra's recipients: "a string for a single recipient, and an array of strings for multiple".
        to: {
          description: "Mobile numbers.",
          oneOf: [
            { type: "string", minLength: 10, maxLength: 10 },
            { type: "array", items: { type: "string", minLength: 10, maxLength: 10 } },
          ],
        },
        stop: {
          anyOf: [{ type: "string" }, { type: "array", items: { type: "string" }, maxItems: 4 }],
          nullable: true,
        },
        // Not a value or a list of values: a list of two at least, of another type, of objects, or two lists.
        pair: { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" }, minItems: 2 }] },
        mixed: { oneOf: [{ type: "string" }, { type: "array", items: { type: "integer" } }] },
        shapes: { oneOf: [{ type: "string" }, { type: "array", items: { type: "object" } }] },
        input: {
          oneOf: [
            { type: "string" },
            { type: "array", items: { type: "string" } },
            { type: "array", items: { type: "integer" } },
          ],
        },
      },
    });
    expect(fields.to).toMatchObject({ type: "array", items: "string", minLength: 10, maxLength: 10 });
    expect(fields.to!.description).toBe("Mobile numbers.");
    expect(fields.stop).toMatchObject({ type: "array", items: "string", maxItems: 4, nullable: true });
    for (const name of ["pair", "mixed", "shapes", "input"]) expect(fields[name]!.type, name).toBe("object");
  });

  it("a union of one type takes what every branch takes: its lists' values, each variant's properties, const as a list", async () => {
    const fields = await bodyFields({
      // intellifi.nl's spot sets: a base beside variants told apart by `type`, each with its own fields.
      allOf: [
        { type: "object", properties: { id: { type: "string" } } },
        {
          oneOf: [
            {
              type: "object",
              required: ["type", "areaCode"],
              properties: { type: { type: "string", enum: ["areacode"] }, areaCode: { type: "string", maxLength: 8 } },
            },
            {
              type: "object",
              required: ["type", "length"],
              properties: { type: { type: "string", const: "codelength" }, length: { type: "integer" } },
            },
          ],
        },
      ],
    });
    expect(Object.keys(fields).sort()).toEqual(["areaCode", "id", "length", "type"]);
    expect(fields.type).toMatchObject({ type: "string", enum: ["areacode", "codelength"], required: true });
    // Each variant's own field is required only of that variant.
    expect(fields.areaCode).toMatchObject({ type: "string", maxLength: 8, required: false });
    expect(fields.length).toMatchObject({ type: "integer", required: false });
    // Help says which fields go with which variant.
    expect(fields.areaCode!.description).toBe("Only when type is areacode (required then).");
    expect(fields.length!.description).toBe("Only when type is codelength (required then).");
    expect(fields.id!.description).toBeUndefined();
  });

  it("OpenAPI's discriminator names the variants: its mapping, else each branch's schema name", async () => {
    const pet = (field: string, extra: Record<string, unknown> = {}) => ({
      type: "object",
      required: ["kind", "name"],
      properties: { kind: { type: "string" }, name: { type: "string" }, [field]: { type: "boolean", ...extra } },
    });
    const fields = await bodyFields(
      {
        oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
        discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } },
      },
      { Cat: pet("indoor", { description: "Stays inside." }), Dog: pet("barks") },
    );
    // The mapping's value for Cat, the schema's name for Dog: the values the server tells them apart by.
    expect(fields.kind).toMatchObject({ enum: ["cat", "Dog"], required: true });
    expect(fields.indoor!.description).toBe("Only when kind is cat. Stays inside.");
    expect(fields.barks!.description).toBe("Only when kind is Dog.");
    expect(fields.name!.description).toBeUndefined();
  });

  it("a field of many variants names the first few and counts the rest", async () => {
    const variant = (kind: string, extra: boolean) => ({
      type: "object",
      properties: { kind: { enum: [kind] }, ...(extra ? { size: { type: "integer" } } : {}) },
    });
    const fields = await bodyFields({ oneOf: ["a", "b", "c", "d", "e", "f", "g"].map((k) => variant(k, k !== "g")) });
    expect(fields.size!.description).toBe("Only when kind is a, b, c, d or 2 others.");
  });

  it("a required parameter whose branches list one value each is a choice, not a constant sent unasked", async () => {
    const parameters = [
      { name: "kind", in: "query", required: true, schema: { oneOf: [{ enum: ["red"] }, { enum: ["blue"] }] } },
      { name: "mode", in: "query", required: true, schema: { anyOf: [{ const: "fast" }] } },
    ];
    const [command] = (
      await designDocument({
        openapi: "3.1.0",
        info: { title: "Paint", version: "1" },
        paths: {
          "/paint": { post: { operationId: "paint", parameters, responses: { "204": { description: "ok" } } } },
        },
      })
    ).commands;
    const flag = (name: string) => command!.flags.find((f) => f.flag === name)!;
    expect(flag("kind")).toMatchObject({ enum: ["red", "blue"], required: true });
    expect(flag("kind").default).toBeUndefined();
    // One value in all: the CLI sends it without being told.
    expect(flag("mode")).toMatchObject({ default: "fast", sentIfAbsent: true, required: false });
  });

  it("an answer declared only as the 2XX range is the success answer: a file there is a download", async () => {
    const bytes = { "application/octet-stream": { schema: { type: "string", format: "binary" } } };
    const id = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];
    const { commands } = await designDocument({
      openapi: "3.0.3",
      info: { title: "Files", version: "1" },
      paths: {
        // Microsoft Graph's downloads declare only the range.
        "/files/{id}/content": {
          get: {
            operationId: "getContent",
            parameters: id,
            responses: { "2XX": { description: "ok", content: bytes } },
          },
        },
        "/files/{id}": {
          get: {
            operationId: "getFile",
            parameters: id,
            responses: {
              "2XX": { description: "any", content: bytes },
              "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
            },
          },
        },
      },
    });
    const byId = (id: string) => commands.find((c) => c.operation.operationId === id)!;
    expect(byId("getContent").response).toMatchObject({ kind: "binary" });
    // A code says more than its range.
    expect(byId("getFile").response).toMatchObject({ kind: "json" });
  });

  it("a value that may be null (anyOf a $ref and a bare nullable object) is the referenced value", async () => {
    const fields = await bodyFields(
      {
        type: "object",
        properties: {
          // Microsoft Graph's OData function parameters.
          includedUserTypes: {
            anyOf: [{ $ref: "#/components/schemas/includedUserTypes" }, { type: "object", nullable: true }],
          },
          settings: {
            anyOf: [
              { type: "object", properties: { a: { type: "string" } } },
              { type: "object", nullable: true },
            ],
          },
        },
      },
      { includedUserTypes: { type: "string", enum: ["all", "member", "guest"] } },
    );
    expect(fields.includedUserTypes).toMatchObject({
      type: "string",
      enum: ["all", "member", "guest"],
      nullable: true,
    });
    expect(fields.settings).toMatchObject({ type: "object", nullable: true });
  });

  it("past the schema budget, a parameter of one scalar type is still that type, not an object taking JSON", async () => {
    // Inline bodies of a thousand properties each, beyond the budget of schema nodes one document may expand.
    const wide = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`p${i}`, { type: "string" }])),
    };
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 210; i++)
      paths[`/things${i}`] = {
        post: {
          operationId: `make${i}`,
          requestBody: { content: { "application/json": { schema: wide } } },
          responses: { "204": { description: "ok" } },
        },
      };
    paths["/users/{user-id}"] = {
      get: {
        operationId: "getUser",
        parameters: [
          { name: "user-id", in: "path", required: true, schema: { type: "string" } },
          { name: "standard", in: "query", required: true, schema: { $ref: "#/components/schemas/Standard" } },
        ],
        responses: { "204": { description: "ok" } },
      },
    };
    const components = { schemas: { Standard: { type: "string", enum: ["windows", "iana"] } } };
    const { model, warnings } = await designDocument({
      openapi: "3.0.3",
      info: { title: "Wide", version: "1" },
      paths,
      components,
    });
    expect(warnings.join("\n")).toMatch(/expand to more than/);
    const user = model.operations.find((o) => o.operationId === "getUser")!;
    expect(user.parameters[0]).toMatchObject({ name: "user-id", type: "string" });
    expect(user.parameters[1]).toMatchObject({ name: "standard", type: "string", enum: ["windows", "iana"] });
  }, 60_000);
});

describe("what a command asks for (Accept)", () => {
  it("the declared types, JSON first; for a success answer given no type, JSON first and anything else taken", async () => {
    const ok = (content?: Record<string, unknown>) => ({
      "200": { description: "ok", ...(content ? { content } : {}) },
    });
    const { commands } = await designDocument({
      openapi: "3.0.3",
      info: { title: "Daymet", version: "1" },
      paths: {
        // Daymet's download: CSV or NetCDF by `format`, the answer declared without content.
        "/data": { get: { operationId: "download", responses: ok() } },
        "/report": {
          get: {
            operationId: "report",
            responses: ok({ "text/csv": { schema: { type: "string" } }, "application/json": { schema: {} } }),
          },
        },
        "/data/{id}": {
          delete: {
            operationId: "remove",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "204": { description: "gone" } },
          },
        },
      },
    });
    const accept = (name: string) => commands.find((c) => c.operation.operationId === name)!.response!.accept;
    expect(accept("download")).toBe("application/json, */*;q=0.8");
    expect(accept("report")).toBe("application/json, text/csv");
    expect(accept("remove")).toBe("application/json");
  });
});
