import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { execa } from "execa";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateTokens, MAX_TOOL_NAME, TOOL_NAME, toolsFor } from "../../src/runtime/mcp-tools.js";
import type { Command } from "../../src/runtime/manifest.js";
import { tempDir } from "../helpers.js";
import { API_KEY, buildAndInstall, exampleProject, startExampleApi } from "./example-api.js";
import { bigPackage } from "./mcp-big.js";

let api: Awaited<ReturnType<typeof startExampleApi>>;
let prefix: string;
const state = tempDir("inter-mcp-state-");
const open: Client[] = [];

beforeAll(async () => {
  api = await startExampleApi();
  ({ prefix } = await buildAndInstall(exampleProject({ warm: true })));
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await api?.stop();
});

/** An MCP client of a server program over stdio, as Claude Code or Codex start one. */
async function connect(command: string, args: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env.PATH!, XDG_STATE_HOME: state, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "inter-test", version: "1.0.0" });
  await client.connect(transport);
  open.push(client);
  return client;
}

const rooms = (args: string[] = [], env: Record<string, string> = { ROOMS_API_KEY: API_KEY }) =>
  connect(join(prefix, "node_modules", ".bin", "rooms-mcp"), args, { ROOMS_BASE_URL: api.url, ...env });

type Result = Awaited<ReturnType<Client["callTool"]>>;
const text = (r: Result) => JSON.parse((r.content as Array<{ type: string; text: string }>)[0]!.text);
const failed = (r: Result, code: string) => {
  expect(r.isError, JSON.stringify(r)).toBe(true);
  expect(r.structuredContent).toMatchObject({
    error: true,
    code,
    message: expect.any(String),
    suggestion: expect.any(String),
    issue: expect.stringMatching(/report_issue/),
  });
  // The text block is the whole structured result, the issue hint included.
  expect(text(r)).toEqual(r.structuredContent);
};

const ajv = () => {
  const validator = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(validator);
  return validator;
};

describe("rooms-mcp, installed from the example's cli.tgz, against the Rooms API", () => {
  it("lists one tool per command: valid schemas, safe names, the design's safety as annotations", async () => {
    const client = await rooms();
    expect(client.getServerVersion()).toMatchObject({ name: "rooms", version: expect.any(String) });
    expect(client.getInstructions()).toContain("Never cancel a booking the user did not name explicitly.");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "bookings_cancel",
      "bookings_create",
      "bookings_get",
      "bookings_list",
      "report_issue",
      "rooms_find_availability",
      "rooms_get",
      "rooms_list",
    ]);
    for (const tool of tools) {
      expect(tool.name).toMatch(TOOL_NAME);
      expect(tool.name.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
      expect(() => ajv().compile(tool.inputSchema)).not.toThrow();
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("bookings_cancel")).toMatchObject({
      annotations: { destructiveHint: true, readOnlyHint: false },
      inputSchema: { required: ["booking-id"], properties: { yes: { type: "boolean" } } },
    });
    expect(byName.get("rooms_list")!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get("bookings_create")!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    // The same limits --describe gives: an enum, a minimum.
    const availability = byName.get("rooms_find_availability")!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(
      Object.values(availability).some(
        (p) => p.minimum !== undefined || p.pattern !== undefined || p.format !== undefined,
      ),
    ).toBe(true);
    // --mcp-schema prints the tools the server serves.
    const exported = await execa(join(prefix, "node_modules", ".bin", "rooms"), ["--mcp-schema"], { reject: false });
    expect(JSON.parse(exported.stdout).tools).toEqual(tools);
  });

  it("a read tool answers with the CLI's envelope as structured content and, serialized, as text: rules, Skills and the issue hint worded for MCP", async () => {
    const client = await rooms();
    const listed = await client.callTool({ name: "rooms_list", arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toMatchObject({ ok: true, page: { has_more: false } });
    // A client that passes only the text to the model loses nothing.
    expect(text(listed)).toEqual(listed.structuredContent);
    const envelope = listed.structuredContent as {
      rules: string[];
      skills: Array<{ name: string; prompt: string; resource: string }>;
      issue: string;
    };
    expect(envelope.issue).toMatch(/call the report_issue tool/);
    expect(envelope.issue).not.toMatch(/rooms issue create/);
    expect(envelope.rules.join("\n")).toMatch(/"yes": true/);
    expect(envelope.rules.join("\n")).not.toMatch(/--yes|--dry-run|issue create/);
    // The Skills of the command's group, as the CLI names them, as prompts and resources.
    expect(envelope.skills).toEqual([
      expect.objectContaining({
        name: "book-a-room-for-a-meeting",
        prompt: "book-a-room-for-a-meeting",
        resource: "agent://rooms/skills/book-a-room-for-a-meeting",
      }),
    ]);
    expect(client.getInstructions()).toMatch(/report_issue/);
    const ids = (listed.structuredContent as { result: Array<{ id: string }> }).result.map((r) => r.id);
    expect(ids).toEqual(["rm_atlas", "rm_borealis", "rm_cosmos", "rm_delta", "rm_eclipse", "rm_fjord"]);
    expect(text(listed).result.map((r: { id: string }) => r.id)).toEqual(ids);
    const one = await client.callTool({ name: "rooms_get", arguments: { "room-id": "rm_cosmos" } });
    expect((one.structuredContent as { result: unknown }).result).toMatchObject({ id: "rm_cosmos", capacity: 8 });
  });

  it("creates a booking, refuses to cancel it without yes (nothing cancelled), cancels it with yes", async () => {
    const client = await rooms();
    const created = await client.callTool({
      name: "bookings_create",
      arguments: {
        "room-id": "rm_delta",
        date: "2026-12-11",
        start: "10:00",
        "duration-minutes": 30,
        attendees: 2,
        title: "MCP retro",
      },
    });
    expect(created.isError, JSON.stringify(created)).toBeFalsy();
    const id = (created.structuredContent as { result: { id: string; status: string } }).result.id;
    failed(
      await client.callTool({ name: "bookings_cancel", arguments: { "booking-id": id } }),
      "CONFIRMATION_REQUIRED",
    );
    failed(
      await client.callTool({ name: "bookings_cancel", arguments: { "booking-id": id, yes: false } }),
      "CONFIRMATION_REQUIRED",
    );
    const still = await client.callTool({ name: "bookings_get", arguments: { "booking-id": id } });
    expect((still.structuredContent as { result: { status: string } }).result.status).toBe("confirmed");
    const preview = await client.callTool({
      name: "bookings_cancel",
      arguments: { "booking-id": id, "dry-run": true },
    });
    expect(preview.structuredContent).toMatchObject({ ok: true, result: { dry_run: true, sent: false } });
    const cancelled = await client.callTool({ name: "bookings_cancel", arguments: { "booking-id": id, yes: true } });
    expect(cancelled.isError, JSON.stringify(cancelled)).toBeFalsy();
    const after = await client.callTool({ name: "bookings_get", arguments: { "booking-id": id } });
    expect((after.structuredContent as { result: { status: string } }).result.status).toBe("cancelled");
    failed(await client.callTool({ name: "bookings_get", arguments: { "booking-id": "bk_nope" } }), "NOT_FOUND");
  });

  it("validates before any request, as the CLI does: coded errors as isError results", async () => {
    const client = await rooms();
    failed(await client.callTool({ name: "rooms_get", arguments: {} }), "MISSING_FLAG");
    failed(await client.callTool({ name: "rooms_get", arguments: { "room-id": "../../etc/passwd" } }), "UNSAFE_INPUT");
    failed(
      await client.callTool({ name: "rooms_get", arguments: { "room-id": "rm_cosmos", colour: "red" } }),
      "UNKNOWN_FLAG",
    );
    failed(await client.callTool({ name: "rooms_get", arguments: { "room-id": { nested: true } } }), "INVALID_VALUE");
    failed(
      await client.callTool({
        name: "bookings_create",
        arguments: {
          "room-id": "rm_delta",
          date: "2026-12-11",
          start: "10:00",
          "duration-minutes": "long",
          attendees: 2,
          title: "x",
        },
      }),
      "INVALID_VALUE",
    );
    failed(await client.callTool({ name: "rooms_list", arguments: { yes: true } }), "UNKNOWN_FLAG");
    // A switch that does not apply says why, rather than "did you mean" the very argument given.
    const readDry = await client.callTool({ name: "rooms_list", arguments: { "dry-run": true } });
    failed(readDry, "UNKNOWN_FLAG");
    expect(text(readDry).message).toMatch(/"dry-run" does not apply to "rooms list": it only reads/);
    expect(text(readDry).suggestion).not.toMatch(/did you mean/i);
    failed(
      await client.callTool({ name: "rooms_get", arguments: { "room-id": "sk-live-0123456789abcdefghijklmnop" } }),
      "SECRET_IN_ARGUMENT",
    );
    // An unknown tool is a protocol error (invalid params), as the specification lists it.
    await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      data: { code: "UNKNOWN_COMMAND" },
    });
    // A key pasted as an argument's name is refused and never echoed back.
    const pasted = await client.callTool({
      name: "rooms_get",
      arguments: { "room-id": "rm_cosmos", "sk-live-0123456789abcdefghijklmnop": "x" },
    });
    failed(pasted, "UNKNOWN_FLAG");
    expect(JSON.stringify(pasted)).not.toContain("0123456789abcdefghijklmnop");
    const keyless = await rooms([], {});
    failed(await keyless.callTool({ name: "rooms_list", arguments: {} }), "CREDENTIAL_MISSING");
  });

  it("report_issue records what the issue hint asks for, on the server's machine: the CLI's issue list shows it", async () => {
    const client = await rooms();
    const reported = await client.callTool({
      name: "report_issue",
      arguments: { type: "bug", message: "rooms_get answers slowly" },
    });
    expect(reported.isError, JSON.stringify(reported)).toBeFalsy();
    expect(reported.structuredContent).toMatchObject({
      ok: true,
      result: { id: expect.stringMatching(/^ISS-/), type: "bug", status: "open", message: "rooms_get answers slowly" },
    });
    const listed = await execa(join(prefix, "node_modules", ".bin", "rooms"), ["issue", "list"], {
      reject: false,
      env: { XDG_STATE_HOME: state },
    });
    expect(JSON.parse(listed.stdout).result).toContainEqual(
      expect.objectContaining({ message: "rooms_get answers slowly" }),
    );
    failed(
      await client.callTool({ name: "report_issue", arguments: { type: "complaint", message: "x" } }),
      "INVALID_VALUE",
    );
  });

  it("answers a line that is not JSON with -32700 and one that is not a message with -32600 (id null), and keeps serving", async () => {
    const child = execa(join(prefix, "node_modules", ".bin", "rooms-mcp"), [], {
      env: { ROOMS_BASE_URL: api.url, XDG_STATE_HOME: state },
      reject: false,
      buffer: false,
      stdin: "pipe",
      stdout: "pipe",
    });
    const answers: Array<Record<string, unknown>> = [];
    let rest = "";
    const got = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (answers.length >= n ? resolve() : undefined);
        child.stdout!.on("data", (chunk: Buffer) => {
          rest += chunk.toString();
          const lines = rest.split("\n");
          rest = lines.pop()!;
          for (const line of lines) if (line.trim()) answers.push(JSON.parse(line));
          check();
        });
        check();
      });
    const five = got(5);
    child.stdin!.write('{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {\n');
    child.stdin!.write("not json at all\n");
    child.stdin!.write('{"jsonrpc": "2.0", "id": 7, "method": 42}\n');
    child.stdin!.write('[{"jsonrpc": "2.0", "id": 8, "method": "ping"}]\n');
    child.stdin!.write(
      '{"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}\n',
    );
    await five;
    child.stdin!.end();
    await child;
    expect(answers.slice(0, 4)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: "2.0", id: 7, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/batches/) } },
    ]);
    expect(answers[4]).toMatchObject({ jsonrpc: "2.0", id: 9, result: { serverInfo: { name: "rooms" } } });
  });

  it("a client that stops reading ends the session quietly: exit 0 and no stack trace, though it still holds stdin open", async () => {
    const child = execa(join(prefix, "node_modules", ".bin", "rooms-mcp"), [], {
      env: { ROOMS_BASE_URL: api.url, XDG_STATE_HOME: state },
      reject: false,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      buffer: { stdout: false, stderr: true },
    });
    const answered = new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    child.stdin!.write(
      '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}\n',
    );
    await answered;
    // The client closes its end of the server's stdout and asks once more: the answer has nowhere to go.
    child.stdout!.destroy();
    child.stdin!.write('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n');
    child.stdin!.write('{"jsonrpc": "2.0", "id": 3, "method": "ping"}\n');
    const result = await child;
    expect(result.signal).toBeUndefined();
    expect(result.exitCode).toBe(0);
    expect(String(result.stderr)).not.toMatch(/EPIPE|Error|at /);
  });

  it("serves the Skills as prompts and the brief, rules and Skills as resources", async () => {
    const client = await rooms();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      "book-a-room-for-a-meeting",
      "cancel-a-booking",
      "report-a-rooms-bookings-for-a-day",
    ]);
    const prompt = await client.getPrompt({ name: "cancel-a-booking" });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain("# ");
    expect((prompt.messages[0]!.content as { text: string }).text).toMatch(
      /^Through this MCP server each command below is a tool/,
    );
    // Unknown names are the client's mistake: invalid params (-32602), and the specification's "resource not found".
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/No prompt/),
    });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        "agent://rooms/brief",
        "agent://rooms/rules/workflow",
        "agent://rooms/skills/cancel-a-booking",
      ]),
    );
    const rule = await client.readResource({ uri: "agent://rooms/rules/workflow" });
    expect((rule.contents[0] as { text: string }).text).toContain("destructive commands need --yes");
    await expect(client.readResource({ uri: "agent://rooms/../../etc/passwd" })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringMatching(/No resource/),
    });
  });

  it("above --max-tools, a dynamic toolset: search the groups, describe one command, call it", async () => {
    // The search index ships in the package, built at emit: searching costs the server no indexing.
    const index = JSON.parse(
      readFileSync(join(prefix, "node_modules", "rooms-cli", "mcp", "search-index.json"), "utf8"),
    ) as { documentCount: number };
    expect(index.documentCount).toBe(7);
    const client = await rooms(["--max-tools", "3"]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "search_commands",
      "describe_command",
      "call_read",
      "call_write",
      "call_destructive",
      "report_issue",
    ]);
    // Honest hints: a client may run reads without asking, and asks before what may destroy.
    const hint = (name: string) => tools.find((t) => t.name === name)!.annotations;
    expect(hint("call_read")).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(hint("call_write")).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(hint("call_destructive")).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hint("report_issue")).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    const groups = await client.callTool({ name: "search_commands", arguments: {} });
    expect((groups.structuredContent as { groups: Array<{ name: string }> }).groups.map((g) => g.name)).toEqual([
      "bookings",
      "rooms",
    ]);
    const found = await client.callTool({ name: "search_commands", arguments: { query: "cancel booking" } });
    expect(
      (found.structuredContent as { commands: Array<{ command: string; tool: string }> }).commands[0],
    ).toMatchObject({ command: "bookings cancel", tool: "call_destructive" });
    const nothing = (await client.callTool({ name: "search_commands", arguments: { query: "zebra" } }))
      .structuredContent as { total: number; help: string };
    expect(nothing).toMatchObject({ total: 0, help: expect.stringMatching(/No command matches/) });
    const booked = (await client.callTool({ name: "search_commands", arguments: { query: "book a room", limit: 3 } }))
      .structuredContent as { commands: Array<{ command: string; tool: string }> };
    expect(booked.commands[0]).toMatchObject({ command: "bookings create", tool: "call_write" });
    const described = await client.callTool({ name: "describe_command", arguments: { command: "bookings cancel" } });
    expect(described.structuredContent).toMatchObject({
      command: "bookings cancel",
      tool: "call_destructive",
      annotations: { destructiveHint: true },
      arguments: { required: ["booking-id"] },
    });
    failed(
      await client.callTool({ name: "describe_command", arguments: { command: "bookings cancle" } }),
      "UNKNOWN_COMMAND",
    );
    failed(
      await client.callTool({
        name: "call_destructive",
        arguments: { command: "bookings cancel", arguments: { "booking-id": "bk_whatever" } },
      }),
      "CONFIRMATION_REQUIRED",
    );
    // The read-only tool never runs a write, nor the write tool a destructive command: the error names the right tool.
    const wrong = await client.callTool({
      name: "call_read",
      arguments: { command: "bookings cancel", arguments: { "booking-id": "bk_whatever", yes: true } },
    });
    failed(wrong, "WRONG_TOOL");
    expect(text(wrong)).toMatchObject({
      details: { tool: "call_destructive" },
      suggestion: expect.stringMatching(/call_destructive/),
    });
    failed(
      await client.callTool({
        name: "call_write",
        arguments: { command: "bookings cancel", arguments: { "booking-id": "bk_whatever", yes: true } },
      }),
      "WRONG_TOOL",
    );
    failed(
      await client.callTool({ name: "call_read", arguments: { command: "bookings create", arguments: {} } }),
      "WRONG_TOOL",
    );
    failed(
      await client.callTool({ name: "call_destructive", arguments: { command: "rooms list", arguments: {} } }),
      "WRONG_TOOL",
    );
    const listed = await client.callTool({ name: "call_read", arguments: { command: "rooms list", arguments: {} } });
    expect((listed.structuredContent as { result: unknown[] }).result).toHaveLength(6);
    expect(text(listed)).toEqual(listed.structuredContent);
  });

  it("refuses an argument of the wrong JSON type, or too long for a command line, before running the CLI", async () => {
    // --cli a recorder of the CLI's calls: what is refused here must never reach it.
    const dir = tempDir("inter-mcp-cli-");
    const log = join(dir, "calls.log");
    const recorder = join(dir, "rooms-recorded");
    writeFileSync(
      recorder,
      `#!/bin/sh\nprintf '%s\\n' "$1 $2" >> '${log}'\nexec '${join(prefix, "node_modules", ".bin", "rooms")}' "$@"\n`,
      { mode: 0o755 },
    );
    const client = await rooms(["--cli", recorder]);
    const refused = async (name: string, args: Record<string, unknown>, flag: string) => {
      const r = await client.callTool({ name, arguments: args });
      failed(r, "INVALID_VALUE");
      expect(text(r).details, JSON.stringify(r)).toMatchObject({ flag });
      return text(r) as { message: string; suggestion: string };
    };
    // A number is not quietly made a string, nor a string an array, nor a fraction an integer.
    expect((await refused("bookings_get", { "booking-id": 123 }, "booking-id")).message).toMatch(
      /"booking-id" expects a string/,
    );
    expect((await refused("bookings_list", { fields: "id" }, "fields")).message).toMatch(/"fields" expects an array/);
    await refused("rooms_get", { "room-id": ["rm_cosmos"] }, "room-id");
    await refused(
      "bookings_create",
      { "room-id": "rm_delta", date: "2026-12-11", start: "10:00", "duration-minutes": 30, attendees: 2.5, title: "x" },
      "attendees",
    );
    await refused(
      "bookings_create",
      { "room-id": "rm_delta", date: "2026-12-11", start: "10:00", "duration-minutes": "30", attendees: 2, title: "x" },
      "duration-minutes",
    );
    await refused("rooms_list", { "max-pages": "3" }, "max-pages");
    // 200,000 characters is over the kernel's bound on one argument (E2BIG): a tool result with a code, not a protocol error.
    const long = await refused("bookings_get", { "booking-id": "x".repeat(200_000) }, "booking-id");
    expect(long.message).toMatch(/"booking-id" is too long to pass on a command line \(200000 bytes; at most 65536\)/);
    expect(() => readFileSync(log, "utf8")).toThrow();
    // What is of the right type runs, through the recorder.
    const listed = await client.callTool({ name: "rooms_list", arguments: { fields: ["id"], "max-pages": 2 } });
    expect(listed.isError, JSON.stringify(listed)).toBeFalsy();
    expect((listed.structuredContent as { result: Array<Record<string, unknown>> }).result[0]).toEqual({
      id: "rm_atlas",
    });
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["rooms list"]);
  });

  it("a bad server argument ends it with a coded error and exit 2; a CLI gone after the start is a coded tool result", async () => {
    const mcp = join(prefix, "node_modules", ".bin", "rooms-mcp");
    const start = async (args: string[], env: Record<string, string> = {}) => {
      const run = await execa(mcp, args, { reject: false, stdin: "ignore", env });
      expect(run.exitCode, run.stderr).toBe(2);
      return JSON.parse(run.stderr) as {
        code: string;
        message: string;
        suggestion: string;
        details?: { flag?: string };
      };
    };
    expect(await start(["--max-tools", "lots"])).toMatchObject({
      code: "INVALID_VALUE",
      details: { flag: "max-tools" },
    });
    expect(await start(["--cli", "/nonexistent/rooms"])).toMatchObject({
      code: "INVALID_VALUE",
      message: expect.stringContaining("/nonexistent/rooms"),
      suggestion: expect.any(String),
      details: { flag: "cli" },
    });
    expect(await start(["--cli", "no-such-program-anywhere"])).toMatchObject({
      code: "INVALID_VALUE",
      message: expect.stringMatching(/no executable of that name on PATH/),
    });
    const dir = tempDir("inter-mcp-cli-");
    const plain = join(dir, "not-executable");
    writeFileSync(plain, "#!/bin/sh\n", { mode: 0o644 });
    expect(await start(["--cli", plain])).toMatchObject({ code: "INVALID_VALUE", details: { flag: "cli" } });
    expect(await start(["--cli", dir])).toMatchObject({ code: "INVALID_VALUE", details: { flag: "cli" } });
    expect(await start(["--cli"])).toMatchObject({ code: "INVALID_VALUE", message: "--cli needs a value." });
    expect(await start(["--cli", "--max-tools", "3"])).toMatchObject({
      code: "INVALID_VALUE",
      message: "--cli needs a value.",
    });
    const fromEnv = await start([], { AGENT_CLI_MCP_MAX_TOOLS: "abc" });
    expect(fromEnv).toMatchObject({ code: "INVALID_VALUE", details: { flag: "AGENT_CLI_MCP_MAX_TOOLS" } });
    expect(fromEnv.message).toMatch(/^AGENT_CLI_MCP_MAX_TOOLS must be an integer/);
    // Accepted at the start, removed before the call: the spawn's failure comes back as an isError result.
    const gone = join(dir, "rooms-gone");
    writeFileSync(gone, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const client = await rooms(["--cli", gone]);
    rmSync(gone);
    const call = await client.callTool({ name: "rooms_list", arguments: {} });
    failed(call, "INTERNAL_ERROR");
    expect(text(call).message).toMatch(/The CLI could not be started \(rooms-gone\): ENOENT/);
  });
});

describe("a ~3,000-operation public description (autotask.net) through MCP", () => {
  let dir: string;
  let commands: Command[];

  beforeAll(async () => {
    ({ dir, commands } = await bigPackage());
  });

  it("names every tool within 64 characters of [a-zA-Z0-9_-], unique, even where truncated", () => {
    const tools = toolsFor(commands);
    expect(tools.length).toBeGreaterThan(2000);
    const names = tools.map((t) => t.tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names)
      expect(name.length <= MAX_TOOL_NAME && TOOL_NAME.test(name) && !name.includes("__"), name).toBe(true);
    // Tight limits stay unique too (a client that prefixes the server's name leaves fewer characters).
    const tight = toolsFor(commands, 24).map((t) => t.tool.name);
    expect(new Set(tight).size).toBe(tight.length);
    expect(Math.max(...tight.map((n) => n.length))).toBeLessThanOrEqual(24);
    expect(tight.filter((n) => n.includes("__"))).toEqual([]);
  });

  it("offers six tools instead of thousands; search, describe and the call tools reach any command", async () => {
    const client = await connect(process.execPath, [join(dir, "autotask-mcp.cjs")], {
      AUTOTASK_BASE_URL: "http://127.0.0.1:9",
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "search_commands",
      "describe_command",
      "call_read",
      "call_write",
      "call_destructive",
      "report_issue",
    ]);
    const every = toolsFor(commands).map((t) => t.tool);
    // The figures in the report: what a client would load, one tool per command, against the dynamic toolset.
    const full = estimateTokens(JSON.stringify(every));
    const dynamic = estimateTokens(JSON.stringify(tools));
    expect(dynamic).toBeLessThan(1500);
    console.log(
      `tool list of ${every.length} commands: one tool each ${every.length + 1} tools, ~${full} tokens; dynamic ${tools.length} tools, ~${dynamic} tokens`,
    );
    expect(full).toBeGreaterThan(100 * dynamic);
    const groups = (await client.callTool({ name: "search_commands", arguments: {} })).structuredContent as {
      groups: Array<{ name: string; count: number }>;
    };
    expect(groups.groups.length).toBeGreaterThan(10);
    const found = (await client.callTool({ name: "search_commands", arguments: { query: "ticket notes", limit: 5 } }))
      .structuredContent as { total: number; commands: Array<{ command: string }> };
    expect(found.commands.length).toBe(5);
    const described = await client.callTool({
      name: "describe_command",
      arguments: { command: found.commands[0]!.command },
    });
    expect(described.isError).toBeFalsy();
    expect(() => ajv().compile((described.structuredContent as { arguments: object }).arguments)).not.toThrow();
    // A read of a command in a group: through the CLI, which refuses what it refuses (no credential here).
    const call = await client.callTool({
      name: (found.commands[0] as unknown as { tool: string }).tool,
      arguments: { command: found.commands[0]!.command, arguments: {} },
    });
    expect(call.isError).toBe(true);
    expect((call.structuredContent as { code: string }).code).toMatch(/^[A-Z_]+$/);
  });
});
