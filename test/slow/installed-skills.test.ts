import { execa } from "execa";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presetNamed } from "../../src/evaluation/sandbox/presets.js";
import { skillUse } from "../../src/evaluation/triggers/detect.js";
import { inter, REPO, tempDir } from "../helpers.js";
// @ts-expect-error: a plain ES module fixture, also run on its own
import { startModelServer, triggerScript } from "../fixtures/model-server.mjs";
import { API_KEY, exampleProject, startExampleApi } from "../e2e/example-api.js";

/**
 * After `agents install`, each real agent program (Claude Code, Codex, opencode — the pinned versions) loads an
 * installed Skill, the way it loads Skills: a scripted model on loopback asks for the Skill, and the program's own
 * event stream says whether the load worked. The same run in a project without the install is the control: the load
 * fails, so the test can tell the two apart.
 */

const CANCEL = "cancel-a-booking";
const QUERY = "Please cancel booking bk_123, the meeting is off.";
const LIST = "Which meeting rooms does the office have? List them.";
const RIPGREP = join(REPO, "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-path");

let project: string;
let model: { url: string; close(): Promise<void> };

/** A HOME where each program finds the scripted model and nothing of the caller's. */
function agentHome(modelUrl: string): string {
  const home = tempDir("inter-agent-home-");
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), text);
  };
  write(
    ".codex/config.toml",
    [
      'model = "scripted-model"',
      'model_provider = "scripted"',
      "",
      "[model_providers.scripted]",
      'name = "Scripted"',
      `base_url = "${modelUrl}/v1"`,
      'env_key = "SCRIPTED_MODEL_KEY"',
      'wire_api = "responses"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "",
    ].join("\n"),
  );
  write(
    ".config/opencode/opencode.json",
    JSON.stringify({
      model: "scripted/scripted-model",
      provider: {
        scripted: {
          npm: "@ai-sdk/openai-compatible",
          name: "Scripted",
          options: { baseURL: `${modelUrl}/v1`, apiKey: "{env:SCRIPTED_MODEL_KEY}" },
          models: { "scripted-model": { name: "Scripted model" } },
        },
      },
    }),
  );
  for (const [path, text] of Object.entries(presetNamed("opencode").homeFiles ?? {}))
    if (path.endsWith("/")) mkdirSync(join(home, path), { recursive: true });
    else write(path, text);
  mkdirSync(join(home, "tmp"));
  return home;
}

async function runAgent(name: string, cwd: string, home: string, query = QUERY, extra: Record<string, string> = {}) {
  const preset = presetNamed(name);
  const args = preset.args.map((a) => (a === "{prompt}" ? query : a));
  const result = await execa(join(REPO, "node_modules/.bin", preset.program), args, {
    cwd,
    reject: false,
    timeout: 180_000,
    input: preset.promptVia === "stdin" ? query : "",
    env: {
      ...preset.defaults,
      ...preset.forced,
      // opencode takes its project folder from PWD, as a shell sets it.
      PWD: cwd,
      HOME: home,
      TMPDIR: join(home, "tmp"),
      PATH: `${RIPGREP}:${join(REPO, "node_modules/.bin")}:${process.env.PATH}`,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-scripted-agent-key",
      SCRIPTED_MODEL_KEY: "sk-scripted-agent-key",
      CLAUDE_CONFIG_DIR: "",
      CODEX_HOME: "",
      XDG_CONFIG_HOME: "",
      OPENCODE_CONFIG: "",
      ...extra,
    },
  });
  const transcript = preset.parse(String(result.stdout));
  return { ...skillUse(transcript), transcript };
}

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
  // For one query the MCP tool of `rooms list` (the fixture names MCP tools by the first entry's binary), for the other a Skill to load.
  model = await startModelServer({
    script: [
      { id: "list", task: LIST, binary: "rooms", steps: [], calls: [{ argv: ["rooms", "rooms", "list"] }] },
      ...triggerScript([{ query: QUERY, load: CANCEL }]),
    ],
  });
});
afterAll(async () => model?.close());

describe.each(["claude-code", "codex", "opencode"] as const)("%s", (agent) => {
  it("loads a Skill that agents install put where it reads them, and not without the install", async () => {
    const installed = tempDir(`inter-installed-${agent}-`);
    const done = await inter(installed, [
      "agents",
      "install",
      join(project, "dist/cli.tgz"),
      "--agent",
      agent,
      "--json",
    ]);
    expect(done.exitCode, done.stdout).toBe(0);
    const withSkills = await runAgent(agent, installed, agentHome(model.url));
    expect(withSkills.loaded).toEqual([CANCEL]);

    const bare = tempDir(`inter-bare-${agent}-`);
    const without = await runAgent(agent, bare, agentHome(model.url));
    expect(without.loaded).toEqual([]);
  });
});

describe("claude-code through the MCP server agents install --mcp registered", () => {
  it("calls the server's tool, which answers from the API with the credential from the environment", async () => {
    const api = await startExampleApi();
    try {
      const dir = tempDir("inter-installed-mcp-");
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }));
      const npm = await execa(
        "npm",
        ["install", join(project, "dist/cli.tgz"), "--no-audit", "--no-fund", "--offline"],
        { cwd: dir, reject: false },
      );
      expect(npm.exitCode, npm.stderr).toBe(0);
      const home = agentHome(model.url);
      // The user scope: ~/.claude.json, which Claude Code reads without asking to approve a project's servers.
      const installed = await execa(
        join(dir, "node_modules/.bin/rooms"),
        ["agents", "install", "--agent", "claude-code", "--scope", "user", "--mcp"],
        { cwd: dir, env: { HOME: home, CLAUDE_CONFIG_DIR: "" }, reject: false },
      );
      expect(installed.exitCode, installed.stderr).toBe(0);
      const run = await runAgent("claude-code", dir, home, LIST, {
        ROOMS_API_KEY: API_KEY,
        ROOMS_BASE_URL: api.url,
        ENABLE_TOOL_SEARCH: "false",
      });
      const call = run.transcript.tool_calls.find((c) => c.name === "mcp__rooms__rooms_list");
      expect(call, JSON.stringify(run.transcript.tool_calls)).toBeDefined();
      expect(call!.is_error).not.toBe(true);
      expect(call!.output).toContain("Delta");
    } finally {
      await api.stop();
    }
  });
});
