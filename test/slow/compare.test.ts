import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium } from "../browser.js";
import { inter, read, REPO } from "../helpers.js";
import { API_KEY, exampleProject, SCRIPTED_AGENT } from "../e2e/example-api.js";
import type { CheckDiff, ScenarioDiff } from "../../src/evaluation/results/diff.js";
import type {
  CheckComparison,
  grading as gradingOf,
  JudgedScenario,
  ScenarioComparison,
} from "../../src/evaluation/compare/compare.js";

const JUDGE = join(REPO, "test/fixtures/scripted-judge.mjs");
let project: string;
let run: Awaited<ReturnType<typeof inter>>;
let browser: Browser;

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
  // The config's API service starts fresh for every attempt, so A and B meet the same seed data.
  run = await inter(
    project,
    [
      "eval",
      "compare",
      "evals/eval-plan.json",
      "--a",
      "dist/cli.tgz",
      "--skills-uplift",
      "--agent-command",
      JSON.stringify(["node", SCRIPTED_AGENT, "skill-guided", "{prompt_file}", "{attempt}"]),
      "--judge-command",
      JSON.stringify(["node", JUDGE, "{prompt_file}"]),
      "--seed",
      "3",
      "--out",
      "cmp",
      "--json",
    ],
    { ROOMS_API_KEY: API_KEY },
  );
  browser = await launchChromium();
}, 240_000);
afterAll(async () => browser?.close());

describe("inter eval compare --skills-uplift", () => {
  it("finds the scenario the Skills make the difference in, and flags the checks that cannot tell the two apart", () => {
    expect(run.exitCode, run.stdout).toBe(0);
    const c = JSON.parse(read(project, "cmp/comparison.json"));
    expect(c.b.skills_removed).toBe(true);
    expect(c.a.candidate).toBe(
      createHash("sha256")
        .update(readFileSync(join(project, "dist/cli.tgz")))
        .digest("hex"),
    );
    expect(c.b.candidate).not.toBe(c.a.candidate);
    const byId = Object.fromEntries(c.scenarios.map((s: ScenarioComparison) => [s.id, s]));
    expect(byId["book-a-room"]).toMatchObject({
      a: { passed: 1, attempts: 1 },
      b: { passed: 0, attempts: 1 },
      difference: -1,
      better: "a",
    });
    expect(read(project, "cmp/summary.md")).toMatch(/\| book-a-room \| A \| 1\/1 \| 0\/1 \|/);
    expect(
      byId["book-a-room"].checks.filter((k: CheckComparison) => k.discriminating).map((k: CheckComparison) => k.id),
    ).toEqual(["smallest-room", "first-result"]);
    for (const id of ["cancel-a-booking", "report-room-day"])
      expect(byId[id]).toMatchObject({ difference: 0, p_value: 1 });
    expect(c.non_discriminating).toEqual(
      expect.arrayContaining(["cancel-a-booking/cancelled-ok", "report-room-day/report-written", "book-a-room/booked"]),
    );
    expect(c.non_discriminating).not.toContain("book-a-room/smallest-room");
    expect(c.overall).toMatchObject({ a: { passed: 3, attempts: 3 }, b: { passed: 2, attempts: 3 } });
    expect(c.overall.a.mean_invocations).toBeGreaterThan(0);
    // Each attempt's checks as expectations with passed and evidence.
    const grading = JSON.parse(read(project, "cmp/b/attempts/book-a-room-1/grading.json"));
    expect(grading.summary).toMatchObject({ total: 10, passed: 8, failed: 2 });
    expect(
      grading.expectations.find((e: ReturnType<typeof gradingOf>["expectations"][number]) =>
        e.text.startsWith("smallest-room"),
      ),
    ).toMatchObject({
      passed: false,
      evidence: expect.stringContaining('expected "rm_delta"'),
    });
  });

  it("blind judging: labels drawn per scenario, the judge sees no names, and the verdict is unmapped to the right candidate", () => {
    const c = JSON.parse(read(project, "cmp/comparison.json"));
    expect(c.judging).toMatchObject({ seed: 3, judge: "command:node" });
    const labels = c.judging.scenarios.map((j: JudgedScenario) => j.labels.A);
    expect(new Set(labels)).toEqual(new Set(["a", "b"])); // with this seed both orders occur
    const book = c.judging.scenarios.find((j: JudgedScenario) => j.id === "book-a-room");
    expect(book.winner).toBe("a");
    expect(book.scores.a.content).toBe(5);
    expect(book.scores.b.content).toBe(2);
    const prompt = read(project, "cmp/judging/book-a-room/prompt.md");
    // The attempt shown as A is the one the mapping says; nothing in the prompt names a candidate.
    const shownA = prompt.split(/^## Attempt B$/m)[0]!;
    expect(/--room-id rm_delta/.test(shownA)).toBe(book.labels.A === "a");
    // (It shows the calls each attempt made — an agent listing Skills among them — but never where an attempt came from.)
    expect(prompt).not.toMatch(/candidate|cli\.tgz|cli-without-skills|uplift|sha256|[0-9a-f]{64}/i);
    for (const j of c.judging.scenarios.filter((x: JudgedScenario) => x.id !== "book-a-room"))
      expect(j.winner).toBe("tie");
  });

  it("the comparison report puts the difference first, side by side, in Chromium", async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`file://${join(project, "cmp/report.html")}`);
    await page.screenshot({ path: join(ARTIFACTS, "comparison.png"), fullPage: true });
    expect(requests).toHaveLength(1);
    expect(await page.locator("h1").innerText()).toBe(
      "Comparison: Without its Skills, agents passed 33 pts less often than with A",
    );
    const rows = await page.locator("#scenarios tbody tr").allInnerTexts();
    expect(rows[0]).toMatch(/^book-a-room\t1\/1\t100 %.*\t0\/1\t0 %.*\t−100 pts\t1\.000\tA$/);
    expect(rows.at(-1)).toMatch(/^overall\t3\/3/);
    expect(await page.locator("#discriminating tbody tr").allInnerTexts()).toEqual([
      "book-a-room\tsmallest-room\t100 %\t0 %",
      "book-a-room\tfirst-result\t100 %\t0 %",
    ]);
    expect(await page.locator("#non-discriminating li").allInnerTexts()).toContain("cancel-a-booking/cancelled-ok");
    expect(await page.locator("#judging tbody tr").first().innerText()).toMatch(
      /^book-a-room\tA was [AB], B was [AB]\tA\t5 \/ 4\t2 \/ 4\tattempt [AB] booked the smallest free room$/,
    );
    const md = read(project, "cmp/summary.md");
    expect(md).toMatch(/^## Comparison: Without its Skills, agents passed 33 pts less often than with A/);
    expect(md).toContain("| book-a-room | A | 1/1 | 0/1 | −100 pts | 1.000 |");
    await page.close();
  });

  it("inter eval diff from A's results to the regressed candidate B's names the regression", async () => {
    const diff = await inter(project, ["eval", "diff", "cmp/a/results.json", "cmp/b/results.json", "--json"]);
    expect(diff.exitCode).toBe(1);
    expect(diff.json.error.message).toBe("3 regressions from base to head, in book-a-room.");
    const book = diff.json.error.details.diff.scenarios.find((s: ScenarioDiff) => s.id === "book-a-room");
    expect(book).toMatchObject({ change: "regressed", base: { passed: 1 }, head: { passed: 0 } });
    expect(book.checks.filter((c: CheckDiff) => c.change === "regressed").map((c: CheckDiff) => c.id)).toEqual([
      "smallest-room",
      "first-result",
    ]);
  });

  it("refuses a missing candidate B, or two of them", async () => {
    const none = await inter(project, ["eval", "compare", "evals/eval-plan.json", "--a", "dist/cli.tgz", "--json"]);
    expect(none.json.error).toMatchObject({ code: "USAGE_ERROR", message: "Candidate B is missing." });
    const both = await inter(project, [
      "eval",
      "compare",
      "evals/eval-plan.json",
      "--a",
      "dist/cli.tgz",
      "--b",
      "dist",
      "--skills-uplift",
      "--json",
    ]);
    expect(both.json.error.code).toBe("USAGE_ERROR");
  });
});
