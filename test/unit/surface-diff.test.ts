import { describe, expect, it } from "vitest";
import type { Command, Flag } from "../../src/runtime/manifest.js";
import { surfaceChanges } from "../../src/surface/changes.js";
import { applyIgnore } from "../../src/surface/ignore.js";
import { changelogSection, diffMarkdown } from "../../src/surface/render.js";
import { diffSurfaces } from "../../src/surface/report.js";
import { skillCommands, type Surface, surfaceOf } from "../../src/surface/surface.js";
import type { InterError } from "../../src/core/errors.js";
import { expectedVersion, followsVerdict } from "../../src/surface/verdict.js";

/** The engine over two hand-made surfaces, one change at a time: each asserted by kind and class. */

const flag = (name: string, more: Partial<Flag> = {}): Flag => ({
  flag: name,
  in: "query",
  wire: name.replace(/-/g, "_"),
  type: "string",
  required: false,
  ...more,
});

const command = (name: string, more: Partial<Command> = {}): Command => ({
  path: name.split(" "),
  name,
  description: `Do ${name}`,
  operation: {
    method: "GET",
    path: `/${name.split(" ")[0]}`,
    operationId: name.replace(/ /g, "_"),
    pointer: `#/paths/~1${name.split(" ")[0]}/get`,
  },
  flags: [],
  jsonInput: false,
  destructive: false,
  permission: "read",
  output: {
    shape: "object",
    fields: ["id", "status"],
    types: { id: { type: "string" }, status: { type: "string", enum: ["open", "closed"] } },
  },
  auth: [{ key: [] }],
  hidden: false,
  statuses: ["200", "401"],
  ...more,
});

const surface = (commands: Command[], more: Partial<Surface> = {}): Surface => ({
  label: "x",
  product: { name: "Shop", binary: "shop", version: "1.2.3", package: "shop-cli" },
  env: { credential: "SHOP_KEY", baseUrl: "SHOP_BASE_URL" },
  commands,
  skills: [],
  rules: ["Read before you write."],
  ...more,
});

/** The changes from a surface with `before` as its one command to one with `after`. */
const one = (before: Command, after: Command) =>
  surfaceChanges(surface([before]), surface([after])).map((c) => ({ kind: c.kind, severity: c.severity }));

describe("surface diff: commands", () => {
  it("an unchanged surface has no change and a patch verdict that keeps the version", () => {
    const diff = diffSurfaces(surface([command("orders list")]), surface([command("orders list")]));
    expect(diff.changes).toEqual([]);
    expect(diff).toMatchObject({ verdict: "patch", expected_version: "1.2.3", version_follows: true });
  });

  it("a command renamed over the same operationId is one breaking rename, not remove + add", () => {
    const before = command("orders list");
    const after = { ...command("orders browse"), operation: before.operation };
    const changes = surfaceChanges(surface([before]), surface([after]));
    expect(changes.map((c) => c.kind)).toEqual(["command-renamed"]);
    expect(changes[0]).toMatchObject({
      severity: "breaking",
      before: "orders list",
      after: "orders browse",
      id: "command-renamed orders list",
      api: { operation: "orders_list (GET /orders)", pointer: "#/paths/~1orders/get" },
    });
  });

  it("a rename is found by method and path when there is no operationId, path parameters compared by shape", () => {
    const before = command("orders get", { operation: { method: "GET", path: "/orders/{id}" } });
    const after = command("orders show", { operation: { method: "get", path: "/orders/{orderId}" } });
    expect(surfaceChanges(surface([before]), surface([after])).map((c) => c.kind)).toEqual(["command-renamed"]);
  });

  it("a command removed is breaking, one added is not; the verdict follows", () => {
    const removed = diffSurfaces(
      surface([command("orders list"), command("orders delete")]),
      surface([command("orders list")]),
    );
    expect(removed.changes).toMatchObject([
      {
        kind: "command-removed",
        severity: "breaking",
        command: "orders delete",
        api: { operation: "orders_delete (GET /orders)" },
      },
    ]);
    expect(removed).toMatchObject({ verdict: "major", expected_version: "2.0.0", version_follows: false });
    const added = diffSurfaces(
      surface([command("orders list")]),
      surface([command("orders list"), command("carts list")]),
    );
    expect(added.changes).toMatchObject([{ kind: "command-added", severity: "non-breaking", command: "carts list" }]);
    expect(added).toMatchObject({ verdict: "minor", expected_version: "1.3.0" });
  });

  it("the same operation under a new path is informational and names both sides of the API", () => {
    const changes = surfaceChanges(
      surface([command("orders list")]),
      surface([
        command("orders list", { operation: { method: "GET", path: "/v2/orders", operationId: "orders_list" } }),
      ]),
    );
    expect(changes).toMatchObject([{ kind: "operation-changed", severity: "informational" }]);
    expect(changes[0]!.reason).toContain("GET /v2/orders");
  });

  it("destructive, permission, credential, JSON input and hidden changes", () => {
    const base = command("orders cancel", { permission: "write" });
    expect(one(base, { ...base, destructive: true })).toEqual([{ kind: "became-destructive", severity: "breaking" }]);
    expect(one({ ...base, destructive: true }, base)).toEqual([
      { kind: "no-longer-destructive", severity: "non-breaking" },
    ]);
    expect(one(base, { ...base, permission: "delete" })).toEqual([
      { kind: "permission-changed", severity: "breaking" },
    ]);
    expect(one(base, { ...base, permission: "read" })).toEqual([
      { kind: "permission-changed", severity: "non-breaking" },
    ]);
    expect(one({ ...base, auth: [] }, base)).toEqual([{ kind: "credential-required", severity: "breaking" }]);
    expect(one(base, { ...base, authOptional: true })).toEqual([
      { kind: "credential-no-longer-required", severity: "non-breaking" },
    ]);
    expect(one(base, { ...base, jsonInput: true })).toEqual([{ kind: "json-input-added", severity: "non-breaking" }]);
    expect(one({ ...base, jsonInput: true }, base)).toEqual([{ kind: "json-input-removed", severity: "breaking" }]);
    expect(one(base, { ...base, hidden: true })).toEqual([{ kind: "command-hidden", severity: "informational" }]);
    expect(one(base, { ...base, deprecated: true })).toEqual([
      { kind: "command-deprecated", severity: "informational" },
    ]);
  });

  it("paging added, removed and changed", () => {
    const base = command("orders list");
    expect(one(base, { ...base, pagination: { style: "cursor", param: "cursor" } })).toEqual([
      { kind: "paging-added", severity: "non-breaking" },
    ]);
    expect(one({ ...base, pagination: { style: "cursor", param: "cursor" } }, base)).toEqual([
      { kind: "paging-removed", severity: "breaking" },
    ]);
    expect(
      one(
        { ...base, pagination: { style: "cursor", param: "cursor" } },
        { ...base, pagination: { style: "page", param: "page" } },
      ),
    ).toEqual([{ kind: "paging-changed", severity: "breaking" }]);
  });

  it("error codes: a new error status is a new code the command may end with, a dropped one is informational", () => {
    const base = command("orders get");
    const changes = surfaceChanges(surface([base]), surface([{ ...base, statuses: ["200", "404", "409"] }]));
    expect(changes.map((c) => [c.kind, c.severity, c.after ?? c.before])).toEqual([
      ["error-code-added", "non-breaking", "CONFLICT"],
      ["error-code-added", "non-breaking", "NOT_FOUND"],
      ["error-code-removed", "informational", "AUTH_FAILED"],
    ]);
    expect(changes[1]!.reason).toContain("exit 20");
  });

  it("the binary, package and environment variable names", () => {
    const kinds = surfaceChanges(
      surface([]),
      surface([], {
        product: { name: "Shop", binary: "shop2", version: "2.0.0", package: "shop2-cli" },
        env: { credential: "SHOP_TOKEN", baseUrl: "SHOP_URL" },
      }),
    ).map((c) => [c.kind, c.severity]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ["binary-renamed", "breaking"],
        ["package-renamed", "breaking"],
        ["credential-env-changed", "breaking"],
        ["base-url-env-changed", "breaking"],
      ]),
    );
  });
});

describe("surface diff: flags", () => {
  const base = command("orders list", {
    flags: [
      flag("status", { enum: ["open", "closed"] }),
      flag("limit", { type: "integer", minimum: 1, maximum: 100, default: 20 }),
    ],
  });
  const withFlags = (...flags: Flag[]) => ({ ...base, flags });
  const [status, limit] = base.flags as [Flag, Flag];

  it("added optional, added required, removed", () => {
    expect(one(base, withFlags(status, limit, flag("since")))).toEqual([
      { kind: "flag-added", severity: "non-breaking" },
    ]);
    expect(one(base, withFlags(status, limit, flag("store", { required: true })))).toEqual([
      { kind: "flag-added-required", severity: "breaking" },
    ]);
    expect(one(base, withFlags(status))).toEqual([{ kind: "flag-removed", severity: "breaking" }]);
  });

  it("a flag renamed over the same parameter is one breaking rename", () => {
    const changes = surfaceChanges(surface([base]), surface([withFlags({ ...status, flag: "state" }, limit)]));
    expect(changes).toMatchObject([
      {
        kind: "flag-renamed",
        severity: "breaking",
        before: "--status",
        after: "--state",
        api: { parameter: "query status" },
      },
    ]);
  });

  it("a path parameter renamed in the document is one rename, found by its place in the path", () => {
    const get = (id: string, path: string) =>
      command("vaults get", {
        operation: { method: "GET", path },
        flags: [flag(id, { in: "path", wire: id, required: true })],
      });
    const changes = surfaceChanges(
      surface([get("vault-uuid", "/vaults/{vault-uuid}")]),
      surface([get("id", "/vaults/{id}")]),
    );
    expect(changes.map((c) => [c.kind, c.severity, c.before, c.after])).toEqual([
      ["flag-renamed", "breaking", "--vault-uuid", "--id"],
      ["flag-wire-changed", "informational", "path vault-uuid", "path id"],
    ]);
    expect(changes[1]!.reason).not.toContain("command line is unchanged");
  });

  it("optional ↔ required", () => {
    expect(one(base, withFlags({ ...status, required: true }, limit))).toEqual([
      { kind: "flag-became-required", severity: "breaking" },
    ]);
    expect(one(withFlags({ ...status, required: true }, limit), base)).toEqual([
      { kind: "flag-became-optional", severity: "non-breaking" },
    ]);
  });

  it("types narrowed and widened", () => {
    expect(one(base, withFlags(status, { ...limit, type: "number" }))).toEqual([
      { kind: "flag-type-widened", severity: "non-breaking" },
    ]);
    expect(one(base, withFlags(status, { ...limit, type: "string" }))).toEqual([
      { kind: "flag-type-changed", severity: "breaking" },
    ]);
  });

  it("limits narrowed and widened, each bound on its own", () => {
    expect(one(base, withFlags(status, { ...limit, maximum: 50 }))).toEqual([
      { kind: "flag-limit-narrowed", severity: "breaking" },
    ]);
    expect(one(base, withFlags(status, { ...limit, maximum: 500 }))).toEqual([
      { kind: "flag-limit-widened", severity: "non-breaking" },
    ]);
    expect(one(base, withFlags(status, { ...limit, minimum: 0 }))).toEqual([
      { kind: "flag-limit-widened", severity: "non-breaking" },
    ]);
    expect(one(base, withFlags(status, { ...limit, minimum: 5 }))).toEqual([
      { kind: "flag-limit-narrowed", severity: "breaking" },
    ]);
    expect(one(base, withFlags(status, { ...limit, maxLength: 5 } as Flag))).toEqual([
      { kind: "flag-limit-narrowed", severity: "breaking" },
    ]);
    expect(one(base, withFlags({ ...status, pattern: "^[a-z]+$" }, limit))).toEqual([
      { kind: "flag-limit-narrowed", severity: "breaking" },
    ]);
    expect(one(base, withFlags(status, { ...limit, nullable: true }))).toEqual([
      { kind: "flag-limit-widened", severity: "non-breaking" },
    ]);
  });

  it("enum values removed and added, an enum dropped or imposed", () => {
    const changes = surfaceChanges(surface([base]), surface([withFlags({ ...status, enum: ["open", "held"] }, limit)]));
    expect(changes.map((c) => [c.kind, c.severity, c.before ?? c.after])).toEqual([
      ["flag-enum-value-removed", "breaking", "closed"],
      ["flag-enum-value-added", "non-breaking", "held"],
    ]);
    const noEnum = { ...status };
    delete noEnum.enum;
    expect(one(base, withFlags(noEnum, limit))).toEqual([{ kind: "flag-limit-widened", severity: "non-breaking" }]);
    expect(one(withFlags(noEnum, limit), base)).toEqual([{ kind: "flag-limit-narrowed", severity: "breaking" }]);
  });

  it("a default changed is breaking (calls that omit the flag change meaning); one added is informational", () => {
    expect(one(base, withFlags(status, { ...limit, default: 50 }))).toEqual([
      { kind: "flag-default-changed", severity: "breaking" },
    ]);
    expect(one(base, withFlags({ ...status, default: "open" }, limit))).toEqual([
      { kind: "flag-default-changed", severity: "informational" },
    ]);
  });
});

describe("surface diff: outputs", () => {
  const base = command("orders get");
  it("fields removed, added, retyped; the shape; enum values in an output", () => {
    expect(one(base, { ...base, output: { ...base.output, fields: ["id"] } })).toEqual([
      { kind: "output-field-removed", severity: "breaking" },
    ]);
    expect(one(base, { ...base, output: { ...base.output, fields: ["id", "status", "total"] } })).toEqual([
      { kind: "output-field-added", severity: "non-breaking" },
    ]);
    expect(
      one(base, { ...base, output: { ...base.output, types: { ...base.output.types, id: { type: "integer" } } } }),
    ).toEqual([{ kind: "output-field-retyped", severity: "breaking" }]);
    expect(one(base, { ...base, output: { shape: "array" } })).toEqual([
      { kind: "output-shape-changed", severity: "breaking" },
    ]);
    expect(
      one(base, {
        ...base,
        output: {
          ...base.output,
          types: { ...base.output.types, status: { type: "string", enum: ["open", "closed", "held"] } },
        },
      }),
    ).toEqual([{ kind: "output-enum-value-added", severity: "non-breaking" }]);
    expect(one(base, { ...base, output: { ...base.output, listField: "items" } })).toEqual([
      { kind: "output-list-field-changed", severity: "breaking" },
    ]);
  });
});

describe("surface diff: Skills and rules", () => {
  const cmds = [command("orders list"), command("orders cancel")];
  const skill = {
    name: "cancel-an-order",
    description: "Use when a customer wants an order cancelled.",
    commands: ["orders list", "orders cancel"],
  };
  const diff = (before: Partial<Surface>, after: Partial<Surface>) =>
    surfaceChanges(surface(cmds, before), surface(cmds, after)).map((c) => [c.kind, c.severity]);

  it("added, removed, renamed (same description or commands), re-linked", () => {
    expect(diff({ skills: [] }, { skills: [skill] })).toEqual([["skill-added", "non-breaking"]]);
    expect(diff({ skills: [skill] }, { skills: [] })).toEqual([["skill-removed", "breaking"]]);
    expect(diff({ skills: [skill] }, { skills: [{ ...skill, name: "cancel-order" }] })).toEqual([
      ["skill-renamed", "breaking"],
    ]);
    expect(
      diff({ skills: [skill] }, { skills: [{ ...skill, name: "cancel-order", description: "Other words." }] }),
    ).toEqual([["skill-renamed", "breaking"]]);
    expect(diff({ skills: [skill] }, { skills: [{ ...skill, commands: ["orders cancel"] }] })).toEqual([
      ["skill-relinked", "informational"],
    ]);
  });

  it("a Skill whose command was only renamed is not re-linked", () => {
    const before = surface([command("orders cancel")], { skills: [{ ...skill, commands: ["orders cancel"] }] });
    const after = surface([{ ...command("orders void"), operation: command("orders cancel").operation }], {
      skills: [{ ...skill, commands: ["orders void"] }],
    });
    expect(surfaceChanges(before, after).map((c) => c.kind)).toEqual(["command-renamed"]);
  });

  it("rules added and removed are informational", () => {
    expect(diff({}, { rules: ["Never refund twice."] })).toEqual(
      [
        ["rule-removed", "informational"],
        ["rule-added", "informational"],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
  });

  it("SKILL.md's Commands section names the commands a Skill uses", () => {
    const md =
      "---\nname: x\n---\n# X\n\n## Commands\n\n- `shop orders list --status <open|closed>` — List\n- `shop orders cancel --order-id <string> --yes` — Cancel\n- `other orders get`\n\n## Rules\n\n- `shop carts list` is not here\n";
    expect(skillCommands(md, "shop", new Set(["orders list", "orders cancel", "carts list", "orders get"]))).toEqual([
      "orders list",
      "orders cancel",
    ]);
  });
});

describe("verdict, versions, ignore file and output", () => {
  it("the version a verdict asks for, 0.x following caret ranges", () => {
    expect(expectedVersion("1.2.3", "major", true)).toBe("2.0.0");
    expect(expectedVersion("1.2.3", "minor", true)).toBe("1.3.0");
    expect(expectedVersion("1.2.3", "patch", true)).toBe("1.2.4");
    expect(expectedVersion("0.4.1", "major", true)).toBe("0.5.0");
    expect(expectedVersion("0.4.1", "minor", true)).toBe("0.4.2");
    expect(followsVerdict("1.9.0", "2.0.0")).toBe(false);
    expect(followsVerdict("3.0.0", "2.0.0")).toBe(true);
  });

  it("accepted changes stay listed and still count for the verdict, but not for the gate; unused entries are reported", () => {
    const before = surface([command("orders list"), command("orders delete")]);
    const after = surface([command("orders list")]);
    const diff = diffSurfaces(before, after, [
      { change: "command-removed orders delete", reason: "Announced in March" },
      { change: "flag-removed x --y", reason: "old" },
    ]);
    expect(diff).toMatchObject({ verdict: "major", unaccepted_breaking: 0, counts: { breaking: 1, accepted: 1 } });
    expect(diff.changes[0]!.accepted).toBe("Announced in March");
    expect(diff.unused_ignores).toEqual([{ change: "flag-removed x --y", reason: "old" }]);
    expect(applyIgnore(diff.changes, []).changes[0]!.id).toBe("command-removed orders delete");
  });

  it("Markdown is a table a pull request renders; the CHANGELOG section marks breaking changes", () => {
    const diff = diffSurfaces(
      surface([command("orders list"), command("orders delete")]),
      surface([command("orders list", { flags: [flag("a|b")] })]),
    );
    const md = diffMarkdown(diff);
    expect(md).toMatch(/^### 🔴 CLI surface: major \(shop 1\.2\.3 → 1\.2\.3\)/);
    expect(md).toContain("| **BREAKING** | `orders delete` is gone");
    expect(md).toContain("--a\\|b");
    expect(changelogSection(diff)).toMatch(/^## 1\.2\.3\n[\s\S]*- \*\*BREAKING\*\* `orders delete` is gone/);
  });
});

describe("reading a package's files (untrusted)", () => {
  const manifest = (groups: unknown) =>
    JSON.stringify({
      product: { name: "Shop", binary: "shop", version: "1.0.0" },
      groups,
      skills: [{ name: "s", description: "d" }],
      rules: ["r"],
    });
  const code = (files: Record<string, string>) => {
    try {
      surfaceOf("pkg", new Map(Object.entries(files)));
      return "read";
    } catch (error) {
      return `${(error as InterError).code}: ${(error as Error).message}`;
    }
  };

  it("refuses what `inter build` does not write, naming the file", () => {
    expect(code({})).toMatch(/^CANDIDATE_INVALID: pkg: manifest.json is missing/);
    expect(code({ "manifest.json": "{" })).toMatch(/^CANDIDATE_INVALID: pkg: manifest.json is not JSON/);
    expect(code({ "manifest.json": manifest([{ name: "../../etc" }]) })).toMatch(/^CANDIDATE_INVALID: .*kebab-case/);
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(
      code({
        "manifest.json": manifest([{ name: "orders" }]),
        "commands/orders.json": `{"commands":[{"name":"a b","path":["a","b"],"operation":{"method":"GET","path":"/a"},"flags":[{"flag":"x","in":"query","wire":"x","type":"array","required":false,"default":${deep}}],"output":{"shape":"object"}}]}`,
      }),
    ).toMatch(/^CANDIDATE_INVALID: pkg: commands\/orders.json nests deeper than 256 levels/);
    expect(code({ "manifest.json": manifest([{ name: "orders" }]) })).toMatch(
      /^CANDIDATE_INVALID: pkg: commands\/orders.json is missing/,
    );
    expect(
      code({
        "manifest.json": manifest([{ name: "orders" }]),
        "commands/orders.json": JSON.stringify({ commands: [{ name: "orders list" }] }),
      }),
    ).toMatch(/commands\/orders.json: commands\[0\] lacks a name, path or operation/);
  });

  it("reads commands, Skills with their linked commands, rules and the package name", () => {
    const c = command("orders list", { flags: [flag("status")] });
    const s = surfaceOf(
      "pkg",
      new Map(
        Object.entries({
          "manifest.json": manifest([{ name: "orders" }]),
          "package.json": JSON.stringify({ name: "shop-cli" }),
          "commands/orders.json": JSON.stringify({ name: "orders", commands: [c] }),
          "skills/s/SKILL.md": "---\nname: s\n---\n## Commands\n\n- `shop orders list --status <string>` — List\n",
        }),
      ),
    );
    expect(s).toMatchObject({
      product: { binary: "shop", version: "1.0.0", package: "shop-cli" },
      skills: [{ name: "s", commands: ["orders list"] }],
      rules: ["r"],
    });
    expect(s.commands.map((x) => x.name)).toEqual(["orders list"]);
  });
});
