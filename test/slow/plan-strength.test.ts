import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inter, makeProject, read, type InterResult } from "../helpers.js";
import type { EvalResults } from "../../src/evaluation/results/types.js";
import type { Finding } from "../../src/stages/plan/findings.js";
import type { Check, Plan } from "../../src/stages/plan/types.js";
import { API_KEY, evaluationFolder, exampleProject, scripted } from "../e2e/example-api.js";

/**
 * Plans that prove something: weak checks and blind spots found before a run, reference solutions validated with the
 * plan, the candidate found where `inter init` puts it, and changes the plan never looks at judged.
 */
let project: string;
const examplePlan = () => JSON.parse(read(project, "evals/eval-plan.json"));
const findings = (result: InterResult) =>
  (result.json.data ?? result.json.error.details.report).findings.map(
    (f: Finding) => `${f.code} ${f.file ? `${f.file} ` : ""}${f.pointer}`,
  );

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
});

/** A plan folder holding `plan` (and `reference`, when given) beside the example's candidate. */
function planFolder(plan: unknown, reference?: unknown): string {
  const dir = makeProject({
    "eval-plan.json": JSON.stringify(plan, null, 2),
    ...(reference ? { "eval-plan.reference.json": JSON.stringify(reference) } : {}),
  });
  copyFileSync(join(project, "dist/cli.tgz"), join(dir, "cli.tgz"));
  copyFileSync(join(project, "dist/receipt.json"), join(dir, "receipt.json"));
  return dir;
}

describe("hygiene findings: what a plan cannot prove, before any run", () => {
  it("the example's plan and reference validate with no finding, even with --strict", async () => {
    const result = await inter(project, ["eval", "validate", "evals/eval-plan.json", "--strict", "--json"]);
    expect(result.exitCode, result.stdout).toBe(0);
    expect(result.json.data.findings).toEqual([]);
    // The candidate was found where `inter init` puts it: the project's dist/cli.tgz.
    expect(result.json.data.stages.candidate).toEqual({ ran: true });
  });

  it("finds the candidate of a project whose config is intermesh.config.mjs and builds to another folder", async () => {
    const dir = makeProject({
      "intermesh.config.mjs": `export default { product: { name: "Rooms", binary: "rooms" }, inputs: { openapi: "openapi.yaml" }, targets: { cli: { outDir: "out/" } } };\n`,
      "evals/eval-plan.json": read(project, "evals/eval-plan.json"),
    });
    mkdirSync(join(dir, "out"));
    copyFileSync(join(project, "dist/cli.tgz"), join(dir, "out/cli.tgz"));
    const result = await inter(dir, ["eval", "validate", "evals/eval-plan.json", "--json"]);
    expect(result.exitCode, result.stdout).toBe(0);
    expect(result.json.data.stages.candidate).toEqual({ ran: true });
  });

  it("flags each weak check and blind spot with a code, the scenario and check it names, and a fix", async () => {
    const plan = examplePlan();
    const [book, cancel, report] = plan.scenarios;
    book.checks.push({
      id: "same",
      type: "values_match",
      description: "tautology",
      left: { observation_id: "book", field: ["stdout", "result", "id"] },
      right: { observation_id: "book", field: ["stdout", "result", "id"] },
    });
    cancel.checks.push({
      id: "argv",
      type: "field_equals",
      description: "cannot fail",
      source: { observation_id: "cancel", field: ["argv", "2"] },
      expected: "cancel",
    });
    cancel.checks.push({
      id: "spelt",
      type: "field_equals",
      description: "American spelling",
      source: { observation_id: "cancel", field: ["stdout", "result", "status"] },
      expected: "canceled",
    });
    cancel.checks.push({
      id: "typed",
      type: "field_equals",
      description: "a string where a number is",
      source: { observation_id: "cancel", field: ["stdout", "result", "attendees"] },
      expected: "8",
    });
    cancel.checks.push({
      id: "nope",
      type: "field_equals",
      description: "a field the command does not return",
      source: { observation_id: "cancel", field: ["stdout", "result", "cancel_reason"] },
      expected: "x",
    });
    cancel.inputs.reason = "meeting moved";
    cancel.observations.push({
      id: "unused",
      kind: "cli",
      description: "looked at by nothing",
      command_prefix: ["rooms", "bookings", "get"],
    });
    // A scenario judged only by a file: the agent could write it without any call.
    report.observations = [report.observations[1]];
    report.checks = [{ id: "written", type: "file_nonempty", description: "a file", observation_id: "report" }];
    report.inputs = { file: report.inputs.file };
    const dir = planFolder(plan);
    const result = await inter(dir, ["eval", "validate", ".", "--json"]);
    expect(result.exitCode, result.stdout).toBe(0); // warnings only
    expect(findings(result)).toEqual([
      "CHECK_TAUTOLOGICAL /scenarios/0/checks/10",
      "CHECK_CANNOT_FAIL /scenarios/1/checks/3",
      "EXPECTED_NOT_PRODUCIBLE /scenarios/1/checks/4/expected",
      "EXPECTED_NOT_PRODUCIBLE /scenarios/1/checks/5/expected",
      "OUTPUT_FIELD_UNKNOWN /scenarios/1/checks/6/source/field",
      "OBSERVATION_UNUSED /scenarios/1/observations/1",
      "INPUT_NOT_CHECKED /scenarios/1/inputs/reason",
      "NO_CLI_OBSERVATION /scenarios/2/observations",
      "FILE_NOT_TIED_TO_CLI /scenarios/2/observations/0",
    ]);
    const byCode = Object.fromEntries(result.json.data.findings.reverse().map((f: Finding) => [f.code, f]));
    expect(byCode.CHECK_TAUTOLOGICAL.message).toContain('Check "same" of scenario "book-a-room"');
    expect(byCode.EXPECTED_NOT_PRODUCIBLE.message).toContain('"confirmed", "cancelled"');
    expect(byCode.NO_CLI_OBSERVATION.suggestion).toContain("command_success");
    // --strict makes every one an error: exit 2, PLAN_INVALID.
    const strict = await inter(dir, ["eval", "validate", ".", "--strict", "--json"]);
    expect(strict.exitCode).toBe(2);
    expect(strict.json.error.code).toBe("PLAN_INVALID");
  });

  it("a file compared with a call's whole output is flagged: it prescribes how the agent narrowed the listing", async () => {
    const plan = examplePlan();
    const report = plan.scenarios[2];
    report.checks = report.checks.filter(
      (c: Check) => !c.id.startsWith("report-holds") && !c.id.startsWith("report-from"),
    );
    report.checks.push({
      id: "whole",
      type: "values_match",
      description: "the file is the listing",
      left: { observation_id: "report", field: ["content"] },
      right: { observation_id: "list", field: ["stdout", "result"] },
    });
    const result = await inter(planFolder(plan), ["eval", "validate", ".", "--json"]);
    expect(result.exitCode, result.stdout).toBe(0);
    expect(findings(result)).toEqual(["FILE_MATCHES_RAW_OUTPUT /scenarios/2/checks/6"]);
    expect(result.json.data.findings[0].suggestion).toContain('field_equals on ["content"]');
  });

  it("an api_url outside allowed_hosts is an error", async () => {
    const plan = examplePlan();
    plan.target.api_url = "https://api.elsewhere.example/v1";
    const result = await inter(planFolder(plan), ["eval", "validate", ".", "--json"]);
    expect(result.exitCode).toBe(2);
    expect(findings(result)).toContain("API_URL_NOT_ALLOWED /target/api_url");
  });
});

describe("reference solutions are validated with the plan", () => {
  it("a misspelt scenario key, a command or flag the candidate lacks, a placeholder and an escaping file are findings", async () => {
    const reference = JSON.parse(read(project, "evals/eval-plan.reference.json"));
    reference["cancel-a-bookng"] = reference["cancel-a-booking"];
    delete reference["cancel-a-booking"];
    reference["book-a-room"][1].argv.push("--colour", "blue");
    reference["book-a-room"].push({ argv: ["rooms", "bookings", "delete", "--booking-id", "bk_1"] });
    reference["report-room-day"].push({ argv: ["rooms", "<<FILL ME: flags>>"] });
    reference["report-room-day"].push({ argv: ["rooms", "rooms", "list"], save_stdout: "../outside.json" });
    const result = await inter(planFolder(examplePlan(), reference), ["eval", "validate", ".", "--json"]);
    expect(result.exitCode).toBe(2);
    expect(findings(result)).toEqual([
      "REFERENCE_UNKNOWN_FLAG eval-plan.reference.json /book-a-room/1/argv/15",
      "REFERENCE_UNKNOWN_COMMAND eval-plan.reference.json /book-a-room/2/argv/1",
      "REFERENCE_PLACEHOLDER eval-plan.reference.json /report-room-day/1/argv/1",
      "REFERENCE_PATH_ESCAPES eval-plan.reference.json /report-room-day/2/save_stdout",
      "REFERENCE_UNKNOWN_SCENARIO eval-plan.reference.json /cancel-a-bookng",
      "REFERENCE_MISSING_SCENARIO eval-plan.reference.json ",
    ]);
    expect(
      result.json.error.details.report.findings.find((f: Finding) => f.code === "REFERENCE_UNKNOWN_SCENARIO")
        .suggestion,
    ).toBe('Did you mean "cancel-a-booking"?');
  });
});

describe("the candidate a plan is validated against", () => {
  it("--candidate: a prefix naming a command the candidate lacks exits 2", async () => {
    const plan = examplePlan();
    plan.scenarios[1].observations[0].command_prefix = ["rooms", "bookings", "void"];
    plan.scenarios[1].checks = plan.scenarios[1].checks.filter((c: Check) => c.type === "command_success");
    const dir = makeProject({ "plans/eval-plan.json": JSON.stringify(plan) });
    const result = await inter(dir, [
      "eval",
      "validate",
      "plans/eval-plan.json",
      "--candidate",
      join(project, "dist/cli.tgz"),
      "--json",
    ]);
    expect(result.exitCode).toBe(2);
    expect(findings(result)).toContain("UNKNOWN_COMMAND /scenarios/1/observations/0/command_prefix/1");
    const missing = await inter(dir, [
      "eval",
      "validate",
      "plans/eval-plan.json",
      "--candidate",
      "nowhere/cli.tgz",
      "--json",
    ]);
    expect(missing.exitCode).toBe(2);
    expect(missing.json.error.code).toBe("INPUT_NOT_FOUND");
  });

  it("plan-validation.json describes the last validation, a failed one included", async () => {
    const dir = exampleProject({ warm: "with-key" });
    expect((await inter(dir, ["build", "--json"], { ROOMS_API_KEY: API_KEY })).exitCode).toBe(0);
    expect(JSON.parse(read(dir, "dist/plan-validation.json")).valid).toBe(true);
    const plan = JSON.parse(read(dir, "evals/eval-plan.json"));
    plan.target.api_url = "https://api.elsewhere.example/v1";
    writeFileSync(join(dir, "evals/eval-plan.json"), JSON.stringify(plan));
    const failed = await inter(dir, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(failed.json.error.code).toBe("PLAN_INVALID");
    const report = JSON.parse(read(dir, "dist/plan-validation.json"));
    expect(report.valid).toBe(false);
    expect(report.findings.map((f: Finding) => f.code)).toContain("API_URL_NOT_ALLOWED");
  });

  it("inter eval new writes a starter reference whose placeholders fail validation", async () => {
    const dir = makeProject({});
    mkdirSync(join(dir, "evaluation"));
    copyFileSync(join(project, "dist/cli.tgz"), join(dir, "evaluation/cli.tgz"));
    const made = await inter(dir, ["eval", "new", "evaluation", "--json"]);
    expect(made.exitCode, made.stdout).toBe(0);
    expect(existsSync(join(dir, "evaluation/eval-plan.reference.json"))).toBe(true);
    const reference = JSON.parse(readFileSync(join(dir, "evaluation/eval-plan.reference.json"), "utf8"));
    expect(reference["cancel-a-booking"]).toEqual([
      { argv: ["rooms", "bookings", "cancel", "<<FILL ME: the flags a correct agent gives>>"] },
    ]);
    const result = await inter(dir, ["eval", "validate", "evaluation", "--json"]);
    expect(findings(result)).toContain("REFERENCE_PLACEHOLDER eval-plan.reference.json /cancel-a-booking/0/argv/3");
  });
});

describe("side effects the plan never observes", () => {
  /** One run against a fresh example API (the folder's plan shares one API across its attempts). */
  async function run(mode: string, extra: string[] = [], edit: (plan: Plan) => void = () => {}) {
    const f = await evaluationFolder(project);
    try {
      const plan: Plan = JSON.parse(read(f.dir, "eval-plan.json"));
      edit(plan);
      writeFileSync(join(f.dir, "eval-plan.json"), JSON.stringify(plan));
      const result = await inter(f.dir, ["eval", "run", ".", ...scripted(mode), ...extra, "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      return {
        exitCode: result.exitCode,
        results: JSON.parse(read(f.dir, ".inter-eval/results.json")) as EvalResults,
        summary: read(f.dir, ".inter-eval/summary.md"),
        html: read(f.dir, ".inter-eval/report.html"),
      };
    } finally {
      await f.stop();
    }
  }
  const attempt = (results: EvalResults, scenario: string) => results.attempts.find((a) => a.scenario === scenario)!;

  it("an agent's extra cancel is listed per attempt and in the reports, without failing a plan that allows it", async () => {
    const { exitCode, results, summary, html } = await run("extra-cancel");
    expect(exitCode).toBe(0);
    expect(attempt(results, "book-a-room").status).toBe("pass");
    expect(attempt(results, "book-a-room").side_effects).toEqual([
      {
        argv: ["rooms", "bookings", "cancel", "--booking-id", "bk_0001", "--yes"],
        exit_code: 0,
        command: "bookings cancel",
      },
    ]);
    expect(
      results.attempts.filter((a) => a.scenario !== "book-a-room").every((a) => a.side_effects!.length === 0),
    ).toBe(true);
    expect(summary).toContain("`rooms bookings cancel --booking-id bk_0001 --yes`");
    expect(html).toContain("Unobserved side effects");
  });

  it("--forbid-side-effects fails that attempt and the gate", async () => {
    const { exitCode, results } = await run("extra-cancel", ["--forbid-side-effects"]);
    expect(exitCode).toBe(1);
    expect(attempt(results, "book-a-room").checks.at(-1)).toMatchObject({
      id: "no-unobserved-side-effects",
      status: "fail",
    });
    expect(results.gate).toMatchObject({
      forbid_side_effects: true,
      missed: [expect.objectContaining({ scenario: "book-a-room" })],
    });
    expect(results.gate!.missed).toHaveLength(1);
  });

  it('settings.unobserved_side_effects: "fail" fails the attempt', async () => {
    const { exitCode, results } = await run(
      "extra-cancel",
      [],
      (plan) => (plan.settings!.unobserved_side_effects = "fail"),
    );
    expect(exitCode).toBe(1);
    expect(attempt(results, "book-a-room").status).toBe("fail");
    expect(attempt(results, "cancel-a-booking").status).toBe("pass");
    expect(results.proves).toContainEqual({
      scenario: "book-a-room",
      text: "Every mutating call the agent made is one the observations match.",
    });
  });

  it("read_only_confirmed fails every attempt that changed something", async () => {
    const { exitCode, results } = await run("good", [], (plan) => (plan.target.read_only_confirmed = true));
    expect(exitCode).toBe(1);
    expect(
      Object.fromEntries(results.attempts.map((a) => [a.scenario, a.checks.find((c) => c.id === "read-only")?.status])),
    ).toEqual({ "book-a-room": "fail", "cancel-a-booking": "fail", "report-room-day": "pass" });
  });
});
