import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyFile, inter, read, REPO, tempDir } from "../helpers.js";
// @ts-expect-error: a plain ES module fixture, also run on its own
import { scriptFrom, startModelServer } from "../fixtures/model-server.mjs";
import { execa } from "execa";
import { cpSync, rmSync } from "node:fs";
import { API_KEY, copyProject, evaluationFolder, exampleProject, goldenResults } from "../e2e/example-api.js";
import type { Invocation } from "../../src/evaluation/sandbox/broker.js";
import type { ToolCall } from "../../src/evaluation/sandbox/transcript.js";

// Evaluation through MCP: the agent gets the candidate's MCP server instead of the CLI on its PATH; the server, sealed
// in the attempt with the agent, runs each tool call through the broker, so the plan's checks judge the same records.

let project: string;
let config: string;
let model: { url: string; requests: Array<{ path: string; tools: string[] }>; close(): Promise<void> };

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
  config = read(project, "intermesh.config.ts");
  model = await startModelServer({
    script: scriptFrom(
      JSON.parse(read(project, "evals/eval-plan.json")),
      JSON.parse(read(project, "evals/eval-plan.reference.json")),
    ),
  });
});
afterAll(async () => {
  await model?.close();
});

/** A user's HOME with Codex and opencode pointed at the scripted model the way their docs say (Claude Code: variables). */
function userHome(modelUrl: string): string {
  const home = tempDir("inter-agent-home-");
  mkdirSync(join(home, "tmp"), { recursive: true });
  mkdirSync(join(home, ".codex"), { recursive: true });
  writeFileSync(
    join(home, ".codex/config.toml"),
    [
      'model = "scripted-model"',
      'model_provider = "scripted"',
      "",
      "[model_providers.scripted]",
      'name = "Scripted"',
      `base_url = "${modelUrl}/v1"`,
      'env_key = "SCRIPTED_MODEL_KEY"',
      'wire_api = "responses"',
      "",
    ].join("\n"),
  );
  mkdirSync(join(home, ".config/opencode"), { recursive: true });
  writeFileSync(
    join(home, ".config/opencode/opencode.json"),
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
  return home;
}

/** The test's own copy of the built project, configured to evaluate with `agent` through MCP. */
const withInterface = (agent: string): string => {
  if (!config.includes('agent: "reference"')) throw new Error("the example config no longer names the reference agent");
  const own = copyProject(project);
  writeFileSync(
    join(own, "intermesh.config.ts"),
    config.replace('agent: "reference"', `agent: "${agent}", interface: "mcp"`),
  );
  return own;
};

describe('inter run eval with targets.eval.interface = "mcp"', () => {
  it("the golden scenarios pass through MCP with the reference agent, each tool call recorded as its command", async () => {
    const own = withInterface("reference");
    const run = await inter(own, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    const results = goldenResults(own);
    expect(run.exitCode).toBe(0);
    expect(results.agent.name).toBe("reference via mcp");
    expect(JSON.parse(results.agent.identity)).toMatchObject({ interface: "mcp" });
    expect(results.isolation.kind).toBe("bubblewrap");
    // The broker saw CLI calls: the command's words, the tool's arguments as flags, the confirmation as --yes.
    const cancel = results.attempts[1].invocations;
    expect(cancel.map((i: Invocation) => i.argv)).toEqual([
      ["rooms", "bookings", "cancel", "--booking-id=bk_0003", "--yes"],
    ]);
    expect(cancel[0].exit_code).toBe(0);
    const transcript = readFileSync(join(results.attempts[0].workspace, "transcript.txt"), "utf8");
    expect(transcript).toContain("→ bookings_create");
    expect(everyFile(join(own, "dist/eval"))).not.toContain(API_KEY);
  });

  // How each agent offers an MCP server's tools to its model: Claude Code `mcp__<server>__<tool>`, Codex one namespace
  // `mcp__<server>` holding the tools, opencode `<server>_<tool>`.
  const OFFERED = {
    "claude-code": ["mcp__rooms__bookings_create", "mcp__rooms__bookings_cancel"],
    codex: ["mcp__rooms"],
    opencode: ["rooms_bookings_create", "rooms_bookings_cancel"],
  };

  it.each(["claude-code", "codex", "opencode"] as const)(
    "%s, driven by the scripted model, uses the MCP tools (no CLI on its PATH) and passes",
    async (preset) => {
      const own = withInterface(preset);
      const home = userHome(model.url);
      const before = model.requests.length;
      const run = await inter(own, ["run", "eval", "--json"], {
        ROOMS_API_KEY: API_KEY,
        HOME: home,
        TMPDIR: join(home, "tmp"),
        PATH: `${join(REPO, "node_modules/.bin")}:${process.env.PATH}`,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: "sk-scripted-agent-key",
        SCRIPTED_MODEL_KEY: "sk-scripted-agent-key",
      });
      const results = goldenResults(own);
      expect(run.exitCode).toBe(0);
      expect(results.agent.name).toBe(`${preset} via mcp`);
      expect(results.isolation.kind).toBe("bubblewrap");
      // The model was offered the candidate's tools, under the agent's own naming.
      const offered = model.requests.slice(before).flatMap((r) => r.tools);
      expect(offered).toEqual(expect.arrayContaining(OFFERED[preset]));
      // Each tool call reached the broker as the command it is.
      expect(results.attempts[0].invocations.map((i: Invocation) => i.argv.slice(0, 3).join(" "))).toEqual([
        "rooms rooms find-availability",
        "rooms bookings create",
      ]);
      expect(results.attempts[1].invocations.map((i: Invocation) => i.argv)).toEqual([
        ["rooms", "bookings", "cancel", "--booking-id=bk_0003", "--yes"],
      ]);
      if (preset === "claude-code") {
        const transcript = JSON.parse(readFileSync(join(results.attempts[0].workspace, "transcript.json"), "utf8"));
        expect(transcript.tool_calls.map((c: ToolCall) => c.name)).toEqual([
          "mcp__rooms__rooms_find_availability",
          "mcp__rooms__bookings_create",
        ]);
        expect(transcript.tool_calls[1].output).toContain("bk_");
      }
      const written = everyFile(join(own, "dist/eval"));
      expect(written).not.toContain("sk-scripted-agent-key");
      expect(written).not.toContain(API_KEY);
    },
    180_000,
  );

  it("inter eval compare --mcp: the same candidate and agent in the shell (A) and through MCP (B)", async () => {
    const own = copyProject(project);
    const out = join(own, "dist/compare-mcp");
    const run = await inter(
      own,
      ["eval", "compare", "evals/eval-plan.json", "--a", "dist/cli.tgz", "--mcp", "--out", out, "--json"],
      { ROOMS_API_KEY: API_KEY },
    );
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const a = JSON.parse(readFileSync(join(out, "a/results.json"), "utf8"));
    const b = JSON.parse(readFileSync(join(out, "b/results.json"), "utf8"));
    expect(a.agent.name).toBe("reference");
    expect(b.agent.name).toBe("reference via mcp");
    expect(a.candidate.sha256).toBe(b.candidate.sha256);
    expect([a.summary.passed, b.summary.passed]).toEqual([3, 3]);
    expect(JSON.parse(readFileSync(join(out, "comparison.json"), "utf8")).agent).toBe(
      "reference (A), reference via mcp (B)",
    );
    expect(readFileSync(join(out, "summary.md"), "utf8")).toContain("reference via mcp (B)");
    // Both sides judged the same way: the same calls, only spelled --flag=value through MCP.
    expect(b.attempts[2].invocations[0].argv).toContain("--fields=start,duration_minutes,title");
    const usage = await inter(project, [
      "eval",
      "compare",
      "evals/eval-plan.json",
      "--a",
      "dist/cli.tgz",
      "--mcp",
      "--skills-uplift",
      "--json",
    ]);
    expect(usage.exitCode).toBe(2);
    expect(usage.json.error.code).toBe("USAGE_ERROR");
  });

  it("inter eval run --interface mcp on a candidate without an MCP server: every attempt a harness error, none a candidate failure", async () => {
    const folder = await evaluationFolder(project);
    try {
      // The example's package without rooms-mcp.cjs, packed as npm would.
      const work = tempDir("inter-no-mcp-");
      cpSync(join(project, "dist/package"), join(work, "package"), { recursive: true });
      rmSync(join(work, "package/rooms-mcp.cjs"));
      await execa("tar", ["-czf", join(folder.dir, "cli.tgz"), "-C", work, "package"]);
      rmSync(join(folder.dir, "receipt.json"));
      const run = await inter(folder.dir, ["eval", "run", ".", "--interface", "mcp", "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      expect(run.exitCode).toBe(1);
      expect(run.json.error.code).toBe("EVAL_NOT_JUDGED");
      const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.summary).toMatchObject({ attempts: 3, harness_errors: 3, failed: 0, passed: 0 });
      expect(results.attempts[0].harness_error).toContain("ships no MCP server (rooms-mcp.cjs)");
      const bad = await inter(folder.dir, ["eval", "run", ".", "--interface", "smoke-signals", "--json"]);
      expect(bad.exitCode).toBe(2);
    } finally {
      await folder.stop();
    }
  });
});
