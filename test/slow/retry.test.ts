import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa } from "execa";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { builtCli, tempDir } from "../helpers.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";

/**
 * One generated CLI, built by `inter build` and installed from its cli.tgz, calling a loopback server that answers
 * each request from a script (429 and 503, with and without Retry-After, then 200): what is retried, how often, with
 * which idempotency key, and what the agent is told when the CLI stops. Backoffs are made tiny with
 * AGENT_CLI_RETRY_BASE_MS, and every Retry-After a test waits on is 0 or in the past: nothing here sleeps for long.
 */
const OPENAPI = `openapi: 3.1.0
info: { title: Shop, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
paths:
  /items:
    get:
      operationId: listItems
      summary: List items
      parameters:
        - { name: retry, in: query, schema: { type: boolean } }
        - { name: max-retry-wait, in: query, schema: { type: integer } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } }
        "429": { description: slow down }
    post:
      operationId: createItem
      summary: Create an item
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /items/{id}:
    put:
      operationId: replaceItem
      summary: Replace an item
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /orders:
    post:
      operationId: createOrder
      summary: Create an order
      parameters:
        - { name: Idempotency-Key, in: header, required: true, description: A key that makes the request safe to repeat., schema: { type: string } }
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [item], properties: { item: { type: string } } } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /uploads:
    post:
      operationId: uploadFile
      summary: Upload a file
      parameters:
        - { name: X-Idempotency-Key, in: header, schema: { type: string, maxLength: 40 } }
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: { type: object, required: [file], properties: { title: { type: string }, file: { type: string, format: binary } } }
      responses:
        "201": { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
`;

interface Answer {
  status: number;
  headers?: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("429 and 503: retried within bounds for what is safe to repeat, RATE_LIMITED with when to retry", () => {
  let bin: string;
  let caps: Capabilities;
  let server: Server;
  let url: string;
  /** The answers to give, in order; once used up, every request is answered `otherwise` (200 unless a test says). */
  let script: Answer[] = [];
  let otherwise: Answer = { status: 200 };
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string; raw: Buffer }> = [];

  beforeAll(async () => {
    const cli = await builtCli("Shop", OPENAPI, { context: "# Shop\n\nA small shop.\n", prefix: "inter-retry-" });
    caps = cli.caps;
    bin = cli.bin;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          raw: Buffer.concat(chunks),
        });
        const answer = script.shift() ?? otherwise;
        const body =
          answer.status < 300
            ? req.method === "GET"
              ? '[{"id":"i1"}]'
              : '{"id":"x1"}'
            : JSON.stringify({ message: answer.status === 429 ? "Too many requests" : "Unavailable" });
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  beforeEach(() => {
    script = [];
    otherwise = { status: 200 };
    seen.length = 0;
  });

  const words = (operationId: string): string[] =>
    caps.commands.find((c) => c.operation.operationId === operationId)!.path;
  const env = () => ({ SHOP_BASE_URL: url, AGENT_CLI_RETRY_BASE_MS: "1", PATH: process.env.PATH! });
  const shop = async (args: string[], input?: Buffer) => {
    const run = await execa(bin, args, {
      env: env(),
      extendEnv: false,
      reject: false,
      ...(input ? { input } : { stdin: "ignore" as const }),
    });
    return {
      ...run,
      json: run.stdout ? JSON.parse(run.stdout) : undefined,
      error: run.stderr ? JSON.parse(run.stderr) : undefined,
    };
  };
  const list = () => shop(words("listItems"));
  const retryAfter = (value: string): Answer => ({ status: 429, headers: { "retry-after": value } });

  it("records the declared idempotency key header on the command, and its flag is never required", () => {
    const order = caps.commands.find((c) => c.operation.operationId === "createOrder")!;
    expect(order.retry).toEqual({ idempotencyHeader: "Idempotency-Key" });
    expect(order.flags.find((f) => f.wire === "Idempotency-Key")).toMatchObject({
      flag: "idempotency-key",
      in: "header",
      required: false,
      description:
        "A key that makes the request safe to repeat. Generated once per call when not given, the same on every retry.",
    });
    expect(caps.commands.find((c) => c.operation.operationId === "uploadFile")!.retry).toEqual({
      idempotencyHeader: "X-Idempotency-Key",
    });
    for (const id of ["listItems", "createItem", "replaceItem"])
      expect(caps.commands.find((c) => c.operation.operationId === id)).not.toHaveProperty("retry");
  });

  it("an API parameter named like a retry global gets another flag; the global keeps its meaning", async () => {
    const flags = caps.commands.find((c) => c.operation.operationId === "listItems")!.flags;
    expect(flags.map((f) => [f.flag, f.wire])).toEqual([
      ["query-retry", "retry"],
      ["query-max-retry-wait", "max-retry-wait"],
    ]);
    otherwise = retryAfter("0");
    const run = await shop([...words("listItems"), "--query-retry", "--query-max-retry-wait", "7", "--no-retry"]);
    expect(run.error).toMatchObject({ code: "RATE_LIMITED", details: { attempts: 1, retry: "off" } });
    expect(seen.map((s) => s.url)).toEqual(["/items?retry=true&max-retry-wait=7"]);
  });

  it("429 with Retry-After: 0, then 200: succeeds on the second request", async () => {
    script = [retryAfter("0")];
    const run = await list();
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json.result).toEqual([{ id: "i1" }]);
    expect(seen).toHaveLength(2);
  });

  it("Retry-After as an HTTP date, past or a moment away, is honoured", async () => {
    script = [retryAfter(new Date(Date.now() - 60_000).toUTCString()), retryAfter(new Date().toUTCString())];
    const run = await list();
    expect(run.exitCode, run.stderr).toBe(0);
    expect(seen).toHaveLength(3);
  });

  it("503 without Retry-After, then 200, for a GET and a PUT: backed off and retried", async () => {
    script = [{ status: 503 }, { status: 503 }];
    const get = await list();
    expect(get.exitCode, get.stderr).toBe(0);
    expect(seen).toHaveLength(3);
    seen.length = 0;
    script = [{ status: 503 }];
    const put = await shop([...words("replaceItem"), "--id", "i1", "--name", "x"]);
    expect(put.exitCode, put.stderr).toBe(0);
    expect(seen.map((s) => [s.method, s.body])).toEqual([
      ["PUT", '{"name":"x"}'],
      ["PUT", '{"name":"x"}'],
    ]);
  });

  it("a server that answers 429 forever: bounded attempts, then RATE_LIMITED with retry_after and attempts", async () => {
    otherwise = retryAfter("0");
    const run = await list();
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe("");
    expect(seen).toHaveLength(4);
    expect(run.error).toMatchObject({
      error: true,
      code: "RATE_LIMITED",
      message: expect.stringContaining("gave up after 4 attempts"),
      suggestion: expect.stringContaining("Retry after 0 s"),
      details: { status: 429, retry_after: 0, attempts: 4, retry: "exhausted", retry_at: expect.any(String) },
    });
    // Without Retry-After too: backoff, the same bound, and retry_after the wait that would have come next.
    seen.length = 0;
    otherwise = { status: 429 };
    const bare = await list();
    expect(bare.error).toMatchObject({ code: "RATE_LIMITED", details: { attempts: 4, retry: "exhausted" } });
    expect(bare.error.details.retry_after).toBeGreaterThanOrEqual(1);
    expect(seen).toHaveLength(4);
  });

  it("503 forever ends as SERVER_ERROR with the same details", async () => {
    otherwise = { status: 503, headers: { "retry-after": "0" } };
    const run = await list();
    expect(run.exitCode).toBe(1);
    expect(seen).toHaveLength(4);
    expect(run.error).toMatchObject({
      code: "SERVER_ERROR",
      details: { status: 503, retry_after: 0, attempts: 4, retry: "exhausted" },
    });
  });

  it("a Retry-After of a year fails at once, saying when to retry, and never waits", async () => {
    otherwise = retryAfter(String(365 * 24 * 3600));
    const run = await list();
    expect(run.exitCode).toBe(1);
    expect(seen).toHaveLength(1);
    expect(run.error).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringContaining("the API asks to wait 31536000 s"),
      suggestion: expect.stringMatching(/^Retry after 31536000 s \(at \d{4}-.*--max-retry-wait/),
      details: { retry_after: 31536000, attempts: 1, retry: "beyond-cap" },
    });
    const at = Date.parse(run.error.details.retry_at);
    expect(at - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);
    // A date a year away is the same.
    seen.length = 0;
    otherwise = retryAfter(new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
    const date = await list();
    expect(date.error).toMatchObject({ code: "RATE_LIMITED", details: { attempts: 1, retry: "beyond-cap" } });
    expect(seen).toHaveLength(1);
  });

  it("a POST without an idempotency key header is sent once: RATE_LIMITED saying why", async () => {
    otherwise = retryAfter("0");
    const run = await shop([...words("createItem"), "--name", "pen"]);
    expect(run.exitCode).toBe(1);
    expect(seen).toHaveLength(1);
    expect(run.error).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringContaining("POST without an idempotency key header"),
      details: { retry_after: 0, attempts: 1, retry: "off" },
    });
    expect(seen[0]!.headers).not.toHaveProperty("idempotency-key");
  });

  it("a POST with a declared Idempotency-Key is retried with one generated key; a key the user gives is kept", async () => {
    script = [retryAfter("0"), { status: 503 }];
    const run = await shop([...words("createOrder"), "--item", "pen"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(seen).toHaveLength(3);
    const keys = seen.map((s) => s.headers["idempotency-key"]);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    expect(seen.every((s) => s.body === '{"item":"pen"}')).toBe(true);

    // Another call, another key.
    seen.length = 0;
    await shop([...words("createOrder"), "--item", "pen"]);
    expect(seen[0]!.headers["idempotency-key"]).toMatch(UUID);
    expect(seen[0]!.headers["idempotency-key"]).not.toBe(keys[0]);

    seen.length = 0;
    script = [retryAfter("0")];
    const given = await shop([...words("createOrder"), "--item", "pen", "--idempotency-key", "order-2024-0001"]);
    expect(given.exitCode, given.stderr).toBe(0);
    expect(seen.map((s) => s.headers["idempotency-key"])).toEqual(["order-2024-0001", "order-2024-0001"]);
  });

  it("an upload from a file is sent again byte for byte; one from stdin is sent once", async () => {
    const dir = tempDir("inter-retry-upload-");
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    writeFileSync(join(dir, "photo.bin"), bytes);
    script = [retryAfter("0")];
    const run = await shop([...words("uploadFile"), "--title", "photo", "--file", join(dir, "photo.bin")]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(seen).toHaveLength(2);
    // Each attempt is built anew (its multipart boundary too): the parts are the same, the file byte for byte.
    const parts = (s: (typeof seen)[number]) =>
      s.raw
        .toString("latin1")
        .split(String(s.headers["content-type"]).replace(/^.*boundary=/, ""))
        .slice(1);
    expect(parts(seen[1]!)).toEqual(parts(seen[0]!));
    expect(seen[0]!.raw.includes(bytes)).toBe(true);
    // The key fits the header's maxLength (40): a UUID, the same on both attempts.
    expect(seen[0]!.headers["x-idempotency-key"]).toMatch(UUID);
    expect(seen[1]!.headers["x-idempotency-key"]).toBe(seen[0]!.headers["x-idempotency-key"]);

    seen.length = 0;
    script = [retryAfter("0")];
    const piped = await shop([...words("uploadFile"), "--title", "photo", "--file", "-"], bytes);
    expect(seen).toHaveLength(1);
    expect(piped.error).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringContaining("read from stdin once"),
      details: { attempts: 1, retry: "off" },
    });
    const dry = await shop([...words("uploadFile"), "--title", "photo", "--file", "-", "--dry-run"], bytes);
    expect(dry.json.result.retry).toEqual({
      on: [],
      reason: "the request body is read from stdin once and cannot be sent again",
    });
  });

  it("--no-retry sends once", async () => {
    otherwise = retryAfter("0");
    const run = await shop([...words("listItems"), "--no-retry"]);
    expect(seen).toHaveLength(1);
    expect(run.error).toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringContaining("not retried (--no-retry)"),
      details: { attempts: 1, retry: "off", retry_after: 0 },
    });
  });

  it("--max-retry-wait 0: a Retry-After of 0 is still retried, a backoff is not; a bad value is INVALID_VALUE", async () => {
    script = [retryAfter("0")];
    const zero = await shop([...words("listItems"), "--max-retry-wait", "0"]);
    expect(zero.exitCode, zero.stderr).toBe(0);
    expect(seen).toHaveLength(2);

    seen.length = 0;
    script = [{ status: 429 }];
    const bare = await shop([...words("listItems"), "--max-retry-wait=0"]);
    expect(seen).toHaveLength(1);
    expect(bare.error).toMatchObject({ code: "RATE_LIMITED", details: { attempts: 1, retry: "beyond-cap" } });

    seen.length = 0;
    for (const bad of ["-1", "soon", "3601", ""]) {
      const run = await shop([...words("listItems"), `--max-retry-wait=${bad}`]);
      expect(run.exitCode, bad).toBe(2);
      expect(run.error, bad).toMatchObject({ code: "INVALID_VALUE", details: { flag: "max-retry-wait" } });
    }
    expect(seen).toHaveLength(0);
    // A Retry-After of 2 s with 1.5 s allowed: refused at once, saying what is left.
    script = [retryAfter("2")];
    const short = await shop([...words("listItems"), "--max-retry-wait", "1.5"]);
    expect(short.error).toMatchObject({ code: "RATE_LIMITED", details: { retry: "beyond-cap", retry_after: 2 } });
    expect(short.error.message).toContain("more than the 1.5 s left of --max-retry-wait");
  });

  it("--dry-run says what a 429 or 503 would lead to; --describe says it for each command", async () => {
    const get = await shop([...words("listItems"), "--dry-run"]);
    expect(get.json.result.retry).toEqual({ on: [429, 503], max_attempts: 4, max_wait_s: 30 });
    const capped = await shop([...words("listItems"), "--dry-run", "--max-retry-wait", "5"]);
    expect(capped.json.result.retry).toEqual({ on: [429, 503], max_attempts: 4, max_wait_s: 5 });
    const off = await shop([...words("listItems"), "--dry-run", "--no-retry"]);
    expect(off.json.result.retry).toEqual({ on: [], reason: "--no-retry" });
    const post = await shop([...words("createItem"), "--name", "pen", "--dry-run"]);
    expect(post.json.result.retry).toEqual({
      on: [],
      reason: "POST without an idempotency key header: sent twice it could act twice",
    });
    const order = await shop([...words("createOrder"), "--item", "pen", "--dry-run"]);
    expect(order.json.result.retry).toEqual({
      on: [429, 503],
      max_attempts: 4,
      max_wait_s: 30,
      idempotency_header: "Idempotency-Key",
      idempotency_key: "generated",
    });
    expect(order.json.result.request.headers["idempotency-key"]).toMatch(UUID);
    const given = await shop([...words("createOrder"), "--item", "pen", "--idempotency-key", "k-1", "--dry-run"]);
    expect(given.json.result.retry).toMatchObject({ idempotency_key: "given" });
    expect(given.json.result.request.headers["idempotency-key"]).toBe("k-1");
    expect(seen).toHaveLength(0);

    const describe = await shop(["--describe", "--all"]);
    const described = Object.fromEntries(
      describe.json.commands.map((c: { name: string; retry: unknown }) => [c.name, c.retry]),
    );
    expect(described).toEqual({
      [words("listItems").join(" ")]: { on: [429, 503], max_attempts: 4, max_wait_s: 30 },
      [words("replaceItem").join(" ")]: { on: [429, 503], max_attempts: 4, max_wait_s: 30 },
      [words("createItem").join(" ")]: {
        on: [],
        reason: "POST without an idempotency key header: sent twice it could act twice",
      },
      [words("createOrder").join(" ")]: {
        on: [429, 503],
        max_attempts: 4,
        max_wait_s: 30,
        idempotency_header: "Idempotency-Key",
      },
      [words("uploadFile").join(" ")]: {
        on: [429, 503],
        max_attempts: 4,
        max_wait_s: 30,
        idempotency_header: "X-Idempotency-Key",
      },
    });
    expect(describe.json.retry).toContain("--max-retry-wait");
    const help = await shop(["--help"]);
    const globals = Object.fromEntries(help.json.globalFlags.map((g: { name: string }) => [g.name, g]));
    expect(globals["--retry"]).toMatchObject({ type: "boolean", default: true, negation: "--no-retry" });
    expect(globals["--max-retry-wait"]).toMatchObject({ type: "number", default: 30, minimum: 0, maximum: 3600 });
  });

  it("over MCP, a tool call is retried the same way (the server runs the CLI)", async () => {
    const transport = new StdioClientTransport({
      command: `${bin}-mcp`,
      env: { ...env(), XDG_STATE_HOME: tempDir("inter-retry-state-") },
      stderr: "pipe",
    });
    const client = new Client({ name: "inter-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      script = [retryAfter("0"), { status: 503 }];
      const ok = await client.callTool({ name: words("listItems").join("_"), arguments: {} });
      expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
      expect(ok.structuredContent).toMatchObject({ ok: true, result: [{ id: "i1" }] });
      expect(seen).toHaveLength(3);
      seen.length = 0;
      otherwise = retryAfter(String(365 * 24 * 3600));
      const limited = await client.callTool({ name: words("listItems").join("_"), arguments: {} });
      expect(limited.isError).toBe(true);
      expect(limited.structuredContent).toMatchObject({
        code: "RATE_LIMITED",
        details: { retry_after: 31536000, attempts: 1 },
      });
      expect(seen).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

/**
 * With AWS Signature Version 4 every attempt is signed again, over the same bytes: an upload retried after a 429
 * carries, on each attempt, a signature and the sha256 of exactly the body the server received (the request is built
 * once, so its multipart boundary and the digest signed stay the same).
 */
const SIGNED = `openapi: 3.0.3
info: { title: Vault, version: "1.0.0" }
servers: [{ url: "http://vault.us-west-2.amazonaws.com" }]
security: [{ hmac: [] }]
components:
  securitySchemes:
    hmac:
      type: apiKey
      name: Authorization
      in: header
      x-amazon-apigateway-authtype: awsSigv4
paths:
  /files:
    post:
      operationId: putFile
      summary: Store a file
      parameters:
        - { name: Idempotency-Key, in: header, schema: { type: string } }
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema: { type: object, properties: { title: { type: string }, file: { type: string, format: binary } } }
      responses:
        "201": { description: stored, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
`;

describe("429 on a request signed with AWS Signature Version 4: each attempt signed again over the same body", () => {
  let bin: string;
  let server: Server;
  let url: string;
  let script: Answer[] = [];
  const seen: Array<{ headers: IncomingHttpHeaders; raw: Buffer }> = [];

  beforeAll(async () => {
    ({ bin } = await builtCli("Vault", SIGNED, {
      context: "# Vault\n\nFiles kept on AWS.\n",
      prefix: "inter-retry-sigv4-",
    }));
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ headers: req.headers, raw: Buffer.concat(chunks) });
        const answer = script.shift() ?? { status: 201 };
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end('{"id":"f1"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("signs every attempt, each over the body as received", async () => {
    const dir = tempDir("inter-retry-sigv4-file-");
    writeFileSync(join(dir, "notes.txt"), "x".repeat(50_000));
    script = [
      { status: 429, headers: { "retry-after": "0" } },
      { status: 503, headers: { "retry-after": "0" } },
    ];
    const run = await execa(bin, ["files", "store", "--title", "notes", "--file", join(dir, "notes.txt")], {
      env: {
        VAULT_BASE_URL: url,
        AWS_ACCESS_KEY_ID: "AKIDEXAMPLE0RETRYTEST",
        AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        AGENT_CLI_RETRY_BASE_MS: "1",
        PATH: process.env.PATH!,
        HOME: dir,
      },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(seen).toHaveLength(3);
    for (const s of seen) {
      expect(String(s.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE0RETRYTEST\//);
      expect(s.headers["x-amz-content-sha256"]).toBe(createHash("sha256").update(s.raw).digest("hex"));
    }
    expect(new Set(seen.map((s) => s.headers["idempotency-key"])).size).toBe(1);
    expect(seen[2]!.raw.equals(seen[0]!.raw)).toBe(true);
  });
});
