import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa, type ResultPromise } from "execa";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { API_KEY, buildAndInstall, exampleProject, startExampleApi } from "./example-api.js";

/**
 * Revision 2026-07-28 of MCP beside 2025-11-25, on the generated server: a client of the SDK's 2.x line negotiates the
 * new revision on stdio and over HTTP without falling back, one of the 1.x line still gets its session, and the
 * stateless requests' errors are the ones the revision names, each with its request's id.
 */
let api: Awaited<ReturnType<typeof startExampleApi>>;
let bin: string;
const state = tempDir("inter-mcp-revision-state-");
const running: ResultPromise[] = [];
let url: string;

const REVISION = "2026-07-28";
const meta = (version = REVISION) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
});
const env = () => ({ PATH: process.env.PATH!, XDG_STATE_HOME: state, ROOMS_BASE_URL: api.url, ROOMS_API_KEY: API_KEY });

beforeAll(async () => {
  api = await startExampleApi();
  const { prefix } = await buildAndInstall(exampleProject({ warm: true }));
  bin = join(prefix, "node_modules", ".bin", "rooms-mcp");
  const child = execa(bin, ["--http", "127.0.0.1:0"], { env: env(), extendEnv: false, reject: false, buffer: false });
  running.push(child);
  let stderr = "";
  url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /"listening":"([^"]+)"/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void child.then((r) => reject(new Error(`rooms-mcp ended (${r.exitCode}): ${stderr}`)));
  });
}, 300_000);
afterAll(async () => {
  for (const child of running) child.kill("SIGKILL");
  await api?.stop();
});

/** What a 2.x client negotiated and saw, on one transport, then closed. */
async function modern(transport: "stdio" | "http", mode: "auto" | { pin: string }) {
  const client = new ModernClient({ name: "revision-test", version: "1" }, { versionNegotiation: { mode } });
  await client.connect(
    transport === "http" ? new ModernHttp(new URL(url)) : new ModernStdio({ command: bin, args: [], env: env() }),
  );
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const call = await client.callTool({ name: "rooms_list", arguments: {} });
    return { version: client.getNegotiatedProtocolVersion(), server: client.getServerVersion(), tools, call };
  } finally {
    await client.close();
  }
}

/** A JSON-RPC answer, as the tests read it: a result's fields, or an error's code and data. */
interface JsonRpcAnswer {
  id: string | number;
  result: { ttlMs: number } & Record<string, unknown>;
  error: { code: number; message: string; data: unknown };
}

/** One JSON-RPC request posted as a client of the revision sends it, headers overridable. */
async function post(body: Record<string, unknown>, headers: Record<string, string | undefined> = {}) {
  const sent: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": REVISION,
    "mcp-method": String(body.method),
  };
  for (const [name, value] of Object.entries(headers))
    if (value === undefined) delete sent[name];
    else sent[name] = value;
  const response = await fetch(url, { method: "POST", headers: sent, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as JsonRpcAnswer };
}

/** Lines written to a stdio server in one session and the answers it wrote, by id. */
async function stdio(lines: object[]) {
  const child = execa(bin, [], {
    env: env(),
    extendEnv: false,
    reject: false,
    input: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  });
  const { stdout } = await child;
  return new Map(
    stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .map((m) => [m.id, m]),
  );
}

describe("MCP revision 2026-07-28 beside 2025-11-25", () => {
  it("a 2.x client negotiates 2026-07-28 on stdio and over HTTP, auto or pinned, and lists and calls as in a session", async () => {
    const legacy = new LegacyClient({ name: "legacy", version: "1" });
    await legacy.connect(new LegacyStdio({ command: bin, args: [], env: env() }));
    const session = (await legacy.listTools()).tools.map((t) => t.name);
    expect(legacy.getServerVersion()).toMatchObject({ name: "rooms" });
    await legacy.close();
    for (const transport of ["stdio", "http"] as const)
      for (const mode of ["auto", { pin: REVISION }] as const) {
        const seen = await modern(transport, mode);
        expect(seen.version, `${transport} ${JSON.stringify(mode)}`).toBe(REVISION);
        expect(seen.server).toMatchObject({ name: "rooms", version: "0.1.0" });
        expect(seen.tools).toEqual(session);
        expect(seen.call.isError).toBeFalsy();
        expect(JSON.parse((seen.call.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ ok: true });
      }
  }, 120_000);

  it("server/discover says the revisions, capabilities and who the server is; lists carry their caching fields", async () => {
    const discover = await post({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta() } });
    expect(discover.status).toBe(200);
    expect(discover.body.result).toMatchObject({
      supportedVersions: expect.arrayContaining([REVISION, "2025-11-25"]),
      capabilities: { tools: {}, prompts: {}, resources: {} },
      resultType: "complete",
      ttlMs: expect.any(Number),
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "rooms" } },
    });
    for (const method of ["tools/list", "prompts/list", "resources/list", "resources/templates/list"]) {
      const listed = await post({ jsonrpc: "2.0", id: method, method, params: { _meta: meta() } });
      expect(listed.body.id).toBe(method);
      expect(listed.body.result, method).toMatchObject({ resultType: "complete", cacheScope: "public" });
      expect(Number.isInteger(listed.body.result.ttlMs) && listed.body.result.ttlMs >= 0).toBe(true);
    }
  });

  it("refuses what a request of the revision gets wrong, in the revision's order, with its codes, statuses and id", async () => {
    const discover = (params: object, id: number) => ({ jsonrpc: "2.0", id, method: "server/discover", params });
    const cases: Array<[string, Awaited<ReturnType<typeof post>>, number, number]> = [
      ["no _meta", await post(discover({}, 101)), 400, -32602],
      [
        "no client capabilities",
        await post(discover({ _meta: { "io.modelcontextprotocol/protocolVersion": REVISION } }, 102)),
        400,
        -32602,
      ],
      [
        "header and _meta disagree",
        await post(discover({ _meta: meta("v999.0.0") }, 103), { "mcp-protocol-version": REVISION }),
        400,
        -32020,
      ],
      [
        "a version nobody speaks",
        await post(discover({ _meta: meta("v999.0.0") }, 104), { "mcp-protocol-version": "v999.0.0" }),
        400,
        -32022,
      ],
      [
        "MCP-Protocol-Version missing",
        await post(discover({ _meta: meta() }, 111), { "mcp-protocol-version": undefined }),
        400,
        -32020,
      ],
      [
        "Mcp-Method missing",
        await post(
          { jsonrpc: "2.0", id: 105, method: "tools/list", params: { _meta: meta() } },
          {
            "mcp-method": undefined,
          },
        ),
        400,
        -32020,
      ],
      [
        "Mcp-Name missing on a call",
        await post({
          jsonrpc: "2.0",
          id: 106,
          method: "tools/call",
          params: { name: "rooms_list", arguments: {}, _meta: meta() },
        }),
        400,
        -32020,
      ],
      [
        "initialize, removed",
        await post({ jsonrpc: "2.0", id: 107, method: "initialize", params: { _meta: meta() } }),
        404,
        -32601,
      ],
      [
        "ping, removed",
        await post({ jsonrpc: "2.0", id: 108, method: "ping", params: { _meta: meta() } }),
        404,
        -32601,
      ],
      [
        "no such method",
        await post({ jsonrpc: "2.0", id: 109, method: "unknown/method", params: { _meta: meta() } }),
        404,
        -32601,
      ],
    ];
    for (const [what, answer, status, code] of cases) {
      expect(answer.status, what).toBe(status);
      expect(answer.body.error?.code, what).toBe(code);
      expect(typeof answer.body.id, what).toBe("number");
    }
    const unsupported = cases[3]![1].body.error.data;
    expect(unsupported).toEqual({ requested: "v999.0.0", supported: expect.arrayContaining([REVISION]) });
    // A client without clientInfo is served: it is a SHOULD.
    expect((await post(discover({ _meta: meta() }, 110))).status).toBe(200);
    // A name may travel base64-encoded; every result says who answered.
    const called = await post(
      { jsonrpc: "2.0", id: 112, method: "tools/call", params: { name: "rooms_list", arguments: {}, _meta: meta() } },
      { "mcp-name": `=?base64?${Buffer.from("rooms_list").toString("base64")}?=` },
    );
    expect(called.status).toBe(200);
    expect(called.body.result).toMatchObject({
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "rooms" } },
    });
  });

  it("on stdio a session and stateless requests share the server; an unknown resource or tool is invalid params", async () => {
    const answers = await stdio([
      { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta() } },
      { jsonrpc: "2.0", id: 2, method: "ping", params: { _meta: meta() } },
      { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "agent://rooms/none", _meta: meta() } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "no_such_tool", arguments: {}, _meta: meta() } },
      { jsonrpc: "2.0", id: 5, method: "server/discover", params: {} },
      {
        jsonrpc: "2.0",
        id: 6,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      },
      { jsonrpc: "2.0", id: 7, method: "ping" },
      { jsonrpc: "2.0", id: 8, method: "logging/setLevel", params: { level: "debug" } },
      {
        jsonrpc: "2.0",
        id: 9,
        method: "completion/complete",
        params: { ref: { type: "ref/prompt", name: "x" }, argument: { name: "a", value: "" } },
      },
    ]);
    expect(answers.get(1)?.result?.supportedVersions).toContain(REVISION);
    expect(answers.get(2)?.error?.code).toBe(-32601);
    expect(answers.get(3)?.error).toMatchObject({ code: -32602, data: { uri: "agent://rooms/none" } });
    expect(answers.get(4)?.error).toMatchObject({ code: -32602, data: { code: "UNKNOWN_COMMAND" } });
    expect(answers.get(5)?.error?.code).toBe(-32602);
    expect(answers.get(6)?.result?.protocolVersion).toBe("2025-11-25");
    expect(answers.get(6)?.result?.capabilities).toMatchObject({ logging: {}, completions: {} });
    expect(answers.get(7)?.result).toEqual({});
    expect(answers.get(8)?.result).toEqual({});
    expect(answers.get(9)?.result).toEqual({ completion: { values: [], hasMore: false } });
  }, 60_000);
});
