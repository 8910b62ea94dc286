import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { tempDir } from "../helpers.js";

const scratch = tempDir("inter-destructive-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const op = (operationId: string, summary: string, extra: Record<string, unknown> = {}) => ({
  operationId,
  summary,
  ...extra,
  responses: { "200": { description: "ok" } },
});
const id = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

async function design(paths: Record<string, unknown>) {
  const file = join(scratch, `${Object.keys(paths).length}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ openapi: "3.0.3", info: { title: "Shop", version: "1" }, paths }));
  const { model } = await readOperationModel(file, scratch);
  const config: InterConfig = { product: { name: "Shop", binary: "shop" }, inputs: { openapi: "x" } };
  const { plan } = designCommands(model, config, []);
  return Object.fromEntries(plan.commands.map((c) => [c.operation.operationId, c.destructive]));
}

describe("destructive by meaning, in any method", () => {
  it("a void, cancel, revoke, purge or refund needs --yes whatever its method; so does creating a refund", async () => {
    const destructive = await design({
      "/labels/{id}/void": { parameters: id, put: op("voidLabel", "Void a label by ID to get a refund") },
      "/orders/{id}/cancel": { parameters: id, post: op("cancelOrder", "Cancels an order") },
      "/tokens/revoke": { post: op("RevokeToken", "RevokeToken") },
      "/cache/purge": { post: op("purgeCache", "Purge the cache") },
      "/refunds": { post: op("createRefund", "Create a refund."), get: op("listRefunds", "List refunds") },
      "/invoices/{id}/send": { parameters: id, post: op("sendInvoice", "Send an invoice") },
      "/invoices/{id}": {
        parameters: id,
        put: op("updateInvoice", "Update an invoice"),
        delete: op("deleteInvoice", "Delete"),
      },
    });
    expect(destructive).toEqual({
      voidLabel: true,
      cancelOrder: true,
      RevokeToken: true,
      purgeCache: true,
      createRefund: true,
      listRefunds: false,
      sendInvoice: false,
      updateInvoice: false,
      deleteInvoice: true,
    });
  });

  it("x-cli-destructive says otherwise, either way", async () => {
    const destructive = await design({
      "/carts/{id}/empty": { parameters: id, post: op("emptyCart", "Empty a cart", { "x-cli-destructive": true }) },
      "/labels/{id}/void": { parameters: id, put: op("voidLabel", "Void a label", { "x-cli-destructive": false }) },
    });
    expect(destructive).toEqual({ emptyCart: true, voidLabel: false });
  });
});
