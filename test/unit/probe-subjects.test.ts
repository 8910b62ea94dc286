import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  bodyFor,
  chooseSubjects,
  probePool,
  sample,
  type HelpCommand,
  type HelpParameter,
} from "../../src/stages/inspect/subjects.js";
import { writeFiles, tempDir } from "../helpers.js";
import { readInstalledPackage } from "../../src/stages/candidate/installed-package.js";
import { openPackage } from "../../src/stages/inspect/built-commands.js";
import { operationTexts } from "../../src/stages/inspect/misleading-names.js";

const flag = (name: string, more: Partial<HelpParameter> = {}): HelpParameter => ({
  name: `--${name}`,
  type: "string",
  required: false,
  ...more,
});
const command = (name: string, more: Partial<HelpCommand> = {}): HelpCommand => ({
  name,
  permission: "read",
  method: "GET",
  destructive: false,
  output: "object",
  parameters: [],
  jsonInput: false,
  auth: true,
  ...more,
});

/** Shaped like Spotify's: the first POST with a required flag takes no body; the body-taking command is named otherwise. */
const SPOTIFY_LIKE: HelpCommand[] = [
  command("albums check", { output: "array", parameters: [flag("ids", { required: true, in: "query", wire: "ids" })] }),
  command("albums get", {
    parameters: [
      flag("id", { required: true, in: "path", wire: "id" }),
      flag("market", { in: "query", wire: "market" }),
    ],
  }),
  command("albums remove", {
    method: "DELETE",
    permission: "delete",
    destructive: true,
    jsonInput: true,
    output: "empty",
    parameters: [flag("ids", { required: true, in: "query", wire: "ids" })],
  }),
  command("player queue create", {
    method: "POST",
    permission: "write",
    parameters: [flag("uri", { required: true, in: "query", wire: "uri" })],
  }),
  command("playlists list", {
    output: "array",
    pagination: { style: "offset" },
    parameters: [flag("limit", { type: "integer", in: "query", wire: "limit", minimum: 1, maximum: 50 })],
  }),
  command("playlists save", {
    method: "POST",
    permission: "write",
    jsonInput: true,
    parameters: [
      flag("user-id", { required: true, in: "path", wire: "user_id" }),
      flag("name", { required: true, in: "body", wire: "name" }),
      flag("public", { type: "boolean", in: "body", wire: "public" }),
    ],
  }),
];

const names = (subjects: ReturnType<typeof chooseSubjects>) =>
  Object.fromEntries(Object.entries(subjects.chosen).map(([kind, s]) => [kind, s!.command.name]));

describe("a sample value is one the description takes", () => {
  it("never empty, a multiple of its step, a number for a union in a body and text in a query, an object with its keys", () => {
    expect(sample({ name: "--record", type: "string", pattern: ".*" })).not.toBe("");
    expect(sample({ name: "--offset", type: "integer", multipleOf: 20 })).toBe("20");
    expect(sample({ name: "--offset", type: "integer", minimum: 30, multipleOf: 20 })).toBe("40");
    expect(sample({ name: "--ttl", type: "string", anyOf: ["string", "integer"], in: "body", minimum: 60 })).toBe("60");
    expect(sample({ name: "--ref", type: "string", anyOf: ["string", "integer"], in: "path" })).toBe("inter-probe");
    // A union whose strings are listed (Stripe's `now`/`unchanged` or a timestamp; `""` to unset or a timestamp).
    const anchor = { name: "--anchor", type: "string", anyOf: ["string", "integer"], in: "query" as const };
    expect(sample({ ...anchor, enum: ["now", "unchanged"] })).toBe("now");
    expect(sample({ ...anchor, enum: [""] })).toBe("1");
    expect(JSON.parse(sample({ name: "--filter", type: "object", requires: ["key", "op"] }))).toEqual({
      key: "inter-probe",
      op: "inter-probe",
    });
  });
});

describe("probe subjects are chosen by what commands take, never by their names", () => {
  it("the body probe takes the command with a body, not the first `create`; each probe gets a command that has what it probes", () => {
    const subjects = chooseSubjects(SPOTIFY_LIKE);
    expect(names(subjects)).toEqual({
      list: "playlists list", // a read with no required flag that returns a list
      paged: "playlists list",
      get: "albums get", // its one required flag goes into the path
      required: "player queue create",
      dryRun: "player queue create",
      body: "playlists save",
      destructive: "albums remove",
      auth: "albums check",
      typed: "playlists list",
      hostile: "albums get",
    });
    expect(subjects.none).toEqual({});
    expect(subjects.chosen.body!.why).toBe("it takes a body whose required fields are simple values");
    expect(subjects.chosen.hostile!.param!.name).toBe("--id");
    expect(subjects.chosen.typed!.param!.name).toBe("--limit");
    // What is piped: the required body fields by their wire names; the path parameter stays a flag.
    expect(bodyFor(subjects.chosen.body!.command)).toEqual({ name: "inter-probe" });
  });

  it("renaming commands changes nothing but the names", () => {
    const renamed = SPOTIFY_LIKE.map((c, i) => ({ ...c, name: `things action-${i}` }));
    expect(Object.values(names(chooseSubjects(renamed)))).toEqual(
      Object.values(names(chooseSubjects(SPOTIFY_LIKE))).map(
        (n) => `things action-${SPOTIFY_LIKE.findIndex((c) => c.name === n)}`,
      ),
    );
  });

  it("a probe with no fitting command has none, with the reason its rules give as not applicable", () => {
    const reads = [
      command("rooms list", { output: "array" }),
      command("rooms search", { output: "array", parameters: [flag("q", { required: true, in: "query", wire: "q" })] }),
    ];
    const subjects = chooseSubjects(reads);
    expect(names(subjects)).toEqual({
      list: "rooms list",
      required: "rooms search",
      auth: "rooms list",
      hostile: "rooms search",
    });
    expect(subjects.none).toEqual({
      paged: "no command pages (none declares pagination)",
      get: "no read command takes a single identifier in its path",
      dryRun: "no write command can be called with values the probe can make up",
      body: "no command takes a request body",
      destructive: "no destructive command",
      typed: "no command takes a number",
    });
  });

  it("the paging probe never makes up an identifier (it would only meet a 404), but fills a search's query", () => {
    const byOwner = command("users playlists", {
      output: "array",
      pagination: { style: "offset" },
      parameters: [flag("user-id", { required: true, in: "path", wire: "user_id" })],
    });
    expect(chooseSubjects([byOwner]).none.paged).toBe(
      "every command that pages needs an identifier or a value the probe cannot make up",
    );
    const search = command("tracks search", {
      output: "array",
      pagination: { style: "offset" },
      parameters: [flag("q", { required: true, in: "query", wire: "q" })],
    });
    expect(chooseSubjects([byOwner, search]).chosen.paged).toMatchObject({
      command: { name: "tracks search" },
      why: "it pages, and its required flags can be filled",
    });
  });

  it("a body probe needs a command whose other required flags can be filled; otherwise it says which commands it could not call", () => {
    const odd = command("blobs put", {
      method: "PUT",
      permission: "write",
      jsonInput: true,
      parameters: [
        flag("key", { required: true, in: "path", wire: "key", pattern: "^(?=x)[a-z]{3}$" }),
        flag("data", { required: true, in: "body", wire: "data" }),
      ],
    });
    expect(chooseSubjects([odd]).none.body).toBe(
      "the commands that take a body (blobs put) need values the probe cannot make up",
    );
    // A destructive command is the last resort (previewed with --dry-run, never sent).
    const remove = command("blobs remove", {
      method: "DELETE",
      permission: "delete",
      destructive: true,
      jsonInput: true,
      parameters: [flag("reason", { required: true, in: "body", wire: "reason", enum: ["spam", "other"] })],
    });
    const chosen = chooseSubjects([odd, remove]).chosen.body!;
    expect(chosen.command.name).toBe("blobs remove");
    expect(bodyFor(chosen.command)).toEqual({ reason: "spam" });
  });

  it("prefers a body with simple required fields, and pipes one simple optional field when none is required", () => {
    const nested = command("orders create", {
      method: "POST",
      permission: "write",
      jsonInput: true,
      parameters: [flag("items", { required: true, type: "object", in: "body", wire: "items" })],
    });
    const optional = command("orders note", {
      method: "POST",
      permission: "write",
      jsonInput: true,
      parameters: [
        flag("order-id", { required: true, in: "path", wire: "orderId" }),
        flag("tags", { type: "array", items: "integer", in: "body", wire: "tags" }),
      ],
    });
    const subjects = chooseSubjects([nested, optional]);
    expect(subjects.chosen.body!.command.name).toBe("orders note");
    expect(bodyFor(optional)).toEqual({ tags: [1] });
    // Without a manifest where flags go is unknown: every required flag is piped, named as its flag.
    expect(
      bodyFor(
        command("x y", {
          jsonInput: true,
          parameters: [flag("title", { required: true }), flag("size", { required: true, type: "integer" })],
        }),
      ),
    ).toEqual({ title: "inter-probe", size: 1 });
  });

  it("the pool takes where each flag goes from the package's manifest, and the commands help did not show", () => {
    const root = tempDir("inter-subjects-");
    const manifestCommand = (name: string, more: Record<string, unknown>) => ({
      path: name.split(" "),
      name,
      description: "d",
      operation: { method: "POST", path: "/x" },
      flags: [],
      jsonInput: false,
      destructive: false,
      permission: "write",
      output: { shape: "object" },
      auth: ["key"],
      hidden: false,
      ...more,
    });
    writeFiles(root, {
      "manifest.json": JSON.stringify({
        product: { binary: "notes" },
        groups: [
          { name: "notes", description: "", count: 2 },
          { name: "../evil", description: "", count: 1 },
        ],
      }),
      "commands/notes.json": JSON.stringify({
        name: "notes",
        commands: [
          manifestCommand("notes add", {
            jsonInput: true,
            flags: [
              { flag: "book-id", in: "path", wire: "bookId", type: "string", required: true },
              { flag: "text", in: "body", wire: "text", type: "string", required: true },
            ],
          }),
          manifestCommand("notes export", {
            operation: { method: "GET", path: "/notes" },
            permission: "read",
            pagination: { style: "cursor" },
            output: { shape: "object", listField: "items" },
          }),
          manifestCommand("notes secret", { hidden: true }),
        ],
      }),
    });
    const fromHelp: HelpCommand[] = [
      {
        name: "notes add",
        method: "POST",
        permission: "write",
        jsonInput: true,
        parameters: [flag("book-id", { required: true }), flag("text", { required: true })],
      },
    ];
    const pool = probePool(fromHelp, readInstalledPackage(root));
    expect(pool.map((c) => c.name)).toEqual(["notes add", "notes export"]);
    expect(pool[0]!.parameters!.map((p) => [p.name, p.in, p.wire])).toEqual([
      ["--book-id", "path", "bookId"],
      ["--text", "body", "text"],
    ]);
    expect(pool[1]).toMatchObject({
      method: "GET",
      permission: "read",
      output: "array",
      pagination: { style: "cursor" },
      auth: true,
    });
    const subjects = chooseSubjects(pool);
    expect(names(subjects)).toMatchObject({ body: "notes add", paged: "notes export", list: "notes export" });
    expect(bodyFor(subjects.chosen.body!.command)).toEqual({ text: "inter-probe" });
    // The group files the inspection already read for the rules (openPackage) give the same pool; a command that
    // already says all the manifest adds is passed on as itself.
    const cli = openPackage(root)!;
    expect(probePool(fromHelp, readInstalledPackage(root), cli.group)).toEqual(pool);
    // The names' operations read from the same files say what reading them again said.
    expect([...operationTexts(root, cli)]).toEqual([...operationTexts(root)]);
    expect(operationTexts(root, cli).get("notes export")).toBe("/notes ");
    const complete = pool[0]!;
    expect(probePool([complete], readInstalledPackage(root), cli.group)[0]).toBe(complete);
    // No manifest (a CLI inter did not generate): help alone.
    expect(probePool(fromHelp, readInstalledPackage(join(root, "missing")))).toEqual(fromHelp);
    expect(probePool(fromHelp, undefined)).toEqual(fromHelp);
  });
});
