import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Cli } from "../../src/runtime/load.js";
import type { Command, Manifest } from "../../src/runtime/manifest.js";
import type { JsonObject, Probe } from "../../src/stages/inspect/probe.js";
import {
  checkWire,
  planWireSample,
  wireBlocks,
  wireRequestOf,
  WIRE_SAMPLE,
} from "../../src/stages/inspect/wire-check.js";
import { loadWireValidator, wireValidator as validator } from "../../src/stages/inspect/wire-validate.js";

/**
 * The wire check (src/stages/inspect/wire-check.ts) on made-up packages: a fake CLI whose dry runs print what a
 * runtime would, held to real descriptions by Prism's validator. What today's runtime does with an upload (the file's
 * path as JSON) is found invalid and inexpressible; what the runtime that expresses every media type prints (a
 * multipart body, `file: true`, `response.kind: "binary"`) is valid.
 */

const dir = mkdtempSync(join(tmpdir(), "inter-wire-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BASE = "http://127.0.0.1:9/inter-wire-check";

const UPLOADS: Record<string, unknown> = {
  openapi: "3.0.3",
  info: { title: "Files", version: "1" },
  components: {
    securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } },
    schemas: {
      Upload: {
        type: "object",
        required: ["file", "title"],
        properties: { file: { type: "string", format: "binary" }, title: { type: "string", maxLength: 20 } },
      },
    },
  },
  security: [{ key: [] }],
  paths: {
    "/documents": {
      post: {
        operationId: "upload",
        requestBody: {
          required: true,
          content: { "multipart/form-data": { schema: { $ref: "#/components/schemas/Upload" } } },
        },
        responses: { "201": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/documents/{id}/pdf": {
      get: {
        operationId: "download",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "pdf",
            content: { "application/pdf": { schema: { type: "string", format: "binary" } } },
          },
        },
      },
    },
    "/subscriptions": {
      post: {
        operationId: "subscribe",
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              schema: {
                type: "object",
                required: ["topic"],
                properties: { topic: { type: "array", items: { type: "string" } }, lease: { type: "integer" } },
              },
            },
          },
        },
        responses: { "202": { description: "accepted" } },
      },
    },
    "/search/{ids}": {
      get: {
        operationId: "search",
        parameters: [
          {
            name: "ids",
            in: "path",
            required: true,
            style: "label",
            schema: { type: "array", items: { type: "integer" } },
          },
          { name: "q", in: "query", required: true, schema: { type: "string" } },
          {
            name: "tags",
            in: "query",
            style: "pipeDelimited",
            explode: false,
            schema: { type: "array", items: { type: "string" } },
          },
          {
            name: "filter",
            in: "query",
            style: "deepObject",
            schema: { type: "object", properties: { year: { type: "integer" } } },
          },
          { name: "X-Page", in: "header", required: true, schema: { type: "integer" } },
        ],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array" } } } } },
      },
    },
  },
};

const flag = (f: Record<string, unknown>) => ({ type: "string", required: false, ...f });
/** The commands a package would hold for UPLOADS: `merged` adds what the runtime that expresses every body adds. */
function commands(merged: boolean): object[] {
  return [
    {
      name: "documents upload",
      operation: { method: "POST", path: "/documents", operationId: "upload" },
      jsonInput: true,
      bodyMediaType: "multipart/form-data",
      ...(merged ? { body: { mediaType: "multipart/form-data", encoding: "multipart", required: true } } : {}),
      destructive: false,
      flags: [
        flag({
          flag: "file",
          in: "body",
          wire: "file",
          required: true,
          format: "binary",
          ...(merged ? { file: true } : {}),
        }),
        flag({ flag: "title", in: "body", wire: "title", required: true, maxLength: 20 }),
      ],
    },
    {
      name: "documents download",
      operation: { method: "GET", path: "/documents/{id}/pdf", operationId: "download" },
      jsonInput: false,
      destructive: false,
      ...(merged ? { response: { accept: "application/pdf", kind: "binary" } } : {}),
      flags: [flag({ flag: "id", in: "path", wire: "id", required: true })],
    },
    {
      name: "subscriptions subscribe",
      operation: { method: "POST", path: "/subscriptions", operationId: "subscribe" },
      jsonInput: true,
      bodyMediaType: "application/x-www-form-urlencoded",
      destructive: false,
      flags: [
        flag({ flag: "topic", in: "body", wire: "topic", required: true, type: "array", items: "string" }),
        flag({ flag: "lease", in: "body", wire: "lease", type: "integer" }),
      ],
    },
    {
      name: "search run",
      operation: { method: "GET", path: "/search/{ids}", operationId: "search" },
      jsonInput: false,
      destructive: false,
      flags: [
        flag({ flag: "ids", in: "path", wire: "ids", required: true, type: "array", items: "integer", style: "label" }),
        flag({ flag: "q", in: "query", wire: "q", required: true }),
        flag({
          flag: "tags",
          in: "query",
          wire: "tags",
          type: "array",
          items: "string",
          style: "pipeDelimited",
          explode: false,
        }),
        flag({ flag: "filter", in: "query", wire: "filter", type: "object", style: "deepObject", explode: true }),
        flag({ flag: "x-page", in: "header", wire: "X-Page", required: true, type: "integer" }),
      ],
    },
  ];
}

/**
 * A CLI of partial commands (only what the wire check reads, an older package's bodyMediaType among it) and no
 * manifest: the casts say so.
 */
const cliOf = (list: object[]): Cli => ({
  dir,
  manifest: {} as Manifest,
  group: () => [],
  all: () => list as Command[],
});
const dryRun = (request: JsonObject): Probe => ({
  command: "x --dry-run",
  exitCode: 0,
  stdout: "",
  stderr: "",
  durationMs: 1,
  timedOut: false,
  json: { ok: true, result: { dry_run: true, request, sent: false } },
});
const BOUNDARY = "inter-boundary-1";
const MULTIPART = [
  `--${BOUNDARY}`,
  'Content-Disposition: form-data; name="file"; filename="wire-sample.txt"',
  "Content-Type: text/plain",
  "",
  "<file ./wire-sample.txt: 17 bytes>",
  `--${BOUNDARY}`,
  'Content-Disposition: form-data; name="title"',
  "",
  "inter-probe",
  `--${BOUNDARY}--`,
  "",
].join("\r\n");

/** What each runtime prints for the sampled commands' dry runs. */
function runtime(merged: boolean) {
  const calls: string[][] = [];
  const probe = async (args: string[]): Promise<Probe> => {
    calls.push(args);
    const name = args.slice(0, 2).join(" ");
    const headers = { accept: "application/json", "x-api-key": "[REDACTED]" };
    if (name === "documents upload")
      return dryRun(
        merged
          ? {
              method: "POST",
              url: `${BASE}/documents`,
              headers: { ...headers, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
              body: MULTIPART,
            }
          : {
              method: "POST",
              url: `${BASE}/documents`,
              headers: { ...headers, "content-type": "application/json" },
              body: JSON.stringify({ file: args[args.indexOf("--file") + 1], title: "inter-probe" }),
            },
      );
    if (name === "documents download")
      return dryRun({ method: "GET", url: `${BASE}/documents/inter-probe/pdf`, headers });
    if (name === "subscriptions subscribe")
      return dryRun({
        method: "POST",
        url: `${BASE}/subscriptions`,
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: "topic=a&topic=b",
      });
    return dryRun({
      method: "GET",
      url: `${BASE}/search/.1?q=inter-probe&tags=a%7Cb&filter%5Byear%5D=1`,
      headers: { ...headers, "x-page": "1" },
    });
  };
  return { probe, calls };
}

const check = (list: object[], document: Record<string, unknown>, probe: (args: string[]) => Promise<Probe>) =>
  checkWire({
    cli: cliOf(list),
    description: Promise.resolve({ files: ["openapi.json"], documents: [document] }),
    validator: loadWireValidator(),
    probe,
    baseUrlEnv: "FILES_BASE_URL",
    tempDir: dir,
  });

describe("the wire check", () => {
  it("today's runtime: an upload sent as JSON is invalid, it and a PDF download are inexpressible", async () => {
    const { probe } = runtime(false);
    const wire = await check(commands(false), UPLOADS, probe);
    expect(wire.notRun).toBeUndefined();
    expect(wire.checked).toBe(4);
    expect(wire.invalid).toEqual([
      expect.objectContaining({
        command: "documents upload",
        errors: ["Supported content types: multipart/form-data"],
      }),
    ]);
    expect(wire.inexpressible.map((i) => [i.command, i.reason])).toEqual([
      ["documents upload", expect.stringContaining('"file" is a file (binary)')],
      ["documents download", expect.stringContaining("application/pdf (binary)")],
    ]);
    expect(wireBlocks(wire)).toBe(true);
  });

  it("the runtime that expresses every body: multipart with a file part, form arrays, every style — valid", async () => {
    const { probe, calls } = runtime(true);
    const wire = await check(commands(true), UPLOADS, probe);
    expect(wire).toMatchObject({ checked: 4, valid: 4, invalid: [], inexpressible: [], inexpressibleCount: 0 });
    expect(wire.covers).toEqual(
      expect.arrayContaining([
        "body multipart/form-data",
        "body application/x-www-form-urlencoded",
        "file part",
        "path label array",
        "query pipeDelimited array",
        "query deepObject explode object",
        "header simple",
      ]),
    );
    // The file flag is given a real file; every dry run goes to the discard address, never an API.
    const upload = calls.find((c) => c[1] === "upload")!;
    expect(upload[upload.indexOf("--file") + 1]).toBe(join(dir, "wire-sample.txt"));
    expect(calls.every((c) => c.at(-1) === "--dry-run")).toBe(true);
    expect(wireBlocks(wire)).toBe(false);
  });

  it("a multipart body's encoding style is an urlencoded body's only: a file part with reserved characters is valid", async () => {
    // facecheck.id: `encoding: {images: {style: form}}` on a multipart upload; the file's bytes (here the dry run's
    // `<file ./wire-sample.txt: 17 bytes>`) hold a `:`, which Prism held against the part.
    const styled = structuredClone(UPLOADS) as { paths: Record<string, Record<string, { requestBody: unknown }>> };
    styled.paths["/documents"]!.post!.requestBody = {
      required: true,
      content: {
        "multipart/form-data": {
          schema: { $ref: "#/components/schemas/Upload" },
          encoding: { file: { style: "form" }, title: { style: "form" } },
        },
      },
    };
    const { probe } = runtime(true);
    const wire = await check(commands(true), styled, probe);
    expect(wire).toMatchObject({ checked: 4, valid: 4, invalid: [] });
  });

  it("the validator finds wrong styles and values, but not the redacted credential", async () => {
    const probe = async (): Promise<Probe> =>
      dryRun({
        method: "GET",
        url: `${BASE}/search/.1.x?tags=a%7Cb&filter%5Byear%5D=soon`,
        headers: { "x-api-key": "[REDACTED]" },
      });
    const wire = await check([commands(true)[3]!], UPLOADS, probe);
    expect(wire.invalid).toHaveLength(1);
    const errors = wire.invalid[0]!.errors.join("\n");
    expect(errors).toMatch(/x-page/);
    expect(errors).toMatch(/'q'/);
    expect(errors).toMatch(/filter/);
    expect(errors).not.toMatch(/x-api-key/i);
  });

  it("Swagger 2.0: a formData file is inexpressible without a file flag; a valid form request passes", async () => {
    const swagger = {
      swagger: "2.0",
      info: { title: "Old", version: "1" },
      paths: {
        "/upload": {
          post: {
            operationId: "up",
            consumes: ["multipart/form-data"],
            parameters: [
              { name: "file", in: "formData", type: "file", required: true },
              { name: "note", in: "formData", type: "string" },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
        "/items": {
          get: {
            operationId: "items",
            parameters: [
              { name: "ids", in: "query", type: "array", items: { type: "integer" }, collectionFormat: "pipes" },
            ],
            responses: { "200": { description: "ok", schema: { type: "array", items: { type: "object" } } } },
          },
        },
      },
    };
    const list = [
      {
        name: "upload",
        operation: { method: "POST", path: "/upload" },
        jsonInput: true,
        bodyMediaType: "multipart/form-data",
        destructive: false,
        flags: [flag({ flag: "file", in: "body", wire: "file", required: true })],
      },
      {
        name: "items list",
        operation: { method: "GET", path: "/items" },
        jsonInput: false,
        destructive: false,
        flags: [
          flag({
            flag: "ids",
            in: "query",
            wire: "ids",
            type: "array",
            items: "integer",
            style: "pipeDelimited",
            explode: false,
          }),
        ],
      },
    ];
    const probe = async (args: string[]): Promise<Probe> =>
      args[0] === "upload"
        ? { ...dryRun({}), exitCode: 2, json: undefined, stderr: '{"error":true,"code":"SECRET_IN_ARGUMENT"}' }
        : dryRun({ method: "GET", url: `${BASE}/items?ids=1%7C2`, headers: {} });
    const wire = await check(list, swagger, probe);
    expect(wire.inexpressible).toEqual([expect.objectContaining({ command: "upload" })]);
    expect(wire.unchecked).toEqual([{ command: "upload", reason: expect.stringContaining("refused") }]);
    expect(wire).toMatchObject({ checked: 1, valid: 1 });
  });

  it("OpenAPI 3.1: a raw binary body needs a file flag; one with it, sent as an upload, is valid", async () => {
    const doc = {
      openapi: "3.1.0",
      info: { title: "Raw", version: "1" },
      paths: {
        "/images": {
          put: {
            operationId: "putImage",
            requestBody: {
              required: true,
              content: { "image/png": { schema: { type: "string", contentMediaType: "image/png" } } },
            },
            responses: { "204": { description: "stored" } },
          },
        },
      },
    };
    const command = (file: boolean) => ({
      name: "images put",
      operation: { method: "PUT", path: "/images" },
      jsonInput: true,
      bodyMediaType: "image/png",
      destructive: false,
      flags: file ? [flag({ flag: "file", in: "body", wire: "", required: true, file: true })] : [],
    });
    const probe = async (): Promise<Probe> =>
      dryRun({
        method: "PUT",
        url: `${BASE}/images`,
        headers: { "content-type": "image/png" },
        upload: { path: "./a.png", bytes: 17, content_type: "image/png" },
      });
    expect((await check([command(false)], doc, probe)).inexpressible).toHaveLength(1);
    expect(await check([command(true)], doc, probe)).toMatchObject({ inexpressibleCount: 0, checked: 1, valid: 1 });
  });

  it("a multipart body that is itself a file needs a file flag; sent as the part `file`, it is valid", async () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "Imports", version: "1" },
      paths: {
        "/imports": {
          post: {
            operationId: "importFile",
            requestBody: {
              required: true,
              content: { "multipart/form-data": { schema: { type: "string", format: "binary" } } },
            },
            responses: { "204": { description: "imported" } },
          },
        },
      },
    };
    const command = (file: boolean) => ({
      name: "imports create",
      operation: { method: "POST", path: "/imports" },
      jsonInput: true,
      body: { mediaType: "multipart/form-data", encoding: "multipart", required: true },
      destructive: false,
      flags: file
        ? [flag({ flag: "file", in: "body", wire: "file", required: true, format: "binary", file: true })]
        : [],
    });
    const part = (name: string) =>
      [
        `--${BOUNDARY}`,
        `Content-Disposition: form-data; name="${name}"; filename="a.csv"`,
        "Content-Type: text/csv",
        "",
        "<file ./a.csv: 4 bytes>",
        `--${BOUNDARY}--`,
        "",
      ].join("\r\n");
    const probe = (name: string) => async (): Promise<Probe> =>
      dryRun({
        method: "POST",
        url: `${BASE}/imports`,
        headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
        body: part(name),
      });
    expect((await check([command(false)], doc, probe("file"))).inexpressible).toEqual([
      expect.objectContaining({ reason: expect.stringContaining("its body is a file (multipart/form-data)") }),
    ]);
    expect(await check([command(true)], doc, probe("file"))).toMatchObject({ inexpressibleCount: 0, valid: 1 });
    // The part's name is what the CLI and the check agree on: another name is a request the validator refuses.
    expect(await check([command(true)], doc, probe("upload"))).toMatchObject({ valid: 0 });
  });

  it("a body field the dry run masks (a token) is not judged; the other fields still are", async () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "Roles", version: "1" },
      paths: {
        "/roles/{id}/activate": {
          post: {
            operationId: "activateRole",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["token", "seats"],
                    properties: { token: { type: "string", format: "uuid" }, seats: { type: "integer" } },
                  },
                },
              },
            },
            responses: { "204": { description: "activated" } },
          },
        },
      },
    };
    const command = {
      name: "roles activate",
      operation: { method: "POST", path: "/roles/{id}/activate" },
      jsonInput: true,
      bodyMediaType: "application/json",
      destructive: false,
      flags: [
        flag({ flag: "id", in: "path", wire: "id", required: true }),
        flag({ flag: "token", in: "body", wire: "token", required: true, format: "uuid" }),
        flag({ flag: "seats", in: "body", wire: "seats", required: true, type: "integer" }),
      ],
    };
    const probe = (seats: unknown) => async (): Promise<Probe> =>
      dryRun({
        method: "POST",
        url: `${BASE}/roles/r1/activate`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: "[REDACTED]", seats }),
      });
    expect(await check([command], doc, probe(1))).toMatchObject({ checked: 1, valid: 1, invalid: [] });
    const wrong = await check([command], doc, probe("many"));
    expect(wrong.invalid[0]!.errors.join("\n")).toMatch(/seats/);
    expect(wrong.invalid[0]!.errors.join("\n")).not.toMatch(/token/);
  });

  it("a nullable list in the query and an object the sample made up are no findings; a wrong type still is", async () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "Me", version: "1" },
      paths: {
        "/me": {
          post: {
            operationId: "updateMe",
            parameters: [{ name: "metadata", in: "query", schema: { type: "array", nullable: true, items: {} } }],
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      identification: { type: "object", minProperties: 1, properties: { email: { type: "string" } } },
                    },
                  },
                },
              },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const command = {
      name: "me update",
      operation: { method: "POST", path: "/me" },
      jsonInput: true,
      bodyMediaType: "application/json",
      destructive: false,
      flags: [
        flag({ flag: "metadata", in: "query", wire: "metadata", required: false, type: "array", items: "string" }),
        flag({ flag: "identification", in: "body", wire: "identification", required: true, type: "object" }),
      ],
    };
    const probe = (identification: unknown) => async (): Promise<Probe> =>
      dryRun({
        method: "POST",
        url: `${BASE}/me?metadata=a`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ identification }),
      });
    expect(await check([command], doc, probe({}))).toMatchObject({ checked: 1, valid: 1, invalid: [] });
    const wrong = await check([command], doc, probe("someone"));
    expect(wrong.invalid[0]!.errors.join("\n")).toMatch(/identification/);
  });

  it("a required object query parameter the sample gave {} is sent as nothing: no finding; another one missing still is", async () => {
    // Seldon's wrapper: `json` (a SeldonMessage, no required properties) is a required query parameter.
    const message = { type: "object", properties: { strData: { type: "string" } } };
    const doc = {
      openapi: "3.0.3",
      info: { title: "Seldon", version: "1" },
      paths: {
        "/predict": {
          get: {
            operationId: "predict",
            parameters: [
              { name: "json", in: "query", required: true, schema: message },
              { name: "model", in: "query", required: true, schema: { type: "string" } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const command = {
      name: "predict",
      operation: { method: "GET", path: "/predict" },
      jsonInput: false,
      destructive: false,
      flags: [
        flag({ flag: "json", in: "query", wire: "json", required: true, type: "object" }),
        flag({ flag: "model", in: "query", wire: "model", required: true, type: "string" }),
      ],
    };
    const probe = (query: string) => async (): Promise<Probe> =>
      dryRun({ method: "GET", url: `${BASE}/predict${query}`, headers: {} });
    expect(await check([command], doc, probe("?model=m1"))).toMatchObject({ valid: 1, invalid: [] });
    const missing = await check([command], doc, probe(""));
    expect(missing.invalid[0]!.errors.join("\n")).toMatch(/'model'/);
    expect(missing.invalid[0]!.errors.join("\n")).not.toMatch(/'json'/);
  });

  it("a body of variants: the sample's request that chooses none is no finding; a wrong field type still is", async () => {
    const variant = (type: string, field: string) => ({
      type: "object",
      required: ["type", field],
      properties: { type: { type: "string", enum: [type] }, [field]: { type: "string" } },
    });
    const doc = {
      openapi: "3.0.3",
      info: { title: "Spots", version: "1" },
      paths: {
        "/sets": {
          post: {
            operationId: "createSet",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    allOf: [
                      { type: "object", properties: { name: { type: "string" } } },
                      { oneOf: [variant("areacode", "areaCode"), variant("codelength", "length")] },
                    ],
                  },
                },
              },
            },
            responses: { "201": { description: "created" } },
          },
        },
      },
    };
    const command = {
      name: "sets create",
      operation: { method: "POST", path: "/sets" },
      jsonInput: true,
      bodyMediaType: "application/json",
      destructive: false,
      flags: [
        flag({
          flag: "type",
          in: "body",
          wire: "type",
          required: true,
          type: "string",
          enum: ["areacode", "codelength"],
        }),
        flag({ flag: "area-code", in: "body", wire: "areaCode", required: false, type: "string" }),
        flag({ flag: "name", in: "body", wire: "name", required: false, type: "string" }),
      ],
    };
    const probe = (body: unknown) => async (): Promise<Probe> =>
      dryRun({
        method: "POST",
        url: `${BASE}/sets`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect(await check([command], doc, probe({ type: "areacode" }))).toMatchObject({ valid: 1, invalid: [] });
    const wrong = await check([command], doc, probe({ type: "areacode", name: 5 }));
    expect(wrong.invalid[0]!.errors.join("\n")).toMatch(/name/);
  });

  it("an optional deep object the request leaves out is not judged (Prism reads it as {}); one it sends still is", async () => {
    await loadWireValidator();
    const doc = {
      openapi: "3.0.3",
      info: { title: "Invoices", version: "1" },
      paths: {
        "/v1/invoices/upcoming": {
          get: {
            parameters: [
              {
                name: "automatic_tax",
                in: "query",
                style: "deepObject",
                explode: true,
                schema: { type: "object", required: ["enabled"], properties: { enabled: { type: "boolean" } } },
              },
              {
                name: "anchor",
                in: "query",
                style: "deepObject",
                explode: true,
                schema: { anyOf: [{ type: "string", enum: ["now", "unchanged"] }, { type: "integer" }] },
              },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const operation = validator.operationOf(doc, "/v1/invoices/upcoming", "get");
    const errors = (query: Record<string, string>) =>
      validator
        .validateRequest(operation, { method: "get", url: { path: "/v1/invoices/upcoming", query }, headers: {} })
        .map((d) => d.message);
    expect(errors({ anchor: "now" })).toEqual([]);
    expect(errors({ anchor: "1700000000" })).toEqual([]);
    expect(errors({ "automatic_tax[enabled]": "true" })).toEqual([]);
    expect(errors({ "automatic_tax[other]": "true" }).join("\n")).toMatch(/enabled/);
    expect(errors({ anchor: "later" }).join("\n")).toMatch(/anchor/);
  });

  it("an allOf composition closed by additionalProperties: false is one object: its parts' fields are its own", async () => {
    await loadWireValidator();
    const doc = {
      openapi: "3.0.3",
      info: { title: "Gateways", version: "1" },
      paths: {
        "/gateways/{name}": {
          put: {
            parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
            requestBody: {
              content: { "application/json": { schema: { $ref: "#/components/schemas/GatewayDefinition" } } },
            },
            responses: { "200": { description: "ok" } },
          },
        },
      },
      components: {
        schemas: {
          GatewayDefinition: {
            type: "object",
            additionalProperties: false,
            allOf: [{ $ref: "#/components/schemas/ResourceDefinition" }],
            properties: { properties: { type: "object" } },
          },
          ResourceDefinition: {
            type: "object",
            additionalProperties: false,
            properties: { etag: { type: "string" }, location: { type: "string" } },
          },
        },
      },
    };
    const operation = validator.operationOf(doc, "/gateways/{name}", "put");
    const errors = (body: unknown) =>
      validator
        .validateRequest(operation, {
          method: "put",
          url: { path: "/gateways/g1", query: {} },
          headers: { "content-type": "application/json" },
          body,
        })
        .map((d) => d.message);
    expect(errors({ etag: "W/1", location: "westeurope", properties: {} })).toEqual([]);
    expect(errors({ etag: 5 }).join("\n")).toMatch(/string/);
    expect(errors({ color: "blue" }).join("\n")).toMatch(/additional/);
    // The document itself is left as it was: the part stays closed where it stands alone.
    expect(doc.components.schemas.ResourceDefinition.additionalProperties).toBe(false);
  });

  it("a required property read-only through its $ref is not asked of a request; a request that sends none is valid", async () => {
    await loadWireValidator();
    // apideck's drive groups: `required: [id, name]`, `id: {$ref: Id}`, `Id: {type: string, readOnly: true}`.
    const doc = {
      openapi: "3.0.3",
      info: { title: "Drives", version: "1" },
      paths: {
        "/drive-groups": {
          post: {
            requestBody: {
              required: true,
              content: { "application/json": { schema: { $ref: "#/components/schemas/DriveGroup" } } },
            },
            responses: { "201": { description: "created" } },
          },
        },
      },
      components: {
        schemas: {
          DriveGroup: {
            type: "object",
            required: ["id", "name"],
            properties: { id: { $ref: "#/components/schemas/Id" }, name: { type: "string" } },
          },
          Id: { type: "string", readOnly: true },
        },
      },
    };
    const operation = validator.operationOf(doc, "/drive-groups", "post");
    const errors = (body: unknown) =>
      validator
        .validateRequest(operation, {
          method: "post",
          url: { path: "/drive-groups", query: {} },
          headers: { "content-type": "application/json" },
          body,
        })
        .map((d) => d.message);
    expect(errors({ name: "Finance" })).toEqual([]);
    expect(errors({}).join("\n")).toMatch(/name/);
    expect(errors({ name: 5 }).join("\n")).toMatch(/string/);
    // The document itself is left as it was.
    expect(doc.components.schemas.DriveGroup.properties.id).toEqual({ $ref: "#/components/schemas/Id" });
  });

  it("an urlencoded object without a style goes as JSON: read as the object it is, its fields judged", async () => {
    await loadWireValidator();
    const document = {
      openapi: "3.0.3",
      info: { title: "Forms", version: "1" },
      paths: {
        "/people": {
          post: {
            requestBody: {
              required: true,
              content: {
                "application/x-www-form-urlencoded": {
                  schema: {
                    type: "object",
                    required: ["name", "address"],
                    properties: {
                      name: { type: "string" },
                      address: {
                        type: "object",
                        required: ["city"],
                        properties: { city: { type: "string" }, zip: { type: "string", maxLength: 5 } },
                      },
                      tags: { type: "array", items: { type: "string" } },
                    },
                  },
                },
              },
            },
            responses: { "204": { description: "ok" } },
          },
        },
      },
    };
    const operation = validator.operationOf(document, "/people", "post");
    const post = (body: string) =>
      validator.validateRequest(operation, {
        method: "post",
        url: { path: "/people", query: {} },
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
    const json = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    expect(post(`name=n&address=${json({ city: "Paris", zip: "75001" })}&tags=a&tags=b`)).toEqual([]);
    expect(
      post(`name=n&address=${json({ zip: "750011" })}`)
        .map((d) => d.message)
        .join("\n"),
    ).toMatch(/city[\s\S]*5 characters|5 characters[\s\S]*city/);
    // The object's keys as fields of their own: no address at all.
    expect(
      post("name=n&city=Paris")
        .map((d) => d.message)
        .join("\n"),
    ).toMatch(/address/);
  });

  it("Swagger 2.0's tsv list, which Prism has no reader for, is judged item by item as it was sent", async () => {
    await loadWireValidator();
    const document = {
      swagger: "2.0",
      info: { title: "Legacy", version: "1" },
      paths: {
        "/search": {
          get: {
            parameters: [
              {
                name: "ids",
                in: "query",
                required: true,
                type: "array",
                collectionFormat: "tsv",
                items: { type: "integer" },
              },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const operation = validator.operationOf(document, "/search", "get");
    const get = (ids: string) =>
      validator.validateRequest(operation, { method: "get", url: { path: "/search", query: { ids } }, headers: {} });
    // Unread, the list was missing from every request: "must have required property 'ids'".
    expect(get("1\t2")).toEqual([]);
    expect(
      get("1\tx")
        .map((d) => d.message)
        .join("\n"),
    ).toMatch(/integer/);
  });

  it("a multipart list sent as one part, with no encoding in the document, is judged as a list of it", async () => {
    // presalytics.io's story upload: `file: {type: array, items: {format: binary}}`, no encoding. Prism reads a part
    // as text and made a list of it only under an encoding's style: one file was "must be array".
    await loadWireValidator();
    const document = {
      openapi: "3.0.3",
      info: { title: "Stories", version: "1" },
      paths: {
        "/file": {
          post: {
            requestBody: {
              required: true,
              content: {
                "multipart/form-data": {
                  schema: {
                    type: "object",
                    required: ["file"],
                    properties: {
                      file: { type: "array", items: { type: "string", format: "binary" } },
                      pages: { type: "array", items: { type: "integer" } },
                      tags: { type: "array", items: { type: "string" } },
                    },
                  },
                  encoding: { tags: { explode: false } },
                },
              },
            },
            responses: { "204": { description: "ok" } },
          },
        },
      },
    };
    const operation = validator.operationOf(document, "/file", "post");
    const part = (name: string, value: string, file = false) =>
      [
        `--${BOUNDARY}`,
        `Content-Disposition: form-data; name="${name}"${file ? '; filename="a.png"' : ""}`,
        ...(file ? ["Content-Type: image/png"] : []),
        "",
        value,
      ].join("\r\n");
    const post = (...parts: string[]) =>
      validator
        .validateRequest(operation, {
          method: "post",
          url: { path: "/file", query: {} },
          headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
          body: [...parts, `--${BOUNDARY}--`, ""].join("\r\n"),
        })
        .map((d) => d.message)
        .join("\n");
    expect(post(part("file", "<file ./a.png: 9 bytes>", true), part("pages", "3"), part("tags", "a,b"))).toBe("");
    // The items are still judged.
    expect(post(part("file", "<file ./a.png: 9 bytes>", true), part("pages", "three"))).toMatch(/integer/);
  });

  it("a multipart object part, sent as JSON, is judged as the object it is: its own fields, not 'must be object'", async () => {
    // The CLI sends a part typed object as one part of JSON text (runtime/request-body.ts); Prism read it as a string,
    // so a required one ("body.meta: … must be object") kept every such CLI from certifying.
    await loadWireValidator();
    const meta = {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string" },
        size: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
      },
    };
    const document = {
      openapi: "3.0.3",
      info: { title: "Datasets", version: "1" },
      paths: {
        "/datasets": {
          post: {
            requestBody: {
              required: true,
              content: {
                "multipart/form-data": {
                  schema: {
                    type: "object",
                    required: ["file", "meta"],
                    properties: { file: { type: "string", format: "binary" }, meta },
                  },
                },
              },
            },
            responses: { "201": { description: "ok" } },
          },
        },
      },
    };
    const operation = validator.operationOf(document, "/datasets", "post");
    const part = (name: string, value: string, type?: string) =>
      [
        `--${BOUNDARY}`,
        `Content-Disposition: form-data; name="${name}"`,
        ...(type ? [`Content-Type: ${type}`] : []),
        "",
        value,
      ].join("\r\n");
    const post = (...parts: string[]) =>
      validator
        .validateRequest(operation, {
          method: "post",
          url: { path: "/datasets", query: {} },
          headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
          body: [...parts, `--${BOUNDARY}--`, ""].join("\r\n"),
        })
        .map((d) => d.message)
        .join("\n");
    const file = part("file", "bytes", "application/octet-stream");
    expect(post(file, part("meta", '{"name":"q3","size":2,"tags":["a","b"]}', "application/json"))).toBe("");
    // Its fields are still judged: a required one left out, a wrong type; and a part that is no JSON object.
    expect(post(file, part("meta", '{"size":2}', "application/json"))).toMatch(/name/);
    expect(post(file, part("meta", '{"name":"q3","size":"two"}', "application/json"))).toMatch(/integer/);
    expect(post(file, part("meta", "q3"))).toMatch(/meta/);
  });

  it("a validator that throws, a missing operation, or no description never crash it", async () => {
    await loadWireValidator();
    const throwing = {
      ...validator,
      validateRequest: () => {
        throw new Error("boom");
      },
    };
    const wire = await checkWire({
      cli: cliOf(commands(true)),
      description: Promise.resolve({ files: ["x"], documents: [UPLOADS] }),
      validator: Promise.resolve(throwing),
      probe: runtime(true).probe,
      tempDir: dir,
    });
    expect(wire.checked).toBe(0);
    expect(wire.unchecked.every((u) => u.reason.includes("boom"))).toBe(true);
    expect(wireBlocks(wire)).toBe(false);
    const missing = await check(commands(true), { openapi: "3.0.0", info: {}, paths: {} }, runtime(true).probe);
    expect(missing.unchecked.map((u) => u.reason)).toContain("its operation is not in the description");
    const none = await checkWire({ cli: cliOf(commands(false)), probe: runtime(false).probe, tempDir: dir });
    expect(none.notRun).toMatch(/no OpenAPI description/);
    // From the manifest alone: a required binary body flag that takes no file.
    expect(none.inexpressible).toEqual([expect.objectContaining({ command: "documents upload" })]);
    const unreadable = await checkWire({
      cli: cliOf(commands(true)),
      description: Promise.reject(new Error("not valid YAML")),
      validator: loadWireValidator(),
      probe: runtime(true).probe,
      tempDir: dir,
    });
    expect(unreadable.notRun).toMatch(/could not be read: not valid YAML/);
  });

  it("a huge CLI: the sample stays bounded, one command per shape", () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      name: `g${i} get`,
      operation: { method: "GET", path: `/g${i}/{id}` },
      jsonInput: false,
      destructive: false,
      flags: [
        flag({ flag: "id", in: "path", wire: "id", required: true }),
        flag({
          flag: `f${i % 50}`,
          in: "query",
          wire: `f${i}`,
          type: "array",
          items: "string",
          style: i % 2 ? "pipeDelimited" : "form",
        }),
      ],
    }));
    const started = performance.now();
    // Partial commands, as above: only what the sample reads.
    const { planned } = planWireSample(many as never, "/tmp/x");
    expect(planned.length).toBeLessThanOrEqual(WIRE_SAMPLE);
    expect(planned.length).toBe(2);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("reads a dry run's request: repeated query keys, a JSON body, an upload", () => {
    const read = wireRequestOf({
      request: {
        method: "POST",
        url: `${BASE}/a?x=1&x=2&y=%5B1%5D&z=a+b`,
        headers: { "Content-Type": "application/json" },
        body: '{"a":1}',
      },
    });
    expect(read).toEqual({
      request: {
        method: "post",
        url: { path: "/a", query: { x: ["1", "2"], y: "[1]", z: "a b" } },
        headers: { "content-type": "application/json", "content-length": "7" },
        body: { a: 1 },
      },
    });
    expect(wireRequestOf({ request: { method: "GET", url: "https://api.example.com/a", headers: {} } })).toHaveProperty(
      "problem",
    );
    expect(wireRequestOf(null)).toHaveProperty("problem");
  });
});
