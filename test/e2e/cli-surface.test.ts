import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { execa } from "execa";
import { inter, INTER_BIN, makeProject } from "../helpers.js";
import { API_KEY, exampleProject } from "./example-api.js";
import type { Step } from "../../src/cli/init/init.js";
import type { Blocker } from "../../src/cli/status/status.js";

/** The `inter` CLI as people and agents meet it: help, typos, missing arguments, and Intermesh 0.1's words. */
describe("help and mistakes, as a new user meets them", () => {
  it("help names every value, lists the global flags once, and shows each command's flags and examples", async () => {
    const dir = makeProject({});
    const root = await inter(dir, ["--help"]);
    expect(root.exitCode).toBe(0);
    expect(root.stdout).not.toContain("#0");
    expect(root.stdout).toContain("Global flags (every command takes them):");
    expect(root.stdout.match(/--config <file>/g)).toHaveLength(1);
    expect(root.stdout).toMatch(/--cwd <dir>\s+Run as if started in this folder \(alias: --project-dir\)/);
    const build = await inter(dir, ["build", "--help"]);
    expect(build.stdout).toMatch(/^inter build — Build every target/);
    // A flag on by default shows as what one would type to change it.
    expect(build.stdout).toContain("Usage: inter build [--no-remote] [--remote-only] [--watch] [--no-suggest]");
    expect(build.stdout).toMatch(
      /^ {2}--\[no-\]remote {3}Use the remote cache when one is configured \(default\); --no-remote keeps to the local cache$/m,
    );
    expect(build.stdout).not.toContain("[--remote]");
    expect(build.stdout).toContain("Global flags: --json, --config <file>, --cwd <dir>, --concurrency <n>, --force");
    expect(build.stdout).toContain("Examples:\n  Rebuild on every save:\n    $ inter build --watch");
    // A group's help lists its commands and says the global flags once, at the end.
    const cache = await inter(dir, ["cache", "--help"]);
    expect(cache.exitCode).toBe(0);
    expect(cache.stdout.match(/^inter cache \w+ — /gm)).toEqual([
      "inter cache ls — ",
      "inter cache verify — ",
      "inter cache gc — ",
      "inter cache clean — ",
    ]);
    expect(cache.stdout.match(/Global flags:/g)).toHaveLength(1);
    expect(cache.stdout.trimEnd().split("\n").slice(-2)[0]).toMatch(/^Global flags: --json, --config <file>/);
    const evalRun = await inter(dir, ["eval", "run", "--help"]);
    expect(evalRun.stdout).toContain("[--shard <i/n>]");
    expect(evalRun.stdout).toContain("<folder>");
    // As data: the same shape as before, the values named.
    const json = await inter(dir, ["explain", "--help", "--json"]);
    expect(json.json.data.commands[0]).toMatchObject({ command: "inter explain", usage: "inter explain <task>" });
    expect(json.json.data.commands[0].options.map((o: { flags: string }) => o.flags)).toContain("--cwd <dir>");
  });

  it('a mistyped command or flag gets "did you mean"; a missing argument is named with the usage', async () => {
    const dir = makeProject({});
    const command = await inter(dir, ["biuld", "--json"]);
    expect(command.exitCode).toBe(2);
    expect(command.json.error).toMatchObject({
      code: "USAGE_ERROR",
      message: 'No command "biuld". Did you mean: inter build?',
      details: { suggestions: ["build"] },
    });
    const sub = await inter(dir, ["eval", "valdate", "--json"]);
    expect(sub.json.error.details.suggestions).toContain("eval validate");
    const flag = await inter(dir, ["build", "--concurency", "2", "--json"]);
    expect(flag.json.error).toMatchObject({
      code: "USAGE_ERROR",
      details: { flag: "--concurency", suggestions: ["--concurrency"] },
    });
    expect(flag.json.error.message).toBe('Unknown flag --concurency for "inter build". Did you mean --concurrency?');
    const missing = await inter(dir, ["explain", "--json"]);
    expect(missing.json.error).toMatchObject({
      code: "USAGE_ERROR",
      message: '"inter explain" needs <task>.',
      details: { missing: "<task>" },
    });
    expect(missing.json.error.suggestion).toContain("Usage: inter explain <task>");
    const text = await inter(dir, ["biuld"]);
    expect(text.stderr).toContain(
      'error USAGE_ERROR: No command "biuld". Did you mean: inter build?\n  → Run `inter build --help`.',
    );
  });

  it("inter status says each input once; inter run cli ends with the certification; eval new points $schema at the shipped schema", async () => {
    const dir = exampleProject({ warm: "with-key" });
    const built = await inter(dir, ["run", "cli"], { ROOMS_API_KEY: API_KEY });
    expect(built.exitCode, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/\ncertified Agent-Native: \d+ pass, 0 fail/);
    const status = await inter(dir, ["status"]);
    expect(status.stdout).toMatch(/^openapi {5}examples\/rooms\/openapi\.yaml sha256:[0-9a-f]{12}…$/m);
    mkdirSync(join(dir, "plans"));
    // No --candidate: a folder of a built project uses the build's dist/cli.tgz (the one candidate lookup, #42).
    const made = await inter(dir, ["eval", "new", "plans", "--json"]);
    expect(made.exitCode, made.stdout).toBe(0);
    const schema = JSON.parse(readFileSync(join(dir, "plans/eval-plan.json"), "utf8")).$schema;
    expect(schema).not.toMatch(/^https?:/);
    expect(existsSync(resolve(join(dir, "plans"), schema))).toBe(true);
    // A reader that closes early gets the first bytes; inter ends with its own exit code and no EPIPE stack trace.
    const piped = await execa(
      "sh",
      ["-c", `node "${INTER_BIN}" inspect dist/cli.tgz --json | head -c 10; exit \${PIPESTATUS:-0}`],
      { cwd: dir, env: { CI: "true" }, reject: false, shell: false },
    );
    expect(piped.stdout).toBe('{\n  "ok": ');
    expect(piped.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
  });
});

describe("Intermesh 0.1's inter-cli-management Skill, followed word for word", () => {
  it("sets up a workspace: status says WORKSPACE_NOT_FOUND, setup asks for the name, plans, applies; status then says prepared", async () => {
    const workspace = join(makeProject({}), "acme");
    mkdirSync(workspace);
    const none = await inter("/", ["--json", "status", "--project-dir", workspace]);
    expect(none.exitCode).toBe(2);
    expect(none.json.error.code).toBe("WORKSPACE_NOT_FOUND");

    const asks = await inter("/", ["--json", "setup", "--project-dir", workspace, "--dry-run"]);
    expect(asks.exitCode).toBe(2);
    expect(asks.json.error).toMatchObject({
      code: "SETUP_INPUT_REQUIRED",
      details: { missing_fields: ["display_name"] },
    });
    expect(asks.json.error.details.next_actions[0]).toMatchObject({
      command: "inter",
      args: expect.arrayContaining(["setup", "--display-name"]),
      cwd: workspace,
      after: expect.any(String),
    });

    const plan = await inter("/", [
      "--json",
      "setup",
      "--project-dir",
      workspace,
      "--display-name",
      "Acme",
      "--dry-run",
    ]);
    expect(plan.exitCode, plan.stdout).toBe(0);
    expect(plan.json.data.plan).toMatchObject({
      workspace,
      identity: { display_name: "Acme", binary: "acme", package: "acme-cli" },
      targets: { cli: { outDir: "dist" } },
    });
    expect(plan.json.data.plan.files.map((f: { action: string; path: string }) => `${f.action} ${f.path}`)).toContain(
      "create intermesh.config.ts",
    );
    expect(
      plan.json.data.plan.skills.some((s: { path: string }) =>
        s.path.startsWith(".agents/skills/intermesh-workspace/"),
      ),
    ).toBe(true);
    expect(existsSync(join(workspace, "intermesh.config.ts"))).toBe(false);

    const applied = await inter("/", ["--json", "setup", "--project-dir", workspace, "--display-name", "Acme"]);
    expect(applied.json.data).toMatchObject({
      workspace_prepared: true,
      next_actions: [{ command: "inter", args: ["--json", "status", "--project-dir", workspace], cwd: workspace }],
    });
    const status = await inter("/", ["--json", "status", "--project-dir", workspace]);
    expect(status.exitCode).toBe(0);
    expect(status.json.data).toMatchObject({
      workspace_prepared: true,
      generation_ready: false,
      ready: false,
      evaluation_ready: false,
      evaluationReady: false,
    });
    // One convention: the report's names are snake_case; a camelCase name is only ever an alias of its snake twin.
    const camel: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (!value || typeof value !== "object" || Array.isArray(value)) return;
      for (const [key, v] of Object.entries(value)) {
        if (/[A-Z]/.test(key)) {
          camel.push(`${at}${key}`);
          expect(
            (value as Record<string, unknown>)[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)],
            `${at}${key}`,
          ).toEqual(v);
        }
        walk(v, `${at}${key}.`);
      }
    };
    walk(status.json.data, "");
    expect(camel).toEqual(["evaluationReady"]);
    expect(status.json.data.blockers.map((b: Blocker) => b.requires)).toEqual(["input", "agent", "agent"]);
  });

  it("recovers from a partial failure by running the next action it names", async () => {
    const blocked = join(makeProject({}), "acme");
    mkdirSync(dirname(join(blocked, ".agents/skills")), { recursive: true });
    writeFileSync(join(blocked, ".agents/skills"), "a file where inter's Skills folder goes");
    const partial = await inter("/", ["--json", "setup", "--project-dir", blocked, "--display-name", "Acme"]);
    expect(partial.exitCode).toBe(1);
    const d = partial.json.error.details;
    expect(partial.json.error.code).toBe("INIT_FAILED");
    expect(d.completed_steps).toEqual(expect.arrayContaining(["intermesh.config.ts", "inputs/context.md"]));
    expect(d.failed_step.path).toMatch(/^\.agents\/skills\//);
    expect(d.pending_steps.length).toBeGreaterThan(0);
    const next = d.next_actions[0];
    expect(next).toMatchObject({ command: "inter", cwd: blocked, after: expect.any(String) });
    // The agent fixes what failed_step names, then runs the next action: finished steps are kept, the rest is done.
    rmSync(join(blocked, ".agents/skills"));
    const resumed = await inter(next.cwd, next.args);
    expect(resumed.exitCode, resumed.stdout).toBe(0);
    expect(resumed.json.data.steps.find((s: Step) => s.path === "intermesh.config.ts").action).toBe("unchanged");
    expect(existsSync(join(blocked, ".agents/skills/intermesh-workspace/SKILL.md"))).toBe(true);
  });

  it("inter update --dry-run says what it would run, and runs nothing", async () => {
    const r = await inter(makeProject({}), ["update", "--dry-run", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(r.json.data).toMatchObject({
      dryRun: true,
      installed: expect.stringMatching(/^\d+\.\d+\.\d+/),
      next_actions: [{ command: expect.any(String), args: expect.any(Array), cwd: expect.any(String) }],
    });
  });
});
