import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { config, inter, makeProject, read, statuses, writeFiles } from "../helpers.js";
import { schemaValidator } from "../schema.js";
import { exampleProject } from "./example-api.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";

const validate = schemaValidator("capabilities.schema.json");

const capabilities = (dir: string): Capabilities => JSON.parse(read(dir, "dist/capabilities.json"));
const command = (caps: Capabilities, name: string) => caps.commands.find((c) => c.name === name);

function apiProject(openapi: string, extra: Record<string, string> = {}, brief = "# Shop\n\nA shop.\n"): string {
  return makeProject({
    "intermesh.config.ts": config(
      `{ product: { name: "Shop", binary: "shop" }, inputs: { openapi: "api/openapi.yaml", context: "context.md" }, api: { baseUrl: "http://127.0.0.1:9" } }`,
    ),
    "api/openapi.yaml": openapi,
    "context.md": brief,
    ...extra,
  });
}

describe("inter build designs capabilities.json", () => {
  it("builds the example into a schema-valid plan, byte-identical across runs and folders", async () => {
    const dir = exampleProject();
    const first = await inter(dir, ["build", "--json"]);
    expect(first.exitCode).toBe(0);
    expect(statuses(first)).toEqual({
      discover: "ran",
      openapi: "ran",
      commands: "ran",
      skills: "ran",
      design: "ran",
      emit: "ran",
      bundle: "ran",
      inspect: "ran",
      validate: "ran",
    });
    const bytes = read(dir, "dist/capabilities.json");
    const caps: Capabilities = JSON.parse(bytes);
    expect(validate(caps)).toEqual([]);

    expect(caps.commands.map((c) => c.name)).toEqual([
      "bookings cancel",
      "bookings create",
      "bookings get",
      "bookings list",
      "rooms find-availability",
      "rooms get",
      "rooms list",
    ]);
    expect(command(caps, "bookings cancel")).toMatchObject({
      destructive: true,
      permission: "delete",
      operation: { method: "POST", path: "/bookings/{bookingId}/cancel" },
    });
    expect(command(caps, "bookings list")!.pagination).toEqual({
      style: "cursor",
      param: "cursor",
      sizeParam: "limit",
      nextField: "next_cursor",
    });
    expect(command(caps, "bookings list")!.output).toMatchObject({ shape: "object", listField: "data" });
    expect(command(caps, "bookings create")!.flags.map((f) => `${f.flag}:${f.in}:${f.wire}:${f.type}`)).toEqual([
      "room-id:body:room_id:string",
      "date:body:date:string",
      "start:body:start:string",
      "duration-minutes:body:duration_minutes:integer",
      "attendees:body:attendees:integer",
      "title:body:title:string",
    ]);
    expect(command(caps, "rooms find-availability")!.flags.find((f) => f.flag === "duration-minutes")).toMatchObject({
      required: true,
      enum: [15, 30, 45, 60, 90, 120],
    });
    expect(caps.auth).toEqual({
      schemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-Key", env: { value: "ROOMS_API_KEY" } } },
    });
    expect(caps.baseUrl).toEqual({ default: "http://127.0.0.1:4010", env: "ROOMS_BASE_URL", path: "" });
    expect(caps.naming).toContainEqual(expect.objectContaining({ kind: "ignored", operation: "get /health" }));
    expect(caps.skills.map((s) => s.name)).toEqual([
      "book-a-room-for-a-meeting",
      "cancel-a-booking",
      "report-a-rooms-bookings-for-a-day",
    ]);
    expect(caps.skills[0]!.commands).toEqual(expect.arrayContaining(["bookings create", "rooms find-availability"]));
    expect(caps.skills[1]!.commands[0]).toBe("bookings cancel");
    expect(caps.skills[2]!.commands).toContain("bookings list");
    for (const skill of caps.skills) for (const name of skill.commands) expect(command(caps, name)).toBeDefined();

    // The run's own cold build of the example (test/global-setup.ts), made by another process in another folder.
    expect(read(inject("exampleTemplate"), "dist/capabilities.json")).toBe(bytes);
  });

  it("re-runs only the skills part after a context.md edit, and everything after an OpenAPI edit", async () => {
    const dir = exampleProject({ warm: true });
    await inter(dir, ["build"]);
    writeFileSync(
      join(dir, "examples/rooms/context.md"),
      read(dir, "examples/rooms/context.md").replace("### Cancel a booking", "### Cancel a booking now"),
    );
    const brief = await inter(dir, ["build", "--json"]);
    expect(statuses(brief)).toEqual({
      discover: "ran",
      openapi: "cached",
      commands: "cached",
      skills: "ran",
      design: "ran",
      emit: "ran",
      bundle: "ran",
      inspect: "ran",
      validate: "ran",
    });
    expect(capabilities(dir).skills.map((s) => s.name)).toContain("cancel-a-booking-now");

    writeFileSync(
      join(dir, "examples/rooms/openapi.yaml"),
      read(dir, "examples/rooms/openapi.yaml").replace(
        "summary: List meeting rooms",
        "summary: List all meeting rooms",
      ),
    );
    const api = await inter(dir, ["build", "--json"]);
    expect(statuses(api)).toMatchObject({ openapi: "ran", commands: "ran" });
    expect(command(capabilities(dir), "rooms list")!.description).toBe("List all meeting rooms");
  });

  it("follows $refs into other files and re-runs when one of them changes", async () => {
    const dir = apiProject(
      `openapi: 3.0.3
info: { title: Shop, version: "1" }
paths:
  /orders:
    get:
      tags: [orders]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { type: array, items: { $ref: "./schemas/order.yaml#/Order" } }
    post:
      tags: [orders]
      requestBody:
        content:
          application/json:
            schema: { $ref: "./schemas/order.yaml#/Order" }
      responses:
        "201": { description: created }
`,
      {
        "api/schemas/order.yaml":
          "Order:\n  type: object\n  required: [sku]\n  properties:\n    sku: { type: string }\n",
      },
    );
    const first = await inter(dir, ["build", "--json"]);
    expect(first.exitCode).toBe(0);
    expect(command(capabilities(dir), "orders create")!.flags.map((f) => f.flag)).toEqual(["sku"]);

    writeFiles(dir, {
      "api/schemas/order.yaml":
        "Order:\n  type: object\n  required: [sku]\n  properties:\n    sku: { type: string }\n    quantity: { type: integer, default: 1 }\n",
    });
    const second = await inter(dir, ["build", "--json"]);
    expect(statuses(second)).toMatchObject({ discover: "cached", openapi: "ran" });
    expect(second.json.data.tasks.find((t: TaskOutcome) => t.id === "openapi").reasons).toContain(
      "input api/schemas/order.yaml modified",
    );
    expect(command(capabilities(dir), "orders create")!.flags.map((f) => [f.flag, f.default])).toEqual([
      ["sku", undefined],
      ["quantity", 1],
    ]);
  });
});

describe("hostile and unusual documents", () => {
  it("survives circular schemas without hanging", async () => {
    const dir = apiProject(`openapi: 3.1.0
info: { title: Tree, version: "1" }
paths:
  /nodes:
    post:
      tags: [nodes]
      requestBody:
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Node" }
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Node" } } } }
components:
  schemas:
    Node:
      type: object
      properties:
        name: { type: string }
        parent: { $ref: "#/components/schemas/Node" }
        children: { type: array, items: { $ref: "#/components/schemas/Node" } }
        owner: { $ref: "#/components/schemas/Person" }
    Person:
      type: object
      properties:
        manages: { $ref: "#/components/schemas/Node" }
`);
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(0);
    const create = command(capabilities(dir), "nodes create")!;
    expect(create.jsonInput).toBe(true);
    expect(create.flags.map((f) => `${f.flag}:${f.type}`)).toEqual([
      "name:string",
      "parent:object",
      "children:array",
      "owner:object",
    ]);
  });

  it("skips only the operation with a missing $ref target, naming it and the pointer", async () => {
    const dir = apiProject(`openapi: 3.0.3
info: { title: Shop, version: "1" }
paths:
  /items:
    get:
      tags: [items]
      responses:
        "200": { description: ok }
    post:
      tags: [items]
      requestBody: { $ref: "#/components/requestBodies/Missing" }
      responses:
        "201": { description: created }
`);
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(0);
    const warnings = result.json.data.tasks.find((t: TaskOutcome) => t.id === "openapi").warnings;
    expect(warnings).toEqual([
      expect.stringMatching(
        /^skipped POST \/items: \$ref "#\/components\/requestBodies\/Missing" cannot be resolved.*\(at #\/paths\/~1items\/post\/requestBody\)$/,
      ),
    ]);
    expect(capabilities(dir).commands.map((c) => c.name)).toEqual(["items list"]);
    const human = await inter(dir, ["run", "design", "--force"]);
    expect(human.stderr).toContain("⚠ openapi: skipped POST /items");
  });

  it("names duplicate operationIds, non-ASCII and spaced names deterministically and reports collisions", async () => {
    const dir = apiProject(`openapi: 3.0.3
info: { title: Salles, version: "1" }
paths:
  /réservations:
    get:
      tags: ["Réservations de salle"]
      operationId: lister
      parameters:
        - { name: "nombre de personnes", in: query, schema: { type: integer } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } } }
  /réservations/à-venir:
    get:
      tags: ["Réservations de salle"]
      operationId: lister
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } } }
  /users:
    get:
      tags: [users]
      operationId: users-list
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } } }
  /users/search:
    get:
      tags: [users]
      operationId: searchUsers
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } } }
  /users/{id}:
    get:
      tags: [users]
      x-cli-name: users show
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: object } } } } }
    delete:
      tags: [users]
      x-cli-hidden: true
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { "204": { description: gone } }
  /internal:
    get:
      x-cli-ignore: true
      responses: { "200": { description: ok } }
`);
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(0);
    const caps = capabilities(dir);
    expect(caps.commands.map((c) => c.name)).toEqual([
      "reservations-de-salle list",
      "reservations-de-salle list-venir",
      "users delete",
      "users list",
      "users search",
      "users show",
    ]);
    expect(command(caps, "reservations-de-salle list")!.flags[0]).toMatchObject({
      flag: "nombre-de-personnes",
      wire: "nombre de personnes",
    });
    expect(command(caps, "users delete")).toMatchObject({ hidden: true, destructive: true });
    const openapiWarnings = result.json.data.tasks.find((t: TaskOutcome) => t.id === "openapi").warnings;
    expect(openapiWarnings).toContain(
      'operationId "lister" is used by 2 operations; they are named from method and path instead',
    );
    expect(caps.naming).toContainEqual(expect.objectContaining({ kind: "ignored", operation: "get /internal" }));
    expect(validate(caps)).toEqual([]);
  });

  it("builds the same candidate whatever the machine's locale (a Czech, Danish or Lithuanian developer and CI)", async () => {
    // Collation differs by locale: cs_CZ sorts "ch" after "h", da_DK "aa" after "z", lt_LT "y" beside "i". Nothing
    // inter writes may follow it, or a developer's build would differ from CI's for the same inputs.
    const list = (name: string) =>
      `  /${name}:\n    get:\n      tags: [${name}]\n      operationId: list_${name}\n      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } } }\n`;
    const openapi = `openapi: 3.0.3\ninfo: { title: Zoo, version: "1" }\npaths:\n${["aardvarks", "charges", "hooks", "items", "yaks", "zebras"].map(list).join("")}`;
    const builds = await Promise.all(
      ["C.UTF-8", "cs_CZ.UTF-8", "da_DK.UTF-8", "lt_LT.UTF-8"].map(async (locale) => {
        const dir = apiProject(openapi);
        const result = await inter(dir, ["build", "--json"], { LANG: locale, LC_ALL: locale, LC_COLLATE: locale });
        expect(result.exitCode, result.stderr).toBe(0);
        return { caps: read(dir, "dist/capabilities.json"), tgz: readFileSync(join(dir, "dist/cli.tgz")) };
      }),
    );
    const names = (JSON.parse(builds[0]!.caps) as Capabilities).commands.map((c) => c.name);
    expect(names).toEqual(["aardvarks list", "charges list", "hooks list", "items list", "yaks list", "zebras list"]);
    for (const build of builds.slice(1)) {
      expect(build.caps).toBe(builds[0]!.caps);
      expect(build.tgz.equals(builds[0]!.tgz)).toBe(true);
    }
  });

  it("resolves name collisions through the operations' own words, then a numbered suffix, never shadowing", async () => {
    const dir = apiProject(`swagger: "2.0"
info: { title: Pets, version: "1" }
host: pets.example
basePath: /v2
paths:
  /pet:
    post:
      tags: [pet]
      operationId: addPet
      consumes: [application/json]
      parameters: [{ in: body, name: body, required: true, schema: { type: object, required: [name], properties: { name: { type: string }, status: { type: string, enum: [available, sold] } } } }]
      responses: { "200": { description: ok } }
  /pet/{petId}:
    post:
      tags: [pet]
      operationId: updatePetWithForm
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - { name: petId, in: path, required: true, type: integer }
        - { name: name, in: formData, type: string }
      responses: { "200": { description: ok } }
    delete:
      tags: [pet]
      parameters: [{ name: petId, in: path, required: true, type: integer }]
      responses: { "200": { description: ok } }
  /pet/{petId}/again:
    delete:
      tags: [pet]
      parameters: [{ name: petId, in: path, required: true, type: integer }]
      responses: { "200": { description: ok } }
  /pets/{petId}:
    delete:
      tags: [pet]
      summary: Delete a pet and its photos
      parameters: [{ name: petId, in: path, required: true, type: integer }]
      responses: { "200": { description: ok } }
  /pet/{id}:
    delete:
      tags: [pet]
      parameters: [{ name: id, in: path, required: true, type: integer }]
      responses: { "200": { description: ok } }
securityDefinitions:
  api_key: { type: apiKey, name: api_key, in: header }
security: [{ api_key: [] }]
`);
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(0);
    const caps = capabilities(dir);
    expect(caps.source.specVersion).toBe("2.0");
    // A sub-resource of one command folds into it; operations wanting one name are told apart by their own words,
    // and by a number only when nothing they say differs.
    expect(caps.commands.map((c) => c.name).sort()).toEqual(
      ["pet add", "pet delete", "pet delete-2", "pet delete-again", "pet delete-photos", "pet update"].sort(),
    );
    expect(command(caps, "pet delete-photos")!.nameSource.qualifier).toMatchObject({
      words: "photos",
      from: "summary",
    });
    expect(command(caps, "pet add")!.flags.map((f) => `${f.flag}:${f.in}`)).toEqual(["name:body", "status:body"]);
    expect(command(caps, "pet update")).toMatchObject({
      body: { mediaType: "application/x-www-form-urlencoded", encoding: "form", required: false },
    });
    expect(command(caps, "pet update")!.flags.map((f) => `${f.flag}:${f.in}:${f.type}`)).toEqual([
      "pet-id:path:integer",
      "name:body:string",
    ]);
    expect(
      caps.naming
        .filter((n) => n.kind === "collision")
        .map((n) => n.command)
        .sort(),
    ).toEqual(["pet delete-2", "pet delete-photos"]);
    expect(caps.auth.schemes).toEqual({
      api_key: { type: "apiKey", in: "header", name: "api_key", env: { value: expect.stringMatching(/_API_KEY$/) } },
    });
  });

  it("renames parameters that collide with reserved flags and with each other", async () => {
    const dir = apiProject(`openapi: 3.0.3
info: { title: Shop, version: "1" }
paths:
  /things/{id}:
    put:
      tags: [things]
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: help, in: query, schema: { type: boolean } }
        - { name: yes, in: query, schema: { type: boolean } }
        - { name: Authorization, in: header, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                id: { type: string }
                json_input: { type: string }
      responses: { "200": { description: ok } }
`);
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(0);
    const replace = command(capabilities(dir), "things replace")!;
    expect(replace.flags.map((f) => `${f.flag}=${f.in}:${f.wire}`)).toEqual([
      "id=path:id",
      "query-help=query:help",
      "query-yes=query:yes",
      "body-id=body:id",
      "body-json-input=body:json_input",
    ]);
    const notes = capabilities(dir).naming.map((n) => n.message);
    expect(notes).toContain("header Authorization is set by the CLI itself, so it has no flag");
    expect(notes).toContain("query help: --help is taken, so it is --query-help");
  });

  it("builds a document with empty paths, and a brief without tasks or description, with warnings", async () => {
    const dir = apiProject(
      `openapi: 3.1.0\ninfo: { title: Empty, version: "1" }\npaths: {}\n`,
      {},
      "Just some notes.\n",
    );
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(0);
    const warnings = result.json.data.tasks.flatMap((t: TaskOutcome) => t.warnings);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining("the document has no paths"),
        expect.stringContaining("context.md has no product description"),
        expect.stringContaining("context.md has no tasks"),
      ]),
    );
    expect(capabilities(dir)).toMatchObject({ commands: [], skills: [] });
  });
});

describe("OPENAPI_INVALID", () => {
  const cases: Array<[string, string, RegExp, Record<string, unknown>]> = [
    ["a YAML syntax error", "openapi: 3.0.0\npaths:\n  /a: [\n", /not valid YAML or JSON/, { line: 4 }],
    [
      "no version field",
      "info: { title: x, version: '1' }\npaths: {}\n",
      /missing `openapi`/,
      { pointer: "#/openapi" },
    ],
    [
      "an unsupported version",
      "openapi: 4.0.0\npaths: {}\n",
      /unsupported OpenAPI version "4.0.0"/,
      { pointer: "#/openapi" },
    ],
    [
      "paths that are not an object",
      "openapi: 3.0.0\ninfo: { title: x, version: '1' }\npaths: [1, 2]\n",
      /`paths` must be an object/,
      { pointer: "#/paths" },
    ],
    [
      "an external $ref to a missing file",
      "openapi: 3.0.0\ninfo: { title: x, version: '1' }\npaths:\n  /a: { $ref: './nope.yaml' }\n",
      /nope\.yaml/,
      {},
    ],
  ];
  it.each(cases)(
    "for %s: exit 2 with the file, pointer and reason; earlier outputs stay",
    async (_name, doc, message, details) => {
      const dir = apiProject("openapi: 3.0.0\ninfo: { title: x, version: '1' }\npaths: {}\n");
      await inter(dir, ["run", "design"]);
      const before = read(dir, "dist/capabilities.json");
      writeFiles(dir, { "api/openapi.yaml": doc });
      const result = await inter(dir, ["run", "design", "--json"]);
      expect(result.exitCode).toBe(2);
      expect(result.json.error.code).toBe("OPENAPI_INVALID");
      expect(result.json.error.message).toMatch(message);
      expect(result.json.error.details).toMatchObject({ file: expect.stringContaining(".yaml"), ...details });
      expect(statuses(result)).toMatchObject({ openapi: "failed", commands: "skipped", design: "skipped" });
      expect(read(dir, "dist/capabilities.json")).toBe(before);
    },
  );
});

describe("inputs", () => {
  it("INPUT_NOT_FOUND names the missing context glob", async () => {
    const dir = apiProject("openapi: 3.0.0\ninfo: { title: x, version: '1' }\npaths: {}\n");
    writeFiles(dir, {
      "intermesh.config.ts": read(dir, "intermesh.config.ts").replace('context: "context.md"', 'context: "docs/*.md"'),
    });
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(2);
    expect(result.json.error).toMatchObject({
      code: "INPUT_NOT_FOUND",
      details: { field: "inputs.context", glob: "docs/*.md" },
    });
  });

  it("reads several context files matched by a glob", async () => {
    const dir = apiProject("openapi: 3.0.0\ninfo: { title: x, version: '1' }\npaths: {}\n", {
      "docs/a.md": "# Shop\n\nSells things.\n",
      "docs/b.md": "## Tasks and scenarios\n\n### Buy a thing\n\nSomeone buys.\n\nExpected outcome: an order.\n",
    });
    writeFiles(dir, {
      "intermesh.config.ts": read(dir, "intermesh.config.ts").replace('context: "context.md"', 'context: "docs/*.md"'),
    });
    const result = await inter(dir, ["run", "design", "--json"]);
    expect(result.exitCode).toBe(0);
    expect(capabilities(dir).skills.map((s) => s.name)).toEqual(["buy-a-thing"]);
    expect(JSON.parse(readFileSync(join(dir, "dist/capabilities.json"), "utf8")).product.description).toBe(
      "Sells things.",
    );
  });
});
