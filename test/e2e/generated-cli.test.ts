import { execa } from "execa";
import { chmodSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { inter, read, tempDir } from "../helpers.js";
import { API_KEY, buildAndInstall, exampleProject, startExampleApi } from "./example-api.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";
import type { IssueRecord } from "../../src/runtime/issues.js";
import type { ToolDefinition } from "../../src/runtime/mcp-tools.js";
import type { HelpParameter } from "../../src/stages/inspect/subjects.js";
import type { InterResult } from "../helpers.js";

let api: Awaited<ReturnType<typeof startExampleApi>>;
let bin: string;
let prefix: string;
const state = tempDir("inter-cli-state-");

beforeAll(async () => {
  api = await startExampleApi();
  ({ bin, prefix } = await buildAndInstall(exampleProject({ warm: true })));
});
afterAll(async () => api?.stop());

interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
  /**
   * stdout as JSON (undefined when it is not): each command answers in its own shape (an envelope, a bare list with
   * --quiet, help, a Skill), so each test reads the one it ran. Left `any` on purpose: typing it would mean a cast at
   * each of the file's many reads, for no type the runtime exports.
   */
  json: any;
  /**
   * stderr as JSON: the structured error a failing command writes (src/runtime/output.ts's writeError); undefined when
   * stderr is not JSON, which the tests read only from failures.
   */
  error: CliErrorJson;
}

/** The structured error of a generated CLI, with the details the tests read (a usage error's, an unknown name's). */
interface CliErrorJson {
  error: true;
  code: string;
  message: string;
  suggestion: string;
  details: { missing: string[]; suggestions: string[] };
}

/** Runs the installed `rooms` binary against the example API, with stdin closed unless `input` is given. */
async function rooms(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; stdin?: "pipe" } = {},
): Promise<Run> {
  const result = await execa(bin, args, {
    env: { ROOMS_BASE_URL: api.url, ROOMS_API_KEY: API_KEY, XDG_STATE_HOME: state, ...options.env },
    extendEnv: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: options.stdin ?? "ignore" }),
    reject: false,
    timeout: 60_000,
  });
  const parse = (text: string) => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  return {
    exitCode: result.exitCode ?? -1,
    stdout: result.stdout as string,
    stderr: result.stderr as string,
    json: parse(result.stdout as string),
    error: parse(result.stderr as string),
  };
}

/** A failure: the exit code, a structured error on stderr, and nothing on stdout. */
function expectFailure(run: Run, exitCode: number, code: string) {
  expect(run.exitCode, run.stderr).toBe(exitCode);
  expect(run.stdout).toBe("");
  expect(run.error).toMatchObject({ error: true, code, message: expect.any(String), suggestion: expect.any(String) });
}

const slot = (date: string, start = "09:00") => [
  "--date",
  date,
  "--start",
  start,
  "--duration-minutes",
  "30",
  "--attendees",
  "2",
];

describe("the generated Rooms CLI, installed from cli.tgz", () => {
  it("lists rooms as one JSON envelope with rules, skills and the issue guide", async () => {
    const run = await rooms(["rooms", "list"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.json.ok).toBe(true);
    expect(run.json.result.map((r: { id: string }) => r.id)).toEqual([
      "rm_atlas",
      "rm_borealis",
      "rm_cosmos",
      "rm_delta",
      "rm_eclipse",
      "rm_fjord",
    ]);
    expect(run.json.page).toEqual({ has_more: false, next_cursor: null });
    expect(run.json.rules).toEqual(
      expect.arrayContaining(["Never cancel a booking the user did not name explicitly."]),
    );
    // The Skills that link the command or its group (`rooms find-availability`), each by its first sentence: not
    // every Skill in every answer.
    expect(run.json.skills.map((s: { command: string }) => s.command)).toEqual([
      "rooms skills book-a-room-for-a-meeting",
    ]);
    expect(run.json.skills[0].description).toMatch(/^Use when /);
    expect(run.json.skills[0].description.length).toBeLessThanOrEqual(120);
    expect(run.json.issue).toContain("rooms issue create");
  });

  it("search finds the command for a request in the user's words, ranked as the MCP server ranks them", async () => {
    const run = await rooms(["search", "call", "off", "my", "meeting", "tomorrow", "--limit", "3"]);
    expect(run.json.ok).toBe(true);
    expect(run.json.result[0]).toMatchObject({
      command: "bookings cancel",
      permission: "delete",
      destructive: true,
      help: "rooms bookings cancel --help",
    });
    expect(run.json.result.length).toBeLessThanOrEqual(3);
    const quoted = await rooms(["search", "--query", "book a room for 6 people", "--quiet"]);
    expect(quoted.json[0].command).toBe("bookings create");
    // The brief's task "Report a room's bookings for a day" is done with `bookings list`: a request in its words finds
    // it, though no text of the command says "report".
    const reported = await rooms(["search", "report on a room for Tuesday", "--quiet"]);
    expect(reported.json[0].command).toBe("bookings list");
    expectFailure(await rooms(["search"]), 2, "MISSING_FLAG");
    expectFailure(await rooms(["search", "x", "--group", "nope"]), 20, "NOT_FOUND");
  });

  it("gets one room; a missing id is NOT_FOUND with exit 20", async () => {
    const run = await rooms(["rooms", "get", "--room-id", "rm_cosmos", "--quiet"]);
    expect(run.json).toMatchObject({ id: "rm_cosmos", capacity: 8 });
    expectFailure(await rooms(["bookings", "get", "--booking-id", "bk_nope"]), 20, "NOT_FOUND");
  });

  it("creates a booking, refuses to cancel it without --yes, cancels it with --yes, then reports the conflict", async () => {
    const created = await rooms([
      "bookings",
      "create",
      "--room-id",
      "rm_delta",
      ...slot("2026-12-10"),
      "--title",
      "Retro",
      "--quiet",
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.json).toMatchObject({ room_id: "rm_delta", status: "confirmed", title: "Retro" });
    const id = created.json.id;

    const refused = await rooms(["bookings", "cancel", "--booking-id", id]);
    expectFailure(refused, 2, "CONFIRMATION_REQUIRED");
    expect(refused.error.suggestion).toContain("--yes");
    expect((await rooms(["bookings", "cancel", "--booking-id", id, "--quiet"])).exitCode).toBe(2); // --quiet never bypasses --yes
    expect((await rooms(["bookings", "get", "--booking-id", id, "--quiet"])).json.status).toBe("confirmed");

    const cancelled = await rooms(["bookings", "cancel", "--booking-id", id, "--yes", "--quiet"]);
    expect(cancelled.json).toMatchObject({ id, status: "cancelled" });
    expectFailure(await rooms(["bookings", "cancel", "--booking-id", id, "--yes"]), 30, "CONFLICT");
  });

  it("maps a taken slot to CONFLICT (exit 30), a bad key to AUTH_FAILED (exit 10), no key to CREDENTIAL_MISSING (exit 10)", async () => {
    const taken = await rooms([
      "bookings",
      "create",
      "--room-id",
      "rm_cosmos",
      "--date",
      "2026-12-01",
      "--start",
      "10:30",
      "--duration-minutes",
      "30",
      "--attendees",
      "2",
      "--title",
      "Clash",
    ]);
    expectFailure(taken, 30, "CONFLICT");
    expect(taken.error.message).toContain("already booked");
    const badKey = await rooms(["rooms", "list"], { env: { ROOMS_API_KEY: "wrong-key" } });
    expectFailure(badKey, 10, "AUTH_FAILED");
    expect(badKey.stderr).not.toContain("wrong-key");
    const noKey = await rooms(["rooms", "list"], { env: { ROOMS_API_KEY: undefined } });
    expectFailure(noKey, 10, "CREDENTIAL_MISSING");
    expect(noKey.error.suggestion).toContain("ROOMS_API_KEY");
  });

  it("validates every flag before any request: missing, mistyped, out of enum, unknown, positional", async () => {
    const missing = await rooms(["bookings", "create", "--room-id", "rm_atlas", "--date", "2026-12-11"]);
    expectFailure(missing, 2, "MISSING_FLAG");
    expect(missing.error.details.missing).toEqual(["start", "duration-minutes", "attendees", "title"]);
    const typed = await rooms([
      "rooms",
      "find-availability",
      "--date",
      "2026-12-11",
      "--start",
      "09:00",
      "--duration-minutes",
      "30",
      "--attendees",
      "many",
    ]);
    expectFailure(typed, 2, "INVALID_VALUE");
    expect(typed.error.message).toContain("--attendees expects an integer");
    const outside = await rooms([
      "rooms",
      "find-availability",
      "--date",
      "2026-12-11",
      "--start",
      "09:00",
      "--duration-minutes",
      "50",
      "--attendees",
      "2",
    ]);
    expectFailure(outside, 2, "INVALID_VALUE");
    expect(outside.error.suggestion).toContain("15, 30, 45, 60, 90, 120");
    expectFailure(await rooms(["rooms", "list", "--bogus", "1"]), 2, "UNKNOWN_FLAG");
    expectFailure(await rooms(["rooms", "list", "--verbose"]), 2, "UNKNOWN_FLAG");
    expectFailure(await rooms(["rooms", "get", "rm_atlas"]), 2, "POSITIONAL_NOT_ALLOWED");
    expectFailure(await rooms(["rooms", "frobnicate"]), 2, "UNKNOWN_COMMAND");
    // Did you mean: by edit distance among the command's flags and the global ones; among every command of the group.
    const limt = await rooms(["rooms", "list", "--limt", "5"]);
    expectFailure(limt, 2, "UNKNOWN_FLAG");
    expect(limt.error.details.suggestions[0]).toBe("--limit");
    expect((await rooms(["rooms", "list", "--dry-rn"])).error.details.suggestions[0]).toBe("--dry-run");
    expect((await rooms(["bookings", "creat"])).error.details.suggestions).toEqual(["bookings create"]);
    expect((await rooms(["rooms", "frobnicate", "--describe"])).error).toMatchObject({
      code: "UNKNOWN_COMMAND",
      details: { suggestions: expect.arrayContaining(["rooms list", "rooms get"]) },
    });
  });

  it("refuses token-like values, traversal, sensitive paths and shell metacharacters", async () => {
    const token = await rooms(["rooms", "get", "--room-id", "sk-live1234567890abcdefghijkl"]);
    expectFailure(token, 2, "SECRET_IN_ARGUMENT");
    expect(token.stderr).not.toContain("sk-live1234567890abcdefghijkl");
    expectFailure(
      await rooms(["rooms", "get", "--room-id", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"]),
      2,
      "SECRET_IN_ARGUMENT",
    );
    expectFailure(await rooms(["rooms", "get", "--room-id", "../../etc/passwd"]), 2, "UNSAFE_INPUT");
    expectFailure(await rooms(["rooms", "get", "--room-id", "x;rm -rf /"]), 2, "UNSAFE_INPUT");
    expectFailure(
      await rooms(["bookings", "create", "--room-id", "rm_atlas", ...slot("2026-12-11"), "--title", "./secrets/.env"]),
      2,
      "SENSITIVE_PATH",
    );
    expectFailure(
      await rooms(["bookings", "create", "--room-id", "rm_atlas", ...slot("2026-12-11"), "--title", "bad\u0007bell"]),
      2,
      "UNSAFE_INPUT",
    );
    const sanitized = await rooms([
      "bookings",
      "create",
      "--room-id",
      "rm_atlas",
      ...slot("2026-12-11"),
      "--title",
      "bad\u0007bell",
      "--sanitize",
      "--quiet",
    ]);
    expect(sanitized.json.title).toBe("badbell");
  });

  it("as installed: bare secrets-file names, short sk- keys, --fields values, builtin flags and --version after a command", async () => {
    expectFailure(await rooms(["rooms", "get", "--room-id", "id_rsa"]), 2, "SENSITIVE_PATH");
    expectFailure(
      await rooms(["bookings", "create", "--room-id", "rm_atlas", ...slot("2026-12-15"), "--title", "id_ed25519.pub"]),
      2,
      "SENSITIVE_PATH",
    );
    expectFailure(await rooms(["issue", "show", "--id", ".env.local"]), 2, "SENSITIVE_PATH");
    for (const key of ["sk-1234567890", "sk-live-abc123", "sk-test1234"]) {
      const refused = await rooms(["rooms", "get", "--room-id", key]);
      expectFailure(refused, 2, "SECRET_IN_ARGUMENT");
      expect(refused.stderr).not.toContain(key);
    }
    expectFailure(await rooms(["rooms", "list", "--fields", "sk-abcdefghijklmnopqrstuv"]), 2, "SECRET_IN_ARGUMENT");
    expectFailure(await rooms(["skills", "sk-abcdefghijklmnopqrstuv"]), 2, "SECRET_IN_ARGUMENT");
    expectFailure(await rooms(["rooms", "list", "--fields", "../../etc/passwd"]), 2, "UNSAFE_INPUT");
    expectFailure(await rooms(["rooms", "list", "--fields", "x;rm -rf /"]), 2, "UNSAFE_INPUT");
    expect((await rooms(["rooms", "list", "--fields", "id", "--fields", "name", "--quiet"])).json[0]).toEqual({
      id: "rm_atlas",
      name: "Atlas",
    });
    for (const argv of [
      ["skills", "--bogus", "x"],
      ["skills", "cancel-a-booking", "--bogus", "x"],
      ["skills", "--bogus"],
      ["issue", "list", "--bogus"],
    ])
      expectFailure(await rooms(argv), 2, "UNKNOWN_FLAG");
    expect((await rooms(["issue", "create", "--help"])).json.command).toMatchObject({
      name: "issue create",
      parameters: expect.arrayContaining([
        expect.objectContaining({ name: "--exit-code", type: "integer", required: false }),
      ]),
    });
    // --version after a command prints the version and books nothing.
    const before = (await rooms(["bookings", "list", "--date", "2026-12-16", "--quiet"])).json;
    for (const argv of [
      ["bookings", "create", "--room-id", "rm_atlas", ...slot("2026-12-16"), "--title", "Never", "--version"],
      ["bookings", "--version"],
    ]) {
      const version = await rooms(argv);
      expect(version.exitCode, version.stderr).toBe(0);
      expect(version.json).toMatchObject({ ok: true, version: "0.1.0", result: { version: "0.1.0" } });
    }
    expect((await rooms(["bookings", "list", "--date", "2026-12-16", "--quiet"])).json).toEqual(before);
    // --dry-run on issue create and update previews and writes nothing.
    const listed = async () => (await rooms(["issue", "list", "--quiet"])).json;
    const issues = await listed();
    expect(
      (await rooms(["issue", "create", "--type", "bug", "--message", "dry", "--dry-run", "--quiet"])).json,
    ).toMatchObject({ dry_run: true, written: false, issue: { message: "dry", context: { exit_code: null } } });
    expect(await listed()).toEqual(issues);
    const { json: created } = await rooms(["issue", "create", "--type", "bug", "--message", "real", "--quiet"]);
    expect(created.context.exit_code).toBeNull();
    expect(
      (await rooms(["issue", "update", "--id", created.id, "--status", "closed", "--dry-run", "--quiet"])).json,
    ).toMatchObject({ dry_run: true, issue: { status: "closed" } });
    expect((await rooms(["issue", "show", created.id, "--quiet"])).json.status).toBe("open");
    // --describe and --mcp-schema carry rules, skills and issue.
    for (const argv of [["--describe"], ["--mcp-schema"], ["bookings", "create", "--describe"]])
      expect(Object.keys((await rooms(argv)).json)).toEqual(expect.arrayContaining(["rules", "skills", "issue"]));
  });

  it("--dry-run prints the exact request with the credential redacted and sends nothing", async () => {
    const run = await rooms([
      "bookings",
      "create",
      "--room-id",
      "rm_eclipse",
      ...slot("2026-12-12"),
      "--title",
      "Dry",
      "--dry-run",
      "--quiet",
    ]);
    expect(run.exitCode).toBe(0);
    expect(run.json).toEqual({
      dry_run: true,
      sent: false,
      request: {
        method: "POST",
        url: `${api.url}/bookings`,
        headers: {
          accept: "application/json",
          "user-agent": "rooms/0.1.0",
          "x-api-key": "[REDACTED]",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          room_id: "rm_eclipse",
          date: "2026-12-12",
          start: "09:00",
          duration_minutes: 30,
          attendees: 2,
          title: "Dry",
        }),
      },
      // Which scheme the request carries and from which variable: never a value.
      auth: {
        needed: true,
        sent: [
          {
            scheme: "apiKey",
            variables: ["ROOMS_API_KEY"],
            how: "ROOMS_API_KEY is sent as the X-API-Key header (X-API-Key: <value>).",
          },
        ],
      },
      // A POST without an idempotency key header is sent once, whatever the answer (runtime/retry.ts).
      retry: { on: [], reason: "POST without an idempotency key header: sent twice it could act twice" },
    });
    expect(run.stdout).not.toContain(API_KEY);
    const bookings = await rooms(["bookings", "list", "--date", "2026-12-12", "--quiet"]);
    expect(bookings.json).toEqual([]);
    const destructivePreview = await rooms(["bookings", "cancel", "--booking-id", "bk_0002", "--dry-run", "--quiet"]);
    expect(destructivePreview.json.request.url).toBe(`${api.url}/bookings/bk_0002/cancel`);
  });

  it("--json-input reads a body from a pipe, merges flags over it, accepts another command's output, and never hangs", async () => {
    const piped = await rooms(["bookings", "create", "--json-input", "--quiet"], {
      input: JSON.stringify({
        room_id: "rm_fjord",
        date: "2026-12-13",
        start: "13:00",
        duration_minutes: 60,
        attendees: 12,
        title: "All hands",
      }),
    });
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.json).toMatchObject({ room_id: "rm_fjord", title: "All hands" });

    // C5: one command's JSON output is the next one's input; flags override its fields.
    const envelope = (await rooms(["bookings", "get", "--booking-id", piped.json.id])).stdout;
    const copy = await rooms(["bookings", "create", "--json-input", "--date", "2026-12-14", "--quiet"], {
      input: envelope,
    });
    expect(copy.json).toMatchObject({ room_id: "rm_fjord", date: "2026-12-14", title: "All hands" });

    const closed = await rooms(["bookings", "create", "--json-input"]);
    expectFailure(closed, 2, "INVALID_JSON_INPUT");
    // A silent pipe that is never closed: the CLI gives up on its own (a hang would hit the test's timeout).
    const silent = await rooms(["bookings", "create", "--json-input"], {
      stdin: "pipe",
      env: { AGENT_CLI_STDIN_TIMEOUT_MS: "500" },
    });
    expectFailure(silent, 2, "INVALID_JSON_INPUT");
    expectFailure(await rooms(["bookings", "create", "--json-input"], { input: "{not json" }), 2, "INVALID_JSON_INPUT");
  });

  it("--fields trims, --human prints a table, --quiet prints data only", async () => {
    const trimmed = await rooms(["rooms", "list", "--fields", "id,capacity", "--quiet"]);
    expect(trimmed.json[0]).toEqual({ id: "rm_atlas", capacity: 4 });
    const table = await rooms(["rooms", "list", "--fields", "id,name", "--human"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID\s+NAME$/);
    expect(table.stdout).toContain("rm_fjord     Fjord");
    expect(() => JSON.parse(table.stdout)).toThrow();
    const empty = await rooms(["rooms", "list", "--min-capacity", "500", "--quiet"]);
    expect(empty.json).toEqual([]);
  });

  it("pages: has_more and next_cursor per page, --all follows them, --max-pages bounds it", async () => {
    const first = await rooms(["rooms", "list", "--limit", "2"]);
    expect(first.json.result).toHaveLength(2);
    expect(first.json.page).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const second = await rooms(["rooms", "list", "--limit", "2", "--cursor", first.json.page.next_cursor, "--quiet"]);
    expect(second.json.map((r: { id: string }) => r.id)).toEqual(["rm_cosmos", "rm_delta"]);
    const all = await rooms(["rooms", "list", "--limit", "2", "--all"]);
    expect(all.json.result.map((r: { id: string }) => r.id)).toHaveLength(6);
    expect(all.json.page).toEqual({ has_more: false, pages: 3 });
    const bounded = await rooms(["rooms", "list", "--limit", "1", "--all", "--max-pages", "3"]);
    expect(bounded.json.result).toHaveLength(3);
    expect(bounded.json.page).toEqual({ has_more: true, pages: 3 });
  });

  it("help is JSON everywhere; --version, --brief and a bare call with stdin closed return at once", async () => {
    const help = await rooms(["--help"]);
    expect(help.json.help).toContain("Rooms");
    expect(help.json.commands.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining([
        "bookings cancel",
        "bookings create",
        "rooms find-availability",
        "skills",
        "issue create",
      ]),
    );
    expect(help.json).toHaveProperty("rules");
    expect(help.json).toHaveProperty("skills");
    const create = await rooms(["bookings", "create", "--help"]);
    expect(create.json.command.parameters.find((p: HelpParameter) => p.name === "--duration-minutes")).toEqual({
      name: "--duration-minutes",
      type: "integer",
      required: true,
      enum: [15, 30, 45, 60, 90, 120],
      description: "body parameter duration_minutes",
    });
    expect((await rooms(["bookings", "cancel", "--help"])).json.command).toMatchObject({
      destructive: true,
      permission: "delete",
    });
    expect((await rooms(["rooms", "--help"])).json.commands.map((c: { name: string }) => c.name)).toEqual([
      "rooms find-availability",
      "rooms get",
      "rooms list",
    ]);
    expect((await rooms(["--version", "--quiet"])).json.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect((await rooms(["--brief", "--quiet"])).json.brief).toContain("meeting-room service");
    const bare = await rooms([]);
    expect(bare.exitCode).toBe(0);
    expect(bare.json.commands.length).toBeGreaterThan(5);
  });

  it("starts without what only some commands need: no node:crypto, ES module loader, search or MCP for help or a call", async () => {
    // Agents start a generated CLI hundreds of times: node:crypto brings Node's streams with it, the search bundle
    // MiniSearch and the MCP bundle the SDK (the start-up budget of docs/architecture.md).
    const dir = tempDir("inter-cli-loaded-");
    const preload = join(dir, "preload.cjs");
    writeFileSync(
      preload,
      'process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADED_OUT, JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));\n',
    );
    const loaded = async (args: string[]) => {
      const out = join(dir, `${args.join("-").replace(/\W+/g, "-")}.json`);
      const run = await rooms(args, { env: { NODE_OPTIONS: `--require ${preload}`, LOADED_OUT: out } });
      expect(run.exitCode, run.stderr).toBe(0);
      const { builtins, files } = JSON.parse(readFileSync(out, "utf8")) as { builtins: string[]; files: string[] };
      return {
        crypto: builtins.includes("NativeModule crypto"),
        // node:zlib, which only a compressed answer needs.
        zlib: builtins.includes("NativeModule zlib"),
        // Node's ES module loader, which a dynamic import() in a CommonJS file starts (a dozen modules more).
        esmLoader: builtins.includes("NativeModule internal/modules/esm/module_job"),
        bundles: files.map((f) => f.split(/[\\/]/).pop()),
      };
    };
    for (const args of [["--help"], ["bookings", "create", "--help"], ["rooms", "list"]]) {
      const { crypto, zlib, esmLoader, bundles } = await loaded(args);
      expect(crypto, args.join(" ")).toBe(false);
      expect(zlib, args.join(" ")).toBe(false);
      expect(esmLoader, args.join(" ")).toBe(false);
      expect(bundles, args.join(" ")).not.toContain("search.cjs");
      expect(bundles, args.join(" ")).not.toContain("mcp.cjs");
    }
    // What needs them loads them.
    expect((await loaded(["search", "cancel my meeting"])).bundles).toContain("search.cjs");
  });

  it("keeps the runtime's compiled code in the user's cache folder, and answers the same whatever that holds", async () => {
    const home = tempDir("inter-cli-cache-");
    const folder = join(home, "cache", "rooms", "v8");
    const list = async (env: Record<string, string> = { XDG_CACHE_HOME: join(home, "cache") }) => {
      const run = await rooms(["rooms", "list", "--quiet"], { env });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.json.map((r: { id: string }) => r.id)).toContain("rm_atlas");
    };
    const cacheFile = () => {
      const names = readdirSync(folder);
      expect(names).toHaveLength(1);
      return join(folder, names[0]!);
    };
    await list();
    const first = statSync(cacheFile());
    expect(first.mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readFileSync(cacheFile(), "latin1")).not.toContain(API_KEY);
    // Taken as it is by the next call: V8 accepted it, so nothing is written again.
    await list();
    expect(statSync(cacheFile()).ino).toBe(first.ino);

    // Bytes V8 refuses, a first line naming another runtime file, a file others may write: each is set aside and
    // written anew, and the call answers as ever.
    const replaced = async (bytes: Buffer | string, mode = 0o600) => {
      writeFileSync(cacheFile(), bytes, { mode });
      chmodSync(cacheFile(), mode);
      const before = statSync(cacheFile()).ino;
      await list();
      const after = statSync(cacheFile());
      expect(after.ino).not.toBe(before);
      expect(after.mode & 0o777).toBe(0o600);
    };
    const good = readFileSync(cacheFile());
    const line = good.indexOf(10);
    await replaced(Buffer.concat([good.subarray(0, line + 1), Buffer.alloc(4096, 7)]));
    await replaced(Buffer.concat([Buffer.from("0 0 0 0\n"), good.subarray(line + 1)]));
    await replaced(readFileSync(cacheFile()), 0o666);
    await replaced("");

    // What the cache holds runs: one made from other code of the runtime's length, under the file's own first line,
    // runs that code. The folder is the user's own, as trusted as their HOME; where it is not (an evaluated agent's
    // HOME, which the candidate shares: src/evaluation/run/attempt.ts), NODE_DISABLE_COMPILE_CACHE keeps it unread.
    const runtimeFile = join(prefix, "node_modules", "rooms-cli", "lib", "runtime.cjs");
    const evil = 'process.stdout.write("FORGED");process.exit(0);';
    const forged = join(home, "forged.cjs");
    writeFileSync(forged, evil + " ".repeat(readFileSync(runtimeFile, "utf8").length - evil.length));
    const made = await execa(
      process.execPath,
      [
        "-e",
        'const [f, o] = process.argv.slice(1); require("node:fs").writeFileSync(o, new (require("node:vm").Script)(require("node:module").wrap(require("node:fs").readFileSync(f, "utf8"))).createCachedData())',
        forged,
        join(home, "forged.v8"),
      ],
      { extendEnv: false },
    );
    expect(made.exitCode).toBe(0);
    const keyLine = readFileSync(cacheFile()).subarray(0, readFileSync(cacheFile()).indexOf(10) + 1);
    writeFileSync(cacheFile(), Buffer.concat([keyLine, readFileSync(join(home, "forged.v8"))]));
    const planted = await rooms(["rooms", "list"], { env: { XDG_CACHE_HOME: join(home, "cache") } });
    expect(planted.stdout).toBe("FORGED");
    const kept = await rooms(["rooms", "list", "--quiet"], {
      env: { XDG_CACHE_HOME: join(home, "cache"), NODE_DISABLE_COMPILE_CACHE: "1" },
    });
    expect(kept.json.map((r: { id: string }) => r.id)).toContain("rm_atlas");

    // Off by Node's own variable, and with no cache folder to name (a relative XDG_CACHE_HOME): nothing kept.
    const off = tempDir("inter-cli-cache-off-");
    await list({ XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: "1" });
    await list({ XDG_CACHE_HOME: "relative/cache", HOME: "relative" });
    await list({});
    expect(readdirSync(off)).toEqual([]);
    await list({ HOME: off });
    expect(readdirSync(join(off, ".cache", "rooms", "v8"))).toHaveLength(1);
    // A cache folder that cannot be made costs nothing but the cache.
    const file = join(off, "a-file");
    writeFileSync(file, "");
    await list({ XDG_CACHE_HOME: file });
  });

  it("ships its Skills: listed, shown, with portable frontmatter matching their folders", async () => {
    const list = await rooms(["skills", "--quiet"]);
    expect(list.json.map((s: { name: string }) => s.name)).toEqual([
      "book-a-room-for-a-meeting",
      "cancel-a-booking",
      "report-a-rooms-bookings-for-a-day",
    ]);
    const one = await rooms(["skills", "cancel-a-booking", "--quiet"]);
    expect(one.json.content).toContain("`rooms bookings cancel --booking-id <string> --yes`");
    const root = join(prefix, "node_modules", "rooms-cli");
    for (const name of readdirSync(join(root, "skills"))) {
      const text = readFileSync(join(root, "skills", name, "SKILL.md"), "utf8");
      const [, front] = /^---\n([\s\S]*?)\n---\n/.exec(text)!;
      const keys = Object.fromEntries(
        front!.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]),
      );
      expect(Object.keys(keys)).toEqual(["name", "description"]);
      expect(keys.name).toBe(name);
      expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const description = JSON.parse(keys.description!);
      expect(description.length).toBeLessThanOrEqual(1024);
      expect(description).not.toMatch(/[<>]/);
    }
    for (const file of [
      "agent/brief.md",
      "agent/rules/trigger.md",
      "agent/rules/workflow.md",
      "agent/rules/writeback.md",
      "AGENTS.md",
      "CHANGELOG.md",
      "README.md",
    ]) {
      expect(readFileSync(join(root, file), "utf8").length, file).toBeGreaterThan(20);
    }
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8"))).toMatchObject({
      name: "rooms-cli",
      bin: { rooms: "rooms.cjs" },
    });
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).dependencies).toBeUndefined();
  });

  it("records issues locally with a status lifecycle", async () => {
    const created = await rooms([
      "issue",
      "create",
      "--type",
      "bad-output",
      "--message",
      "list shows cancelled rooms",
      "--exit-code",
      "0",
      "--quiet",
    ]);
    expect(created.json).toMatchObject({
      type: "bad-output",
      status: "open",
      version: "0.1.0",
      context: { exit_code: 0 },
    });
    const id = created.json.id;
    expect(
      (await rooms(["issue", "list", "--status", "open", "--quiet"])).json.map((i: IssueRecord) => i.id),
    ).toContain(id);
    expect((await rooms(["issue", "update", "--id", id, "--status", "closed", "--quiet"])).json.status).toBe("closed");
    expectFailure(await rooms(["issue", "update", "--id", id, "--status", "resolved"]), 30, "PRECONDITION_FAILED");
    expect((await rooms(["issue", "show", id, "--quiet"])).json.status).toBe("closed");
    expectFailure(await rooms(["issue", "create", "--type", "rant", "--message", "x"]), 2, "INVALID_VALUE");
    // A credential pasted into a report is neither printed nor stored.
    const pasted = await rooms(["issue", "create", "--type", "bug", "--message", `my key ${API_KEY} stopped working`]);
    expect(pasted.stdout).not.toContain(API_KEY);
    expect(pasted.json.result.message).toBe("my key [REDACTED] stopped working");
    expect(readFileSync(join(state, "rooms", "issues.json"), "utf8")).not.toContain(API_KEY);
  });

  it("exports its commands as MCP tool schemas", async () => {
    const run = await rooms(["--mcp-schema"]);
    const tools = run.json.tools;
    // One per command, and report_issue: the tools rooms-mcp serves.
    expect(tools).toHaveLength(8);
    expect(tools.find((t: ToolDefinition) => t.name === "report_issue")).toMatchObject({
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    });
    expect(tools.find((t: ToolDefinition) => t.name === "bookings_cancel")).toMatchObject({
      annotations: { destructiveHint: true },
      inputSchema: { required: ["booking-id"] },
    });
  });
});

describe("the generated CLI against a misbehaving server", () => {
  /** A loopback server answering every request with `respond`; the CLI is pointed at it. */
  async function hostile(respond: (req: IncomingMessage, res: ServerResponse) => void) {
    const server = createServer(respond);
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url,
      close: () => new Promise<void>((done) => server.close(() => done())).finally(() => server.closeAllConnections()),
    };
  }

  it("a body that trickles forever hits the whole-request deadline: TIMEOUT, exit 1", async () => {
    const server = await hostile((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"items": [');
      const drip = setInterval(() => res.write(" "), 100);
      req.on("close", () => clearInterval(drip));
    });
    try {
      const run = await rooms(["rooms", "list"], { env: { ROOMS_BASE_URL: server.url, AGENT_CLI_TIMEOUT_MS: "1500" } });
      expectFailure(run, 1, "TIMEOUT");
    } finally {
      await server.close();
    }
  });

  it("an endless body is cut at the response size cap: RESPONSE_TOO_LARGE, exit 1", async () => {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1 << 16, 32);
      const pour = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on("drain", pour);
      pour();
    });
    try {
      const run = await rooms(["rooms", "list"], {
        env: { ROOMS_BASE_URL: server.url, AGENT_CLI_MAX_RESPONSE_BYTES: "2000000" },
      });
      expectFailure(run, 1, "RESPONSE_TOO_LARGE");
    } finally {
      await server.close();
    }
  });

  it("JSON nested thousands deep is refused with a code, not a crash; so is a body too large for stdin", async () => {
    const server = await hostile((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"items":[${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}]}`);
    });
    try {
      expectFailure(await rooms(["rooms", "list"], { env: { ROOMS_BASE_URL: server.url } }), 1, "RESPONSE_TOO_LARGE");
      const human = await rooms(["rooms", "list", "--human"], { env: { ROOMS_BASE_URL: server.url } });
      expect(human.exitCode).toBe(1);
      expect(human.stderr).toContain("RESPONSE_TOO_LARGE");
    } finally {
      await server.close();
    }
    const huge = await rooms(["bookings", "create", "--json-input"], { input: " ".repeat(20 * 1024 * 1024) });
    expectFailure(huge, 2, "INVALID_JSON_INPUT");
  });

  it("sends integers past 2^53 with every digit, in the query and in a JSON body", async () => {
    const seen: Array<{ url: string; body: string }> = [];
    const server = await hostile((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ url: req.url!, body });
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"items": []}');
      });
    });
    try {
      const big = "12345678901234567890123";
      expect((await rooms(["rooms", "list", "--floor", big], { env: { ROOMS_BASE_URL: server.url } })).exitCode).toBe(
        0,
      );
      expect(seen[0]!.url).toContain(`floor=${big}`);
      const create = await rooms(
        [
          "bookings",
          "create",
          "--room-id",
          "r1",
          "--date",
          "2031-01-01",
          "--start",
          "09:00",
          "--duration-minutes",
          "30",
          "--title",
          "t",
          "--attendees",
          big,
        ],
        { env: { ROOMS_BASE_URL: server.url } },
      );
      expect(create.exitCode, create.stderr).toBe(0);
      expect(seen[1]!.body).toContain(`"attendees":${big}`);
      // Piped JSON too, and the dry run shows the body as it is sent; digits inside a string are text.
      const input = `{"room_id":"r1","date":"2031-01-01","start":"09:00","duration_minutes":30,"title":"t ${big}","attendees":${big}}`;
      const piped = await rooms(["bookings", "create", "--json-input"], { input, env: { ROOMS_BASE_URL: server.url } });
      expect(piped.exitCode, piped.stderr).toBe(0);
      expect(seen[2]!.body).toContain(`"attendees":${big}`);
      expect(JSON.parse(seen[2]!.body).title).toBe(`t ${big}`);
      const dry = await rooms(["bookings", "create", "--json-input", "--dry-run"], {
        input,
        env: { ROOMS_BASE_URL: server.url },
      });
      expect(JSON.parse(dry.stdout).result.request.body).toContain(`"attendees":${big}`);
    } finally {
      await server.close();
    }
  });

  it("prints integers past 2^53 the API answers with every digit, as JSON, --quiet, --fields and --human", async () => {
    const big = "12345678901234567890";
    const server = await hostile((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"id":${big},"name":"Room ${big}","capacity":8,"floor":-${big},"ratio":0.12345678901234567}`);
    });
    try {
      const env = { ROOMS_BASE_URL: server.url };
      const full = await rooms(["rooms", "get", "--room-id", "r1"], { env });
      expect(full.exitCode, full.stderr).toBe(0);
      expect(full.stdout).toContain(`"id":${big},"name":"Room ${big}"`);
      expect(full.stdout).toContain(`"floor":-${big}`);
      expect(JSON.parse(full.stdout).result.capacity).toBe(8);
      const quiet = await rooms(["rooms", "get", "--room-id", "r1", "--quiet", "--fields", "id,capacity"], { env });
      expect(quiet.stdout.trim()).toBe(`{"id":${big},"capacity":8}`);
      const human = await rooms(["rooms", "get", "--room-id", "r1", "--human"], { env });
      expect(human.stdout).toMatch(new RegExp(`^id\\s+${big}$`, "m"));
    } finally {
      await server.close();
    }
  });

  it("refuses a credential with a line break and JSON nested past the limit, with codes, before any request", async () => {
    const newline = await rooms(["rooms", "list"], { env: { ROOMS_API_KEY: `${API_KEY}\r\nX-Injected: 1` } });
    expectFailure(newline, 10, "CREDENTIAL_MISSING");
    expect(newline.stderr).not.toContain(API_KEY);
    const deep = await rooms(["bookings", "create", "--json-input"], {
      input: `${"[".repeat(5000)}${"]".repeat(5000)}`,
    });
    expectFailure(deep, 2, "INVALID_JSON_INPUT");
    const nested = await rooms(["bookings", "create", "--json-input"], {
      input: `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`,
    });
    expectFailure(nested, 2, "INVALID_JSON_INPUT");
  });
});

describe("cli.tgz is reproducible", () => {
  it("gives the same sha256 for the same inputs, and a new one after a one-character brief edit", async () => {
    const candidate = (r: InterResult) => r.json.data.tasks.find((t: TaskOutcome) => t.id === "bundle").data.candidate;
    // A cold build here against the run's own cold build of the example (test/global-setup.ts): another process, another
    // folder, the same inputs.
    const a = exampleProject();
    const first = await inter(a, ["build", "--json"]);
    expect(candidate(first)).toMatch(/^[0-9a-f]{64}$/);
    const template = inject("exampleTemplate");
    expect(readFileSync(join(a, "dist/cli.tgz")).equals(readFileSync(join(template, "dist/cli.tgz")))).toBe(true);
    const b = exampleProject({ warm: true });
    expect(candidate(await inter(b, ["build", "--json"]))).toBe(candidate(first));

    writeFileSync(
      join(b, "examples/rooms/context.md"),
      read(b, "examples/rooms/context.md").replace("Rooms is the", "Rooms is thE"),
    );
    const edited = await inter(b, ["build", "--json"]);
    expect(candidate(edited)).not.toBe(candidate(first));
    const installed = await execa("tar", ["tzf", join(b, "dist/cli.tgz")]);
    expect(installed.stdout.split("\n")).toEqual([...installed.stdout.split("\n")].sort());
  });
});
