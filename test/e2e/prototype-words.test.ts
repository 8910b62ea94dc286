import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { builtCli } from "../helpers.js";

/**
 * A description, a brief and requests made of the words a JavaScript object's prototype holds (`constructor`,
 * `toString`, `__proto__`, `valueOf`): every table inter looks words up in has none of them (src/core/word-table.ts).
 * The build designs, links and certifies; the installed CLI describes, searches and sends.
 */
const OPENAPI = `openapi: 3.0.3
info: { title: Proto, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
tags: [{ name: constructor, description: toString }]
paths:
  /constructor/{toString}:
    get:
      operationId: constructor
      tags: [constructor]
      summary: hasOwnProperty valueOf __proto__ &constructor;
      parameters:
        - { name: toString, in: path, required: true, schema: { type: string } }
        - { name: constructor, in: query, schema: { type: string, enum: [valueOf, __proto__] } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { constructor: { type: string } } } } } }
  /__proto__:
    post:
      operationId: toString
      summary: Prototype of the valueOf
      requestBody:
        content:
          application/json:
            schema: { type: object, required: [constructor], properties: { constructor: { type: string }, hasOwnProperty: { type: integer } } }
      responses:
        "201": { description: created }
`;

describe("words an object's prototype holds", () => {
  it("build, link, search and send like any other words", async () => {
    const { bin, caps } = await builtCli("Proto", OPENAPI, {
      context:
        "# Proto\n\nA test.\n\n## Tasks\n\n- Constructor the toString\n  Expected outcome: valueOf.\n- Create a __proto__ hasOwnProperty\n  Expected outcome: done.\n",
    });
    expect(caps.skills.map((s) => s.name)).toEqual(["constructor-the-to-string", "create-a-proto-has-own-property"]);
    const run = (args: string[]) => execa(bin, args, { reject: false, env: { PROTO_BASE_URL: "http://127.0.0.1:9" } });
    for (const request of ["constructor", "__proto__ valueOf", "toString hasOwnProperty"]) {
      const found = await run(["search", request]);
      expect(found.exitCode, found.stderr).toBe(0);
      expect(JSON.parse(found.stdout).result.length).toBeGreaterThan(0);
    }
    const get = caps.commands.find((c) => c.operation.operationId === "constructor")!;
    const dry = await run([...get.path, "--to-string", "x", "--constructor", "valueOf", "--dry-run"]);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).result.request.url).toBe("http://127.0.0.1:9/constructor/x?constructor=valueOf");
  }, 120_000);
});
