import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inter, read, REPO, tempDir, type InterResult } from "../helpers.js";
import type { Step } from "../../src/cli/init/init.js";
import type { Blocker, StatusReport } from "../../src/cli/status/status.js";
import { API_KEY } from "../e2e/example-api.js";

const empty = () => tempDir("inter-init-");
const SKILLS = ["intermesh-context", "intermesh-eval-plan", "intermesh-evaluate", "intermesh-workspace"];
const actions = (result: InterResult) =>
  Object.fromEntries(result.json.data.steps.map((s: Step) => [s.path, s.action]));
/** Every file under a folder with its bytes, to prove a command changed nothing. */
const snapshot = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => !f.startsWith(".intermesh") && lstatSync(join(dir, f)).isFile())
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), "utf8")]),
  );

describe("inter init", () => {
  it("names the product by the document's title and the variables of every security scheme its commands send, as the build and status do", async () => {
    const dir = empty();
    const document = {
      openapi: "3.0.3",
      info: { title: "Forge API v2", version: "1" },
      servers: [{ url: "https://forge.example.com/api" }],
      components: {
        securitySchemes: {
          private_token: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN" },
          oauth: {
            type: "oauth2",
            flows: { clientCredentials: { tokenUrl: "https://forge.example.com/oauth/token", scopes: {} } },
          },
        },
      },
      security: [{ private_token: [] }, { oauth: [] }],
      paths: { "/projects": { get: { operationId: "listProjects", responses: { "200": { description: "ok" } } } } },
    };
    writeFileSync(join(dir, "forge.json"), JSON.stringify(document));
    // No --name: the product is the document's title, without its "API v2".
    const init = await inter(dir, ["init", "--openapi", "forge.json", "--json"]);
    expect(init.exitCode, init.stdout).toBe(0);
    const cfg = read(dir, "intermesh.config.ts");
    expect(cfg).toContain('product: { name: "Forge", binary: "forge" }');
    expect(cfg).toContain(
      'api: { credentials: { oauth: { accessToken: "FORGE_OAUTH_ACCESS_TOKEN", clientId: "FORGE_OAUTH_CLIENT_ID", clientSecret: "FORGE_OAUTH_CLIENT_SECRET" }, private_token: "FORGE_PRIVATE_TOKEN" } }',
    );
    expect(cfg).not.toContain("credentialEnv");
    // Status lists exactly those; either scheme's variable will do.
    const unset = await inter(dir, ["status", "--json"]);
    expect(unset.json.data.credential.variables.map((v: { name: string }) => v.name)).toEqual([
      "FORGE_OAUTH_ACCESS_TOKEN",
      "FORGE_OAUTH_CLIENT_ID",
      "FORGE_OAUTH_CLIENT_SECRET",
      "FORGE_PRIVATE_TOKEN",
    ]);
    const set = await inter(dir, ["status", "--json"], { FORGE_PRIVATE_TOKEN: "forge-token-value" });
    expect(set.json.data.credential).toMatchObject({ set: true, alternatives: true });
    const text = await inter(dir, ["status"], { FORGE_PRIVATE_TOKEN: "forge-token-value" });
    expect(text.stdout).toContain(
      "FORGE_PRIVATE_TOKEN is set (the config's schemes are alternatives: one scheme's credentials will do)",
    );
  });

  it("scaffolds an empty folder that then builds, with the OpenAPI document given by flag", async () => {
    const dir = empty();
    cpSync(join(REPO, "examples/rooms/openapi.yaml"), join(dir, "api.yaml"));
    const init = await inter(dir, ["init", "--name", "Acme Rooms", "--openapi", "api.yaml", "--json"]);
    expect(init.exitCode, init.stdout).toBe(0);
    expect(init.json.data.conflicts).toBe(0);
    const written = actions(init);
    expect(written).toMatchObject({
      "intermesh.config.ts": "create",
      "inputs/context.md": "create",
      "evals/README.md": "create",
      ".gitignore": "create",
    });
    for (const skill of SKILLS) expect(written[`.agents/skills/${skill}/SKILL.md`]).toBe("create");
    const cfg = read(dir, "intermesh.config.ts");
    expect(cfg).toContain('product: { name: "Acme Rooms", binary: "acme-rooms" }');
    expect(cfg).toContain('openapi: "api.yaml"');
    // The variables of the document's security schemes, as the build names them.
    expect(cfg).toContain('api: { credentials: { apiKey: "ACME_ROOMS_API_KEY" } }');
    expect(read(dir, ".gitignore").split("\n")).toEqual(expect.arrayContaining([".intermesh/", "dist/"]));
    expect(read(dir, ".agents/skills/intermesh-workspace/SKILL.md")).toBe(
      read(REPO, "skills/intermesh-workspace/SKILL.md"),
    );

    // The skeleton's TODOs are not a brief: the build refuses with the blocker `inter status` reports.
    const todoLines = read(dir, "inputs/context.md")
      .split("\n")
      .flatMap((l, i) => (l.includes("<!-- TODO") ? [i + 1] : []));
    const refused = await inter(dir, ["build", "--json"]);
    expect(refused.exitCode, refused.stdout).toBe(2);
    expect(refused.json.error).toMatchObject({
      code: "CONTEXT_INCOMPLETE",
      message: expect.stringContaining(`inputs/context.md (lines ${todoLines.join(", ")})`),
      suggestion: expect.stringContaining("Replace every <!-- TODO"),
      details: {
        file: "inputs/context.md",
        lines: todoLines,
        next_actions: [{ command: "inter", args: ["--json", "build"], cwd: expect.any(String) }],
      },
    });
    expect(existsSync(join(dir, "dist/cli.tgz"))).toBe(false);
    const status = await inter(dir, ["status", "--json"]);
    expect(status.json.data.blockers).toContainEqual(
      expect.objectContaining({ stage: "generation", code: "CONTEXT_INCOMPLETE" }),
    );

    writeFileSync(
      join(dir, "inputs/context.md"),
      "# Acme Rooms\n\nAcme Rooms books meeting rooms. <!-- a note for editors -->\n\n## Tasks and scenarios\n\n### Book a room\n\nA user books a room.\n\nExpected outcome: the booking exists.\n",
    );
    const build = await inter(dir, ["build", "--json"]);
    expect(build.exitCode, build.stdout).toBe(0);
    const candidate = readFileSync(join(dir, "dist/cli.tgz"));
    const receipt = read(dir, "dist/receipt.json");
    expect(read(dir, "dist/capabilities.json")).not.toContain("<!--");

    // A TODO back in the brief: refused again, and the last candidate, its receipt and the cache stay as they were.
    writeFileSync(join(dir, "inputs/context.md"), `${read(dir, "inputs/context.md")}\n<!-- TODO: a second task -->\n`);
    const again = await inter(dir, ["build", "--json"]);
    expect(again.exitCode).toBe(2);
    expect(again.json.error.details).toMatchObject({ lines: [13] });
    expect(readFileSync(join(dir, "dist/cli.tgz")).equals(candidate)).toBe(true);
    expect(read(dir, "dist/receipt.json")).toBe(receipt);
  });

  it("--dry-run lists every step and whether its file exists, and writes nothing", async () => {
    const dir = empty();
    writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
    const before = snapshot(dir);
    const dry = await inter(dir, ["init", "--dry-run", "--json"]);
    expect(dry.exitCode).toBe(0);
    expect(dry.json.data.dryRun).toBe(true);
    expect(dry.json.data.steps.find((s: Step) => s.path === ".gitignore")).toMatchObject({
      action: "append",
      exists: true,
      reason: "adds .intermesh/, dist/, .inter-eval/",
    });
    expect(dry.json.data.steps.find((s: Step) => s.path === "intermesh.config.ts")).toMatchObject({
      action: "create",
      exists: false,
    });
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(dir)).toEqual([".gitignore"]);
  });

  it("is idempotent, keeps files you edited, and brings its own untouched files up to date", async () => {
    const dir = empty();
    await inter(dir, ["init", "--name", "Acme"]);
    const first = snapshot(dir);
    const again = await inter(dir, ["init", "--name", "Acme", "--json"]);
    expect(new Set(Object.values(actions(again)))).toEqual(new Set(["unchanged"]));
    expect(snapshot(dir)).toEqual(first);

    // You edited the brief: it is yours now.
    writeFileSync(join(dir, "inputs/context.md"), "# Acme\n\nMy own words.\n");
    // A file an older inter init wrote and nobody touched since: the manifest holds the hash it wrote.
    writeFileSync(join(dir, "evals/README.md"), "old template\n");
    const manifest = JSON.parse(read(dir, ".intermesh/init.json"));
    manifest.files["evals/README.md"] = createHash("sha256").update("old template\n").digest("hex");
    writeFileSync(join(dir, ".intermesh/init.json"), JSON.stringify(manifest));
    const third = await inter(dir, ["init", "--name", "Acme", "--json"]);
    expect(actions(third)).toMatchObject({ "inputs/context.md": "kept", "evals/README.md": "update" });
    expect(read(dir, "inputs/context.md")).toBe("# Acme\n\nMy own words.\n");
    expect(read(dir, "evals/README.md")).toBe(first["evals/README.md"]);
  });

  it("leaves an unmanaged Skill of the same name untouched and reports the decision it needs", async () => {
    const dir = empty();
    mkdirSync(join(dir, ".agents/skills/intermesh-workspace"), { recursive: true });
    writeFileSync(
      join(dir, ".agents/skills/intermesh-workspace/SKILL.md"),
      "---\nname: intermesh-workspace\ndescription: mine\n---\nmine\n",
    );
    mkdirSync(join(dir, ".claude"));
    const init = await inter(dir, ["init", "--json"]);
    expect(init.exitCode).toBe(0);
    expect(init.json.data.conflicts).toBe(1);
    const conflict = init.json.data.steps.find((s: Step) => s.action === "conflict");
    expect(conflict).toMatchObject({
      path: ".agents/skills/intermesh-workspace",
      decision: expect.stringContaining("move .agents/skills/intermesh-workspace away and run `inter init` again"),
    });
    expect(read(dir, ".agents/skills/intermesh-workspace/SKILL.md")).toContain("description: mine");
    expect(readdirSync(join(dir, ".agents/skills/intermesh-workspace"))).toEqual(["SKILL.md"]);
    // The other Skills are installed, and linked from .claude/skills because .claude exists; the conflicting one is not.
    expect(readlinkSync(join(dir, ".claude/skills/intermesh-evaluate"))).toBe(
      "../../.agents/skills/intermesh-evaluate",
    );
    expect(read(dir, ".claude/skills/intermesh-evaluate/SKILL.md")).toBe(
      read(REPO, "skills/intermesh-evaluate/SKILL.md"),
    );
    expect(existsSync(join(dir, ".claude/skills/intermesh-workspace"))).toBe(false);
    const text = await inter(dir, ["init"]);
    expect(text.stdout).toMatch(
      /conflict\s+\.agents\/skills\/intermesh-workspace — a Skill named intermesh-workspace exists here and was not installed by inter init\n\s+→ decide: Keep yours/,
    );
  });

  it("a run that fails half-way reports completed, failed and pending steps and the command that resumes it", async () => {
    const dir = empty();
    writeFileSync(join(dir, ".agents"), "a file where a folder must go");
    const failed = await inter(dir, ["init", "--name", "Acme", "--json"]);
    expect(failed.exitCode).toBe(1);
    const { code, details } = failed.json.error;
    expect(code).toBe("INIT_FAILED");
    expect(details.completed).toEqual(["intermesh.config.ts", "inputs/context.md", "evals/README.md", ".gitignore"]);
    expect(details.failed.path).toBe(".agents/skills/intermesh-context/SKILL.md");
    expect(details.pending).toHaveLength(11); // the rest of the four Skills: SKILL.md and evals/ (evals.json, trigger-queries.json)
    expect(details.resume).toBe("inter init --name Acme");
    rmSync(join(dir, ".agents"));
    const resumed = await inter(dir, ["init", "--name", "Acme", "--json"]);
    expect(resumed.exitCode).toBe(0);
    const a = actions(resumed);
    expect(a["intermesh.config.ts"]).toBe("unchanged");
    expect(a[".agents/skills/intermesh-context/SKILL.md"]).toBe("create");
  });

  it("--example scaffolds the Rooms example, which builds and passes its evaluation", async () => {
    const parent = empty();
    const dir = join(parent, "rooms-demo");
    const init = await inter(parent, ["init", "--dir", "rooms-demo", "--example", "--json"]);
    expect(init.exitCode, init.stdout).toBe(0);
    const build = await inter(dir, ["build", "--json"]);
    expect(build.exitCode, build.stdout).toBe(0);
    const evaluation = await inter(dir, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(evaluation.exitCode, evaluation.stdout).toBe(0);
    expect(JSON.parse(read(dir, "dist/eval/results.json")).gate.met).toBe(true);
  });
});

describe("inter status", () => {
  const status = async (dir: string, env: Record<string, string> = {}) => {
    const r = await inter(dir, ["status", "--json"], env);
    expect(r.exitCode).toBe(0);
    return r.json.data;
  };
  const blockers = (s: Pick<StatusReport, "blockers">) => s.blockers.map((b) => `${b.stage}/${b.requires}: ${b.next}`);

  it("without a config: WORKSPACE_NOT_FOUND (exit 2) with the report and the setup to run next", async () => {
    const dir = empty();
    const r = await inter(dir, ["status", "--json"]);
    expect(r.exitCode).toBe(2);
    expect(r.json.error.code).toBe("WORKSPACE_NOT_FOUND");
    const s = r.json.error.details.status;
    expect(s.config).toMatchObject({ found: false, valid: false });
    expect(s).toMatchObject({ ready: false, workspace_prepared: false, generation_ready: false });
    expect(blockers(s)).toEqual(["generation/agent: inter init --name <Product> --openapi <path/to/openapi.yaml>"]);
    expect(r.json.error.details.next_actions[0]).toMatchObject({
      command: "inter",
      args: [
        "--json",
        "setup",
        "--project-dir",
        r.json.error.details.status.dir,
        "--display-name",
        "<Product>",
        "--dry-run",
      ],
    });
  });

  it("with an invalid config: the error code and its fix", async () => {
    const dir = empty();
    writeFileSync(
      join(dir, "intermesh.config.ts"),
      'export default { product: { name: "X", binary: "Not Valid" }, inputs: { openapi: "a.yaml" } };\n',
    );
    const s = await status(dir);
    expect(s.config).toMatchObject({ found: true, valid: false, error: { code: "CONFIG_INVALID" } });
    expect(s.blockers[0]).toMatchObject({ stage: "generation", requires: "agent" });
  });

  it("after inter init: the missing OpenAPI document needs an input, the brief's TODOs an agent, the plan an agent", async () => {
    const dir = empty();
    await inter(dir, ["init", "--name", "Acme"]);
    const s = await status(dir);
    expect(s.config.valid).toBe(true);
    expect(s.inputs.find((i: StatusReport["inputs"][number]) => i.role === "openapi").files).toEqual([]);
    expect(s.inputs.find((i: StatusReport["inputs"][number]) => i.role === "context").files[0].sha256).toBe(
      createHash("sha256").update(read(dir, "inputs/context.md")).digest("hex"),
    );
    expect(blockers(s)).toEqual([
      "generation/input: cp <your-openapi.yaml> inputs/openapi.yaml",
      "generation/agent: $EDITOR inputs/context.md  # replace every TODO (Skill intermesh-context); a person confirms the rules",
      "evaluation/agent: inter eval new evals --candidate dist/cli.tgz  # then set targets.eval.plan in the config",
    ]);
    // The same code `inter build` refuses the brief with, and where the placeholders are.
    expect(s.blockers.map((b: Blocker) => b.code)).toEqual(["INPUT_NOT_FOUND", "CONTEXT_INCOMPLETE", undefined]);
    expect(s.blockers[1].what).toMatch(/^inputs\/context\.md still has TODO placeholders \(lines 3, /);
    expect(s.credential).toEqual({
      env: "ACME_API_KEY",
      set: false,
      alternatives: false,
      variables: [{ name: "ACME_API_KEY", set: false }],
    });
  });

  it("the credential is reported as set or not, never by value; ready after a build, with the candidate and its certification", async () => {
    const parent = empty();
    const dir = join(parent, "p");
    await inter(parent, ["init", "--dir", "p", "--example"]);
    const unset = await status(dir);
    expect(unset.ready).toBe(true);
    expect(unset.evaluationReady).toBe(false);
    expect(blockers(unset)).toEqual(["evaluation/human: export ROOMS_API_KEY=<its value>"]);
    expect(unset.last).toEqual({ candidate: null, certification: null, evaluation: null, surface: null });

    const secret = "sk-status-secret-value-123";
    const text = await inter(dir, ["status"], { ROOMS_API_KEY: secret });
    expect(text.stdout).toContain("credential  ROOMS_API_KEY is set");
    expect(text.stdout + text.stderr).not.toContain(secret);

    await inter(dir, ["build"]);
    const built = await status(dir, { ROOMS_API_KEY: secret });
    expect(JSON.stringify(built)).not.toContain(secret);
    expect(built).toMatchObject({
      ready: true,
      evaluation_ready: true,
      evaluationReady: true,
      blockers: [],
      credential: { env: "ROOMS_API_KEY", set: true, variables: [{ name: "ROOMS_API_KEY", set: true }] },
    });
    expect(built.last.candidate.sha256).toBe(
      createHash("sha256")
        .update(readFileSync(join(dir, "dist/cli.tgz")))
        .digest("hex"),
    );
    expect(built.last.certification).toBe("Agent-Native");
    expect(built.cache.objects).toBeGreaterThan(0);
  });
});
