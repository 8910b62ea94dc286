import { execa } from "execa";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { config, inter, makeProject } from "../helpers.js";

/**
 * The wire check end to end: `inter build` inspects the candidate it built and holds a sample of its dry-run requests
 * to the project's description with Prism's request validator. A description of plain JSON bodies, a form with an
 * object and every query style is certified, and so is one with a multipart upload and a PDF download (the upload's dry run shows the file as a
 * placeholder part; the download's command takes --output). What fails the check is in test/unit/wire-check.test.ts.
 */
const STYLES = `openapi: 3.0.3
info: { title: Docs, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
paths:
  /search:
    get:
      operationId: searchDocs
      summary: Search the documents
      parameters:
        - { name: q, in: query, required: true, schema: { type: string } }
        - { name: tags, in: query, schema: { type: array, items: { type: string } } }
        - { name: ids, in: query, style: pipeDelimited, explode: false, schema: { type: array, items: { type: integer } } }
        - { name: filter, in: query, style: deepObject, explode: true, schema: { type: object, properties: { year: { type: integer } } } }
        - { name: X-Trace, in: header, schema: { type: string } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } }
  /docs/{id}:
    get:
      operationId: getDoc
      summary: Get a document
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, format: uuid } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /notes:
    post:
      operationId: createNote
      summary: Create a note
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [title], properties: { title: { type: string, maxLength: 40 }, pages: { type: integer, minimum: 1 }, status: { type: string, nullable: true, enum: [draft, null] } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /subscribers:
    post:
      operationId: addSubscriber
      summary: Add a subscriber
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, required: [email, address], properties: { email: { type: string }, address: { type: object, required: [city], properties: { city: { type: string } } } } }
      responses:
        "204": { description: added }
`;

const UPLOADS = `openapi: 3.0.3
info: { title: Files, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
paths:
  /documents:
    post:
      operationId: uploadDocument
      summary: Upload a document
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file, title]
              properties:
                file: { type: string, format: binary }
                title: { type: string }
      responses:
        "201": { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /documents/{id}/pdf:
    get:
      operationId: downloadDocument
      summary: Download a document as PDF
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        "200": { description: the PDF, content: { application/pdf: { schema: { type: string, format: binary } } } }
`;

/**
 * Values typed as a union of scalars ("an id or a name"), a multiple of a step, objects with keys they must have, and a
 * list of lists (its sample a JSON list, not a word split at commas).
 */
const UNIONS = `openapi: 3.0.3
info: { title: Projects, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
paths:
  /projects/{idOrName}/domains:
    post:
      operationId: addProjectDomain
      summary: Add a domain to a project
      parameters:
        - { name: idOrName, in: path, required: true, schema: { oneOf: [{ type: string }, { type: integer }] } }
        - { name: weight, in: query, required: true, schema: { anyOf: [{ type: integer }, { type: number }] } }
        - { name: offset, in: query, required: true, schema: { type: integer, multipleOf: 20 } }
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name, ttl, records, scopes]
              properties:
                name: { type: string }
                scopes: { type: array, minItems: 1, items: { type: array, items: { type: string } } }
                records:
                  type: array
                  items: { type: object, required: [type, value], properties: { type: { type: string, enum: [A, CNAME] }, value: { type: string }, ttl: { type: integer } } }
                ttl: { oneOf: [{ type: string, enum: [auto] }, { type: integer, minimum: 60 }] }
      responses:
        "201": { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
`;

/**
 * Two bodies a description says less of than a request needs (Loket.nl's): a multipart body that is itself a file,
 * naming no part, and a JSON body requiring a field its properties do not describe.
 */
const UNDESCRIBED = `openapi: 3.0.3
info: { title: Payroll, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
paths:
  /imports/{runId}:
    patch:
      operationId: importEmployees
      summary: Import employees from a file
      parameters:
        - { name: runId, in: path, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: { type: string, format: binary }
      responses:
        "204": { description: imported }
  /declarations/{declarationId}:
    patch:
      operationId: confirmDeclaration
      summary: Confirm or cancel a declaration
      parameters:
        - { name: declarationId, in: path, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [id, action], properties: { action: { type: string, enum: [confirm, cancel] } } }
      responses:
        "204": { description: done }
`;

async function build(name: string, openapi: string) {
  const dir = makeProject({
    "intermesh.config.ts": config(
      `{ product: { name: "${name}", binary: "${name.toLowerCase()}" }, inputs: { openapi: "openapi.yaml", context: "context.md" } }`,
    ),
    "openapi.yaml": openapi,
    "context.md": `# ${name}\n\nDocuments.\n`,
  });
  const result = await inter(dir, ["build"]);
  const receipt = JSON.parse(readFileSync(join(dir, "dist", "receipt.json"), "utf8"));
  return { result, receipt, dir };
}

describe("inspection validates the wire", () => {
  it("valid requests in every style: the wire check passes and does not hold the level back", async () => {
    const { result, receipt, dir } = await build("Docs", STYLES);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(receipt.wire).toMatchObject({
      checked: 4,
      valid: 4,
      invalid: [],
      inexpressibleCount: 0,
      description: ["openapi.yaml"],
    });
    expect(receipt.wire.validator).toMatch(/prism-http/);
    expect(receipt.wire.covers).toEqual(
      expect.arrayContaining([
        "body application/json",
        "body application/x-www-form-urlencoded",
        "query pipeDelimited array",
        "query deepObject explode object",
        "header simple",
      ]),
    );
    expect(receipt.certification.blocking).not.toContain("wire");
    expect(receipt.certification.level).not.toBe("none");
    expect(result.stderr).toMatch(/wire: 4 sampled requests validated, 0 rejected/);
    // A form's object goes as JSON under its name (runtime/request-body.ts jsonField), never as keys of its own.
    const capabilities = JSON.parse(readFileSync(join(dir, "dist", "capabilities.json"), "utf8"));
    const add = capabilities.commands.find(
      (c: { operation: { operationId: string } }) => c.operation.operationId === "addSubscriber",
    );
    const dry = await execa(
      "node",
      [
        join(dir, "dist/package/docs.cjs"),
        ...add.path,
        "--email",
        "e@x.io",
        "--address",
        '{"city":"Paris"}',
        "--dry-run",
      ],
      { reject: false },
    );
    expect(JSON.parse(dry.stdout).result.request.body).toBe("email=e%40x.io&address=%7B%22city%22%3A%22Paris%22%7D");
    // A choice the enum lists as null is JSON null, not the text "null".
    const note = capabilities.commands.find(
      (c: { operation: { operationId: string } }) => c.operation.operationId === "createNote",
    );
    const cleared = await execa(
      "node",
      [join(dir, "dist/package/docs.cjs"), ...note.path, "--title", "t", "--status", "null", "--dry-run"],
      { reject: false },
    );
    expect(JSON.parse(JSON.parse(cleared.stdout).result.request.body)).toEqual({ title: "t", status: null });
  });

  it("a union of scalars (an id or a name), a multiple of a step and objects with required keys: the sample is valid", async () => {
    const { result, receipt } = await build("Projects", UNIONS);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(receipt.wire).toMatchObject({ checked: 1, valid: 1, invalid: [], inexpressibleCount: 0 });
    expect(receipt.certification.blocking).not.toContain("wire");
  });

  it("a multipart upload and a PDF download: sent as multipart with the file, saved with --output — certified", async () => {
    const { result, receipt } = await build("Files", UPLOADS);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(receipt.wire).toMatchObject({ checked: 2, valid: 2, invalid: [], inexpressibleCount: 0, unchecked: [] });
    expect(receipt.wire.covers).toEqual(expect.arrayContaining(["body multipart/form-data", "file part"]));
    expect(receipt.certification.blocking).not.toContain("wire");
    expect(receipt.certification.level).not.toBe("none");
  });

  it("a multipart body that is a file, and a required field no property describes: flags for both, requests valid", async () => {
    const { result, receipt, dir } = await build("Payroll", UNDESCRIBED);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(receipt.wire).toMatchObject({ checked: 2, valid: 2, invalid: [], inexpressibleCount: 0, unchecked: [] });
    expect(receipt.wire.covers).toEqual(expect.arrayContaining(["body multipart/form-data", "file part"]));
    expect(receipt.certification.blocking).not.toContain("wire");
    const capabilities = JSON.parse(readFileSync(join(dir, "dist", "capabilities.json"), "utf8"));
    const flagsOf = (operationId: string) =>
      capabilities.commands
        .find((c: { operation: { operationId: string } }) => c.operation.operationId === operationId)
        .flags.map((f: Record<string, unknown>) => [f.flag, f.wire, f.required, f.file ?? false]);
    expect(flagsOf("importEmployees")).toContainEqual(["file", "file", true, true]);
    expect(flagsOf("confirmDeclaration")).toContainEqual(["id", "id", true, false]);
  });
});
