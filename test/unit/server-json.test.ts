import { describe, expect, it } from "vitest";
import { SERVER_SCHEMA, serverJson, serverJsonProblems } from "../../src/stages/emit/server-json.js";
import { validateConfig } from "../../src/config/validate.js";
import type { InterError } from "../../src/core/errors.js";

const entry = (over: { name?: string; description?: string; version?: string } = {}) =>
  serverJson({
    name: over.name ?? "io.github.acme/rooms",
    description: over.description ?? "Rooms: book meeting rooms",
    pkg: "rooms-cli",
    version: over.version ?? "1.2.3",
    manifest: { auth: { type: "apiKey", env: "ROOMS_API_KEY" }, baseUrl: { env: "ROOMS_BASE_URL" } },
  });

describe("server.json as the MCP registry takes it", () => {
  it("an entry of the current schema, named as the package names it, is taken", () => {
    const doc = entry();
    expect(doc.$schema).toBe(SERVER_SCHEMA);
    expect(SERVER_SCHEMA).toContain("/2025-12-11/");
    expect(serverJsonProblems(doc, { name: "rooms-cli", mcpName: "io.github.acme/rooms" })).toEqual([]);
  });

  it("names each field the registry would refuse", () => {
    const bad = { ...entry({ name: "npm/rooms-cli", version: "^1.2.3" }), description: "x".repeat(101) };
    bad.packages[0]!.version = "latest";
    expect(serverJsonProblems(bad, { name: "other-cli" })).toEqual([
      'name: "npm/rooms-cli" is not namespace/name with a reverse-DNS namespace of two labels or more',
      "description: 101 characters, not 1 to 100",
      'version: "^1.2.3" is not one specific version',
      'packages[0].version: "latest" is not one version',
      "packages[0].version: latest, not the entry's ^1.2.3",
      "packages[0].identifier: rooms-cli, not the package's name other-cli",
      "name: package.json's mcpName is undefined, not npm/rooms-cli",
    ]);
    expect(serverJsonProblems({ ...entry(), $schema: SERVER_SCHEMA.replace("2025-12-11", "2025-09-29") })).toEqual([
      `$schema: ${SERVER_SCHEMA.replace("2025-12-11", "2025-09-29")} is not the current ${SERVER_SCHEMA}`,
    ]);
  });

  it("a description over 100 characters is cut at a word, within the bound", () => {
    const doc = entry({ description: "word ".repeat(40) });
    expect(doc.description.length).toBeLessThanOrEqual(100);
    expect(doc.description.endsWith("…")).toBe(true);
  });

  it("the config refuses a one-label namespace, naming product.mcpName and how to fix it", () => {
    let thrown: InterError | undefined;
    try {
      validateConfig(
        { product: { name: "Rooms", binary: "rooms", mcpName: "npm/rooms-cli" }, inputs: { openapi: "x.yaml" } },
        "intermesh.config.ts",
        [],
      );
    } catch (error) {
      thrown = error as InterError;
    }
    expect(thrown?.code).toBe("CONFIG_INVALID");
    expect(`${thrown!.message} ${thrown!.suggestion}`).toContain("product.mcpName");
    expect(thrown!.suggestion).toContain("io.github.<your-login>/rooms");
  });
});
