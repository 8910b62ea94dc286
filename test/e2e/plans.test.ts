import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as tar from "tar";
import { dirname, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inter, read, REPO, statuses, tempDir } from "../helpers.js";
import { exampleProject } from "./example-api.js";
import type { Finding } from "../../src/stages/plan/findings.js";
import type { LooseObservation, Scenario } from "../../src/stages/plan/types.js";

const CORPUS = join(REPO, "test/plans");
let project: string;

beforeAll(async () => {
  project = exampleProject({ warm: true });
  const built = await inter(project, ["build", "--json"]);
  if (built.exitCode !== 0) throw new Error(built.stdout);
});

/** A fresh folder holding a copy of `file` as cli.tgz. */
function tempDirWith(file: string): string {
  const dir = tempDir("inter-eval-new-");
  copyFileSync(file, join(dir, "cli.tgz"));
  return dir;
}

/** An evaluation folder: the example's candidate and receipt beside the given plan. */
function folderWith(planText: string, withCandidate = true): string {
  const dir = tempDir("inter-eval-folder-");
  if (withCandidate) {
    copyFileSync(join(project, "dist/cli.tgz"), join(dir, "cli.tgz"));
    copyFileSync(join(project, "dist/receipt.json"), join(dir, "receipt.json"));
  }
  writeFileSync(join(dir, "eval-plan.json"), planText);
  return dir;
}

/** Each invalid plan fails for one stated reason: the finding codes and pointers it must produce, and nothing else. */
const INVALID: Record<string, Array<[string, string]>> = {
  "duplicate-scenario-id": [["DUPLICATE_SCENARIO_ID", "/scenarios/1/id"]],
  "duplicate-observation-id": [["DUPLICATE_OBSERVATION_ID", "/scenarios/0/observations/1/id"]],
  "duplicate-check-id": [["DUPLICATE_CHECK_ID", "/scenarios/0/checks/1/id"]],
  "check-names-other-scenario-observation": [["UNKNOWN_OBSERVATION", "/scenarios/1/checks/0/observation_id"]],
  "check-names-missing-observation": [["UNKNOWN_OBSERVATION", "/scenarios/0/checks/0/observation_id"]],
  "check-on-wrong-kind": [["WRONG_OBSERVATION_KIND", "/scenarios/0/checks/2/observation_id"]],
  "file-path-dotdot": [["FILE_PATH_ESCAPES", "/scenarios/0/observations/1/path"]],
  "file-path-absolute": [["FILE_PATH_ABSOLUTE", "/scenarios/0/observations/1/path"]],
  "field-path-root": [["FIELD_PATH_ROOT", "/scenarios/0/checks/1/source/field/0"]],
  "values-match-field-root": [["FIELD_PATH_ROOT", "/scenarios/0/checks/3/right/field/0"]],
  "unknown-binary": [["UNKNOWN_BINARY", "/scenarios/0/observations/0/command_prefix/0"]],
  "unknown-subcommand": [["UNKNOWN_COMMAND", "/scenarios/0/observations/0/command_prefix/1"]],
  "unknown-flag": [["UNKNOWN_FLAG", "/scenarios/0/observations/0/command_prefix/3"]],
  "credential-value-as-credential-env": [
    ["CREDENTIAL_VALUE", "/target/credential_env"],
    ["CREDENTIAL_ENV_INVALID", "/target/credential_env"],
  ],
  "credential-env-not-a-name": [["CREDENTIAL_ENV_INVALID", "/target/credential_env"]],
  "credential-env-list-not-a-name": [["CREDENTIAL_ENV_INVALID", "/target/credential_env/1"]],
  "credential-in-inputs": [["CREDENTIAL_VALUE", "/scenarios/0/inputs/token"]],
  "pack-id": [["REMOVED_FIELD", "/pack_id"]],
  requirements: [["REMOVED_FIELD", "/scenarios/0/requirements"]],
  prerequisites: [["REMOVED_FIELD", "/prerequisites"]],
  "candidate-hash-authored": [["TOOL_OWNED_FIELD", "/candidate_sha256"]],
  "receipt-authored-in-scenario": [["TOOL_OWNED_FIELD", "/scenarios/0/receipt"]],
  "wrong-schema-version": [["WRONG_SCHEMA_VERSION", "/schema_version"]],
  "malformed-json": [["PLAN_JSON_INVALID", ""]],
  "unknown-top-level-field": [["UNKNOWN_FIELD", "/notes"]],
  "unknown-scenario-field": [["UNKNOWN_FIELD", "/scenarios/0/priority"]],
  "missing-target": [["SCHEMA_VIOLATION", ""]],
  "no-scenarios": [["SCHEMA_VIOLATION", "/scenarios"]],
  "zero-repetitions": [["SCHEMA_VIOLATION", "/settings/repetitions"]],
  "bad-sha256": [["SCHEMA_VIOLATION", "/scenarios/0/checks/3/expected"]],
  "unknown-check-type": [["SCHEMA_VIOLATION", "/scenarios/0/checks/0/type"]],
  "placeholder-left": [["PLACEHOLDER", "/scenarios/0/user_task"]],
  "api-url-not-a-url": [["SCHEMA_VIOLATION", "/target/api_url"]],
};
/**
 * What a plan proves (test/e2e/plan-strength.test.ts) is judged apart: each corpus plan is minimal for the one thing it
 * tests, so its blind spots (unchecked inputs, unused observations…) are left out here.
 */
const STRENGTH = new Set([
  "CHECK_TAUTOLOGICAL",
  "CHECK_CANNOT_FAIL",
  "NO_CLI_OBSERVATION",
  "INPUT_NOT_CHECKED",
  "OBSERVATION_UNUSED",
  "FILE_NOT_TIED_TO_CLI",
  "OUTPUT_FIELD_UNKNOWN",
  "EXPECTED_NOT_PRODUCIBLE",
  "REFERENCE_MISSING_SCENARIO",
]);
const own = (findings: Finding[]) => findings.filter((f) => !STRENGTH.has(f.code));

const VALID_WARNINGS: Record<string, Array<[string, string]>> = {
  "every-kind-and-check": [["REQUEST_NOT_MEASURABLE", "/scenarios/0/observations/3"]],
};

describe("the plan corpus (test/plans)", () => {
  it("holds at least 30 plans, every one with a stated outcome", () => {
    const invalid = readdirSync(join(CORPUS, "invalid"))
      .map((f) => f.replace(/\.json$/, ""))
      .sort();
    expect(invalid).toEqual(Object.keys(INVALID).sort());
    expect(invalid.length + readdirSync(join(CORPUS, "valid")).length).toBeGreaterThanOrEqual(30);
  });

  it.each(readdirSync(join(CORPUS, "valid")).map((f) => f.replace(/\.json$/, "")))(
    "valid/%s validates in all four stages",
    async (name) => {
      const dir = folderWith(readFileSync(join(CORPUS, "valid", `${name}.json`), "utf8"));
      const run = await inter(dir, ["eval", "validate", dir, "--json"]);
      expect(run.exitCode, run.stdout).toBe(0);
      expect(run.json.data).toMatchObject({
        valid: true,
        errors: 0,
        stages: { shape: { ran: true }, references: { ran: true }, candidate: { ran: true }, hygiene: { ran: true } },
      });
      expect(own(run.json.data.findings).map((f) => [f.code, f.pointer])).toEqual(VALID_WARNINGS[name] ?? []);
    },
  );

  it.each(Object.keys(INVALID))("invalid/%s is refused for its stated reason", async (name) => {
    const dir = folderWith(readFileSync(join(CORPUS, "invalid", `${name}.json`), "utf8"));
    const run = await inter(dir, ["eval", "validate", dir, "--json"]);
    expect(run.exitCode).toBe(2);
    expect(run.json.error.code).toBe("PLAN_INVALID");
    const findings = own(run.json.error.details.report.findings);
    expect(findings.map((f) => [f.code, f.pointer])).toEqual(INVALID[name]);
    for (const f of findings)
      expect(f).toMatchObject({
        stage: expect.any(String),
        severity: "error",
        message: expect.any(String),
        suggestion: expect.any(String),
      });
  });
});

describe("inter eval validate", () => {
  it("reports line and column of malformed JSON, and which stages could not run", async () => {
    const dir = folderWith(readFileSync(join(CORPUS, "invalid/malformed-json.json"), "utf8"));
    const run = await inter(dir, ["eval", "validate", dir, "--json"]);
    const report = run.json.error.details.report;
    expect(report.findings[0].message).toContain("line 5, column 3");
    expect(report.stages).toMatchObject({
      shape: { ran: true },
      references: { ran: false, reason: "the plan is not valid JSON" },
    });
  });

  it("without a candidate, says the candidate stage did not run and still checks the rest", async () => {
    const dir = folderWith(readFileSync(join(CORPUS, "invalid/unknown-flag.json"), "utf8"), false);
    const run = await inter(dir, ["eval", "validate", join(dir, "eval-plan.json"), "--json"]);
    expect(run.exitCode).toBe(0);
    expect(run.json.data.stages.candidate).toEqual({
      ran: false,
      reason: `no cli.tgz in ${dir} and no project around it; pass --candidate <cli.tgz>`,
    });
    expect(run.json.data.limits.join(" ")).toContain("live identifier");
    const human = await inter(dir, ["eval", "validate", dir]);
    expect(human.stdout).toContain("– candidate (not run: no cli.tgz in");
  });

  it("inter eval new writes a starter plan whose placeholders fail validation, and never overwrites", async () => {
    const dir = tempDir("inter-eval-new-");
    copyFileSync(join(project, "dist/cli.tgz"), join(dir, "cli.tgz"));
    const created = await inter(dir, ["eval", "new", dir, "--json"]);
    expect(created.exitCode).toBe(0);
    expect(created.json.data.scenarios).toBe(3);
    const plan = JSON.parse(readFileSync(join(dir, "eval-plan.json"), "utf8"));
    expect(plan.scenarios.map((s: Scenario) => s.id)).toEqual([
      "book-a-room-for-a-meeting",
      "cancel-a-booking",
      "report-a-rooms-bookings-for-a-day",
    ]);
    expect(plan.scenarios[1].observations.map((o: LooseObservation) => o.command_prefix)).toEqual([
      ["rooms", "bookings", "cancel"],
    ]);
    const validation = await inter(dir, ["eval", "validate", dir, "--json"]);
    expect(validation.exitCode).toBe(2);
    const codes = new Set(own(validation.json.error.details.report.findings).map((f) => f.code));
    expect([...codes]).toEqual(["PLACEHOLDER", "REFERENCE_PLACEHOLDER"]);
    // Read top-down: a stage with errors is marked ✗ with its count, the errors come before the warnings, each counted.
    const said = await inter(dir, ["eval", "validate", dir]);
    const report = validation.json.error.details.report;
    const hygieneErrors = report.findings.filter(
      (f: Finding) => f.stage === "hygiene" && f.severity === "error",
    ).length;
    expect(said.stderr).toMatch(new RegExp(`^  ✗ hygiene \\(${hygieneErrors} errors?`, "m"));
    expect(said.stderr).not.toMatch(/^  ✓ hygiene/m);
    expect(said.stderr).toMatch(new RegExp(`^${report.errors} errors?:$`, "m"));
    const lines = said.stderr.split("\n");
    const lastError = lines.map((l: string) => l.startsWith("  ✗ [")).lastIndexOf(true);
    const firstWarning = lines.findIndex((l: string) => l.startsWith("  ⚠ ["));
    if (firstWarning >= 0) expect(firstWarning).toBeGreaterThan(lastError);
    const again = await inter(dir, ["eval", "new", dir, "--json"]);
    expect(again.exitCode).toBe(2);
    expect(again.json.error.message).toContain("never overwritten");
    const human = await inter(tempDirWith(join(project, "dist/cli.tgz")), ["eval", "new", "."]);
    expect(human.stdout).toMatch(
      /: 3 scenarios, \d+ <<FILL ME>> placeholders to replace; then run inter eval validate \.\.$/m,
    );
    // A draft trigger query set per Skill, pointing at the next two commands.
    expect(human.stdout).toMatch(
      /^Drafted 3 trigger query sets in .*trigger-queries: review them \(inter eval review-triggers \.\), then inter eval triggers \. --agent <agent>\.$/m,
    );
  });

  it("inter eval new beside an existing plan drafts only the missing trigger query sets, and refuses when none is missing", async () => {
    const dir = tempDirWith(join(project, "dist/cli.tgz"));
    expect((await inter(dir, ["eval", "new", "."])).exitCode).toBe(0);
    const plan = readFileSync(join(dir, "eval-plan.json"), "utf8");
    const reference = readFileSync(join(dir, "eval-plan.reference.json"), "utf8");
    // A reviewed set stays as it is; a deleted one (or a Skill added since) is drafted again.
    writeFileSync(
      join(dir, "trigger-queries/book-a-room-for-a-meeting.json"),
      JSON.stringify({
        skill: "book-a-room-for-a-meeting",
        queries: [{ query: "mine", expected_skill: "book-a-room-for-a-meeting" }],
      }),
    );
    rmSync(join(dir, "trigger-queries/cancel-a-booking.json"));
    const again = await inter(dir, ["eval", "new", ".", "--json"]);
    expect(again.exitCode, again.stdout).toBe(0);
    expect(again.json.data).toEqual({
      file: join(dir, "eval-plan.json"),
      plan: "kept",
      trigger_queries: [join(dir, "trigger-queries/cancel-a-booking.json")],
    });
    expect(JSON.parse(read(dir, "trigger-queries/cancel-a-booking.json"))).toMatchObject({
      skill: "cancel-a-booking",
      draft: true,
    });
    expect(JSON.parse(read(dir, "trigger-queries/book-a-room-for-a-meeting.json")).queries).toEqual([
      { query: "mine", expected_skill: "book-a-room-for-a-meeting" },
    ]);
    expect(readFileSync(join(dir, "eval-plan.json"), "utf8")).toBe(plan);
    expect(readFileSync(join(dir, "eval-plan.reference.json"), "utf8")).toBe(reference);
    rmSync(join(dir, "trigger-queries/report-a-rooms-bookings-for-a-day.json"));
    const human = await inter(dir, ["eval", "new", "."]);
    expect(human.stdout).toMatch(
      /^Kept .*eval-plan\.json\. Drafted 1 missing trigger query set: .*report-a-rooms-bookings-for-a-day\.json; review them/m,
    );
    const nothing = await inter(dir, ["eval", "new", ".", "--json"]);
    expect(nothing.exitCode).toBe(2);
    const nowhere = await inter(tempDir("inter-no-candidate-"), ["eval", "new", ".", "--json"]);
    expect(nowhere.exitCode).toBe(2);
    expect(nowhere.json.error).toMatchObject({
      code: "INPUT_NOT_FOUND",
      message: expect.stringMatching(/^No candidate: no cli\.tgz in .* and no project around it/),
    });
    expect(nothing.json.error).toMatchObject({
      code: "USAGE_ERROR",
      message:
        "./eval-plan.json already exists and every bundled Skill has its trigger query set: nothing to draft (existing files are never overwritten).",
    });
  });

  it("inter eval new writes $schema paths that hold in any checkout: the project's node_modules/intermesh, not where inter sits", async () => {
    // A project reached through a symlink, its evaluation folder two levels down; intermesh installed as a link to this repo.
    const root = tempDir("inter-schema-ref-");
    const real = join(root, "real/project");
    mkdirSync(join(real, "evals/triggers"), { recursive: true });
    mkdirSync(join(real, "node_modules"));
    writeFileSync(join(real, "package.json"), JSON.stringify({ name: "my-project", private: true }));
    symlinkSync(REPO, join(real, "node_modules/intermesh"));
    symlinkSync(join(root, "real/project"), join(root, "checkout"));
    const folder = join(root, "checkout/evals/triggers");
    const made = await inter(folder, ["eval", "new", ".", "--candidate", join(project, "dist/cli.tgz"), "--json"]);
    expect(made.exitCode, made.stdout).toBe(0);
    const plan = JSON.parse(read(folder, "eval-plan.json"));
    const set = JSON.parse(read(folder, "trigger-queries/cancel-a-booking.json"));
    expect(plan.$schema).toBe("../../node_modules/intermesh/schemas/eval-plan.schema.json");
    expect(set.$schema).toBe("../../../node_modules/intermesh/schemas/trigger-queries.schema.json");
    // They resolve from the files' folders, in this checkout as in any other of the same project.
    expect(JSON.parse(readFileSync(resolve(real, "evals/triggers", plan.$schema), "utf8")).$id).toBe(
      "https://intermesh.dev/schemas/eval-plan.schema.json",
    );
    expect(
      JSON.parse(
        readFileSync(resolve(dirname(join(real, "evals/triggers/trigger-queries/x.json")), set.$schema), "utf8"),
      ).$id,
    ).toBe("https://intermesh.dev/schemas/trigger-queries.schema.json");
    // Where nothing above installs intermesh, the schema this inter ships (it validates here; an install makes it portable).
    const loose = tempDirWith(join(project, "dist/cli.tgz"));
    const bare = tempDir("inter-schema-ref-");
    writeFileSync(join(bare, "package.json"), JSON.stringify({ name: "no-intermesh-here" }));
    mkdirSync(join(bare, "evals"));
    for (const dir of [loose, join(bare, "evals")]) {
      expect((await inter(dir, ["eval", "new", ".", "--candidate", join(project, "dist/cli.tgz")])).exitCode).toBe(0);
      expect(JSON.parse(readFileSync(resolve(dir, JSON.parse(read(dir, "eval-plan.json")).$schema), "utf8")).$id).toBe(
        "https://intermesh.dev/schemas/eval-plan.schema.json",
      );
      expect(
        JSON.parse(
          readFileSync(
            resolve(dir, "trigger-queries", JSON.parse(read(dir, "trigger-queries/cancel-a-booking.json")).$schema),
            "utf8",
          ),
        ).$id,
      ).toBe("https://intermesh.dev/schemas/trigger-queries.schema.json");
    }
  });

  it('inter eval new counts in words: a candidate with one Skill gets "1 scenario"', async () => {
    // The example's candidate with two of its three Skills left out.
    const unpacked = tempDir("inter-one-skill-");
    await tar.x({ file: join(project, "dist/cli.tgz"), cwd: unpacked });
    for (const skill of ["cancel-a-booking", "report-a-rooms-bookings-for-a-day"])
      rmSync(join(unpacked, "package/skills", skill), { recursive: true });
    const dir = tempDir("inter-eval-new-");
    await tar.c({ gzip: true, file: join(dir, "cli.tgz"), cwd: unpacked, portable: true }, ["package"]);
    const made = await inter(dir, ["eval", "new", "."]);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/: 1 scenario, \d+ <<FILL ME>> placeholders to replace;/);
    expect(made.stdout).not.toContain("1 scenarios");
  });
});

describe("the validate task", () => {
  it("validates the example's plan in inter build; a plan edit re-runs only validate; an invalid plan fails with PLAN_INVALID", async () => {
    const report = JSON.parse(read(project, "dist/plan-validation.json"));
    expect(report).toMatchObject({ valid: true, errors: 0, stages: { candidate: { ran: true } } });

    const planPath = join(project, "evals/eval-plan.json");
    const plan = JSON.parse(readFileSync(planPath, "utf8"));
    plan.assumptions.push("Edited.");
    writeFileSync(planPath, JSON.stringify(plan, null, 2));
    const edited = await inter(project, ["build", "--json"]);
    expect(
      Object.entries(statuses(edited))
        .filter(([, s]) => s === "ran")
        .map(([id]) => id),
    ).toEqual(["validate"]);

    plan.scenarios[0].observations[1].command_prefix = ["rooms", "bookings", "book"];
    writeFileSync(planPath, JSON.stringify(plan, null, 2));
    const broken = await inter(project, ["build", "--json"]);
    expect(broken.exitCode).toBe(2);
    expect(broken.json.error.code).toBe("PLAN_INVALID");
    expect(broken.json.error.details.report.findings[0]).toMatchObject({
      code: "UNKNOWN_COMMAND",
      pointer: "/scenarios/0/observations/1/command_prefix/1",
    });
    expect(existsSync(join(project, "dist/cli.tgz"))).toBe(true);
    // plan-validation.json describes the last validation: this failed one.
    expect(JSON.parse(read(project, "dist/plan-validation.json"))).toMatchObject({
      valid: false,
      findings: [expect.objectContaining({ code: "UNKNOWN_COMMAND" })],
    });
  });
});
