import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { tempDir } from "../helpers.js";
import { judgeOperations } from "../naming-checker.js";

const scratch = tempDir("inter-naming-effect-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const config: InterConfig = { product: { name: "Effect", binary: "effect" }, inputs: { openapi: "x" } };
const json = (schema: object) => ({ "200": { description: "ok", content: { "application/json": { schema } } } });
const record = { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } };
const list = { type: "array", items: record };

/** The names the designer gives a document's operations, by `METHOD path`. */
async function namesOf(name: string, paths: object): Promise<Record<string, string>> {
  const file = join(scratch, `${name}.json`);
  // Every path template's parameters declared, as a description must.
  const declared = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      {
        parameters: [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
          name: m[1],
          in: "path",
          required: true,
          schema: { type: "string" },
        })),
        ...item,
      },
    ]),
  );
  writeFileSync(file, JSON.stringify({ openapi: "3.0.3", info: { title: name, version: "1" }, paths: declared }));
  const { model } = await readOperationModel(file, scratch);
  const { plan } = designCommands(model, config, []);
  return Object.fromEntries(
    plan.commands.map((c) => [`${c.operation.method.toUpperCase()} ${c.operation.path}`, c.name]),
  );
}

describe("the verb says what the operation does", () => {
  it("a PUT whose summary was copied from its GET is named by its operationId's write, never as a read", async () => {
    const names = await namesOf("history", {
      "/CreditNotes/{CreditNoteID}/History": {
        get: {
          operationId: "getCreditNoteHistory",
          summary: "Retrieves history records of a credit note",
          responses: json(list),
        },
        put: {
          operationId: "createCreditNoteHistory",
          summary: "Retrieves history records of a credit note",
          responses: json(record),
        },
      },
      "/Settings": {
        patch: { summary: "Get the settings", responses: json(record) },
      },
    });
    expect(names["PUT /CreditNotes/{CreditNoteID}/History"]).toMatch(/ create$/);
    expect(names["GET /CreditNotes/{CreditNoteID}/History"]).toMatch(/ list$/);
    expect(names["PATCH /Settings"]).toMatch(/ update$/);
  });

  it("a POST the document names a read keeps its read: `ListFindings`, an RPC path's `listKeys`", async () => {
    const names = await namesOf("reads", {
      "/finding": { post: { operationId: "ListFindings", responses: json(list) } },
      "/clusters/{name}/listKeys": { post: { summary: "Lists the keys of a cluster", responses: json(record) } },
    });
    expect(names["POST /finding"]).toMatch(/ list/);
    expect(names["POST /clusters/{name}/listKeys"]).toMatch(/ (get|list)-keys$/);
  });

  it("list for what answers a list, get for what answers one item, whatever the summary or a collision says", async () => {
    const names = await namesOf("cardinality", {
      // Two reads that both answer arrays: the one by a path parameter is no `get`.
      "/players": { get: { operationId: "PlayersAvailable", summary: "Players available", responses: json(list) } },
      "/players/{team}": { get: { operationId: "PlayersByTeam", summary: "Players by team", responses: json(list) } },
      // "List …" over one flat record is a get.
      "/account/settings": { get: { summary: "List account settings", responses: json(record) } },
      // "Get …" over a paged list is a list.
      "/me/top-items": {
        get: {
          summary: "Get the user's top items",
          responses: json({
            type: "object",
            properties: { items: list, next: { type: "string" }, total: { type: "integer" } },
          }),
        },
      },
    });
    expect(names["GET /players/{team}"]).toMatch(/ list-team$/);
    expect(names["GET /players"]).toMatch(/ list$/);
    expect(names["GET /account/settings"]).toMatch(/ get/);
    expect(names["GET /me/top-items"]).toMatch(/ list$/);
  });

  it("words that say nothing never tell operations apart; the item's delete keeps the plain name", async () => {
    const names = await namesOf("filler", {
      "/droplets/{droplet_id}": {
        delete: {
          operationId: "droplets_destroy",
          summary: "Delete an Existing Droplet",
          description: "To delete a Droplet, send a DELETE request to /v2/droplets/$DROPLET_ID.",
          responses: { "204": { description: "gone" } },
        },
      },
      "/droplets": {
        delete: {
          operationId: "droplets_destroy_byTag",
          summary: "Deleting Droplets by Tag",
          description: "To delete all Droplets assigned to a specific tag, send a DELETE request.",
          parameters: [{ name: "tag_name", in: "query", required: true, schema: { type: "string" } }],
          responses: { "204": { description: "gone" } },
        },
      },
    });
    expect(names["DELETE /droplets/{droplet_id}"]).toBe("droplets delete");
    expect(names["DELETE /droplets"]).toBe("droplets delete-tag");
  });
});

describe("reads over other methods, and items by several keys", () => {
  it('a POST that lists (`/service_points/list`, "List Service Points") is a list; the item by its id keeps `get`', async () => {
    const names = await namesOf("keys", {
      "/service_points/list": {
        post: { operationId: "service_points_list", summary: "List Service Points", responses: json(record) },
      },
      "/service_points/{service_point_id}": {
        get: { operationId: "service_points_get_by_id", summary: "Get Service Point By ID", responses: json(record) },
      },
      "/Contacts/{ContactNumber}": {
        get: {
          operationId: "getContactByContactNumber",
          summary: "Retrieves a contact by contact number",
          responses: json(record),
        },
      },
      "/Contacts/{ContactID}": {
        get: {
          operationId: "getContact",
          summary: "Retrieves a contact using a unique contact Id",
          responses: json(record),
        },
      },
    });
    expect(names["POST /service_points/list"]).toBe("service-points list");
    expect(names["GET /service_points/{service_point_id}"]).toBe("service-points get");
    expect(names["GET /Contacts/{ContactID}"]).toBe("contacts get");
    expect(names["GET /Contacts/{ContactNumber}"]).toBe("contacts get-number");
  });
});

describe("the naming checker judges the same rules from outside", () => {
  it("finds a read on a write, a list of one item, a get of a list and a filler word", () => {
    const { findings } = judgeOperations([
      { name: "history list", method: "PUT", path: "/h", operationId: "createHistory", summary: "Creates history" },
      { name: "settings list", method: "GET", path: "/settings", summary: "List settings", returns: "one" },
      { name: "players get", method: "GET", path: "/players/{team}", summary: "Players", returns: "many" },
      {
        name: "droplets delete-existing",
        method: "DELETE",
        path: "/droplets/{id}",
        summary: "Delete an Existing Droplet",
      },
      { name: "findings list", method: "POST", path: "/finding", operationId: "ListFindings" },
    ]);
    expect(findings.map((f) => `${f.rule}: ${f.name}`).sort()).toEqual([
      "cardinality: players get",
      "cardinality: settings list",
      "filler: droplets delete-existing",
      "read-on-write: history list",
    ]);
  });
});
