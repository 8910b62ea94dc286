import { execa } from "execa";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inter, INTER_BIN, read, statuses, until } from "../helpers.js";
import { schemaValidator } from "../schema.js";
import type { EvalResults } from "../../src/evaluation/results/types.js";
import type { AttemptResult } from "../../src/evaluation/run/attempt.js";
import type { CheckResult } from "../../src/evaluation/run/checks.js";
import type { Check, Scenario } from "../../src/stages/plan/types.js";
import {
  API_KEY,
  changedCandidate,
  evaluationFolder as folderFor,
  exampleProject,
  scripted,
  SCRIPTED_AGENT as AGENT,
} from "./example-api.js";

const validateResults = schemaValidator("results.schema.json");

let project: string;
const evaluationFolder = () => folderFor(project);

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
});

const checksOf = (results: EvalResults, scenario: string) =>
  Object.fromEntries(results.attempts.find((a) => a.scenario === scenario)!.checks.map((c) => [c.id, c.status]));
const statusOf = (results: EvalResults) => Object.fromEntries(results.attempts.map((a) => [a.scenario, a.status]));

describe("inter run eval on the example", () => {
  it("passes the golden run (reference agent) and runs again with every upstream task cached", async () => {
    const first = await inter(project, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(first.exitCode, first.stdout).toBe(0);
    const results = JSON.parse(read(project, "dist/eval/results.json"));
    expect(validateResults(results)).toEqual([]);
    expect(results.verdict).toBe("pass");
    expect(results.attempts.flatMap((a: AttemptResult) => a.checks.map((c: CheckResult) => c.status))).toEqual(
      Array(21).fill("pass"),
    );
    expect(results.candidate.sha256).toBe(JSON.parse(read(project, "dist/receipt.json")).candidate.sha256);
    expect(results.receipt.level).toBe("Agent-Native");
    expect(results.plan.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(results)).not.toContain(API_KEY);
    expect(results.gate).toEqual({ min_pass_rate: 1, allow_incomplete: false, met: true, missed: [] });
    expect(results.plan.file).toBe("evals/eval-plan.json");
    // All three reports beside the results, each saying what the results say.
    expect(read(project, "dist/eval/summary.md")).toMatch(/^## ✅ Evaluation passed: 3\/3 attempts/);
    expect(read(project, "dist/eval/junit.xml")).toContain(
      '<testsuites name="inter eval" tests="21" failures="0" errors="0"',
    );
    expect(read(project, "dist/eval/report.html")).toContain("Evaluation: 3 of 3 attempts passed");

    const second = await inter(project, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    const s = statuses(second);
    expect(s.evaluate).toBe("ran");
    expect(
      Object.entries(s)
        .filter(([id]) => id !== "evaluate")
        .every(([, v]) => v === "cached"),
    ).toBe(true);
  });
});

describe("inter eval run on a bare folder", () => {
  it("a candidate whose manifest.json has a field of the wrong type stops the run: CANDIDATE_INVALID naming it", async () => {
    const folder = await evaluationFolder();
    try {
      const tgz = await changedCandidate(project, (pkg) => {
        const manifest = JSON.parse(readFileSync(join(pkg, "manifest.json"), "utf8"));
        writeFileSync(join(pkg, "manifest.json"), JSON.stringify({ ...manifest, groups: [{ name: 7 }] }));
      });
      copyFileSync(tgz, join(folder.dir, "cli.tgz"));
      const run = await inter(folder.dir, ["eval", "run", ".", ...scripted("good"), "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      expect(run.exitCode, run.stdout).toBe(2);
      expect(run.json.error.code).toBe("CANDIDATE_INVALID");
      expect(run.json.error.message).toMatch(/manifest\.json.*groups/);
      expect(run.stdout + run.stderr).not.toMatch(/TypeError/);
      // Input's fault, not an attempt's: no attempt was judged or journaled as a harness error.
      expect(existsSync(join(folder.dir, ".inter-eval/results.json"))).toBe(false);
    } finally {
      await folder.stop();
    }
  });

  it("the scripted agent doing everything right passes every check; its prompt carries only the task", async () => {
    const folder = await evaluationFolder();
    try {
      const run = await inter(folder.dir, ["eval", "run", ".", ...scripted("good"), "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      expect(run.exitCode, run.stdout).toBe(0);
      const prompt = readFileSync(join(folder.dir, ".inter-eval/attempts/book-a-room-1/prompt.md"), "utf8");
      expect(prompt).toContain("Quarterly planning");
      expect(prompt).not.toContain("rm_delta");
      expect(prompt).not.toMatch(/smallest-room|values_match|expected_outcome/);
    } finally {
      await folder.stop();
    }
  });

  const mistakes: Array<[string, Record<string, string>, Record<string, Record<string, string>>]> = [
    [
      "wrong-id",
      { "cancel-a-booking": "fail" },
      { "cancel-a-booking": { "cancelled-ok": "pass", "right-booking": "fail", status: "pass" } },
    ],
    [
      "no-file",
      { "report-room-day": "fail" },
      {
        "report-room-day": {
          listed: "pass",
          room: "pass",
          day: "pass",
          "the-interview": "pass",
          "only-one": "pass",
          "report-written": "fail",
          "report-holds-the-booking": "incomplete",
          "report-from-the-listing": "incomplete",
        },
      },
    ],
    [
      "list-twice",
      { "report-room-day": "incomplete" },
      {
        "report-room-day": {
          listed: "incomplete",
          room: "incomplete",
          day: "incomplete",
          "the-interview": "incomplete",
          "only-one": "incomplete",
          "report-written": "pass",
          "report-holds-the-booking": "pass",
          "report-from-the-listing": "incomplete",
        },
      },
    ],
    [
      "exit-early",
      { "book-a-room": "incomplete", "cancel-a-booking": "incomplete", "report-room-day": "fail" },
      {
        "book-a-room": {
          searched: "incomplete",
          booked: "incomplete",
          "smallest-room": "incomplete",
          "first-result": "incomplete",
          confirmed: "incomplete",
          slot: "incomplete",
          date: "incomplete",
          start: "incomplete",
          attendees: "incomplete",
          title: "incomplete",
        },
      },
    ],
  ];
  it.each(mistakes)(
    "a scripted agent making the mistake %s gets exactly the prescribed statuses",
    async (mode, attempts, checks) => {
      const f = await evaluationFolder();
      try {
        const run = await inter(f.dir, ["eval", "run", ".", ...scripted(mode), "--json"], { ROOMS_API_KEY: API_KEY });
        expect(run.exitCode).toBe(1);
        expect(run.json.error.code).toBe("EVAL_FAILED");
        const results = JSON.parse(readFileSync(join(f.dir, ".inter-eval/results.json"), "utf8"));
        expect(validateResults(results)).toEqual([]);
        expect(statusOf(results)).toMatchObject(attempts);
        for (const [scenario, expected] of Object.entries(checks))
          expect(checksOf(results, scenario)).toEqual(expected);
        if (mode === "list-twice")
          expect(
            results.attempts.find((a: AttemptResult) => a.scenario === "report-room-day").checks[0].reason,
          ).toContain("2 invocations start with rooms bookings list");
        if (mode === "wrong-id")
          expect(
            results.attempts.find((a: AttemptResult) => a.scenario === "cancel-a-booking").checks[1],
          ).toMatchObject({
            observed: "bk_0002",
            expected: "bk_0003",
          });
      } finally {
        await f.stop();
      }
    },
  );

  it("an agent hanging past the timeout is killed with its process group and judged on what was recorded", async () => {
    const f = await evaluationFolder();
    try {
      // A run that did not kill the hanging agent would never return: the test's own timeout is the bound.
      const run = await inter(f.dir, ["eval", "run", ".", ...scripted("hang"), "--timeout", "2", "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      const results = JSON.parse(readFileSync(join(f.dir, ".inter-eval/results.json"), "utf8"));
      expect(run.exitCode).toBe(1);
      expect(results.attempts.every((a: AttemptResult) => a.agent.timed_out === true)).toBe(true);
      expect(statusOf(results)).toEqual({
        "book-a-room": "incomplete",
        "cancel-a-booking": "incomplete",
        "report-room-day": "fail",
      });
      const ps = await execa("ps", ["-eo", "args"]);
      expect(ps.stdout).not.toContain(`${AGENT} hang`);
    } finally {
      await f.stop();
    }
  });

  it("the agent holds no credential; what it prints is kept in its transcript, and no file holds the key", async () => {
    const f = await evaluationFolder();
    try {
      const run = await inter(f.dir, ["eval", "run", ".", ...scripted("leak"), "--json"], {
        ROOMS_API_KEY: API_KEY,
        ROOMS_KEY_COPY: API_KEY,
      });
      expect(run.exitCode).toBe(0);
      const transcript = readFileSync(join(f.dir, ".inter-eval/attempts/book-a-room-1/transcript.txt"), "utf8");
      expect(transcript).toContain("my key is undefined");
      expect(transcript).not.toContain(API_KEY);
      expect(readFileSync(join(f.dir, ".inter-eval/results.json"), "utf8")).not.toContain(API_KEY);
    } finally {
      await f.stop();
    }
  });

  it("reports an agent that cannot start as a harness error, apart from candidate failures", async () => {
    const f = await evaluationFolder();
    try {
      const run = await inter(
        f.dir,
        ["eval", "run", ".", "--agent-command", JSON.stringify(["no-such-agent-binary", "{prompt_file}"]), "--json"],
        { ROOMS_API_KEY: API_KEY },
      );
      expect(run.exitCode).toBe(1);
      const results = JSON.parse(readFileSync(join(f.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.summary).toMatchObject({ harness_errors: 3, failed: 0 });
      expect(results.attempts[0].harness_error).toContain("no-such-agent-binary");
    } finally {
      await f.stop();
    }
  });

  it("computes pass rate, pass@k and pass^k over repetitions", async () => {
    const f = await evaluationFolder();
    try {
      // Repetitions share the API, so give each attempt its own day and booking to act on.
      const plan = JSON.parse(readFileSync(join(f.dir, "eval-plan.json"), "utf8"));
      plan.scenarios = plan.scenarios.filter((s: Scenario) => s.id === "book-a-room");
      plan.scenarios[0].checks = plan.scenarios[0].checks.filter((c: Check) => c.id !== "booked");
      writeFileSync(join(f.dir, "eval-plan.json"), JSON.stringify(plan));
      const run = await inter(f.dir, ["eval", "run", ".", ...scripted("flaky"), "--repetitions", "2", "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      const results = JSON.parse(readFileSync(join(f.dir, ".inter-eval/results.json"), "utf8"));
      expect(run.exitCode).toBe(1);
      expect(results.scenarios).toEqual([
        { id: "book-a-room", attempts: 2, passed: 1, pass_rate: 0.5, pass_at_k: 1, pass_hat_k: 0 },
      ]);
    } finally {
      await f.stop();
    }
  });

  it("an interrupted run resumes without redoing finished attempts; --fresh starts over", async () => {
    const f = await evaluationFolder();
    try {
      const child = execa("node", [INTER_BIN, "eval", "run", ".", ...scripted("hang-once")], {
        cwd: f.dir,
        env: { ROOMS_API_KEY: API_KEY, AGENT_HANG: "1", CI: "true" },
        reject: false,
      });
      // The cancel scenario hangs once its attempt has started: interrupt it there.
      const hanging = join(f.dir, ".inter-eval/attempts/cancel-a-booking-1/outputs/hanging");
      await until(() => existsSync(hanging), undefined, "the cancel attempt's agent to hang");
      child.kill("SIGINT");
      const interrupted = await child;
      expect(interrupted.exitCode).toBe(130);
      const journal = readFileSync(join(f.dir, ".inter-eval/journal.jsonl"), "utf8").trim().split("\n");
      expect(journal.map((l) => JSON.parse(l).attempt?.scenario)).toEqual(["book-a-room"]);

      const resumed = await inter(f.dir, ["eval", "run", ".", ...scripted("hang-once")], {
        ROOMS_API_KEY: API_KEY,
        AGENT_HANG: "0",
      });
      expect(resumed.stderr).toContain("book-a-room #1 pass (resumed from journal)");
      expect(resumed.stderr).toMatch(/cancel-a-booking #1 \w+ in/);
      expect(readdirSync(join(f.dir, ".inter-eval/attempts"))).toContain("report-room-day-1");

      // --fresh discards the journal and the attempts, never a file a person put beside them.
      writeFileSync(join(f.dir, ".inter-eval/notes.txt"), "mine");
      const fresh = await inter(f.dir, ["eval", "run", ".", ...scripted("hang-once"), "--fresh"], {
        ROOMS_API_KEY: API_KEY,
        AGENT_HANG: "0",
      });
      expect(fresh.stderr).not.toContain("resumed from journal");
      expect(readFileSync(join(f.dir, ".inter-eval/notes.txt"), "utf8")).toBe("mine");
    } finally {
      await f.stop();
    }
  });
});
