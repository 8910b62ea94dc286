import { execa } from "execa";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startOAuthServer } from "../fixtures/oauth-server.mjs";
import { config, everyFile, inter, makeProject, tempDir } from "../helpers.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";
import type { Receipt } from "../../src/stages/inspect/receipt.js";

/**
 * Credentials as real APIs declare them, end to end: one document with an application key and a user token in the
 * query listed as alternatives while every operation requires both parameters (Trello's shape), a header key AND a
 * cookie in one requirement, HTTP Basic, and OAuth 2 — client credentials and a refresh token — against a real
 * authorization server on loopback (oidc-provider, test/fixtures/oauth-server.mjs). The CLI is built by `inter build`,
 * installed from its cli.tgz and called with environment variables only; a loopback API accepts only the right values.
 */

const KEY = "appkey-5f0c2d7e";
const TOKEN = "usertoken-8b1e44aa";
const HEADER_KEY = "hdrkey-71c0";
const SESSION = "sess-9d2f3b";
const USER = "ada";
const PASSWORD = "pa55-w0rd-lovelace";

function documentFor(tokenUrl: string, refreshUrl: string, discoveryUrl: string): string {
  return `openapi: 3.0.3
info: { title: Boards, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9/1" }]
security: [{ appKey: [] }, { userToken: [] }]
components:
  securitySchemes:
    appKey: { type: apiKey, in: query, name: key, description: Your application key. }
    userToken: { type: apiKey, in: query, name: token }
    headerKey: { type: apiKey, in: header, name: X-App-Key }
    session: { type: apiKey, in: cookie, name: session }
    basicAuth: { type: http, scheme: basic }
    machine:
      type: oauth2
      flows:
        clientCredentials: { tokenUrl: "${tokenUrl}", scopes: { "boards:read": read boards } }
    openid: { type: openIdConnect, openIdConnectUrl: "${discoveryUrl}" }
    person:
      type: oauth2
      flows:
        authorizationCode: { authorizationUrl: "https://example.com/authorize", tokenUrl: "${refreshUrl}", scopes: { "boards:read": read boards } }
paths:
  /cards/{id}:
    get:
      operationId: getCard
      summary: Get a card
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: key, in: query, required: true, schema: { type: string } }
        - { name: token, in: query, required: true, schema: { type: string } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
  /labels:
    get:
      operationId: listLabels
      summary: List labels
      security: [{ headerKey: [], session: [] }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
  /accounts/me:
    get:
      operationId: getAccount
      summary: Get my account
      security: [{ basicAuth: [] }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
  /reports:
    get:
      operationId: listReports
      summary: List reports
      security: [{ machine: ["boards:read"] }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
  /profiles:
    get:
      operationId: listProfiles
      summary: List profiles
      security: [{ openid: ["boards:read"] }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
  /boards:
    get:
      operationId: listBoards
      summary: List boards
      security: [{ person: ["boards:read"] }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
`;
}

type OAuth = Awaited<ReturnType<typeof startOAuthServer>>;

/** The API: each route accepts only its right credentials, and on refusal echoes what it got (as careless APIs do). */
function apiHandler(oauth: OAuth) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, "http://x");
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const ok = (() => {
      if (url.pathname.startsWith("/1/cards/"))
        return url.searchParams.get("key") === KEY && url.searchParams.get("token") === TOKEN;
      if (url.pathname === "/1/labels")
        return req.headers["x-app-key"] === HEADER_KEY && req.headers.cookie === `session=${SESSION}`;
      if (url.pathname === "/1/accounts/me")
        return req.headers.authorization === `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
      return undefined;
    })();
    if (ok !== undefined)
      return ok
        ? json(200, url.pathname === "/1/labels" ? [{ id: "l1" }] : { id: "c1" })
        : json(401, { message: `invalid credentials ${url.search} ${req.headers.authorization ?? ""}` });
    if (url.pathname === "/1/reports" || url.pathname === "/1/boards" || url.pathname === "/1/profiles") {
      const valid = bearer ? await oauth.verify(bearer) : undefined;
      return valid ? json(200, [{ id: "r1" }]) : json(401, { message: `token ${bearer ?? "none"} is not valid` });
    }
    json(404, { message: "no such route" });
  };
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe("credentials an agent can use: several schemes, AND requirements, OAuth 2 without a person", () => {
  let oauth: OAuth;
  let api: Server;
  let apiUrl: string;
  let bin: string;
  let caps: Capabilities;
  let project: string;
  let cache: string;

  beforeAll(async () => {
    oauth = await startOAuthServer({
      clients: [
        { client_id: "robot", client_secret: "r0b0t-secret-value", scope: "boards:read" },
        { client_id: "app", client_secret: "app-secret-value", scope: "boards:read" },
      ],
    });
    api = createServer((req, res) => void apiHandler(oauth)(req, res));
    apiUrl = `${await listen(api)}/1`;
    project = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Boards", binary: "boards" }, inputs: { openapi: "openapi.yaml" }, api: { credentials: { userToken: "BOARDS_TOKEN" } } }`,
      ),
      "openapi.yaml": documentFor(oauth.tokenUrl, oauth.tokenUrl, oauth.discoveryUrl),
    });
    const built = await inter(project, ["build", "--json"]);
    if (built.exitCode !== 0) throw new Error(`inter build failed: ${built.stdout}${built.stderr}`);
    caps = JSON.parse(readFileSync(join(project, "dist/capabilities.json"), "utf8"));
    const prefix = tempDir("inter-credentials-");
    await execa("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      prefix,
      join(project, "dist/cli.tgz"),
    ]);
    bin = join(prefix, "node_modules/.bin/boards");
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => (api ? api.close(() => resolve()) : resolve()));
    await oauth?.close();
  });
  // Each test its own token cache: a token one test obtained never serves (or is counted by) another.
  beforeEach(() => {
    cache = tempDir("inter-credentials-cache-");
  });

  const SECRETS = [KEY, TOKEN, HEADER_KEY, SESSION, PASSWORD, "r0b0t-secret-value", "app-secret-value"];
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const result = await execa(bin, args, {
      env: { BOARDS_BASE_URL: apiUrl, XDG_CACHE_HOME: cache, HOME: cache, PATH: process.env.PATH!, ...env },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    // No value of a credential in anything the CLI prints, whatever the test asks of it.
    for (const secret of SECRETS) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
    return result;
  };
  const words = (operationId: string): string[] =>
    caps.commands.find((c) => c.operation.operationId === operationId)!.path;
  const ALL = {
    BOARDS_APP_KEY: KEY,
    BOARDS_TOKEN: TOKEN,
    BOARDS_HEADER_KEY: HEADER_KEY,
    BOARDS_SESSION: SESSION,
    BOARDS_BASIC_AUTH_USERNAME: USER,
    BOARDS_BASIC_AUTH_PASSWORD: PASSWORD,
  };

  it("names a variable per scheme and role, keeps both query keys required together, and makes no flag of them", () => {
    const card = caps.commands.find((c) => c.operation.operationId === "getCard")!;
    expect(card.flags.map((f) => f.wire)).toEqual(["id"]);
    expect(card.auth).toEqual([{ appKey: [], userToken: [] }]);
    expect(caps.commands.find((c) => c.operation.operationId === "listLabels")!.auth).toEqual([
      { headerKey: [], session: [] },
    ]);
    const env = Object.fromEntries(Object.entries(caps.auth.schemes).map(([name, s]: [string, any]) => [name, s.env]));
    expect(env).toEqual({
      appKey: { value: "BOARDS_APP_KEY" },
      userToken: { value: "BOARDS_TOKEN" },
      headerKey: { value: "BOARDS_HEADER_KEY" },
      session: { value: "BOARDS_SESSION" },
      basicAuth: { username: "BOARDS_BASIC_AUTH_USERNAME", password: "BOARDS_BASIC_AUTH_PASSWORD" },
      machine: {
        accessToken: "BOARDS_MACHINE_ACCESS_TOKEN",
        clientId: "BOARDS_MACHINE_CLIENT_ID",
        clientSecret: "BOARDS_MACHINE_CLIENT_SECRET",
      },
      openid: {
        accessToken: "BOARDS_OPENID_ACCESS_TOKEN",
        clientId: "BOARDS_OPENID_CLIENT_ID",
        clientSecret: "BOARDS_OPENID_CLIENT_SECRET",
        refreshToken: "BOARDS_OPENID_REFRESH_TOKEN",
      },
      person: {
        accessToken: "BOARDS_PERSON_ACCESS_TOKEN",
        clientId: "BOARDS_PERSON_CLIENT_ID",
        clientSecret: "BOARDS_PERSON_CLIENT_SECRET",
        refreshToken: "BOARDS_PERSON_REFRESH_TOKEN",
      },
    });
  });

  it("calls every kind of API-key and Basic operation with environment variables only", async () => {
    for (const [id, expected] of [
      ["getCard", { id: "c1" }],
      ["listLabels", [{ id: "l1" }]],
      ["getAccount", { id: "c1" }],
    ] as const) {
      const args = [...words(id), ...(id === "getCard" ? ["--id", "c1"] : [])];
      const result = await run(args, ALL);
      expect(result.exitCode, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      expect(JSON.parse(result.stdout).result).toEqual(expected);
    }
  });

  it("says which variables are missing for each alternative, with exit 10, and never prints a value", async () => {
    const missing = await run([...words("getCard"), "--id", "c1"], { BOARDS_APP_KEY: KEY });
    expect(missing.exitCode).toBe(10);
    const error = JSON.parse(missing.stderr);
    expect(error.code).toBe("CREDENTIAL_MISSING");
    expect(error.message).toContain("BOARDS_APP_KEY and BOARDS_TOKEN");
    expect(error.details.unset).toEqual(["BOARDS_TOKEN"]);
    const status = await run(["auth", "status", "--command", words("listLabels").join(" ")], {
      BOARDS_HEADER_KEY: HEADER_KEY,
    });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).result.command).toMatchObject({ uses: null, missing: ["BOARDS_SESSION"] });
  });

  it("shows in a dry run where each credential goes, replaced, and refuses a credential typed into an argument", async () => {
    const dry = await run([...words("getCard"), "--id", "c1", "--dry-run"], ALL);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const { request, auth } = JSON.parse(dry.stdout).result;
    expect(request.url).toBe(`${apiUrl}/cards/c1?key=[REDACTED]&token=[REDACTED]`);
    expect(auth.sent.map((s: { variables: string[] }) => s.variables)).toEqual([["BOARDS_APP_KEY"], ["BOARDS_TOKEN"]]);
    const cookie = await run([...words("listLabels"), "--dry-run"], ALL);
    expect(JSON.parse(cookie.stdout).result.request.headers).toMatchObject({
      "x-app-key": "[REDACTED]",
      cookie: "session=[REDACTED]",
    });
    const typed = await run([...words("getCard"), "--id", TOKEN], ALL);
    expect(typed.exitCode).toBe(2);
    expect(JSON.parse(typed.stderr).code).toBe("SECRET_IN_ARGUMENT");
    // A wrong key: the API's refusal echoes what it was sent, and the CLI passes none of it on.
    const refused = await run([...words("getCard"), "--id", "c1"], { ...ALL, BOARDS_TOKEN: "wrong-token-value" });
    expect(refused.exitCode).toBe(10);
    expect(refused.stderr).not.toContain("wrong-token-value");
  });

  it("obtains a token with client credentials, keeps it in the user's cache (0600), and renews it unseen when it is revoked", async () => {
    const env = { BOARDS_MACHINE_CLIENT_ID: "robot", BOARDS_MACHINE_CLIENT_SECRET: "r0b0t-secret-value" };
    const first = await run(words("listReports"), env);
    expect(first.exitCode, first.stderr).toBe(0);
    const asked = () => oauth.requests.filter((r) => r.client_id === "robot");
    expect(asked()).toEqual([
      expect.objectContaining({
        grant_type: "client_credentials",
        client_auth: "basic",
        scope: "boards:read",
        status: 200,
      }),
    ]);
    // The next call reuses the cached token: no second request to the token endpoint.
    expect((await run(words("listReports"), env)).exitCode).toBe(0);
    expect(asked()).toHaveLength(1);
    const folder = join(cache, "boards", "oauth");
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(statSync(join(folder, files[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(files[0]).not.toContain("robot");
    // Expired mid-session (revoked at the server): renewed once, and the agent sees only its result.
    const token = JSON.parse(readFileSync(join(folder, files[0]!), "utf8")).access_token;
    await oauth.revoke(token);
    const renewed = await run(words("listReports"), env);
    expect(renewed.exitCode, renewed.stderr).toBe(0);
    expect(asked()).toHaveLength(2);
    const status = await run(["auth", "status"], env);
    expect(JSON.parse(status.stdout).result.cachedTokens[0]).toMatchObject({
      expired: false,
      expiresAt: expect.any(String),
    });
    expect(status.stdout).not.toContain(token);
  });

  it("finds an OpenID Connect token endpoint in the discovery document and uses client credentials there", async () => {
    const before = oauth.requests.length;
    // Another client than the machine scheme's: its token, cached for the same endpoint, client and scopes, would serve.
    const result = await run(words("listProfiles"), {
      BOARDS_OPENID_CLIENT_ID: "app",
      BOARDS_OPENID_CLIENT_SECRET: "app-secret-value",
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(oauth.requests.slice(before)).toEqual([
      expect.objectContaining({
        grant_type: "client_credentials",
        client_id: "app",
        scope: "boards:read",
        status: 200,
      }),
    ]);
  });

  it("exchanges a refresh token, follows its rotation, and says AUTH_FAILED when it is revoked", async () => {
    const refresh = await oauth.issueRefreshToken("app", "boards:read");
    const env = {
      BOARDS_PERSON_REFRESH_TOKEN: refresh,
      BOARDS_PERSON_CLIENT_ID: "app",
      BOARDS_PERSON_CLIENT_SECRET: "app-secret-value",
    };
    const first = await run(words("listBoards"), env);
    expect(first.exitCode, first.stderr).toBe(0);
    // The server rotated the refresh token; a second renewal must use the rotated one, not the spent variable.
    const folder = join(cache, "boards", "oauth");
    const entry = readdirSync(folder)
      .map((f) => JSON.parse(readFileSync(join(folder, f), "utf8")))
      .find((e) => e.refresh_token);
    expect(entry.refresh_token).not.toBe(refresh);
    await oauth.revoke(entry.access_token);
    const again = await run(words("listBoards"), env);
    expect(again.exitCode, again.stderr).toBe(0);
    const latest = readdirSync(folder)
      .map((f) => JSON.parse(readFileSync(join(folder, f), "utf8")))
      .find((e) => e.refresh_token);
    await oauth.revokeRefreshToken(latest.refresh_token);
    await oauth.revoke(latest.access_token);
    const revoked = await run(words("listBoards"), env);
    expect(revoked.exitCode).toBe(10);
    expect(JSON.parse(revoked.stderr)).toMatchObject({ code: "AUTH_FAILED", details: { oauthError: "invalid_grant" } });
    for (const e of [entry, latest]) expect(revoked.stderr).not.toContain(e.refresh_token);
    expect(revoked.stderr).not.toContain(refresh);
  });

  it("says AUTH_EXPIRED with the next action when a static access token is refused and nothing can renew it", async () => {
    const result = await run(words("listReports"), { BOARDS_MACHINE_ACCESS_TOKEN: "expired-static-token-value" });
    expect(result.exitCode).toBe(10);
    const error = JSON.parse(result.stderr);
    expect(error.code).toBe("AUTH_EXPIRED");
    expect(error.suggestion).toContain("BOARDS_MACHINE_CLIENT_ID and BOARDS_MACHINE_CLIENT_SECRET");
    expect(result.stderr).not.toContain("expired-static-token-value");
  });

  it("help, --describe, the rules and auth status name the variables and how they are sent; no value anywhere", async () => {
    const root = JSON.parse((await run(["--help"], ALL)).stdout);
    expect(root.auth.env).toEqual(
      expect.arrayContaining(["BOARDS_APP_KEY", "BOARDS_TOKEN", "BOARDS_MACHINE_CLIENT_SECRET"]),
    );
    expect(root.rules.join(" ")).toContain("BOARDS_TOKEN");
    const describe = JSON.parse((await run(["--describe", "--all"], ALL)).stdout);
    const card = describe.commands.find((c: { name: string }) => c.name === words("getCard").join(" "));
    expect(card.security).toEqual({
      required: true,
      alternatives: [
        [
          { scheme: "appKey", variables: ["BOARDS_APP_KEY"] },
          { scheme: "userToken", variables: ["BOARDS_TOKEN"] },
        ],
      ],
    });
    expect(card.credential).toBe("Needs BOARDS_APP_KEY and BOARDS_TOKEN.");
    const status = JSON.parse((await run(["auth", "status"], ALL)).stdout).result;
    expect(
      status.requirements.find((r: { schemes: string[] }) => r.schemes.join() === "appKey,userToken"),
    ).toMatchObject({
      ready: true,
      commands: 1,
    });
    const written = everyFile(project);
    for (const secret of SECRETS) expect(written).not.toContain(secret);
  });

  it("inspection certifies it, with the credential checks passing on every requirement", () => {
    const receipt: Receipt = JSON.parse(readFileSync(join(project, "dist/receipt.json"), "utf8"));
    expect(receipt.credentials.status).toBe("pass");
    expect(receipt.credentials.checks.find((c) => c.id === "A1")!.reason).toContain("6 of 6 requirements");
    expect(receipt.certification.blocking).not.toContain("A1");
  });
});

/** Token endpoints that misbehave: each answer is a coded AUTH_FAILED (exit 10), nothing hangs, nothing leaks. */
describe("a hostile token endpoint", () => {
  let mode = "hang";
  let server: Server;
  let bin: string;
  let cache: string;
  let url: string;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url!.startsWith("/api/")) return res.writeHead(200, { "content-type": "application/json" }).end("[]");
      if (mode === "hang") return void held.push(res);
      if (mode === "html")
        return res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Sign in</title>");
      if (mode === "control")
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ access_token: "abc\r\nX-Injected: 1", token_type: "Bearer" }));
      if (mode === "redirect") return res.writeHead(302, { location: "http://evil.example/token" }).end();
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: "invalid_client", error_description: "client hostile-secret-value is unknown" }));
    });
    url = await listen(server);
    const project = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Hostile", binary: "hostile" }, inputs: { openapi: "openapi.yaml" } }`,
      ),
      "openapi.yaml": `openapi: 3.1.0
info: { title: Hostile, version: "1.0.0" }
servers: [{ url: "${url}/api" }]
security: [{ oauth: [] }]
components:
  securitySchemes:
    oauth: { type: oauth2, flows: { clientCredentials: { tokenUrl: "${url}/token", scopes: {} } } }
paths:
  /things:
    get:
      operationId: listThings
      summary: List things
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object } } } } } }
`,
    });
    const built = await inter(project, ["build", "--json"]);
    if (built.exitCode !== 0) throw new Error(`inter build failed: ${built.stdout}${built.stderr}`);
    const prefix = tempDir("inter-hostile-token-");
    await execa("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      prefix,
      join(project, "dist/cli.tgz"),
    ]);
    bin = join(prefix, "node_modules/.bin/hostile");
  });
  beforeEach(() => {
    cache = tempDir("inter-hostile-cache-");
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it.each(["hang", "html", "control", "redirect", "refusal"])(
    "%s → AUTH_FAILED, exit 10, no secret echoed",
    async (which) => {
      mode = which;
      const result = await execa(bin, ["things", "list"], {
        env: {
          HOSTILE_CLIENT_ID: "hostile-id",
          HOSTILE_CLIENT_SECRET: "hostile-secret-value",
          XDG_CACHE_HOME: cache,
          HOME: cache,
          PATH: process.env.PATH!,
          AGENT_CLI_TIMEOUT_MS: "1500",
        },
        extendEnv: false,
        reject: false,
        stdin: "ignore",
        timeout: 60_000,
      });
      expect(result.timedOut).toBe(false);
      expect(result.exitCode, result.stderr).toBe(10);
      expect(JSON.parse(result.stderr).code).toBe("AUTH_FAILED");
      expect(result.stderr).not.toContain("hostile-secret-value");
      expect(result.stdout).toBe("");
    },
  );
});
