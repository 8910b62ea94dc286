import { mkdirSync, readFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { bindFlags, outputGlobals, splitArgv, versionRequested } from "../../src/runtime/args.js";
import { builtins, findBuiltin } from "../../src/runtime/builtins.js";
import { CliError } from "../../src/runtime/errors.js";
import { guard, maskSecrets, secretLike, sensitive } from "../../src/runtime/guard.js";
import { builtinSingleHelp, describeBuiltins, describeScope, mcpSchema, rootHelp } from "../../src/runtime/help.js";
import { runIssue, type IssueRecord } from "../../src/runtime/issues.js";
import type { Cli } from "../../src/runtime/load.js";
import { run } from "../../src/runtime/main.js";
import type { Command, Flag, Manifest } from "../../src/runtime/manifest.js";
import { toolsFor } from "../../src/runtime/mcp-tools.js";
import { tempDir } from "../helpers.js";

const thrown = (fn: () => unknown): CliError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error("did not throw");
};
const code = (value: string, identifier = false) => {
  try {
    guard([{ source: "--x", value, identifier }]);
    return "ok";
  } catch (error) {
    return (error as CliError).code;
  }
};

const manifest: Manifest = {
  product: { name: "Demo", binary: "demo", version: "1.2.3", description: "A demo." },
  baseUrl: { default: null, env: "DEMO_BASE_URL" },
  auth: { schemes: { key: { type: "apiKey", in: "header", name: "x-key", env: { value: "DEMO_API_KEY" } } } },
  rules: ["Read before you write: find ids with list commands."],
  skills: [{ name: "book-a-thing", description: "Book a thing." }],
  groups: [{ name: "things", description: "Things", count: 2 }],
  help: "full",
};
const things: Command[] = [
  {
    path: ["things", "create"],
    name: "things create",
    description: "Create a thing",
    operation: { method: "POST", path: "/things" },
    flags: [
      { flag: "title", in: "body", wire: "title", type: "string", required: true },
      // A hash of the shape the document gives it is data; the same digits in a field of no shape read as a token.
      { flag: "hash", in: "body", wire: "hash", type: "string", required: false, pattern: "^(0x)?[A-Fa-f0-9]{64}$" },
      { flag: "note", in: "body", wire: "note", type: "string", required: false, pattern: "^.*$" },
      // lgtm.com's analysis ids: 40 hex digits, by an unanchored pattern and the length.
      { flag: "analysis", in: "body", wire: "analysisId", type: "string", required: false, pattern: "[a-f0-9]+" },
      { flag: "commit", in: "body", wire: "commit", type: "string", required: false },
    ],
    jsonInput: true,
    destructive: false,
    permission: "write",
    output: { shape: "object" },
    auth: [{ key: [] }],
    hidden: false,
  },
  {
    path: ["things", "get"],
    name: "things get",
    description: "Get a thing",
    operation: { method: "GET", path: "/things/{id}" },
    flags: [{ flag: "thing-id", in: "path", wire: "id", type: "string", required: true }],
    jsonInput: false,
    destructive: false,
    permission: "read",
    output: { shape: "object" },
    auth: [{ key: [] }],
    hidden: false,
  },
];
const cli: Cli = {
  dir: "/nonexistent",
  manifest,
  group: (name) => (name === "things" ? things : []),
  all: () => things,
};

describe("G3: sensitive file names, whole or as a path's tail, in any value", () => {
  it("refuses a bare secrets-file name wherever it is given, identifier or text", () => {
    for (const name of [
      "id_rsa",
      "id_ed25519",
      "id_ecdsa",
      "id_dsa",
      "id_rsa.pub",
      "id_ed25519.pub",
      ".env",
      ".env.local",
      ".env.production.local",
      "server.pem",
      "tls.key",
      "cert.p12",
      "cert.pfx",
      ".npmrc",
      ".netrc",
      "ID_RSA",
      " id_rsa ",
    ]) {
      expect(code(name), name).toBe("SENSITIVE_PATH");
      expect(code(name, true), name).toBe("SENSITIVE_PATH");
    }
    for (const path of [
      "~/.ssh/id_ed25519",
      "app/.env.production.local",
      "C:\\keys\\server.pem",
      "./.env",
      "/home/me/.npmrc",
    ])
      expect(code(path), path).toBe("SENSITIVE_PATH");
  });

  it("lets text that mentions one, and ordinary words, through", () => {
    for (const text of [
      "my id_rsa notes",
      "rotate the .env file",
      "monkey",
      "keynote",
      "id_rsa_backup_plan",
      "environment",
      "task-list",
      "pem",
      "Stand-up",
    ]) {
      expect(sensitive(text), text).toBe(false);
      expect(code(text), text).toBe("ok");
    }
  });
});

describe("G2: values that look like credentials", () => {
  it("refuses sk-/rk-/pk- keys with 8+ key characters, and the other token shapes", () => {
    for (const key of [
      "sk-1234567890",
      "sk-live-abc123",
      "sk-test1234",
      "rk-live-51Habc99",
      "pk-test-0000abcd",
      "sk-abcdefghijklmnop",
      "ghp_abcdefghijklmnopqrstuvwxyz0123",
      "AKIAABCDEFGHIJKLMNOP",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop",
      "a".repeat(20) + "0".repeat(20),
    ]) {
      expect(code(key), key).toBe("SECRET_IN_ARGUMENT");
      expect(secretLike(key), key).toBe(true);
    }
  });

  it("lets ordinary words and real ids through: sk-8, task-list, pk-users-email, a 34-character Twilio SID, a UUID", () => {
    const twilioSid = `PN${"0123456789abcdef".repeat(2)}`;
    expect(twilioSid).toHaveLength(34);
    for (const value of [
      "sk-8",
      "task-list",
      "desk-lamp-large",
      "pk-users-email",
      "sk-SK",
      twilioSid,
      `AC${"a1".repeat(16)}`,
      "123e4567-e89b-12d3-a456-426614174000",
      "rm_atlas",
    ]) {
      expect(code(value, true), value).toBe("ok");
    }
  });

  it("an error never echoes a secret-looking value: maskSecrets cuts it out of any text", () => {
    const text = 'No skill "sk-live-abc123"; also ghp_abcdefghijklmnopqrstuvwxyz0123 and ' + "x1".repeat(25);
    const masked = maskSecrets(text);
    expect(masked).not.toMatch(/sk-live|ghp_|x1x1x1/);
    expect(masked).toContain("[REDACTED]");
    expect(maskSecrets("No room task-list (HTTP 404) at https://api.example.com/v1/rooms/rm_atlas")).toBe(
      "No room task-list (HTTP 404) at https://api.example.com/v1/rooms/rm_atlas",
    );
  });
});

describe("global flag values (--fields, --max-pages) pass the guardrails (G2, S4, G8) and --fields accumulates (I7)", () => {
  const parse = (argv: string[]) => splitArgv(["things", "get", ...argv], () => "value");
  it("refuses keys, traversal, shell and control characters in --fields, and a key in --max-pages", () => {
    expect(thrown(() => parse(["--fields", "sk-abcdefghijklmnopqrstu"])).code).toBe("SECRET_IN_ARGUMENT");
    expect(
      thrown(() => parse(["--fields=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop"])).code,
    ).toBe("SECRET_IN_ARGUMENT");
    expect(thrown(() => parse(["--fields", "../../etc/passwd"])).code).toBe("UNSAFE_INPUT");
    expect(thrown(() => parse(["--fields", "x;rm -rf /"])).code).toBe("UNSAFE_INPUT");
    expect(thrown(() => parse(["--fields", "id,na\u0007me"])).code).toBe("UNSAFE_INPUT");
    expect(thrown(() => parse(["--fields", "id,.env"])).code).toBe("SENSITIVE_PATH");
    expect(thrown(() => parse(["--max-pages", "sk-1234567890"])).code).toBe("SECRET_IN_ARGUMENT");
    // --sanitize, anywhere in argv, strips control characters first.
    expect(parse(["--fields", "id,na\u0007me", "--sanitize"]).globals.fields).toEqual(["id", "name"]);
  });

  it("repeated --fields keep every field", () => {
    expect(parse(["--fields", "id", "--fields", "name"]).globals.fields).toEqual(["id", "name"]);
    expect(parse(["--fields", "id,name", "--fields=id", "--fields", "title"]).globals.fields).toEqual([
      "id",
      "name",
      "title",
    ]);
  });
});

describe("--version anywhere (N6)", () => {
  it("is found after a command and a group, not in a value", () => {
    expect(versionRequested(["things", "create", "--title", "x", "--version"])).toBe(true);
    expect(versionRequested(["things", "--version"])).toBe(true);
    expect(versionRequested(["things", "create", "--title=--version"])).toBe(false);
    expect(versionRequested(["--version=false"])).toBe(false);
    expect(outputGlobals(["x", "--version", "--quiet"])).toMatchObject({ quiet: true, human: false });
  });
});

describe("built-in commands are declared like API commands (G1, D2, D4–D7, F2)", () => {
  const kindOf = (words: string[]) => {
    const c = findBuiltin(manifest, words);
    return (name: string) =>
      c ? (c.flags.some((f) => f.flag === name) ? ("value" as const) : ("unknown" as const)) : undefined;
  };
  it("unknown flags on skills and issue commands are UNKNOWN_FLAG, with a value or without", () => {
    for (const argv of [
      ["skills", "--bogus", "x"],
      ["skills", "book-a-thing", "--bogus", "x"],
      ["skills", "--bogus"],
      ["issue", "list", "--bogus"],
      ["issue", "create", "--bogus", "x"],
    ]) {
      const words = argv.filter((a) => !a.startsWith("-") && a !== "x");
      const error = thrown(() =>
        splitArgv(argv, kindOf(words), findBuiltin(manifest, words)?.flags, findBuiltin(manifest, words)?.name),
      );
      expect(error.code, argv.join(" ")).toBe("UNKNOWN_FLAG");
      expect(error.exitCode).toBe(2);
    }
  });

  it("binds issue flags with types, enums and required flags", () => {
    const create = findBuiltin(manifest, ["issue", "create"])!;
    const bind = (argv: string[]) =>
      bindFlags(create, splitArgv(["issue", "create", ...argv], kindOf(["issue", "create"])), false);
    expect(thrown(() => bind(["--type", "bug"])).code).toBe("MISSING_FLAG");
    expect(thrown(() => bind(["--type", "rant", "--message", "x"])).code).toBe("INVALID_VALUE");
    expect(thrown(() => bind(["--type", "bug", "--message", "x", "--exit-code", "two"])).code).toBe("INVALID_VALUE");
    expect(thrown(() => bind(["--type", "bug", "--message", "x", "--exit-code", "300"])).code).toBe("VALIDATION_ERROR");
    expect([...bind(["--type", "bug", "--message", "x", "--exit-code", "3"]).values()]).toEqual(["bug", "x", 3]);
  });

  it("a union flag (an id or a name) sends a value as the first of its types the text reads as, within that type's limits", () => {
    const ttl = {
      flag: "ttl",
      in: "body",
      wire: "ttl",
      type: "string",
      anyOf: ["string", "integer"],
      minimum: 60,
      required: true,
    } satisfies Flag;
    const weight = {
      flag: "weight",
      in: "query",
      wire: "weight",
      type: "number",
      anyOf: ["integer", "number"],
      required: false,
    } satisfies Flag;
    // Listed strings beside a free integer (Stripe's `now`, `unchanged` or a timestamp).
    const anchor = {
      flag: "anchor",
      in: "query",
      wire: "anchor",
      type: "string",
      anyOf: ["string", "integer"],
      enum: ["now", "unchanged"],
      required: false,
    } satisfies Flag;
    const command = { ...findBuiltin(manifest, ["issue", "create"])!, flags: [ttl, weight, anchor] } satisfies Command;
    const bind = (argv: string[]) => [
      ...bindFlags(
        command,
        splitArgv(["issue", "create", ...argv], () => "value", command.flags, command.name),
        false,
      ).values(),
    ];
    expect(bind(["--ttl", "auto"])).toEqual(["auto"]);
    expect(bind(["--ttl", "120", "--weight", "1.5"])).toEqual([120, 1.5]);
    expect(thrown(() => bind(["--ttl", "30"])).code).toBe("VALIDATION_ERROR");
    expect(thrown(() => bind(["--ttl", "auto", "--weight", "heavy"])).code).toBe("INVALID_VALUE");
    expect(bind(["--ttl", "auto", "--anchor", "now"])).toEqual(["auto", "now"]);
    expect(bind(["--ttl", "auto", "--anchor", "1700000000"])).toEqual(["auto", 1700000000]);
    const later = thrown(() => bind(["--ttl", "auto", "--anchor", "later"]));
    expect([later.code, later.message]).toEqual([
      "INVALID_VALUE",
      '--anchor must be one of now, unchanged, any integer (got "later").',
    ]);
    // MCP clients that check arguments take what the CLI takes: the listed strings, or any integer.
    const tool = toolsFor([command])[0]!.tool;
    expect(tool.inputSchema.properties.anchor).toMatchObject({
      anyOf: [{ type: "string", enum: ["now", "unchanged"] }, { type: "integer" }],
    });
    // A step and the keys an object must have are held before any request, as the document states them.
    const offset = {
      flag: "offset",
      in: "query",
      wire: "offset",
      type: "integer",
      multipleOf: 20,
      required: false,
    } satisfies Flag;
    const records = {
      flag: "records",
      in: "body",
      wire: "records",
      type: "array",
      items: "object",
      requires: ["type", "value"],
      required: false,
    } satisfies Flag;
    const more = { ...command, flags: [ttl, offset, records] } satisfies Command;
    const bindMore = (argv: string[]) => [
      ...bindFlags(
        more,
        splitArgv(["issue", "create", ...argv], () => "value", more.flags, more.name),
        false,
      ).values(),
    ];
    expect(bindMore(["--ttl", "auto", "--offset", "40", "--records", '{"type":"A","value":"1.2.3.4"}'])).toEqual([
      "auto",
      40,
      [{ type: "A", value: "1.2.3.4" }],
    ]);
    expect(thrown(() => bindMore(["--ttl", "auto", "--offset", "30"])).code).toBe("VALIDATION_ERROR");
    const missing = thrown(() => bindMore(["--ttl", "auto", "--records", '{"type":"A"}']));
    expect(missing.code).toBe("VALIDATION_ERROR");
    expect(missing.message).toMatch(/--records must be an object with the keys type, value/);
  });

  it("a value outside a list of hundreds names the closest values, and the list once (details.allowed)", () => {
    const zones = Array.from({ length: 600 }, (_, i) => `Region${i}/City${i}`).concat([
      "Europe/Paris",
      "Europe/Prague",
    ]);
    const timezone = {
      flag: "timezone",
      in: "query",
      wire: "tz",
      type: "string",
      enum: zones,
      required: false,
    } satisfies Flag;
    const command = { ...findBuiltin(manifest, ["issue", "create"])!, flags: [timezone] } satisfies Command;
    const bind = (value: string) =>
      bindFlags(
        command,
        splitArgv(["issue", "create", "--timezone", value], () => "value", command.flags, command.name),
        false,
      );
    const near = thrown(() => bind("Europe/Pari"));
    expect(near.message).toBe('--timezone must be one of its 602 values (got "Europe/Pari").');
    expect(near.suggestion).toMatch(/^Did you mean: Europe\/Paris/);
    expect((near.details as { allowed: string[] }).allowed).toHaveLength(602);
    const far = thrown(() => bind("nosuchvaluexyz"));
    expect(far.suggestion).toMatch(/^Its values begin Region0\/City0, /);
    // The whole answer is a few kilobytes (the list once), not the list three times.
    expect(JSON.stringify(far).length).toBeLessThan(JSON.stringify(zones).length + 1024);
    expect(bind("Europe/Prague").get(timezone)).toBe("Europe/Prague");
  });

  it("help declares every parameter typed, required true/false, with enums; each built-in has its own document", () => {
    const help = rootHelp(cli);
    for (const g of help.globalFlags) {
      expect(typeof g.type, g.name).toBe("string");
      expect(g.required, g.name).toBe(false);
    }
    expect(help.globalFlags.find((g) => g.name === "--max-pages")).toMatchObject({
      type: "integer",
      default: 10,
      minimum: 1,
      maximum: 100,
    });
    expect(help.globalFlags.find((g) => g.name === "--fields")).toMatchObject({ type: "array", items: "string" });
    const entries = Object.fromEntries(
      (help.commands as Array<{ name: string; parameters: Array<Record<string, unknown>> }>).map((c) => [c.name, c]),
    );
    const params = (name: string) => Object.fromEntries(entries[name]!.parameters.map((p) => [p.name, p]));
    expect(params("skills")["--name"]).toMatchObject({ type: "string", required: false, enum: ["book-a-thing"] });
    expect(params("issue create")).toMatchObject({
      "--type": { type: "string", required: true, enum: ["bug", "requirement", "suggestion", "bad-output"] },
      "--message": { type: "string", required: true },
      "--command": { type: "string", required: false },
      "--exit-code": { type: "integer", required: false },
    });
    expect(params("issue list")["--status"]).toMatchObject({
      required: false,
      enum: ["open", "in-progress", "resolved", "closed"],
    });
    expect(params("issue show")["--id"]).toMatchObject({ type: "string", required: true });
    expect(params("issue update")).toMatchObject({
      "--id": { required: true },
      "--status": { required: true, enum: ["open", "in-progress", "resolved", "closed"] },
    });
    for (const b of builtins(manifest)) {
      const own = builtinSingleHelp(cli, b);
      expect(own.command.name).toBe(b.name);
      expect(own.commands).toHaveLength(1);
      expect(own).toHaveProperty("rules");
    }
  });

  it("--describe and --mcp-schema carry rules, skills and issue (R1–R3)", () => {
    for (const doc of [
      describeScope(cli, [], () => things, true),
      describeScope(cli, ["things", "get"], () => [things[1]!], false),
      mcpSchema(cli, things),
      describeBuiltins(cli, builtins(manifest)),
    ]) {
      expect(doc).toMatchObject({
        rules: manifest.rules,
        skills: [{ name: "book-a-thing", description: "Book a thing.", command: "demo skills book-a-thing" }],
        issue: expect.stringContaining("demo issue create"),
      });
    }
  });
});

describe("issues: --dry-run writes nothing (S3), the exit code is always recorded (F2)", () => {
  let state: string;
  const saved = process.env.XDG_STATE_HOME;
  beforeEach(() => {
    state = tempDir("inter-issues-");
    process.env.XDG_STATE_HOME = state;
  });
  afterEach(() => {
    // Assigning undefined would store the string "undefined" for the files that run next in this worker.
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
    rmSync(state, { recursive: true, force: true });
  });
  const file = () => join(state, "demo", "issues.json");

  it("create and update previews say what they would record, and write nothing", () => {
    const preview = runIssue(manifest, "create", { type: "bug", message: "x" }, true);
    expect(preview).toMatchObject({
      dry_run: true,
      written: false,
      issue: { id: "ISS-0001", type: "bug", message: "x", status: "open" },
    });
    expect(existsSync(file())).toBe(false);
    const issue = runIssue(manifest, "create", { type: "bug", message: "x" }) as IssueRecord;
    expect(issue.context).toMatchObject({ exit_code: null, command: null });
    expect(
      (
        runIssue(manifest, "create", {
          type: "bug",
          message: "y",
          "exit-code": 2,
          command: "demo things get",
        }) as IssueRecord
      ).context,
    ).toMatchObject({ exit_code: 2, command: "demo things get" });
    const before = readFileSync(file(), "utf8");
    expect(runIssue(manifest, "update", { id: issue.id, status: "closed" }, true)).toMatchObject({
      dry_run: true,
      issue: { status: "closed" },
    });
    expect(readFileSync(file(), "utf8")).toBe(before);
    // A forbidden change is refused in a preview as it would be for real.
    runIssue(manifest, "update", { id: issue.id, status: "closed" });
    expect(thrown(() => runIssue(manifest, "update", { id: issue.id, status: "in-progress" }, true)).code).toBe(
      "PRECONDITION_FAILED",
    );
  });
});

/** The runtime run in-process on a package written to disk, its output captured; an API that counts requests. */
describe("run(): the installed behaviour of the built-ins and of --version", () => {
  let dir: string;
  let server: Server;
  let requests = 0;
  let out = "";
  let err = "";
  const env = { ...process.env };
  beforeAll(async () => {
    dir = tempDir("inter-runtime-");
    writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
    mkdirSync(join(dir, "commands"));
    writeFileSync(join(dir, "commands", "things.json"), JSON.stringify({ name: "things", commands: things }));
    mkdirSync(join(dir, "agent", "skills"), { recursive: true });
    writeFileSync(join(dir, "agent", "brief.md"), "Demo.\n");
    writeFileSync(
      join(dir, "agent", "skills", "book-a-thing.md"),
      "---\nname: book-a-thing\ndescription: Book a thing.\n---\nBook.\n",
    );
    server = createServer((_req, res) => {
      requests++;
      res.setHeader("content-type", "application/json");
      res.end('{"id":"t1"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.DEMO_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.DEMO_API_KEY = "demo-key";
    process.env.XDG_STATE_HOME = join(dir, "state");
  });
  afterAll(async () => {
    // Restored in place: the next files in this worker keep the real process.env, not a plain copy of it.
    for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
    Object.assign(process.env, env);
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (argv: string[]) => {
    out = "";
    err = "";
    const o = vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => ((out += String(chunk)), true));
    const e = vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => ((err += String(chunk)), true));
    try {
      return await run(dir, argv);
    } finally {
      o.mockRestore();
      e.mockRestore();
      process.exitCode = 0;
    }
  };

  it("a value of the specific shape the document gives its flag (a 64-hex hash) is data, not a token", async () => {
    const hash = `0x${"3f".repeat(32)}`;
    expect(await call(["things", "create", "--title", "x", "--hash", hash, "--dry-run"])).toBe(0);
    expect(JSON.parse(out).result.request.body).toContain(hash);
    // A pattern any token matches says nothing: the guardrail stands.
    expect(await call(["things", "create", "--title", "x", "--note", hash, "--dry-run"])).toBe(2);
    expect(JSON.parse(err).code).toBe("SECRET_IN_ARGUMENT");
    // A key's own pattern is refused whatever the flag's shape.
    expect(await call(["things", "create", "--title", "x", "--hash", "sk-live-abcdefghijklmnop", "--dry-run"])).toBe(2);
  });

  it("hex a pattern describes whole, or a hash where the flag's name says one, is data; the same in another flag is not", async () => {
    const sha = "a5201d25ec62fe29d8dce6b8234987acf0a60195";
    expect(await call(["things", "create", "--title", "x", "--analysis", sha, "--dry-run"])).toBe(0);
    expect(await call(["things", "create", "--title", "x", "--commit", sha, "--dry-run"])).toBe(0);
    expect(JSON.parse(out).result.request.body).toContain(sha);
    expect(await call(["things", "create", "--title", "x", "--note", sha, "--dry-run"])).toBe(2);
    expect(JSON.parse(err).code).toBe("SECRET_IN_ARGUMENT");
    // A token that is not hex, in a flag whose pattern takes hex inside it: refused.
    expect(await call(["things", "create", "--title", "x", "--analysis", `${sha}Zq7VtK2mXw`, "--dry-run"])).toBe(2);
    expect(
      await call([
        "things",
        "create",
        "--title",
        "x",
        "--commit",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "--dry-run",
      ]),
    ).toBe(2);
  });

  it("the API is reachable: a plain call sends one request", async () => {
    expect(await call(["things", "get", "--thing-id", "t1", "--quiet"])).toBe(0);
    expect(requests).toBe(1);
  });

  it("--version after a command or a group prints the version and runs nothing", async () => {
    const before = requests;
    for (const argv of [
      ["things", "create", "--title", "x", "--version"],
      ["things", "--version"],
      ["things", "create", "--version", "--title", "x"],
      ["--version", "things", "get", "--thing-id", "t1"],
    ]) {
      expect(await call(argv), argv.join(" ")).toBe(0);
      expect(JSON.parse(out)).toMatchObject({ ok: true, version: "1.2.3", result: { version: "1.2.3" } });
    }
    expect(requests).toBe(before);
  });

  it("unknown flags on built-ins exit 2; a secret-looking skill name is refused and never echoed", async () => {
    for (const argv of [
      ["skills", "--bogus", "x"],
      ["skills", "book-a-thing", "--bogus", "x"],
      ["skills", "--bogus"],
      ["issue", "show", "--bogus", "x"],
    ]) {
      expect(await call(argv), argv.join(" ")).toBe(2);
      expect(JSON.parse(err).code).toBe("UNKNOWN_FLAG");
      expect(out).toBe("");
    }
    expect(await call(["skills", "sk-abcdefghijklmnopqrstuvwxyz"])).toBe(2);
    expect(JSON.parse(err).code).toBe("SECRET_IN_ARGUMENT");
    expect(err).not.toContain("sk-abcdef");
    expect(await call(["things", "get", "--thing-id", "sk-live-abc123"])).toBe(2);
    expect(err).not.toContain("sk-live-abc123");
    expect(await call(["things", "get", "--thing-id", "id_rsa"])).toBe(2);
    expect(JSON.parse(err).code).toBe("SENSITIVE_PATH");
    expect(await call(["things", "get", "--thing-id", "t1", "--fields", "sk-1234567890"])).toBe(2);
    expect(JSON.parse(err).code).toBe("SECRET_IN_ARGUMENT");
    // Refused while the flags are read, it is still printed the way --human asks.
    expect(await call(["things", "get", "--thing-id", "t1", "--fields", "sk-1234567890", "--human"])).toBe(2);
    expect(err).toMatch(/^Error SECRET_IN_ARGUMENT: /);
  });

  it("skills <name> and --name work; issue commands print their own help; issue create --dry-run writes nothing", async () => {
    expect(await call(["skills", "book-a-thing", "--quiet"])).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ name: "book-a-thing" });
    expect(await call(["skills", "--name", "book-a-thing", "--quiet"])).toBe(0);
    expect(await call(["skills", "nope"])).toBe(20);
    expect(await call(["issue", "create", "--help"])).toBe(0);
    expect(JSON.parse(out).command.name).toBe("issue create");
    expect(await call(["issue", "--help"])).toBe(0);
    expect(JSON.parse(out).commands.map((c: { name: string }) => c.name)).toEqual([
      "issue create",
      "issue list",
      "issue show",
      "issue update",
    ]);
    expect(await call(["issue", "create", "--type", "bug", "--message", "x", "--dry-run"])).toBe(0);
    expect(JSON.parse(out).result).toMatchObject({ dry_run: true, written: false });
    expect(existsSync(join(dir, "state", "demo", "issues.json"))).toBe(false);
    expect(await call(["issue", "create", "--type", "bug", "--message", "x", "--quiet"])).toBe(0);
    expect(JSON.parse(out).context.exit_code).toBeNull();
    expect(await call(["issue", "show", "ISS-0001", "--quiet"])).toBe(0);
    expect(await call(["issue", "show", "ISS-0001", "extra"])).toBe(2);
    expect(JSON.parse(err).code).toBe("POSITIONAL_NOT_ALLOWED");
  });

  it("--describe and --mcp-schema carry rules, skills and issue; --quiet still prints the result alone", async () => {
    for (const argv of [
      ["--describe"],
      ["things", "get", "--describe"],
      ["--mcp-schema"],
      ["issue", "create", "--describe"],
    ]) {
      expect(await call(argv)).toBe(0);
      expect(Object.keys(JSON.parse(out)), argv.join(" ")).toEqual(
        expect.arrayContaining(["rules", "skills", "issue"]),
      );
    }
    expect(await call(["skills", "--quiet"])).toBe(0);
    expect(Array.isArray(JSON.parse(out))).toBe(true);
  });
});
