import { execa } from "execa";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, inter, makeProject, tempDir } from "../helpers.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";
import type { HelpParameter } from "../../src/stages/inspect/subjects.js";

/**
 * One generated CLI, built by `inter build` and installed from its cli.tgz, calling a loopback server that records the
 * raw request line and headers: `explode: false` arrays, a deepObject, a label path and HTTP Basic go out exactly as
 * the document says, and help and --describe say how the credential is sent without printing it.
 */
const OPENAPI = `openapi: 3.1.0
info: { title: Wire, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
security: [{ accountSid_authToken: [] }]
components:
  securitySchemes:
    accountSid_authToken:
      type: http
      scheme: basic
      description: Your <b>Account SID</b> as the user and your [Auth Token](https://example.com/console) as the password.
paths:
  /search:
    get:
      operationId: searchCatalog
      summary: Search the catalog
      parameters:
        - { name: q, in: query, required: true, schema: { type: string } }
        - { name: type, in: query, explode: false, schema: { type: array, items: { type: string, enum: [track, album, artist] } } }
        - { name: filter, in: query, style: deepObject, explode: true, schema: { type: object, properties: { year: { type: integer }, genre: { type: string } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { total: { type: integer } } } } } }
  /charts:
    get:
      operationId: listCharts
      summary: List charts
      parameters:
        - name: filters
          in: query
          content: { application/json: { schema: { type: object, properties: { page: { type: integer }, genres: { type: array, items: { type: string } } } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { total: { type: integer } } } } } }
  /tracks/{ids}:
    get:
      operationId: getSeveralTracks
      summary: Get several tracks
      parameters:
        - { name: ids, in: path, required: true, style: label, schema: { type: array, items: { type: string } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { total: { type: integer } } } } } }
`;

const CREDENTIAL = "AC0123456789:s3cr3t-t0ken";

describe("requests on the wire as the document says, credentials as the API takes them", () => {
  let bin: string;
  let caps: Capabilities;
  let server: Server;
  let url: string;
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    const dir = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Wire", binary: "wire" }, inputs: { openapi: "openapi.yaml", context: "context.md" }, api: { credentialEnv: "WIRE_CREDENTIALS" } }`,
      ),
      "openapi.yaml": OPENAPI,
      "context.md": "# Wire\n\nA music catalog.\n",
    });
    const built = await inter(dir, ["build", "--json"]);
    if (built.exitCode !== 0) throw new Error(`inter build failed: ${built.stdout}${built.stderr}`);
    caps = JSON.parse(readFileSync(join(dir, "dist/capabilities.json"), "utf8"));
    const prefix = tempDir("inter-wire-");
    await execa("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      prefix,
      join(dir, "dist/cli.tgz"),
    ]);
    bin = join(prefix, "node_modules/.bin/wire");
    server = createServer((req, res) => {
      seen.push({ url: req.url!, headers: req.headers });
      res.writeHead(200, { "content-type": "application/json" }).end('{"total":0}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const words = (operationId: string): string[] =>
    caps.commands.find((c) => c.operation.operationId === operationId)!.path;
  const wire = (args: string[]) =>
    execa(bin, args, {
      env: { WIRE_BASE_URL: url, WIRE_CREDENTIALS: CREDENTIAL },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });

  it("keeps style and explode in capabilities.json only where they differ from the defaults", () => {
    const flags = Object.fromEntries(
      caps.commands.flatMap((c) => c.flags).map((f) => [f.wire, { style: f.style, explode: f.explode }]),
    );
    expect(flags).toEqual({
      q: {},
      type: { explode: false },
      filter: { style: "deepObject", explode: true },
      ids: { style: "label" },
      filters: {},
    });
    expect(caps.auth.schemes).toEqual({
      accountSid_authToken: {
        type: "http",
        scheme: "basic",
        description: "Your Account SID as the user and your Auth Token as the password.",
        env: { value: "WIRE_CREDENTIALS" },
      },
    });
  });

  it("sends an explode:false array comma-joined, a deepObject with bracketed keys, a label path, and HTTP Basic", async () => {
    const search = await wire([
      ...words("searchCatalog"),
      "--q",
      "blue train",
      "--type",
      "track,album",
      "--filter",
      '{"year":1958,"genre":"jazz"}',
    ]);
    expect(search.exitCode, search.stderr).toBe(0);
    expect(seen.at(-1)!.url).toBe(
      "/search?q=blue%20train&type=track,album&filter%5Byear%5D=1958&filter%5Bgenre%5D=jazz",
    );
    expect(seen.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from(CREDENTIAL).toString("base64")}`);

    // Repeated flags are the same array as a comma list.
    await wire([...words("searchCatalog"), "--q", "x", "--type", "track", "--type", "artist"]);
    expect(seen.at(-1)!.url).toBe("/search?q=x&type=track,artist");

    const tracks = await wire([...words("getSeveralTracks"), "--ids", "t1,t2"]);
    expect(tracks.exitCode, tracks.stderr).toBe(0);
    expect(seen.at(-1)!.url).toBe("/tracks/.t1,t2");

    // A parameter whose content is JSON: one JSON text under its name, never a form-style object's pairs.
    const charts = await wire([...words("listCharts"), "--filters", '{"page":2,"genres":["jazz","soul"]}']);
    expect(charts.exitCode, charts.stderr).toBe(0);
    expect(decodeURIComponent(seen.at(-1)!.url)).toBe('/charts?filters={"page":2,"genres":["jazz","soul"]}');
    const refused = await wire([...words("listCharts"), "--filters", "page=2"]);
    expect(refused.exitCode).toBe(2);
  });

  it("help and --describe say the credential goes as HTTP Basic and how its value is made, never the value", async () => {
    const help = await wire([...words("searchCatalog"), "--help"]);
    const describe = await wire(["--describe"]);
    const root = await wire(["--help"]);
    for (const out of [help.stdout, describe.stdout, root.stdout]) {
      expect(out).not.toContain(CREDENTIAL);
      expect(out).not.toContain("s3cr3t");
      expect(out).not.toContain(Buffer.from(CREDENTIAL).toString("base64"));
    }
    const { command, auth } = JSON.parse(help.stdout);
    // One scheme for the whole CLI: the help's auth says it once, beside the command.
    expect(command.auth).toBe(true);
    expect(auth.sent).toHaveLength(1);
    expect(auth.sent[0]).toContain("WIRE_CREDENTIALS is sent as HTTP Basic: set it to <user>:<password>");
    expect(auth.sent[0]).toContain("<accountSid>:<authToken>");
    expect(auth.sent[0]).toContain("Authorization: Basic <base64>");
    expect(auth.sent[0]).toContain("The API says: Your Account SID as the user and your Auth Token as the password.");
    expect(command.parameters.find((p: HelpParameter & { usage?: string }) => p.name === "--type").usage).toBe(
      "repeat --type or give a comma list (--type a --type b, or --type a,b); sent as ?type=a,b",
    );
    expect(command.parameters.find((p: HelpParameter & { usage?: string }) => p.name === "--filter").usage).toContain(
      "sent as ?filter%5Bk%5D=v&filter%5Bn%5D=1",
    );
    expect(JSON.parse(describe.stdout).auth).toMatchObject({
      env: ["WIRE_CREDENTIALS"],
      sent: [expect.stringContaining("sent as HTTP Basic")],
      schemes: { accountSid_authToken: { type: "http", scheme: "basic", variables: { value: "WIRE_CREDENTIALS" } } },
    });
    expect(JSON.parse(root.stdout).auth).toMatchObject({
      env: ["WIRE_CREDENTIALS"],
      required: true,
      sent: [expect.stringContaining("<accountSid>:<authToken>")],
    });

    // Without the credential the error says how to set it, again without a value.
    const missing = await execa(bin, [...words("searchCatalog"), "--q", "x"], {
      env: { WIRE_BASE_URL: url },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    expect(missing.exitCode).toBe(10);
    expect(JSON.parse(missing.stderr)).toMatchObject({
      code: "CREDENTIAL_MISSING",
      suggestion: expect.stringContaining("HTTP Basic"),
    });
  });
});
