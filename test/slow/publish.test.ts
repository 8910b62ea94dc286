import { execa } from "execa";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { inter, tempDir } from "../helpers.js";
import { API_KEY, copyProject, exampleProject, patchFile } from "../e2e/example-api.js";
import { faultyRegistry, startRegistry, type Registry } from "../e2e/registry.js";

/**
 * `inter publish`, `<binary> proof` and `<binary> agents install` against a real registry on loopback (verdaccio):
 * publish → npm install from it → proof → agents install (files land where each agent reads them) → an upgrade →
 * uninstall; and the hostile cases: a tampered package, an unmanaged Skill of the same name, a registry that refuses
 * or never answers, a candidate that did not pass.
 *
 * Each test owns what it changes: a copy of the evaluated project (ownProject) and a registry of its own
 * (ownRegistry), so it passes alone and in any order.
 */

/** The example, built and evaluated once for the file; tests copy it and never change it. */
let evaluated: string;

const SKILLS = ["book-a-room-for-a-meeting", "cancel-a-booking", "report-a-rooms-bookings-for-a-day"];

/** Every file under a folder with its bytes (links as their target), relative paths: "nothing else changed". */
function snapshot(dir: string, skip: (path: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (skip(path)) continue;
      if (entry.isDirectory()) walk(path);
      else out[path] = statSync(join(dir, path)).isFile() ? readFileSync(join(dir, path), "latin1") : "(other)";
    }
  };
  walk("");
  return out;
}

/** What npm itself writes in an app folder: left out of "nothing else changed". */
const npmFiles = (path: string) => path === "node_modules" || path === "package-lock.json" || path === "package.json";

/** Runs an installed package's executable (node_modules/.bin) in `cwd`. */
async function bin(cwd: string, name: string, args: string[], env: Record<string, string>) {
  const result = await execa(join(cwd, "node_modules", ".bin", name), args, {
    cwd,
    env,
    reject: false,
    stdin: "ignore",
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
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    json: parse(String(result.stdout)),
    error: parse(String(result.stderr).trim().split("\n").pop() ?? ""),
  };
}

/** A folder with a package.json, where npm installs from the registry as a user would. */
async function app(registry: Registry, spec: string): Promise<string> {
  const dir = tempDir("inter-app-");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }));
  const installed = await execa("npm", ["install", spec, "--no-audit", "--no-fund"], {
    cwd: dir,
    env: registry.env,
    reject: false,
    stdin: "ignore",
  });
  if (installed.exitCode !== 0) throw new Error(`npm install ${spec} failed: ${installed.stderr}`);
  return dir;
}

/** This test's own copy of the evaluated project: what it publishes, bumps or edits no other test sees. */
const ownProject = () => copyProject(evaluated);

/** This test's own registry, stopped when the test ends: it holds only what this test published. */
async function ownRegistry(): Promise<Registry> {
  const registry = await startRegistry();
  onTestFinished(() => registry.stop());
  return registry;
}

beforeAll(async () => {
  evaluated = exampleProject({ warm: true });
  const run = await inter(evaluated, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
  if (run.exitCode !== 0) throw new Error(`inter run eval failed: ${run.stdout}${run.stderr}`);
});

describe("inter publish", () => {
  it("--dry-run shows exactly what would be published, the proof among it, and publishes nothing", async () => {
    const [project, registry] = [ownProject(), await ownRegistry()];
    const dry = await inter(project, ["publish", "--dry-run", "--json"], registry.env);
    expect(dry.exitCode, dry.stdout).toBe(0);
    const data = dry.json.data;
    expect(data).toMatchObject({
      dry_run: true,
      published: false,
      package: { name: "rooms-cli", version: "0.1.0" },
      certification: { level: "Agent-Native" },
      evaluation: { verdict: "pass", gate_met: true },
      version_check: { published_latest: null },
      provenance: { use: false },
    });
    expect(data.files).toEqual(
      expect.arrayContaining([
        "proof/proof.json",
        "proof/receipt.json",
        "proof/results.json",
        "rooms.cjs",
        "manifest.json",
        ...SKILLS.map((s) => `skills/${s}/SKILL.md`),
      ]),
    );
    expect(data.candidate_sha256).toBe(
      JSON.parse(readFileSync(join(project, "dist/receipt.json"), "utf8")).candidate.sha256,
    );
    expect(data.server_json.content).toMatchObject({
      version: "0.1.0",
      packages: [{ registryType: "npm", identifier: "rooms-cli", version: "0.1.0", transport: { type: "stdio" } }],
    });
    expect(existsSync(join(project, "dist/server.json"))).toBe(false);
    const view = await execa("npm", ["view", "rooms-cli", "--json"], { env: registry.env, reject: false });
    expect(view.exitCode).not.toBe(0);
  });

  it("refuses a candidate whose evaluation missed the gate, unless told, and then says so in the proof", async () => {
    const [project, registry] = [evaluated, await ownRegistry()];
    const dir = tempDir("inter-failing-");
    mkdirSync(join(dir, "eval"));
    cpSync(join(project, "dist/cli.tgz"), join(dir, "cli.tgz"));
    cpSync(join(project, "dist/receipt.json"), join(dir, "receipt.json"));
    const results = JSON.parse(readFileSync(join(project, "dist/eval/results.json"), "utf8"));
    results.verdict = "fail";
    results.gate = {
      ...results.gate,
      met: false,
      missed: [{ scenario: "book-a-room", rate: 0, reason: "pass rate 0 % (0/1) is below 100 %" }],
    };
    writeFileSync(join(dir, "eval/results.json"), JSON.stringify(results));
    const badName = await inter(dir, ["publish", "cli.tgz", "--mcp-name", "rooms", "--json"], registry.env);
    expect(badName.exitCode).toBe(2);
    expect(badName.json.error).toMatchObject({ code: "USAGE_ERROR", details: { flag: "mcp-name" } });
    const refused = await inter(dir, ["publish", "cli.tgz", "--json"], registry.env);
    expect(refused.exitCode).toBe(1);
    expect(refused.json.error.code).toBe("PUBLISH_REFUSED");
    expect(refused.json.error.message).toContain("book-a-room");
    const forced = await inter(dir, ["publish", "cli.tgz", "--force-uncertified", "--dry-run", "--json"], registry.env);
    expect(forced.exitCode, forced.stdout).toBe(0);
    expect(forced.json.data.forced.join(" ")).toContain("did not pass the gate");

    rmSync(join(dir, "eval"), { recursive: true });
    const unevaluated = await inter(dir, ["publish", "cli.tgz", "--json"], registry.env);
    expect(unevaluated.json.error).toMatchObject({ code: "PUBLISH_REFUSED" });
    expect(unevaluated.json.error.message).toContain("not evaluated");

    // A receipt of another candidate proves nothing: refused even when forced.
    const receipt = JSON.parse(readFileSync(join(dir, "receipt.json"), "utf8"));
    receipt.candidate.sha256 = "0".repeat(64);
    writeFileSync(join(dir, "receipt.json"), JSON.stringify(receipt));
    const stale = await inter(dir, ["publish", "cli.tgz", "--force-uncertified", "--json"], registry.env);
    expect(stale.json.error.code).toBe("PUBLISH_REFUSED");
    expect(stale.json.error.message).toContain("another candidate");
  });

  it("a registry that refuses, or never answers, leaves nothing published and nothing written", async () => {
    const [project, registry] = [ownProject(), await ownRegistry()];
    const cases = [
      { fault: "500" as const, token: true },
      { fault: "hang" as const, token: true },
    ];
    for (const { fault, token } of cases) {
      const proxy = await faultyRegistry(registry.url, fault);
      try {
        const failed = await inter(
          project,
          ["publish", "--registry", proxy.url, "--timeout", "3", "--json"],
          registry.envFor(proxy.url, token),
        );
        expect(failed.exitCode, `${fault}: ${failed.stdout}`).toBe(1);
        expect(failed.json.error.code).toBe("PUBLISH_FAILED");
        expect(failed.json.error.details.registry_state).toBe("absent");
        expect(failed.json.error.message).toContain("Nothing was published");
      } finally {
        await proxy.stop();
      }
      expect(existsSync(join(project, "dist/server.json"))).toBe(false);
      const view = await execa("npm", ["view", "rooms-cli@0.1.0", "dist.integrity"], {
        env: registry.env,
        reject: false,
      });
      expect(view.stdout.trim()).toBe("");
    }
    // No credential: npm refuses before anything is sent.
    const anonymous = await inter(project, ["publish", "--json"], registry.envFor(registry.url, false));
    expect(anonymous.exitCode).toBe(1);
    expect(anonymous.json.error.code).toBe("PUBLISH_FAILED");
    expect(anonymous.json.error.suggestion).toContain("npm login");
  });

  it("publish → npm install → proof → agents install → upgrade → uninstall, touching only managed files", async () => {
    const [project, registry] = [ownProject(), await ownRegistry()];
    const published = await inter(project, ["publish", "--json"], registry.env);
    expect(published.exitCode, published.stdout).toBe(0);
    expect(published.json.data).toMatchObject({ published: true, package: { name: "rooms-cli", version: "0.1.0" } });
    const server = JSON.parse(readFileSync(join(project, "dist/server.json"), "utf8"));
    expect(server).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      name: "io.github.intermesh-example/rooms",
      version: "0.1.0",
    });
    expect(server.packages[0].environmentVariables).toEqual(
      expect.arrayContaining([
        { name: "ROOMS_API_KEY", description: expect.any(String), isRequired: true, isSecret: true },
      ]),
    );
    // Publishing the same candidate again changes nothing.
    const again = await inter(project, ["publish", "--json"], registry.env);
    expect(again.json.data).toMatchObject({ published: false, already_published: true });

    const dir = await app(registry, "rooms-cli");
    // The name the registry checks in the published package, and the entry shipped inside it, are the same.
    const inPackage = (file: string) => JSON.parse(readFileSync(join(dir, "node_modules/rooms-cli", file), "utf8"));
    expect(inPackage("package.json").mcpName).toBe(server.name);
    expect(inPackage("server.json")).toMatchObject({ name: server.name, version: "0.1.0" });
    const env = { ...registry.env, HOME: tempDir("inter-user-home-") };
    const proof = await bin(dir, "rooms", ["proof", "--expect", published.json.data.content_sha256], env);
    expect(proof.exitCode, proof.stderr).toBe(0);
    expect(proof.json.result).toMatchObject({
      verified: true,
      package: { name: "rooms-cli", version: "0.1.0" },
      candidate_sha256: published.json.data.candidate_sha256,
      certification: { level: "Agent-Native" },
      evaluation: { verdict: "pass", gate_met: true, agent: "reference" },
    });
    expect(proof.json.result.evaluation.plan_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(proof.json.result.evaluation.scenarios.map((s: { pass_rate: number }) => s.pass_rate)).toEqual([1, 1, 1]);
    const other = await bin(dir, "rooms", ["proof", "--expect", "f".repeat(64)], env);
    expect(other.exitCode).toBe(1);
    expect(other.error.code).toBe("PROOF_MISMATCH");

    // A user's own Skill and settings, which nothing may touch.
    mkdirSync(join(dir, ".claude/skills/mine"), { recursive: true });
    writeFileSync(join(dir, ".claude/skills/mine/SKILL.md"), "---\nname: mine\ndescription: my own\n---\n");
    // Each agent's own configuration, in a formatting of its own: every byte must come back after uninstall.
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { other: { command: "other-mcp" } } }));
    writeFileSync(join(dir, "opencode.json"), '{\r\n  "$schema": "https://opencode.ai/config.json"\r\n}\r\n');
    mkdirSync(join(dir, ".codex"));
    writeFileSync(join(dir, ".codex/config.toml"), 'model = "m"');
    mkdirSync(join(dir, ".gemini"));
    writeFileSync(join(dir, ".gemini/settings.json"), '{\n  // my theme\n  "ui": { "theme": "GitHub" },\n}\n');
    mkdirSync(join(dir, ".cursor"));
    writeFileSync(join(dir, ".cursor/mcp.json"), '{\n\t"mcpServers": {\n\t\t"other": { "command": "x" }\n\t}\n}');
    const before = snapshot(dir, npmFiles);

    const dry = await bin(dir, "rooms", ["agents", "install", "--mcp", "--dry-run", "--json"], env);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.json.result.steps.every((s: { action: string }) => s.action === "create")).toBe(true);
    expect(snapshot(dir, npmFiles)).toEqual(before);

    const installed = await bin(dir, "rooms", ["agents", "install", "--mcp"], env);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const shipped = (skill: string) =>
      readFileSync(join(dir, "node_modules/rooms-cli/skills", skill, "SKILL.md"), "utf8");
    for (const folder of [".claude/skills", ".agents/skills", ".opencode/skills", ".gemini/skills", ".cursor/skills"])
      for (const skill of SKILLS)
        expect(readFileSync(join(dir, folder, skill, "SKILL.md"), "utf8")).toBe(shipped(skill));
    const mcpScript = join(dir, "node_modules/rooms-cli/rooms-mcp.cjs");
    const claude = JSON.parse(readFileSync(join(dir, ".mcp.json"), "utf8"));
    expect(claude.mcpServers.other).toEqual({ command: "other-mcp" });
    expect(claude.mcpServers.rooms).toMatchObject({
      command: "node",
      args: [expect.stringMatching(/rooms-mcp\.cjs$/)],
    });
    expect(readFileSync(join(dir, ".codex/config.toml"), "utf8")).toMatch(
      /\[mcp_servers\.rooms\]\ncommand = "node"\nargs = \[".*rooms-mcp\.cjs"\]\nenv_vars = \["ROOMS_API_KEY", "ROOMS_BASE_URL"\]/,
    );
    for (const file of [".gemini/settings.json", ".cursor/mcp.json"]) {
      const { parse } = await import("jsonc-parser/lib/esm/main.js");
      expect(parse(readFileSync(join(dir, file), "utf8")).mcpServers.rooms, file).toEqual({
        command: "node",
        args: [expect.stringMatching(/rooms-mcp\.cjs$/)],
      });
    }
    expect(readFileSync(join(dir, "opencode.json"), "utf8")).not.toMatch(/[^\r]\n/);
    expect(JSON.parse(readFileSync(join(dir, "opencode.json"), "utf8")).mcp.rooms).toMatchObject({
      type: "local",
      command: ["node", expect.stringMatching(/rooms-mcp\.cjs$/)],
      enabled: true,
    });
    // The registered server answers an MCP client: initialize, then its tools.
    const mcp = await execa(claude.mcpServers.rooms.command, claude.mcpServers.rooms.args, {
      cwd: dir,
      env: { ...env, ROOMS_API_KEY: API_KEY },
      input:
        [
          {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
          },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: 2, method: "tools/list" },
        ]
          .map((m) => JSON.stringify(m))
          .join("\n") + "\n",
      reject: false,
      timeout: 60_000,
    });
    const tools = String(mcp.stdout)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((m) => m.id === 2);
    expect(tools?.result?.tools?.map((t: { name: string }) => t.name)).toContain("bookings_cancel");
    expect(mcpScript).toContain("node_modules");
    expect(readFileSync(join(dir, ".claude/skills/mine/SKILL.md"), "utf8")).toContain("my own");

    // Nothing else changed: every new path is a managed Skill file, a server entry's file or the manifest.
    const after = snapshot(dir, npmFiles);
    const added = Object.keys(after)
      .filter((p) => !(p in before))
      .sort();
    expect(added).toEqual(
      [
        ".agents/managed/rooms.json",
        ...[".agents/skills", ".claude/skills", ".opencode/skills", ".gemini/skills", ".cursor/skills"].flatMap((f) =>
          SKILLS.map((s) => `${f}/${s}/SKILL.md`),
        ),
      ].sort(),
    );
    const changedFiles = Object.keys(before).filter((p) => after[p] !== before[p]);
    expect(changedFiles.sort()).toEqual(
      [".mcp.json", "opencode.json", ".codex/config.toml", ".gemini/settings.json", ".cursor/mcp.json"].sort(),
    );

    // A tampered copy of the installed package fails proof, naming the file.
    const copy = tempDir("inter-tampered-");
    cpSync(join(dir, "node_modules/rooms-cli"), copy, { recursive: true });
    patchFile(join(copy, "commands/bookings.json"), '"destructive":true', '"destructive":false');
    const tampered = await execa(process.execPath, [join(copy, "rooms.cjs"), "proof"], { env, reject: false });
    expect(tampered.exitCode).toBe(1);
    expect(JSON.parse(String(tampered.stderr)).code).toBe("PROOF_MISMATCH");
    expect(JSON.parse(String(tampered.stderr)).details.changed).toEqual(["commands/bookings.json"]);
    writeFileSync(join(copy, "extra.js"), "module.exports = 1;\n");
    const extra = await execa(process.execPath, [join(copy, "rooms.cjs"), "proof"], { env, reject: false });
    expect(JSON.parse(String(extra.stderr)).details.added).toEqual(["extra.js"]);

    // The upgrade: a Skill's text changes, the version follows; only managed files move.
    patchFile(
      join(project, "examples/rooms/context.md"),
      "Confirm the booking exists before cancelling it.",
      "Confirm the booking exists, and that it is the one the person named, before cancelling it.",
    );
    const sameVersion = await inter(project, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(sameVersion.exitCode, sameVersion.stdout).toBe(0);
    const notBumped = await inter(project, ["publish", "--json"], registry.env);
    expect(notBumped.exitCode).toBe(2);
    expect(notBumped.json.error.code).toBe("VERSION_NOT_BUMPED");
    patchFile(join(project, "intermesh.config.ts"), 'version: "0.1.0"', 'version: "0.1.1"');
    const rebuilt = await inter(project, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(rebuilt.exitCode, rebuilt.stdout).toBe(0);
    // Through a registry that stores the package but never answers: npm fails, the registry holds it, publish completes.
    rmSync(join(project, "dist/server.json"));
    const silent = await faultyRegistry(registry.url, "store-then-hang");
    let upgraded;
    try {
      upgraded = await inter(
        project,
        ["publish", "--registry", silent.url, "--timeout", "3", "--json"],
        registry.envFor(silent.url, true),
      );
    } finally {
      await silent.stop();
    }
    expect(upgraded.exitCode, upgraded.stdout).toBe(0);
    expect(upgraded.json.data).toMatchObject({ published: true, package: { version: "0.1.1" } });
    expect(upgraded.json.data.version_check).toMatchObject({ published_latest: "0.1.0", follows: true });
    expect(JSON.parse(readFileSync(join(project, "dist/server.json"), "utf8")).version).toBe("0.1.1");
    const npmUpgrade = await execa("npm", ["install", "rooms-cli@0.1.1", "--no-audit", "--no-fund"], {
      cwd: dir,
      env: registry.env,
      reject: false,
    });
    expect(npmUpgrade.exitCode, npmUpgrade.stderr).toBe(0);
    const reinstall = await bin(dir, "rooms", ["agents", "install", "--mcp"], env);
    expect(reinstall.exitCode, reinstall.stderr).toBe(0);
    const actions = Object.fromEntries(
      reinstall.json.result.steps.map((s: { path: string; action: string }) => [s.path, s.action]),
    );
    expect(actions[".claude/skills/cancel-a-booking/SKILL.md"]).toBe("update");
    expect(actions[".claude/skills/book-a-room-for-a-meeting/SKILL.md"]).toBe("unchanged");
    expect(readFileSync(join(dir, ".agents/skills/cancel-a-booking/SKILL.md"), "utf8")).toContain(
      "the one the person named",
    );
    expect((await bin(dir, "rooms", ["proof"], env)).json.result.package.version).toBe("0.1.1");

    // Uninstall: every managed path gone, the user's own files as they were.
    const removed = await bin(dir, "rooms", ["agents", "uninstall"], env);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(snapshot(dir, npmFiles)).toEqual(before);
  });

  it("never overwrites a Skill it did not write: a coded conflict naming it, and nothing written", async () => {
    const [project, registry] = [ownProject(), await ownRegistry()];
    const published = await inter(project, ["publish", "--json"], registry.env);
    expect(published.exitCode, published.stdout).toBe(0);
    const dir = await app(registry, "rooms-cli@0.1.0");
    const env = { ...registry.env, HOME: tempDir("inter-user-home-") };
    mkdirSync(join(dir, ".agents/skills/cancel-a-booking"), { recursive: true });
    writeFileSync(
      join(dir, ".agents/skills/cancel-a-booking/SKILL.md"),
      "---\nname: cancel-a-booking\ndescription: the team's own\n---\n",
    );
    writeFileSync(
      join(dir, "opencode.json"),
      JSON.stringify({ mcp: { rooms: { type: "local", command: ["somebody-else"] } } }),
    );
    const before = snapshot(dir, npmFiles);
    const conflict = await bin(dir, "rooms", ["agents", "install", "--mcp"], env);
    expect(conflict.exitCode).toBe(30);
    expect(conflict.error.code).toBe("INSTALL_CONFLICT");
    expect(conflict.error.message).toContain(".agents/skills/cancel-a-booking");
    expect(conflict.error.details.conflicts.map((c: { path: string }) => c.path)).toEqual([
      ".agents/skills/cancel-a-booking",
      "opencode.json (mcp.rooms)",
    ]);
    expect(snapshot(dir, npmFiles)).toEqual(before);
    // For the agent whose places are free it installs; the user scope goes to HOME.
    const claudeOnly = await bin(dir, "rooms", ["agents", "install", "--agent", "claude-code", "--scope", "user"], env);
    expect(claudeOnly.exitCode, claudeOnly.stderr).toBe(0);
    expect(existsSync(join(env.HOME, ".claude/skills/cancel-a-booking/SKILL.md"))).toBe(true);
    expect(snapshot(dir, npmFiles)).toEqual(before);
  });

  it("inter agents install <cli.tgz> puts a candidate's Skills in place with the generated CLI's own code, running nothing of the candidate", async () => {
    const dir = tempDir("inter-agents-project-");
    const env = { HOME: tempDir("inter-user-home-"), CLAUDE_CONFIG_DIR: "", CODEX_HOME: "", XDG_CONFIG_HOME: "" };
    const candidate = join(evaluated, "dist/cli.tgz");
    const done = await inter(dir, ["agents", "install", candidate, "--agent", "codex", "--json"], env);
    expect(done.exitCode, done.stdout).toBe(0);
    expect(done.json.data.steps.map((s: { path: string }) => s.path)).toEqual(
      SKILLS.map((s) => `.agents/skills/${s}/SKILL.md`),
    );
    expect(readdirSync(join(dir, ".agents/skills")).sort()).toEqual(SKILLS);
    const mcp = await inter(dir, ["agents", "install", candidate, "--mcp", "--json"], env);
    expect(mcp.exitCode).toBe(2);
    expect(mcp.json.error.suggestion).toContain("agents install --mcp");
    const gone = await inter(dir, ["agents", "uninstall", candidate, "--json"], env);
    expect(gone.exitCode, gone.stdout).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });
});
