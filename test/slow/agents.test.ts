import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyFile, inter, read, REPO, tempDir } from "../helpers.js";
// @ts-expect-error: a plain ES module fixture, also run on its own
import { scriptFrom, startModelServer } from "../fixtures/model-server.mjs";
import { API_KEY, copyProject, evaluationFolder, exampleProject, goldenResults } from "../e2e/example-api.js";
import type { Scenario } from "../../src/stages/plan/types.js";

// The three real agent programs (pinned devDependencies), run by the presets inside sealed attempts against a
// scripted model on 127.0.0.1. Each is configured only the way its users configure it — variables and config files
// in a HOME of their own — nothing inter-specific.

const PRESETS = ["claude-code", "codex", "opencode"] as const;
type Preset = (typeof PRESETS)[number];

let project: string;
let model: { url: string; requests: Array<{ path: string }>; close(): Promise<void> };

/** A user's HOME with each agent pointed at a model the way their docs say. */
/** `noRetries`: a user who told Codex not to retry a failing provider (its request_max_retries / stream_max_retries). */
function userHome(modelUrl: string, options: { noRetries?: boolean } = {}): string {
  const home = tempDir("inter-agent-home-");
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
      ...(options.noRetries ? ["request_max_retries = 0", "stream_max_retries = 0"] : []),
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

/** A temporary folder inside the agent's home: what an agent program keeps there (opencode does) goes with it. */
function scratch(home: string): string {
  mkdirSync(join(home, "tmp"), { recursive: true });
  return join(home, "tmp");
}

/** The agent's own variables: Claude Code reads its endpoint and key from the environment. */
const agentEnv = (home: string, modelUrl: string) => ({
  HOME: home,
  TMPDIR: scratch(home),
  PATH: `${join(REPO, "node_modules/.bin")}:${process.env.PATH}`,
  ANTHROPIC_BASE_URL: modelUrl,
  ANTHROPIC_API_KEY: "sk-scripted-agent-key",
  SCRIPTED_MODEL_KEY: "sk-scripted-agent-key",
});

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
  const plan = JSON.parse(read(project, "evals/eval-plan.json"));
  const reference = JSON.parse(read(project, "evals/eval-plan.reference.json"));
  model = await startModelServer({ script: scriptFrom(plan, reference) });
});
afterAll(async () => model?.close());

describe.each(PRESETS)("the %s preset, with the real program", (preset: Preset) => {
  it("passes the example's three scenarios sealed; its transcript is parsed into results", async () => {
    const home = userHome(model.url);
    const own = copyProject(project);
    const config = read(own, "intermesh.config.ts");
    writeFileSync(join(own, "intermesh.config.ts"), config.replace('agent: "reference"', `agent: "${preset}"`));
    const before = model.requests.length;
    // The user's npm registry is the scripted server too, which records what asks it for a package.
    const run = await inter(own, ["run", "eval", "--json"], {
      ROOMS_API_KEY: API_KEY,
      ...agentEnv(home, model.url),
      npm_config_registry: `${model.url}/npm/`,
    });
    const results = goldenResults(own);
    expect(run.exitCode).toBe(0);
    expect(results.isolation.kind).toBe("bubblewrap");
    expect(results.agent.name).toBe(preset);
    expect(JSON.parse(results.agent.identity).version).toMatch(/\d+\.\d+\.\d+/);
    // The model is bound too: what configures it (hashed) in the identity, and what answered where the agent says.
    expect(JSON.parse(results.agent.identity).model).toBe(results.agent.model.configured_hash);
    expect(results.agent.model.configured_hash).toMatch(/^[0-9a-f]{64}$/);
    if (preset === "claude-code") expect(results.agent.model.served.length).toBe(1);
    expect(model.requests.length).toBeGreaterThan(before);
    // One transcript format: the tool calls the agent reports, its answer, turns and tokens.
    const book = results.attempts[0];
    expect(book.agent.summary).toMatchObject({ tool_calls: 2, final: "Done: book-a-room." });
    expect(book.agent.summary.tokens.input).toBeGreaterThan(0);
    const transcript = JSON.parse(readFileSync(join(book.workspace, "transcript.json"), "utf8"));
    expect(JSON.stringify(transcript.tool_calls[1].input)).toContain("rooms bookings create --room-id rm_delta");
    expect(transcript.tool_calls[1].output).toContain("bk_");
    // Nothing asked the npm registry for a package: a sealed attempt needs nothing but its model (opencode installs
    // one into ~/.config/opencode on every run unless that folder's manifest says it is there).
    expect(model.requests.slice(before).filter((r) => r.path.startsWith("/npm/"))).toEqual([]);
    // The agent's own key and the API's credential are in no file the evaluation wrote.
    const written = everyFile(join(own, "dist/eval"));
    expect(written).not.toContain("sk-scripted-agent-key");
    expect(written).not.toContain(API_KEY);
    expect(read(own, "dist/eval/report.html")).toContain("Done: book-a-room.");
  });

  it("with its model endpoint dead, every attempt is a harness error within seconds, none a candidate failure", async () => {
    const dead = "http://127.0.0.1:9";
    const folder = await evaluationFolder(project);
    try {
      const plan = JSON.parse(readFileSync(join(folder.dir, "eval-plan.json"), "utf8"));
      plan.scenarios = plan.scenarios.filter((s: Scenario) => s.id === "cancel-a-booking");
      writeFileSync(join(folder.dir, "eval-plan.json"), JSON.stringify(plan));
      const run = await inter(folder.dir, ["eval", "run", ".", "--agent", preset, "--json"], {
        ROOMS_API_KEY: API_KEY,
        ...agentEnv(userHome(dead, { noRetries: true }), dead),
      });
      expect(run.exitCode).toBe(1);
      const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.summary).toMatchObject({ attempts: 1, harness_errors: 1, failed: 0, passed: 0 });
      expect(results.attempts[0].harness_error).toMatch(/connect|reach|ECONNREFUSED|network/i);
      // Told apart at once, not when the attempt's time ran out (how long it took is bench/'s business).
      expect(results.attempts[0].agent?.timed_out ?? false).toBe(false);
    } finally {
      await folder.stop();
    }
  });
});

describe("Claude Code's served model is the one that answered", () => {
  /** One scenario run against a model server that answers as `servedAs`, with `cut` connections cut first. */
  async function runServedBy(servedAs: string, cut: number) {
    const server = await startModelServer({
      script: scriptFrom(
        JSON.parse(read(project, "evals/eval-plan.json")),
        JSON.parse(read(project, "evals/eval-plan.reference.json")),
      ),
      servedAs,
      cut,
    });
    const folder = await evaluationFolder(project);
    try {
      const plan = JSON.parse(readFileSync(join(folder.dir, "eval-plan.json"), "utf8"));
      plan.scenarios = plan.scenarios.filter((s: Scenario) => s.id === "book-a-room");
      writeFileSync(join(folder.dir, "eval-plan.json"), JSON.stringify(plan));
      const run = await inter(folder.dir, ["eval", "run", ".", "--agent", "claude-code", "--json"], {
        ROOMS_API_KEY: API_KEY,
        ...agentEnv(userHome(server.url), server.url),
        ANTHROPIC_MODEL: "claude-configured-7",
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const file = join(folder.dir, ".inter-eval", "results.json");
      return { file, results: JSON.parse(readFileSync(file, "utf8")), cut: server.requests.length };
    } finally {
      await folder.stop();
      await server.close();
    }
  }

  it("a cut connection before any answer adds nothing to served; a diff across served models is refused unless asked", async () => {
    const first = await runServedBy("served-model-7", 1);
    expect(first.results.agent.model).toMatchObject({ configured: "claude-configured-7", served: ["served-model-7"] });
    const second = await runServedBy("served-model-8", 0);
    expect(second.results.agent.model.served).toEqual(["served-model-8"]);
    const refused = await inter(REPO, ["eval", "diff", first.file, second.file, "--json"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.json.error.code).toBe("EVAL_MODELS_DIFFER");
    const across = await inter(REPO, [
      "eval",
      "diff",
      first.file,
      second.file,
      "--across-models",
      "--plan-changed",
      "--json",
    ]);
    expect(across.json.data?.models_differ, across.stdout + across.stderr).toEqual({
      base: ["served-model-7"],
      head: ["served-model-8"],
    });
  });
});

describe("inter status for a configured agent", () => {
  it("says whether its program is found and what configures it, and blocks the evaluation with the fix when not", async () => {
    const own = copyProject(project);
    writeFileSync(
      join(own, "intermesh.config.ts"),
      read(own, "intermesh.config.ts").replace(
        'agent: "reference"',
        'agent: { preset: "codex", args: ["--model", "scripted-model"] }',
      ),
    );
    const home = userHome(model.url);
    const ready = await inter(own, ["status", "--json"], {
      ROOMS_API_KEY: API_KEY,
      HOME: home,
      PATH: `${join(REPO, "node_modules/.bin")}:${process.env.PATH}`,
    });
    expect(ready.json.data.agent).toMatchObject({ name: "codex", configuredBy: [join(home, ".codex/config.toml")] });
    expect(ready.json.data.isolation).toMatchObject({ sealed: true });
    expect(ready.json.data.evaluationReady).toBe(true);

    const bare = await inter(own, ["status", "--json"], {
      ROOMS_API_KEY: API_KEY,
      HOME: tempDir("inter-empty-home-"),
      PATH: "/usr/bin:/bin",
    });
    expect(bare.json.data.evaluationReady).toBe(false);
    expect(bare.json.data.blockers).toContainEqual(
      expect.objectContaining({ requires: "human", next: expect.stringContaining("npm install -g @openai/codex@") }),
    );
  });
});

describe("agent failures are harness errors", () => {
  it("a model that refuses the agent's login gives a harness error carrying the agent's message", async () => {
    const refusing = await startModelServer({ script: [], fail: 401 });
    const folder = await evaluationFolder(project);
    try {
      const plan = JSON.parse(readFileSync(join(folder.dir, "eval-plan.json"), "utf8"));
      plan.scenarios = plan.scenarios.filter((s: Scenario) => s.id === "cancel-a-booking");
      writeFileSync(join(folder.dir, "eval-plan.json"), JSON.stringify(plan));
      const run = await inter(folder.dir, ["eval", "run", ".", "--agent", "claude-code", "--json"], {
        ROOMS_API_KEY: API_KEY,
        ...agentEnv(userHome(refusing.url), refusing.url),
      });
      expect(run.exitCode).toBe(1);
      const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.summary).toMatchObject({ harness_errors: 1, failed: 0 });
      expect(results.attempts[0].harness_error).toMatch(/Claude Code reported an error.*(401|invalid|authentication)/i);
    } finally {
      await folder.stop();
      await refusing.close();
    }
  });

  it("a command the agent's own settings deny is a harness error, not a candidate failure", async () => {
    const folder = await evaluationFolder(project);
    try {
      const plan = JSON.parse(readFileSync(join(folder.dir, "eval-plan.json"), "utf8"));
      plan.scenarios = plan.scenarios.filter((s: Scenario) => s.id === "cancel-a-booking");
      writeFileSync(join(folder.dir, "eval-plan.json"), JSON.stringify(plan));
      const home = userHome(model.url);
      mkdirSync(join(home, ".claude"), { recursive: true });
      writeFileSync(
        join(home, ".claude/settings.json"),
        JSON.stringify({ permissions: { deny: ["Bash(rooms bookings cancel:*)"] } }),
      );
      const run = await inter(folder.dir, ["eval", "run", ".", "--agent", "claude-code", "--json"], {
        ROOMS_API_KEY: API_KEY,
        ...agentEnv(home, model.url),
      });
      expect(run.exitCode).toBe(1);
      const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.summary).toMatchObject({ harness_errors: 1, failed: 0 });
      expect(results.attempts[0].harness_error).toMatch(/permission|denied|rejected/i);
    } finally {
      await folder.stop();
    }
  });

  it("an agent program that is not installed is a harness error naming the package to install", async () => {
    const folder = await evaluationFolder(project);
    try {
      const run = await inter(folder.dir, ["eval", "run", ".", "--agent", "codex", "--json"], {
        ROOMS_API_KEY: API_KEY,
        PATH: "/usr/bin:/bin",
      });
      expect(run.exitCode).toBe(1);
      const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.summary).toMatchObject({ harness_errors: 3, failed: 0 });
      expect(results.attempts[0].harness_error).toContain("npm install -g @openai/codex@");
      expect(existsSync(join(folder.dir, ".inter-eval/report.html"))).toBe(true);
    } finally {
      await folder.stop();
    }
  });
});
