import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { execa, type ResultPromise } from "execa";
import { request } from "node:http";
import { connect } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { API_KEY, buildAndInstall, exampleProject, startExampleApi } from "./example-api.js";

let api: Awaited<ReturnType<typeof startExampleApi>>;
let prefix: string;
const state = tempDir("inter-mcp-http-state-");
const running: Array<{ child: ResultPromise; stderr: () => string }> = [];
/** What the MCP client sends as its own credential: it must never reach the CLI, the API, a response or a log. */
const CLIENT_TOKEN = "client-token-9f8e7d6c5b4a39281706";

beforeAll(async () => {
  api = await startExampleApi();
  ({ prefix } = await buildAndInstall(exampleProject({ warm: true })));
}, 300_000);
afterAll(async () => {
  for (const r of running) r.child.kill("SIGKILL");
  await api?.stop();
});

/** `rooms-mcp --http …` started as a host would; resolves with the URL it prints on stderr once it listens. */
async function host(args: string[] = ["--http", "127.0.0.1:0"], env: Record<string, string> = {}) {
  const child = execa(join(prefix, "node_modules", ".bin", "rooms-mcp"), args, {
    env: { PATH: process.env.PATH!, XDG_STATE_HOME: state, ROOMS_BASE_URL: api.url, ROOMS_API_KEY: API_KEY, ...env },
    extendEnv: false,
    reject: false,
    buffer: false,
    stdin: "ignore",
  });
  let stderr = "";
  const entry = { child, stderr: () => stderr };
  running.push(entry);
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /"listening":"([^"]+)"/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void child.then((r) => reject(new Error(`rooms-mcp ended (${r.exitCode}): ${stderr}`)));
  });
  return { url, child, stderr: () => stderr };
}

/** A raw HTTP request, with whatever Host and Origin a hostile page could send. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer }) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...options.headers,
        },
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/**
 * One HTTP exchange on a raw socket, as a client that sends its whole request before it reads (many do): the status
 * line it reads back, or the socket error it got instead (EPIPE, ECONNRESET).
 */
function rawSocket(
  url: string,
  head: string,
  body?: Buffer,
): Promise<{ status?: number; error?: string; sent: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let answer = "";
    let sent = 0;
    let settled = false;
    const done = (out: { status?: number; error?: string }) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ ...out, sent });
    };
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status && answer.includes("\r\n\r\n")) done({ status: Number(status[1]) });
    });
    socket.on("error", (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    socket.on("close", () => done({ error: "closed without an answer" }));
    socket.on("connect", async () => {
      socket.write(head);
      if (!body) return;
      // In 64 KiB writes, each awaited: the client is still sending when a server that answers early closes.
      for (let at = 0; at < body.length && !settled; at += 65_536) {
        const piece = body.subarray(at, at + 65_536);
        await new Promise<void>((next) => socket.write(piece, () => next()));
        sent += piece.length;
      }
    });
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("rooms-mcp over Streamable HTTP", () => {
  it("serves a whole session to the SDK's client: tools listed, a read against the Rooms API, the client's token never passed on", async () => {
    // --cli a recorder: the environment and arguments each tool call's CLI gets.
    const dir = tempDir("inter-mcp-http-cli-");
    const log = join(dir, "calls.log");
    const recorder = join(dir, "rooms-recorded");
    writeFileSync(
      recorder,
      `#!/bin/sh\n{ env; printf 'argv: %s\\n' "$*"; } >> '${log}'\nexec '${join(prefix, "node_modules", ".bin", "rooms")}' "$@"\n`,
      { mode: 0o755 },
    );
    const server = await host(["--http", "127.0.0.1:0", "--cli", recorder]);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "inter-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${CLIENT_TOKEN}` } },
      }),
    );
    expect(client.getServerVersion()).toMatchObject({ name: "rooms" });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["rooms_list", "bookings_cancel", "report_issue"]));
    const listed = await client.callTool({ name: "rooms_list", arguments: {} });
    expect(listed.isError, JSON.stringify(listed)).toBeFalsy();
    expect((listed.structuredContent as { result: Array<{ id: string }> }).result.map((r) => r.id)).toContain(
      "rm_cosmos",
    );
    expect(JSON.parse((listed.content as Array<{ text: string }>)[0]!.text)).toEqual(listed.structuredContent);
    const refused = await client.callTool({ name: "bookings_cancel", arguments: { "booking-id": "bk_x" } });
    expect(refused).toMatchObject({ isError: true, structuredContent: { code: "CONFIRMATION_REQUIRED" } });
    await client.close();
    // The API answered with the server's own credential; the client's token reached neither the CLI nor any answer or log.
    const calls = readFileSync(log, "utf8");
    expect(calls).toContain("argv: rooms list");
    expect(calls).toContain(`ROOMS_API_KEY=${API_KEY}`);
    expect(calls).not.toContain(CLIENT_TOKEN);
    expect(JSON.stringify([tools, listed, refused])).not.toContain(API_KEY);
    expect(JSON.stringify([tools, listed, refused])).not.toContain(CLIENT_TOKEN);
    expect(server.stderr()).not.toContain(API_KEY);
    expect(server.stderr()).not.toContain(CLIENT_TOKEN);
  });

  it("refuses a foreign Origin and a rebinding Host (403), an oversized body (413), a body that is not JSON (-32700), a GET (405); then still serves", async () => {
    const server = await host();
    const port = new URL(server.url).port;
    const foreign = await raw(server.url, { headers: { origin: "http://evil.example" }, body: initialize });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { message: expect.stringMatching(/Origin/) },
    });
    expect((await raw(server.url, { headers: { host: `evil.example:${port}` }, body: initialize })).status).toBe(403);
    // The server's own origin (a page it served, were it to serve one) is allowed.
    expect((await raw(server.url, { headers: { origin: `http://127.0.0.1:${port}` }, body: initialize })).status).toBe(
      200,
    );
    expect((await raw(server.url, { body: Buffer.alloc(5 * 1024 * 1024, 0x20) })).status).toBe(413);
    const garbled = await raw(server.url, { body: "{not json" });
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body)).toMatchObject({ id: null, error: { code: -32700 } });
    expect((await raw(server.url, { method: "GET" })).status).toBe(405);
    const ok = await raw(server.url, { body: initialize });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ id: 1, result: { serverInfo: { name: "rooms" } } });
    // Graceful shutdown: SIGTERM ends it with 0.
    server.child.kill("SIGTERM");
    expect((await server.child).exitCode).toBe(0);
  });

  it("answers 413 to every oversized body, whatever the client's connection header or size, read to its end; asks none that Expect: 100-continue", async () => {
    const server = await host();
    const port = new URL(server.url).port;
    const post = (bytes: number, headers: string) =>
      rawSocket(
        server.url,
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\n${headers}\r\n`,
        Buffer.alloc(bytes, 0x20),
      );
    for (const [bytes, headers] of [
      [5 * 1024 * 1024, "Connection: close\r\n"],
      [5 * 1024 * 1024, "Connection: keep-alive\r\n"],
      [24 * 1024 * 1024, "Connection: close\r\n"],
    ] as const) {
      const answer = await post(bytes, headers);
      expect(answer, `${bytes} bytes, ${headers.trim()}`).toMatchObject({ status: 413, sent: bytes });
    }
    // Asked first, the client sends nothing and is told at once.
    const asked = await rawSocket(
      server.url,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${5 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(asked).toMatchObject({ status: 413, sent: 0 });
    expect((await raw(server.url, { body: initialize })).status).toBe(200);
    server.child.kill("SIGTERM");
    expect((await server.child).exitCode).toBe(0);
  });

  it("is stopped cleanly by a SIGTERM sent the moment it announces its address", async () => {
    // Until a handler is added SIGTERM kills the process outright: the address must come after the handlers.
    const bin = join(prefix, "node_modules", ".bin", "rooms-mcp");
    for (let i = 0; i < 10; i++) {
      const child = execa(bin, ["--http", "127.0.0.1:0"], {
        reject: false,
        buffer: false,
        stdin: "ignore",
        stdout: "ignore",
      });
      child.stderr!.once("data", () => child.kill("SIGTERM"));
      const ended = await child;
      expect({ exitCode: ended.exitCode, signal: ended.signal }, `run ${i + 1}`).toEqual({
        exitCode: 0,
        signal: undefined,
      });
    }
  });

  it("exits at SIGTERM though a client holds a connection with half-sent headers", async () => {
    const server = await host();
    const { hostname, port } = new URL(server.url);
    const holder = connect(Number(port), hostname);
    await new Promise<void>((resolve) => holder.on("connect", () => resolve()));
    holder.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    holder.on("error", () => {});
    const closed = new Promise<void>((resolve) => holder.on("close", () => resolve()));
    const asked = performance.now();
    server.child.kill("SIGTERM");
    expect((await server.child).exitCode).toBe(0);
    await closed;
    // Measured about 0.1 s; the bound the docs promise is 2 s, and a loaded machine may add to a process's exit.
    expect(performance.now() - asked).toBeLessThan(10_000);
  });

  it("takes only clients that present AGENT_CLI_MCP_HTTP_TOKEN when it is set, and never passes that token on", async () => {
    const server = await host(["--http", "127.0.0.1:0"], { AGENT_CLI_MCP_HTTP_TOKEN: CLIENT_TOKEN });
    expect((await raw(server.url, { body: initialize })).status).toBe(401);
    expect((await raw(server.url, { body: initialize, headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const client = new Client({ name: "inter-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${CLIENT_TOKEN}` } },
      }),
    );
    const listed = await client.callTool({ name: "rooms_list", arguments: {} });
    expect(listed.isError, JSON.stringify(listed)).toBeFalsy();
    await client.close();
    expect(server.stderr()).not.toContain(CLIENT_TOKEN);
  });

  it("binds to loopback unless told otherwise; bad addresses end it with a coded error and exit 2", async () => {
    const start = async (args: string[]) => {
      const run = await execa(join(prefix, "node_modules", ".bin", "rooms-mcp"), args, {
        reject: false,
        stdin: "ignore",
        env: { ROOMS_API_KEY: API_KEY },
      });
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).not.toContain(API_KEY);
      return JSON.parse(run.stderr) as {
        code: string;
        message: string;
        suggestion: string;
        details?: { flag?: string };
      };
    };
    expect(await start(["--http", "0.0.0.0:0"])).toMatchObject({
      code: "INVALID_VALUE",
      message: expect.stringMatching(/not a loopback address/),
      suggestion: expect.stringMatching(/--allow-remote/),
      details: { flag: "http" },
    });
    expect(await start(["--http", "localhost:99999"])).toMatchObject({
      code: "INVALID_VALUE",
      details: { flag: "http" },
    });
    expect(await start(["--allow-remote"])).toMatchObject({ code: "INVALID_VALUE", details: { flag: "allow-remote" } });
    expect(await start(["--http", "127.0.0.1:0", "--allow-origin", "not an origin"])).toMatchObject({
      code: "INVALID_VALUE",
      details: { flag: "allow-origin" },
    });
    // An origin given with --allow-origin is let in.
    const server = await host(["--http", "127.0.0.1:0", "--allow-origin", "https://chat.example.com"]);
    expect((await raw(server.url, { headers: { origin: "https://chat.example.com" }, body: initialize })).status).toBe(
      200,
    );
    expect((await raw(server.url, { headers: { origin: "https://other.example.com" }, body: initialize })).status).toBe(
      403,
    );
  });
});
