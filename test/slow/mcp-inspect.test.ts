import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inter, read } from "../helpers.js";
import { variantBundle } from "../fixtures/variant-bundle.js";
import { schemaValidator } from "../schema.js";
import { API_KEY, changedCandidate, exampleProject, patchFile, startExampleApi } from "../e2e/example-api.js";
import { bigPackage } from "../e2e/mcp-big.js";

const validate = schemaValidator("receipt.schema.json");
let project: string;
let api: Awaited<ReturnType<typeof startExampleApi>>;

beforeAll(async () => {
  api = await startExampleApi();
  project = exampleProject({ warm: true });
  const built = await inter(project, ["build", "--json"]);
  if (built.exitCode !== 0) throw new Error(built.stdout);
});
afterAll(async () => api?.stop());

describe("inter inspect certifies the candidate's MCP server", () => {
  it("starts rooms-mcp like a client: names, schemas, tokens, a read call, a refused destructive call, client profiles", async () => {
    const result = await inter(project, ["inspect", "dist/cli.tgz", "--base-url", api.url, "--json"], {
      ROOMS_API_KEY: API_KEY,
    });
    expect(result.exitCode, result.stdout).toBe(0);
    const receipt = result.json.data;
    expect(validate(receipt)).toEqual([]);
    expect(receipt.mcp).toMatchObject({
      served: true,
      executable: "rooms-mcp",
      toolset: "per-command",
      tools: 8,
      http: { offered: true, ok: true, tools: 8 },
      prompts: 3,
      resources: 7,
      names: { invalid: [], duplicates: [] },
      invalidSchemas: [],
      readCall: { ok: true },
      destructiveRefused: { ok: true, code: "CONFIRMATION_REQUIRED" },
      profiles: [
        { maxTools: 40, fits: true },
        { maxTools: 50, fits: true },
        { maxTools: 128, fits: true },
      ],
      ok: true,
    });
    expect(receipt.mcp.tokens).toBeGreaterThan(500);
    expect(result.stdout).not.toContain(API_KEY);
    const human = await inter(project, ["inspect", "dist/cli.tgz"]);
    expect(human.stdout).toMatch(/✓ MCP rooms-mcp: 8 tools \(per-command\), ~\d+ tokens/);
    expect(human.stdout).toContain("read call skipped");
    expect(human.stdout).toContain("fits clients of 40 tools ✓, 50 tools ✓, 128 tools ✓");
    // A build records it in dist/receipt.json too.
    expect(human.stdout).toContain("Streamable HTTP: ✓ 8 tools, as over stdio");
    expect(JSON.parse(read(project, "dist/receipt.json")).mcp).toMatchObject({ served: true, tools: 8 });
  });

  it("a server that confirms destructive calls by itself fails the refusal check", async () => {
    const server = await variantBundle("mcp", [
      {
        file: "src/runtime/mcp-tools.ts",
        from: "const argv = [...command.path];",
        to: 'const argv = [...command.path, "--yes"];',
      },
    ]);
    const tgz = await changedCandidate(project, (pkg) => writeFileSync(join(pkg, "lib/mcp.cjs"), server));
    const receipt = (
      await inter(project, ["inspect", tgz, "--base-url", api.url, "--json"], { ROOMS_API_KEY: API_KEY })
    ).json.data;
    expect(receipt.mcp.destructiveRefused.ok).toBe(false);
    expect(receipt.mcp.destructiveRefused.code).not.toBe("CONFIRMATION_REQUIRED");
    expect(receipt.mcp.ok).toBe(false);
    // The CLI itself still refuses: the 98 rules are about the CLI, and they still hold.
    expect(receipt.certification.level).toBe("Agent-Native");
  });

  it("a server that prints garbage and exits is reported, and inspection still finishes", async () => {
    const tgz = await changedCandidate(project, (pkg) =>
      writeFileSync(
        join(pkg, "lib/mcp.cjs"),
        'exports.serve = async () => { process.stdout.write("hello, not JSON-RPC\\n"); return 3; };\n',
      ),
    );
    const result = await inter(project, ["inspect", tgz, "--json"]);
    expect(result.exitCode).toBe(0);
    expect(result.json.data.mcp).toMatchObject({ served: false, reason: expect.stringContaining("MCP server failed") });
    expect(validate(result.json.data)).toEqual([]);
  });

  it("a package without an MCP executable says so", async () => {
    const tgz = await changedCandidate(project, (pkg) =>
      patchFile(join(pkg, "package.json"), '"rooms-mcp": "rooms-mcp.cjs"', '"rooms-other": "rooms-mcp.cjs"'),
    );
    const result = await inter(project, ["inspect", tgz, "--json"]);
    expect(result.json.data.mcp).toEqual({ served: false, reason: "the package has no rooms-mcp executable" });
  });

  it("a CLI of ~3,000 commands: the dynamic toolset fits every client profile, and the receipt says what one tool per command would cost", async () => {
    const { bin } = await bigPackage();
    const result = await inter(project, ["inspect", "--bin", "autotask", "--json"], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    const mcp = result.json.data.mcp;
    expect(validate(result.json.data)).toEqual([]);
    expect(mcp).toMatchObject({
      served: true,
      toolset: "dynamic",
      tools: 6,
      invalidSchemas: [],
      destructiveRefused: { tool: "call_destructive", ok: true, code: "CONFIRMATION_REQUIRED" },
      http: { offered: true, ok: true, tools: 6 },
      ok: true,
    });
    expect(mcp.profiles.every((p: { fits: boolean }) => p.fits)).toBe(true);
    expect(mcp.tokens).toBeLessThan(1500);
    expect(mcp.perCommandTokens).toBeGreaterThan(100_000);
    // Judged on every command from the package's manifest, held to a sample of the CLI's own --describe; the tool
    // export asked for one group only; the receipt says which, of how many, and how they were chosen.
    const { sampling, rules } = result.json.data;
    const total = sampling.commands.total;
    expect(total).toBeGreaterThan(2500);
    expect(sampling.commands).toMatchObject({
      source: "manifest",
      why: expect.stringContaining(`32 commands of ${total}`),
    });
    expect(sampling.describe).toMatchObject({ checked: 32, of: total, chosen: expect.stringContaining("destructive") });
    expect(sampling.describe.commands).toHaveLength(32);
    expect(sampling.help).toEqual({ checked: 24, of: total });
    expect(sampling.mcpSchema.of).toBe(total);
    expect(sampling.mcpSchema.commands).toBeLessThanOrEqual(64);
    expect(mcp.perCommandEstimate).toContain(`the ${sampling.mcpSchema.scope} group`);
    const m2 = rules.find((r: { id: string }) => r.id === "M2");
    expect(m2).toMatchObject({
      status: "pass",
      reason: expect.stringContaining(`the ${sampling.mcpSchema.scope} group`),
    });
    for (const id of ["D4", "D7", "D8"]) expect(rules.find((r: { id: string }) => r.id === id).status, id).toBe("pass");
  });

  it("a CLI whose --describe is not what its manifest says is judged on its own --describe --all, and the receipt says why", async () => {
    const { dir, bin } = await bigPackage();
    // The runtime prints a field the manifest knows nothing of, on every command's --describe.
    const runtime = await variantBundle("runtime", [
      {
        file: "src/runtime/help.ts",
        from: "described.outputSchema = outputSchema(c);",
        to: 'described.outputSchema = outputSchema(c);\n        (described as Record<string, unknown>).stale = "yes";',
      },
    ]);
    writeFileSync(join(dir, "lib/runtime.cjs"), runtime);
    const result = await inter(project, ["inspect", "--bin", "autotask", "--json"], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    const { sampling, rules } = result.json.data;
    expect(validate(result.json.data)).toEqual([]);
    expect(sampling.commands).toMatchObject({
      source: "describe",
      why: expect.stringMatching(
        /^the CLI's --describe --all: its --describe of .+ differs from the package's manifest$/,
      ),
    });
    expect(sampling.describe.checked).toBe(32);
    // Every command is still judged, now from what the CLI printed.
    expect(sampling.commands.total).toBeGreaterThan(2500);
    expect(rules.find((r: { id: string }) => r.id === "D8").status).toBe("pass");
  });
});
