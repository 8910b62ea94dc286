import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium } from "../browser.js";
import { everyFile, inter, read, REPO, tempDir } from "../helpers.js";
import { schemaValidator } from "../schema.js";
// @ts-expect-error: a plain ES module fixture, also run on its own
import { startModelServer, triggerScript } from "../fixtures/model-server.mjs";
import { API_KEY, exampleProject } from "../e2e/example-api.js";
import { DESIGN_MODEL_KEY, startDesignModelServer, type DesignModelRequest } from "../fixtures/design-model-server.mjs";
import { execa } from "execa";
import type { TriggerQuery } from "../../src/evaluation/triggers/queries.js";
import type { SkillStats } from "../../src/evaluation/triggers/stats.js";
import type { TriggerResultsFile } from "../types/read-back.js";
import * as tar from "tar";

// Trigger evaluation with the three real agent programs against a scripted model that loads a Skill, the wrong one,
// none, or breaks — per query, the way each program loads Skills. The query set below is held out from the drafts
// `inter eval new` writes; the expected statistics are worked out by hand from the script.

const validateQueries = schemaValidator("trigger-queries.schema.json");
const PRESETS = ["claude-code", "codex", "opencode"] as const;
const BOOK = "book-a-room-for-a-meeting";
const CANCEL = "cancel-a-booking";
const REPORT = "report-a-rooms-bookings-for-a-day";

/** The held-out set: query → expected Skill, and what the scripted model does with it. */
const CASES = [
  {
    query: "I need a room for 6 people on 2026-12-02 at 10:00 for an hour, please book it.",
    expected_skill: BOOK,
    load: BOOK,
  },
  { query: "Please cancel booking bk_123, the meeting is off.", expected_skill: CANCEL, load: CANCEL },
  { query: "Drop my reservation bk_9, we no longer meet.", expected_skill: CANCEL, load: BOOK },
  {
    query: "What is on room Delta's calendar on 2026-12-02? Put it in a file for the cleaners.",
    expected_skill: REPORT,
    load: null,
  },
  { query: "What is 17 times 3?", expected_skill: null, load: null },
  { query: "Tell me a joke about meeting rooms.", expected_skill: null, fail: true },
] as const;

// The ripgrep Codex ships: opencode's skill tool needs `rg` on PATH, as on a developer's machine.
const RIPGREP = join(REPO, "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-path");

let project: string;
let folder: string;
let model: {
  url: string;
  requests: Array<{ path: string; conversation: string; agent: string | null }>;
  close(): Promise<void>;
};

function userHome(modelUrl: string, modelName = "scripted-model"): string {
  const home = tempDir("inter-trigger-home-");
  mkdirSync(join(home, ".codex"), { recursive: true });
  writeFileSync(
    join(home, ".codex/config.toml"),
    [
      `model = "${modelName}"`,
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
  mkdirSync(join(home, ".config/opencode"), { recursive: true });
  writeFileSync(
    join(home, ".config/opencode/opencode.json"),
    JSON.stringify({
      model: `scripted/${modelName}`,
      provider: {
        scripted: {
          npm: "@ai-sdk/openai-compatible",
          name: "Scripted",
          options: { baseURL: `${modelUrl}/v1`, apiKey: "{env:SCRIPTED_MODEL_KEY}" },
          models: { [modelName]: { name: "Scripted model" } },
        },
      },
    }),
  );
  mkdirSync(join(home, "tmp"));
  return home;
}

const agentEnv = (home: string, modelUrl: string, options: { ripgrep?: boolean } = {}) => ({
  HOME: home,
  TMPDIR: join(home, "tmp"),
  PATH: `${options.ripgrep === false ? "" : `${RIPGREP}:`}${join(REPO, "node_modules/.bin")}:${process.env.PATH}`,
  ANTHROPIC_BASE_URL: modelUrl,
  ANTHROPIC_API_KEY: "sk-scripted-agent-key",
  SCRIPTED_MODEL_KEY: "sk-scripted-agent-key",
});

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
  folder = tempDir("inter-triggers-");
  copyFileSync(join(project, "dist/cli.tgz"), join(folder, "cli.tgz"));
  writeFileSync(
    join(folder, "trigger-queries.json"),
    JSON.stringify({ queries: CASES.map(({ query, expected_skill }) => ({ query, expected_skill })) }, null, 2),
  );
  model = await startModelServer({ script: triggerScript([...CASES, ...ownSkillCases(), ...IMPROVE_CASES]) });
});
afterAll(async () => model?.close());

/**
 * The model's requests in [from, to) whose conversation names the query: a request names the task it serves, so a
 * late request of an earlier run (opencode titles a session on the side) is never counted as a run of another.
 */
const naming = (query: string, from: number, to?: number) =>
  model.requests.slice(from, to).filter((r) => r.conversation.includes(query));
const namingAny = (from: number) => CASES.flatMap(({ query }) => naming(query, from));

const resultsOf = (dir: string): TriggerResultsFile =>
  JSON.parse(readFileSync(join(dir, ".inter-triggers/results.json"), "utf8"));

describe.each(PRESETS)("%s, with the real program and the candidate's Skills where it looks", (preset) => {
  it("recall, precision and the confusion matrix are right; a broken run is a harness error; the gate names the Skill", async () => {
    const dir = tempDir(`inter-triggers-${preset}-`);
    for (const f of ["cli.tgz", "trigger-queries.json"]) copyFileSync(join(folder, f), join(dir, f));
    const first = model.requests.length;
    const run = await inter(
      dir,
      [
        "eval",
        "triggers",
        ".",
        "--agent",
        preset,
        "--runs",
        "2",
        "--attempts-concurrency",
        "3",
        "--min-recall",
        "0.5",
        "--json",
      ],
      agentEnv(userHome(model.url), model.url),
    );
    expect(run.exitCode).toBe(1);
    expect(run.json.error.code).toBe("TRIGGERS_FAILED");
    expect(run.json.error.message).toContain(`${REPORT}: recall 0.00 < 0.5`);
    const r = resultsOf(dir);
    expect(r.agent.name).toBe(preset);
    expect(r.isolation.kind).toBe("bubblewrap");
    expect(r.results.map((q) => [q.trigger_rate, q.loaded, q.runs.filter((x) => x.harness_error).length])).toEqual([
      [1, { [BOOK]: 2 }, 0],
      [1, { [CANCEL]: 2 }, 0],
      [0, { [BOOK]: 2 }, 0],
      [0, {}, 0],
      [1, {}, 0],
      [null, {}, 2],
    ]);
    expect(r.results[5]!.runs[0]!.harness_error).toMatch(/scripted failure|400/);
    const by = Object.fromEntries(r.skills.map((s) => [s.skill, s]));
    expect(by[BOOK]).toMatchObject({
      true_positives: 2,
      false_positives: 2,
      false_negatives: 0,
      precision: 0.5,
      recall: 1,
    });
    expect(by[CANCEL]).toMatchObject({
      true_positives: 2,
      false_positives: 0,
      false_negatives: 2,
      precision: 1,
      recall: 0.5,
    });
    expect(by[REPORT]).toMatchObject({ true_positives: 0, false_negatives: 2, precision: null, recall: 0 });
    expect(r.confusion.labels).toEqual([BOOK, CANCEL, REPORT, "(none)"]);
    expect(r.confusion.counts).toEqual([
      [2, 0, 0, 0],
      [2, 2, 0, 0],
      [0, 0, 0, 2],
      [0, 0, 0, 2],
    ]);
    expect(r.summary).toMatchObject({ queries: 6, runs: 12, judged: 10, harness_errors: 2, false_triggers: 2 });
    expect(read(dir, ".inter-triggers/summary.md")).toContain(`| ${CANCEL} | 100 % | 50 % |`);
    expect(read(dir, ".inter-triggers/report.html")).toContain('id="confusion"');
    // The agent's key is in no file the run wrote.
    expect(everyFile(join(dir, ".inter-triggers"))).not.toContain("sk-scripted-agent-key");

    // Warm: the judged runs come from the cache; only the broken ones run again. A set without them runs nothing.
    const before = model.requests.length;
    const warm = await inter(
      dir,
      ["eval", "triggers", ".", "--agent", preset, "--runs", "2", "--json"],
      agentEnv(userHome(model.url), model.url),
    );
    expect(warm.exitCode).toBe(0);
    expect(resultsOf(dir)).toMatchObject({ executed: 2, cached: 10 });
    writeFileSync(
      join(dir, "clean.json"),
      JSON.stringify(CASES.slice(0, 5).map(({ query, expected_skill }) => ({ query, expected_skill }))),
    );
    const quiet = model.requests.length;
    // Each query's runs went to the model, and the broken one's again.
    for (const { query } of CASES) expect(naming(query, first, before).length, query).toBeGreaterThan(0);
    expect(naming(CASES[5].query, before, quiet).length).toBeGreaterThan(0);
    const clean = await inter(
      dir,
      ["eval", "triggers", ".", "--queries", "clean.json", "--agent", preset, "--runs", "2", "--json"],
      agentEnv(userHome(model.url), model.url),
    );
    expect(clean.exitCode).toBe(0);
    expect(clean.json.data).toMatchObject({ executed: 0, cached: 10 });
    // No conversation about a query of the set reached the model.
    const ranAgain = CASES.slice(0, 5).flatMap(({ query }) => naming(query, quiet));
    expect(ranAgain.map((r) => [r.path, r.agent])).toEqual([]);

    // Another model (its name in the agent's configuration): nothing cached under the first one is reused, and the
    // results name the model each was measured with.
    // One run of one query of the clean set, cached above under the first model, is enough to see it (an opencode run
    // costs several seconds of CPU).
    writeFileSync(
      join(dir, "one.json"),
      JSON.stringify(CASES.slice(0, 1).map(({ query, expected_skill }) => ({ query, expected_skill }))),
    );
    const same = await inter(
      dir,
      ["eval", "triggers", ".", "--queries", "one.json", "--agent", preset, "--runs", "1", "--json"],
      agentEnv(userHome(model.url), model.url),
    );
    expect(same.json.data).toMatchObject({ executed: 0, cached: 1 });
    const other = await inter(
      dir,
      ["eval", "triggers", ".", "--queries", "one.json", "--agent", preset, "--runs", "1", "--json"],
      {
        ...agentEnv(userHome(model.url, "scripted-model-b"), model.url),
        ...(preset === "claude-code" ? { ANTHROPIC_MODEL: "scripted-model-b" } : {}),
      },
    );
    expect(other.exitCode, other.stdout).toBe(0);
    expect(other.json.data).toMatchObject({ executed: 1, cached: 0 });
    const measured = resultsOf(dir).agent.model!;
    expect(measured.configured).toMatch(/scripted-model-b$/);
    if (preset === "claude-code") expect(measured.served).toEqual(["scripted-model-b"]);
  });
});

describe("harness errors and refusals", () => {
  it("opencode whose skill tool cannot work (no ripgrep on PATH) reports harness errors, never misses", async () => {
    const dir = tempDir("inter-triggers-blind-");
    copyFileSync(join(folder, "cli.tgz"), join(dir, "cli.tgz"));
    writeFileSync(
      join(dir, "trigger-queries.json"),
      JSON.stringify([CASES[0]].map(({ query, expected_skill }) => ({ query, expected_skill }))),
    );
    const run = await inter(
      dir,
      ["eval", "triggers", ".", "--agent", "opencode", "--runs", "1", "--json"],
      agentEnv(userHome(model.url), model.url, { ripgrep: false }),
    );
    expect(run.exitCode).toBe(1);
    expect(run.json.error.code).toBe("EVAL_NOT_JUDGED");
    const r = resultsOf(dir);
    expect(r.summary).toMatchObject({ judged: 0, harness_errors: 1 });
    expect(r.results[0]!.runs[0]!.harness_error).toMatch(
      /tried to load book-a-room-for-a-meeting and could not \(its Skill tool needs ripgrep/,
    );
    expect(r.skills.find((s) => s.skill === BOOK)).toMatchObject({ false_negatives: 0, recall: null });
  });

  it("an agent that cannot report Skill loads (--agent-command) is a harness error for every run", async () => {
    const dir = tempDir("inter-triggers-command-");
    copyFileSync(join(folder, "cli.tgz"), join(dir, "cli.tgz"));
    writeFileSync(
      join(dir, "trigger-queries.json"),
      JSON.stringify([CASES[0]].map(({ query, expected_skill }) => ({ query, expected_skill }))),
    );
    const run = await inter(dir, [
      "eval",
      "triggers",
      ".",
      "--agent-command",
      JSON.stringify(["true"]),
      "--runs",
      "2",
      "--json",
    ]);
    expect(run.exitCode).toBe(1);
    expect(run.json.error.code).toBe("EVAL_NOT_JUDGED");
    expect(resultsOf(dir).results[0]!.runs.map((x) => x.harness_error)).toEqual([
      expect.stringMatching(/only the agent presets/),
      expect.stringMatching(/only the agent presets/),
    ]);
  });

  it("user settings that add Skills or plugins would shadow the candidate's: refused, coded, nothing run", async () => {
    const home = userHome(model.url);
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(
      join(home, ".claude/settings.json"),
      JSON.stringify({ enabledPlugins: { "rooms-helper@market": true } }),
    );
    const before = model.requests.length;
    const run = await inter(
      folder,
      ["eval", "triggers", ".", "--agent", "claude-code", "--json"],
      agentEnv(home, model.url),
    );
    expect(run.exitCode).toBe(2);
    expect(run.json.error.code).toBe("TRIGGER_SHADOWED");
    expect(run.json.error.message).toContain(join(home, ".claude/settings.json"));
    expect(namingAny(before)).toEqual([]);
  });

  it("unsealed, a Skills folder above the attempts would be read too: refused, coded, nothing run", async () => {
    const parent = tempDir("inter-triggers-parent-");
    mkdirSync(join(parent, ".claude/skills/stray"), { recursive: true });
    writeFileSync(
      join(parent, ".claude/skills/stray/SKILL.md"),
      "---\nname: stray\ndescription: Use for everything.\n---\n",
    );
    const dir = join(parent, "evaluation");
    mkdirSync(dir);
    copyFileSync(join(folder, "cli.tgz"), join(dir, "cli.tgz"));
    copyFileSync(join(folder, "trigger-queries.json"), join(dir, "trigger-queries.json"));
    const before = model.requests.length;
    const run = await inter(dir, ["eval", "triggers", ".", "--agent", "claude-code", "--json"], {
      ...agentEnv(userHome(model.url), model.url),
      INTER_SANDBOX: "none",
    });
    expect(run.exitCode).toBe(2);
    expect(run.json.error.code).toBe("TRIGGER_SHADOWED");
    expect(run.json.error.details.found).toEqual([
      `${join(parent, ".claude/skills")} (Skills in a parent folder of the attempt)`,
    ]);
    expect(namingAny(before)).toEqual([]);
  });

  it("bad query sets are coded errors naming the file and field, exit 2", async () => {
    const dir = tempDir("inter-triggers-bad-");
    copyFileSync(join(folder, "cli.tgz"), join(dir, "cli.tgz"));
    writeFileSync(
      join(dir, "trigger-queries.json"),
      JSON.stringify({ queries: [{ query: "x", expected_skill: "no-such-skill" }] }),
    );
    const unknown = await inter(dir, ["eval", "triggers", ".", "--agent", "codex", "--json"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.json.error).toMatchObject({
      code: "TRIGGER_QUERIES_INVALID",
      details: { unknown: ["no-such-skill"] },
    });
    expect(unknown.json.error.message).toBe(
      "trigger-queries.json names a Skill the candidate does not have: no-such-skill.",
    );
    writeFileSync(
      join(dir, "trigger-queries.json"),
      JSON.stringify({ queries: [{ query: "", expected_skill: null }] }),
    );
    const empty = await inter(dir, ["eval", "triggers", ".", "--agent", "codex", "--json"]);
    expect(empty.exitCode).toBe(2);
    expect(empty.json.error.message).toMatch(/^trigger-queries\.json: \/queries\/0\/query/);
    const noModel = await inter(dir, ["eval", "triggers", ".", "--agent", "codex", "--improve", CANCEL, "--json"]);
    expect(noModel.exitCode).toBe(2);
    expect(noModel.json.error.message).toBe(
      "--improve needs a proposing model: --proposer-provider, --proposer-model, --proposer-base-url, --proposer-key-env missing.",
    );
  });
});

describe("drafts and inter's own Skills", () => {
  it("inter eval new drafts a valid query set per bundled Skill: its task should trigger it, neighbours' tasks are near misses", async () => {
    const dir = tempDir("inter-triggers-new-");
    copyFileSync(join(folder, "cli.tgz"), join(dir, "cli.tgz"));
    const made = await inter(dir, ["eval", "new", ".", "--json"]);
    expect(made.exitCode).toBe(0);
    expect(made.json.data.trigger_queries.map((f: string) => f.split("/").pop())).toEqual([
      `${BOOK}.json`,
      `${CANCEL}.json`,
      `${REPORT}.json`,
    ]);
    const cancel = JSON.parse(read(dir, `trigger-queries/${CANCEL}.json`));
    expect(validateQueries(cancel)).toEqual([]);
    expect(cancel).toMatchObject({ skill: CANCEL, draft: true });
    expect(
      cancel.queries.filter((q: TriggerQuery) => q.expected_skill === CANCEL).map((q: TriggerQuery) => q.query),
    ).toEqual([
      "Please cancel a booking.",
      "My meeting is off. I name the booking (by id) that should be cancelled, which frees the room.",
    ]);
    // A user's voice, not the brief's third-person prose.
    for (const q of cancel.queries) expect(q.query).not.toMatch(/^(A person|An office manager|The user)\b/);
    expect(
      cancel.queries
        .filter((q: TriggerQuery) => q.expected_skill !== CANCEL)
        .map((q: TriggerQuery) => q.expected_skill),
    ).toEqual([BOOK, REPORT, null]);
  });

  it("inter's own four Skills carry valid trigger query sets, and Claude Code loads them from .claude/skills", async () => {
    const names = ["intermesh-context", "intermesh-eval-plan", "intermesh-evaluate", "intermesh-workspace"];
    for (const name of names) {
      const set = JSON.parse(read(REPO, `skills/${name}/evals/trigger-queries.json`));
      expect(validateQueries(set)).toEqual([]);
      expect(set.queries.filter((q: TriggerQuery) => q.expected_skill === name).length).toBeGreaterThanOrEqual(3);
      expect(set.queries.some((q: TriggerQuery) => q.expected_skill === null)).toBe(true);
    }
    const dir = tempDir("inter-triggers-own-");
    const run = await inter(
      dir,
      [
        "eval",
        "triggers",
        ".",
        "--skills",
        join(REPO, "skills"),
        "--queries",
        join(REPO, "skills/intermesh-evaluate/evals/trigger-queries.json"),
        "--agent",
        "claude-code",
        "--runs",
        "1",
        "--min-recall",
        "1",
        "--max-false-triggers",
        "0",
        "--json",
      ],
      agentEnv(userHome(model.url), model.url),
    );
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.json.data.skills.map((s: SkillStats) => [s.skill, s.recall, s.precision])).toEqual([
      ["intermesh-context", null, null],
      ["intermesh-eval-plan", 1, 1],
      ["intermesh-evaluate", 1, 1],
      ["intermesh-workspace", 1, 1],
    ]);
  });
});

// The description loop: the agent sends "drop"/"call off" requests to the booking Skill unless cancel-a-booking's
// description carries the marker the proposer writes into it.
const MARK = "calls-off-or-drops";
const IMPROVE_CASES = [
  {
    query: "Drop reservation bk_31, the offsite is off.",
    expected_skill: CANCEL,
    split: "train",
    load: BOOK,
    when: { contains: MARK, load: CANCEL },
  },
  {
    query: "Call off booking bk_77, nobody is coming.",
    expected_skill: CANCEL,
    split: "test",
    load: BOOK,
    when: { contains: MARK, load: CANCEL },
  },
  { query: "How many minutes are in a day?", expected_skill: null, split: "test", load: null },
];

describe("improving a description", () => {
  it("learns from the train split only, chooses by the held-out split, and writes a patch it never applies", async () => {
    const proposer = await startDesignModelServer({
      script: () => ({
        answer: {
          description: `Use when a person ${MARK} a booking they name by id; it frees the room. Not for booking a room or reporting a day.`,
          reasoning: "The misses were requests to drop or call off a booking.",
        },
      }),
    });
    try {
      const dir = tempDir("inter-triggers-improve-");
      copyFileSync(join(folder, "cli.tgz"), join(dir, "cli.tgz"));
      const before = readFileSync(join(dir, "cli.tgz"));
      writeFileSync(
        join(dir, "trigger-queries.json"),
        JSON.stringify(IMPROVE_CASES.map(({ query, expected_skill, split }) => ({ query, expected_skill, split }))),
      );
      const run = await inter(
        dir,
        [
          "eval",
          "triggers",
          ".",
          "--agent",
          "claude-code",
          "--runs",
          "1",
          "--improve",
          CANCEL,
          "--iterations",
          "1",
          "--proposer-provider",
          "openai-compatible",
          "--proposer-model",
          "scripted",
          "--proposer-base-url",
          `${proposer.url}/v1`,
          "--proposer-key-env",
          "DESIGN_KEY",
          "--json",
        ],
        { ...agentEnv(userHome(model.url), model.url), DESIGN_KEY: DESIGN_MODEL_KEY },
      );
      expect(run.exitCode, run.stdout).toBe(0);
      const proposal = run.json.data.proposal;
      expect(proposal).toMatchObject({
        skill: CANCEL,
        improved: true,
        current: { train: 0, test: 0.5 },
        best: { test: 1, iteration: 1 },
      });
      expect(proposal.iterations).toEqual([expect.objectContaining({ iteration: 1, train: 1, test: 1 })]);
      // The proposer saw the train query and its result, never a held-out one.
      expect(proposer.requests).toHaveLength(1);
      const asked = (proposer.requests as DesignModelRequest[]).map((r) => r.user).join("\n");
      expect(asked).toContain("Drop reservation bk_31");
      expect(asked).not.toContain("bk_77");
      expect(asked).not.toContain("minutes are in a day");
      // The baseline's results are what results.json holds: the proposal changed nothing.
      expect(resultsOf(dir).skills.find((s) => s.skill === CANCEL)).toMatchObject({ recall: 0 });
      expect(readFileSync(join(dir, "cli.tgz")).equals(before)).toBe(true);
      // The patch applies to the Skill as shipped.
      const unpacked = tempDir("inter-triggers-patch-");
      await tar.x({ file: join(dir, "cli.tgz"), cwd: unpacked });
      const skills = join(unpacked, "package");
      const check = await execa("git", ["apply", "-v", proposal.patch], { cwd: skills, reject: false });
      expect(check.exitCode, check.stderr).toBe(0);
      expect(readFileSync(join(skills, `skills/${CANCEL}/SKILL.md`), "utf8")).toMatch(
        new RegExp(`^description: "Use when a person ${MARK}`, "m"),
      );
      expect(everyFile(join(dir, ".inter-triggers"))).not.toContain(DESIGN_MODEL_KEY);
    } finally {
      await proposer.close();
    }
  });
});

/** The scripted model answers inter's own evaluate set perfectly: each query loads its expected Skill. */
function ownSkillCases() {
  const set = JSON.parse(readFileSync(join(REPO, "skills/intermesh-evaluate/evals/trigger-queries.json"), "utf8"));
  return set.queries.map((q: TriggerQuery) => ({ query: q.query, load: q.expected_skill }));
}

describe("the review page, in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => (browser = await launchChromium()));
  afterAll(async () => browser?.close());

  it("report.html shows the Skills table and the confusion matrix, from file://, with no network", async () => {
    const dir = tempDir("inter-triggers-report-");
    for (const f of ["cli.tgz", "trigger-queries.json"]) copyFileSync(join(folder, f), join(dir, f));
    const run = await inter(
      dir,
      ["eval", "triggers", ".", "--agent", "claude-code", "--runs", "1", "--json"],
      agentEnv(userHome(model.url), model.url),
    );
    expect(run.exitCode, run.stdout).toBe(0);
    const page: Page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`file://${join(dir, ".inter-triggers/report.html")}`);
    expect(await page.locator("h1").innerText()).toBe("Skill triggering: gate met");
    const cell = (row: number, col: number) =>
      page.locator(`#confusion tbody tr:nth-child(${row}) td:nth-child(${col + 1})`);
    // cancel-a-booking's row: one query stolen by the booking Skill, one taken by its own.
    expect(await cell(2, 1).innerText()).toBe("1");
    expect(await cell(2, 1).getAttribute("class")).toBe("off");
    expect(await cell(2, 2).getAttribute("class")).toBe("diag");
    expect(await page.locator("#skills tbody tr").filter({ hasText: CANCEL }).locator("td").nth(2).innerText()).toBe(
      "50 %",
    );
    // Two queries went elsewhere; the one whose every run broke is a harness error, not a miss.
    expect(await page.locator("#queries tbody tr.miss").count()).toBe(2);
    expect(await page.locator("#queries tbody tr.error").count()).toBe(1);
    expect(requests.filter((u) => !u.startsWith("file:"))).toEqual([]);
    await page.close();
  });

  it("lists should / should-not, edits, adds, deletes and moves queries, and exports JSON that round-trips", async () => {
    const dir = tempDir("inter-triggers-review-");
    copyFileSync(join(folder, "cli.tgz"), join(dir, "cli.tgz"));
    await inter(dir, ["eval", "new", ".", "--json"]);
    const made = await inter(dir, ["eval", "review-triggers", ".", "--json"]);
    expect(made.exitCode).toBe(0);
    const page: Page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    const file = made.json.data.pages.find((p: string) => p.endsWith(`${CANCEL}.html`));
    await page.goto(`file://${file}`);
    expect(await page.locator("#should .q").count()).toBe(2);
    expect(await page.locator("#should-not .q").count()).toBe(3);
    // Readable as a person meets it: the Skills one per item with their descriptions as text (no Markdown marks),
    // buttons that say where a query goes, and notes shown whole.
    expect(await page.locator("#skills li").count()).toBe(3);
    expect(await page.locator("#skills").innerText()).not.toContain("`");
    expect(await page.locator("#should .q .toggle").first().innerText()).toBe("Move: should not load this Skill");
    expect(await page.locator("#should-not .q .toggle").first().innerText()).toBe("Move: should load this Skill");
    const longNote = "near miss: ".concat(
      "a note long enough to wrap over several lines of the page, ".repeat(6),
      "end of note",
    );
    await page.locator("#should-not .q .note").first().fill(longNote);
    const clipped = await page
      .locator("#should-not .q .note")
      .first()
      .evaluate((e) => e.scrollHeight > e.clientHeight + 2 || e.scrollWidth > e.clientWidth + 2);
    expect(clipped).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, "trigger-review.png"), fullPage: true });
    expect(statSync(join(ARTIFACTS, "trigger-review.png")).size).toBeGreaterThan(10_000);
    await page.locator("#should-not .q .note").first().fill("near miss: the task of ".concat(BOOK));
    // Edit the first should-trigger query, delete the second, move the null one to should, add a new near miss.
    await page.locator("#should .q textarea.query").first().fill("Cancel bk_42 </script><b>now</b>");
    await page.locator("#should .q .delete").nth(1).click();
    const nullRow = page
      .locator("#should-not .q")
      .filter({ has: page.locator("select.expected option:checked", { hasText: "(none)" }) });
    await nullRow.locator(".toggle").click();
    await page.locator("#add-should-not").click();
    await page.locator("#should-not .q textarea.query").last().fill("Book room Delta for Friday at 9:00");
    await page.locator("#should-not .q select.expected").last().selectOption(BOOK);
    await page.locator("#should-not .q select.split").last().selectOption("train");
    await page.locator("#export-button").click();
    const exported = JSON.parse(await page.locator("#export").inputValue());
    expect(await page.locator("#download").getAttribute("href")).toMatch(/^data:application\/json/);
    expect(requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"))).toEqual([]);
    await page.close();
    expect(validateQueries(exported)).toEqual([]);
    expect(exported.draft).toBe(false);
    expect(exported.queries.map((q: TriggerQuery) => [q.query, q.expected_skill, q.split])).toEqual([
      ["Cancel bk_42 </script><b>now</b>", CANCEL, "train"],
      [
        "I need a room for a meeting: I give the date, the start time, how long it lasts and how many people attend. Find the rooms that are available for that slot and seat everyone, pick the smallest one, and book it with the meeting's title.",
        BOOK,
        "test",
      ],
      ["I want to know what is booked in one room on one day, to plan cleaning.", REPORT, "test"],
      ["In one sentence, what is the rooms command-line tool for?", CANCEL, "test"],
      ["Book room Delta for Friday at 9:00", BOOK, "train"],
    ]);
    // Saved over the file, inter reads it back as a reviewed set.
    writeFileSync(join(dir, `trigger-queries/${CANCEL}.json`), JSON.stringify(exported));
    const again = await inter(dir, [
      "eval",
      "review-triggers",
      ".",
      "--queries",
      `trigger-queries/${CANCEL}.json`,
      "--json",
    ]);
    expect(again.exitCode).toBe(0);
  });

  it("any query can expect any of the candidate's Skills or none; a changed expectation drops its note; export keeps $schema as <skill>.json", async () => {
    // Drafted from a build elsewhere: the folder holds no cli.tgz, so the page offers the Skills the sets name.
    const dir = tempDir("inter-triggers-review-");
    expect((await inter(dir, ["eval", "new", ".", "--candidate", join(folder, "cli.tgz")])).exitCode).toBe(0);
    const drafted = JSON.parse(read(dir, `trigger-queries/${CANCEL}.json`));
    const made = await inter(dir, ["eval", "review-triggers", ".", "--json"]);
    expect(made.exitCode, made.stdout).toBe(0);
    const page: Page = await browser.newPage();
    await page.goto(`file://${made.json.data.pages.find((p: string) => p.endsWith(`${CANCEL}.html`))}`);
    const shouldNot = page.locator("#should-not .q");
    expect(await shouldNot.count()).toBe(3);
    for (let i = 0; i < 3; i++)
      expect(await shouldNot.nth(i).locator("select.expected option").allInnerTexts()).toEqual([
        BOOK,
        CANCEL,
        REPORT,
        "(none)",
      ]);
    expect(await shouldNot.nth(0).locator(".note").inputValue()).toBe(`near miss: the task of ${BOOK}`);
    // The booking near miss now expects the report Skill, the tool question the booking Skill: both stay should-not, notes gone.
    await shouldNot.nth(0).locator("select.expected").selectOption(REPORT);
    await shouldNot.nth(2).locator("select.expected").selectOption(BOOK);
    expect(
      await page.locator("#should-not .q .note").evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).value)),
    ).toEqual(["", `near miss: the task of ${REPORT}`, ""]);
    // The report near miss moves to should trigger: it now expects this set's Skill, its note gone; a should query moved out keeps none.
    await shouldNot.nth(1).locator(".toggle").click();
    expect(await page.locator("#should .q").count()).toBe(3);
    expect(await page.locator("#should .q .note").last().inputValue()).toBe("");
    await page.locator("#should .q .toggle").first().click();
    expect(await page.locator("#should-not .q .note").first().inputValue()).toBe("");
    await page.locator("#should-not .q .note").first().fill("paraphrase, but not a cancellation");
    await page.locator("#export-button").click();
    const exported = JSON.parse(await page.locator("#export").inputValue());
    expect(await page.locator("#download").getAttribute("download")).toBe(`${CANCEL}.json`);
    await page.close();
    expect(validateQueries(exported)).toEqual([]);
    expect(exported.$schema).toBe(drafted.$schema);
    expect(Object.keys(exported)).toEqual(["$schema", "skill", "draft", "queries"]);
    expect(exported.queries.map((q: TriggerQuery) => [q.expected_skill, q.note ?? null])).toEqual([
      [null, "paraphrase, but not a cancellation"],
      [CANCEL, "the Skill's own task, drafted from the brief in a user's voice"],
      [REPORT, null],
      [CANCEL, null],
      [BOOK, null],
    ]);
    // Against a candidate, a set naming a Skill it lacks gets no page: refused, naming the file.
    writeFileSync(
      join(dir, "trigger-queries/extra.json"),
      JSON.stringify({ skill: "nope", queries: [{ query: "x", expected_skill: null }] }),
    );
    const refused = await inter(dir, [
      "eval",
      "review-triggers",
      ".",
      "--candidate",
      join(folder, "cli.tgz"),
      "--json",
    ]);
    expect(refused.exitCode).toBe(2);
    expect(refused.json.error).toMatchObject({
      code: "TRIGGER_QUERIES_INVALID",
      message: "trigger-queries/extra.json names a Skill the candidate does not have: nope.",
    });
  });
});
