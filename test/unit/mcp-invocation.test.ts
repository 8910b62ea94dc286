import { describe, expect, it } from "vitest";
import { CliError } from "../../src/runtime/errors.js";
import type { Command, Flag } from "../../src/runtime/manifest.js";
import { invocationFor, MAX_ARGUMENT_BYTES, toolsFor } from "../../src/runtime/mcp-tools.js";

const flag = (name: string, type: Flag["type"], more: Partial<Flag> = {}): Flag => ({
  flag: name,
  in: "query",
  wire: name,
  type,
  required: false,
  ...more,
});

const command = (path: string[], flags: Flag[], more: Partial<Command> = {}): Command => ({
  path,
  name: path.join(" "),
  description: "A command.",
  operation: { method: "get", path: "/x" },
  flags,
  jsonInput: false,
  destructive: false,
  permission: "read",
  output: { shape: "list" },
  auth: [],
  hidden: false,
  ...more,
});

const refusal = (fn: () => unknown): CliError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error("not refused");
};

describe("a tool call turned into the CLI's argv", () => {
  const search = command(
    ["items", "search"],
    [
      flag("tag", "array", { items: "string" }),
      flag("limit", "integer"),
      flag("ratio", "number"),
      flag("exact", "boolean"),
      flag("q", "string"),
    ],
  );

  it("passes each list of a list of lists as its JSON (the CLI takes one JSON list per value)", () => {
    const scopes = command(["agreements", "create"], [flag("scopes", "array", { in: "body", items: "array" })]);
    expect(invocationFor(scopes, { scopes: [["a", "b"], []] }).argv).toEqual([
      "agreements",
      "create",
      '--scopes=["a","b"]',
      "--scopes=[]",
    ]);
  });

  it("passes values of the schema's JSON type, and refuses any other type by the argument's name", () => {
    expect(invocationFor(search, { tag: ["a", "b"], limit: 3, ratio: 0.5, exact: false, q: "x" }).argv).toEqual([
      "items",
      "search",
      "--tag=a",
      "--tag=b",
      "--limit=3",
      "--ratio=0.5",
      "--exact=false",
      "--q=x",
    ]);
    for (const [key, value] of [
      ["tag", "a"],
      ["tag", [1]],
      ["limit", "3"],
      ["limit", 1.5],
      ["ratio", "0.5"],
      ["exact", "true"],
      ["q", 7],
      ["q", true],
      ["fields", "id"],
      ["fields", [1]],
    ] as const) {
      const error = refusal(() => invocationFor(search, { [key]: value }));
      expect(error.code, `${key}: ${JSON.stringify(value)}`).toBe("INVALID_VALUE");
      expect(error.details).toMatchObject({ flag: key });
    }
  });

  it("refuses a value too long for one argument, and arguments too long together, before anything runs", () => {
    expect(invocationFor(search, { q: "é".repeat(MAX_ARGUMENT_BYTES / 2) }).argv).toHaveLength(3);
    expect(refusal(() => invocationFor(search, { q: "é".repeat(MAX_ARGUMENT_BYTES / 2 + 1) })).details).toMatchObject({
      flag: "q",
      bytes: MAX_ARGUMENT_BYTES + 2,
    });
    const many = refusal(() =>
      invocationFor(search, { tag: Array.from({ length: 20 }, () => "t".repeat(MAX_ARGUMENT_BYTES - 10)) }),
    );
    expect(many.code).toBe("INVALID_VALUE");
    expect(many.message).toMatch(/too long to pass on a command line together/);
  });

  it("says a switch does not apply instead of suggesting the switch itself", () => {
    const error = refusal(() => invocationFor(search, { "dry-run": true }));
    expect(error.code).toBe("UNKNOWN_FLAG");
    expect(error.message).toBe(
      'Argument "dry-run" does not apply to "items search": it only reads, so there is no write to preview.',
    );
    // A command's own flag of that name is just a flag.
    expect(invocationFor(command(["items", "list"], [flag("all", "boolean")]), { all: true }).argv).toEqual([
      "items",
      "list",
      "--all=true",
    ]);
  });

  it("shortened tool names never hold a double underscore", () => {
    // Cut at 55 characters, this name ends on a separator: the hash suffix follows a single underscore.
    const long = command(["queues", `${"a".repeat(47)}-b-${"c".repeat(20)}`], []);
    const names = toolsFor([long, command(["queues", "list"], [])], 64).map((t) => t.tool.name);
    expect(names.filter((n) => n.length > 40)).toEqual([expect.stringMatching(/^queues_a{47}_[0-9a-f]{8}$/)]);
    expect(names.every((n) => !n.includes("__"))).toBe(true);
  });
});
