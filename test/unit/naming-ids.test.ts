import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { tempDir } from "../helpers.js";

const scratch = tempDir("inter-naming-ids-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("path segments that are identifiers are never name words", () => {
  it("drops a generated id, a hash and a UUID from a path segment, and keeps camelCase words with digits", async () => {
    const ok = { responses: { "200": { description: "ok" } } };
    const file = join(scratch, "ids.json");
    writeFileSync(
      file,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "Ids", version: "1" },
        paths: {
          "/metadata/securityClassification-6VMVochwUWo": { get: { operationId: "getClassification", ...ok } },
          "/builds/3f9a1c2b7d4e8f60/artifacts": { get: { operationId: "listArtifacts", ...ok } },
          "/hooks/oauth2Callback": { post: { operationId: "oauthCallback", ...ok } },
        },
      }),
    );
    const { model } = await readOperationModel(file, scratch);
    const config: InterConfig = { product: { name: "Ids", binary: "ids" }, inputs: { openapi: "x" } };
    const names = designCommands(model, config, []).plan.commands.map((c) => c.name);
    expect(names.join(" ")).not.toMatch(/vmv|ochw|uwo|3f9a/);
    expect(names.some((n) => n.includes("security-classification"))).toBe(true);
    expect(names.some((n) => n.includes("oauth2"))).toBe(true);
  });
});
