import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium } from "../browser.js";
import { inter, read, tempDir } from "../helpers.js";
import { schemaValidator } from "../schema.js";
import { API_KEY, evaluationFolder, exampleProject, scripted, SCRIPTED_AGENT } from "../e2e/example-api.js";
import type { CheckDiff, ScenarioDiff } from "../../src/evaluation/results/diff.js";
import type { GateResult } from "../../src/evaluation/results/types.js";
import type { AttemptResult } from "../../src/evaluation/run/attempt.js";

const validateResults = schemaValidator("results.schema.json");
const env = { ROOMS_API_KEY: API_KEY };

let browser: Browser;
/** One scripted run with a pass (book-a-room), a failure (cancels the wrong booking) and an incomplete attempt. */
let mixed: string;
/** The same plan against the same API address, done right: the base a regression is measured from. */
let good: string;
/** Two repetitions: rep 1 lists twice (incomplete); rep 2 meets the state rep 1 left (a booked room, a cancelled booking). */
let repeated: string;
let mixedRun: Awaited<ReturnType<typeof inter>>;
/** An agent that exits 3 at once, never calling the CLI: every attempt is a harness error, so nothing is judged. */
let broken: string;
let brokenRun: Awaited<ReturnType<typeof inter>>;
const FAILING_AGENT = JSON.stringify(["node", "-e", "process.exit(3)", "{prompt_file}"]);

const results = (dir: string) => JSON.parse(read(dir, ".inter-eval/results.json"));

beforeAll(async () => {
  const project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], env);
  if (built.exitCode !== 0) throw new Error(built.stdout);
  browser = await launchChromium();

  const first = await evaluationFolder(project);
  good = first.dir;
  const ok = await inter(good, ["eval", "run", ".", ...scripted("good")], env);
  await first.stop();
  if (ok.exitCode !== 0) throw new Error(ok.stderr);
  // A fresh API from its seed data on the same port, so both runs share one plan (and plan hash).
  const port = Number(new URL(first.url).port);
  const second = await evaluationFolder(project, { port });
  mixed = second.dir;
  copyFileSync(join(good, "eval-plan.json"), join(mixed, "eval-plan.json"));
  mixedRun = await inter(mixed, ["eval", "run", ".", ...scripted("wrong-id+list-twice")], env);
  await second.stop();

  const third = await evaluationFolder(project, { repetitions: 2 });
  repeated = third.dir;
  await inter(repeated, ["eval", "run", ".", ...scripted("list-twice@1")], env);
  await third.stop();

  const fourth = await evaluationFolder(project);
  broken = fourth.dir;
  brokenRun = await inter(broken, ["eval", "run", ".", "--agent-command", FAILING_AGENT], env);
  await fourth.stop();
}, 240_000);

afterAll(async () => browser?.close());

async function open(file: string): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(`file://${file}`);
  return { page, requests };
}

describe("an evaluation with passing, failing and incomplete attempts", () => {
  it("exits 1 naming the scenarios that missed the gate, and writes results, HTML, JUnit and Markdown", () => {
    expect(mixedRun.exitCode).toBe(1);
    expect(mixedRun.stderr).toMatch(/EVAL_FAILED: The gate was not met: cancel-a-booking \(.*\); report-room-day \(/);
    expect(mixedRun.stderr).not.toMatch(/gate was not met:[^\n]*book-a-room/);
    const r = results(mixed);
    expect(validateResults(r)).toEqual([]);
    expect(r.gate.missed.map((m: GateResult["missed"][number]) => m.scenario)).toEqual([
      "cancel-a-booking",
      "report-room-day",
    ]);
    for (const f of ["report.html", "junit.xml", "summary.md"])
      expect(read(mixed, `.inter-eval/${f}`).length).toBeGreaterThan(500);
  });

  it("report.html, opened from file:// in Chromium, shows the verdict, the binding, failures before incomplete checks, and the recorded calls", async () => {
    const { page, requests } = await open(join(mixed, ".inter-eval/report.html"));
    await page.screenshot({ path: join(ARTIFACTS, "report-mixed.png"), fullPage: true });
    // Self-contained: the page itself is the only thing loaded.
    expect(requests).toEqual([`file://${join(mixed, ".inter-eval/report.html")}`]);

    expect(await page.locator("h1").innerText()).toMatch(/^FAIL\s+Evaluation: 1 of 3 attempts passed$/);
    const r = results(mixed);
    const binding = await page.locator("dl.binding").innerText();
    expect(binding).toContain(`sha256:${r.candidate.sha256.slice(0, 12)}`);
    expect(binding).toContain(`sha256:${r.plan.sha256.slice(0, 12)}`);
    expect(binding).toMatch(/Agent-Native/);
    expect(binding).toMatch(/Agent\s+command:node/);
    expect(await page.locator("h2").allInnerTexts()).toEqual([
      "Scenarios",
      "Failed and incomplete checks",
      "Attempts",
      "What a pass proves",
      "What these checks cannot establish",
    ]);

    const rows = await page.locator("#scenarios tbody tr").allInnerTexts();
    expect(rows.map((row) => row.split("\t").slice(0, 3).join(" | "))).toEqual([
      "✔ book-a-room | 1/1 | 100 %",
      "✖ cancel-a-booking | 0/1 | 0 %",
      "✖ report-room-day | 0/1 | 0 %",
    ]);
    // Each header is aligned as the values under it (numbers right, text left), and the Gate column says met or why not.
    const alignment = await page.locator("#scenarios table").evaluate((table) => {
      const heads = [...table.querySelectorAll("thead th")].map((th) => getComputedStyle(th).textAlign);
      const cells = [...table.querySelectorAll("tbody tr")].map((tr) =>
        [...tr.querySelectorAll("td")].map((td) => getComputedStyle(td).textAlign),
      );
      return { heads, cells };
    });
    expect(alignment.heads).toEqual(["left", "right", "right", "right", "right", "left"]);
    for (const row of alignment.cells) expect(row).toEqual(alignment.heads);
    // The header's right edge is its column's: a value sits under its own header.
    const edges = await page.locator("#scenarios table").evaluate((table) => {
      const right = (e: Element) => {
        const r = document.createRange();
        r.selectNodeContents(e);
        return Math.round(r.getBoundingClientRect().right);
      };
      const heads = [...table.querySelectorAll("thead th")];
      const first = [...table.querySelectorAll("tbody tr:first-child td")];
      return heads.slice(1, 5).map((th, i) => Math.abs(right(th) - right(first[i + 1]!)));
    });
    expect(edges.every((d) => d <= 1)).toBe(true);
    const gates = await page.locator("#scenarios tbody td.gate-cell").allInnerTexts();
    expect(gates[0]).toBe("met");
    expect(gates[1]).toBe("missed: pass rate 0 % (0/1) is below 100 %");
    expect(gates[2]).toMatch(/^missed: pass rate 0 % \(0\/1\) is below 100 %/);

    const findings = await page.locator("#needs-attention .finding").allInnerTexts();
    expect(findings[0]).toMatch(
      /^fail\s+cancel-a-booking #1 · right-booking \(field_equals\) — the named booking was cancelled\nobserved "bk_0002", expected "bk_0003"/,
    );
    expect(findings.slice(1).every((f) => f.startsWith("incomplete"))).toBe(true);
    expect(findings.slice(1).map((f) => f.match(/· (\S+)/)![1])).toEqual([
      "listed",
      "room",
      "day",
      "the-interview",
      "only-one",
      "report-from-the-listing",
    ]);
    expect(findings[1]).toContain("2 invocations start with rooms bookings list");

    // Attempts needing a look come first and are open; the passing one is folded.
    const summaries = await page.locator("#attempts details > summary").allInnerTexts();
    expect(summaries.map((s) => s.split(" (")[0])).toEqual([
      "✖ cancel-a-booking #1 — fail",
      "… report-room-day #1 — incomplete",
      "✔ book-a-room #1 — pass",
    ]);
    expect(
      await page.locator("#attempts details").evaluateAll((ds) => ds.map((d) => (d as HTMLDetailsElement).open)),
    ).toEqual([true, true, false]);
    const cancel = page.locator("#attempt-cancel-a-booking-1");
    expect(await cancel.locator("h3.call").first().innerText()).toMatch(
      /^1\. rooms bookings cancel --booking-id bk_0002 --yes exit 0 · \d+ ms$/,
    );
    expect(await cancel.locator("pre").first().innerText()).toContain('"id":"bk_0002"');
    expect(await cancel.innerText()).toContain("agent wrong-id+list-twice working on cancel-a-booking");

    const limits = await page.locator("#limits li").allInnerTexts();
    expect(limits.some((l) => l.startsWith("Changes no observation matches"))).toBe(true);
    const proves = await page.locator("#proves li").allInnerTexts();
    // Sentences a person reads: the Markdown is rendered (code, not backticks), no field path opens a sentence.
    expect(proves).toContain("The call rooms bookings cancel was made exactly once and exited 0.");
    expect(proves).toContain('The call rooms bookings list was made with --room-id "rm_cosmos".');
    expect(proves.some((p) => /^The field result\.\S+ in the output of rooms bookings \w+ was /.test(p))).toBe(true);
    expect(await page.locator("#proves li code").first().innerText()).toMatch(/^rooms /);
    for (const section of ["#proves", "#limits", "#needs-attention"])
      expect(await page.locator(section).innerText()).not.toContain("`");
    expect(limits.some((l) => l.startsWith("The API's state after an attempt is not read back"))).toBe(true);

    // Printing opens every attempt.
    await page.evaluate(() => dispatchEvent(new Event("beforeprint")));
    expect(
      await page.locator("#attempts details").evaluateAll((ds) => ds.every((d) => (d as HTMLDetailsElement).open)),
    ).toBe(true);
    await page.close();
  });

  it("escapes what the API printed: markup in a recorded stdout is text, never code", async () => {
    const r = results(mixed);
    r.attempts[0].invocations[0].stdout = `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>`;
    const dir = tempDir("inter-report-");
    writeFileSync(join(dir, "results.json"), JSON.stringify(r));
    const made = await inter(dir, ["eval", "report", "results.json", "--format", "html", "--out", "hostile.html"]);
    expect(made.exitCode).toBe(1); // the gate still judges the results
    const { page } = await open(join(dir, "hostile.html"));
    expect(await page.title()).toMatch(/^Evaluation FAIL/);
    expect(await page.locator("#attempts img, #attempts script").count()).toBe(0);
    expect(await page.locator("#attempts pre").filter({ hasText: "<script>document.title" }).count()).toBe(1);
    await page.close();
  });

  it("junit.xml parses as XML with a testsuite per scenario and counts that add up", async () => {
    const xml = read(mixed, ".inter-eval/junit.xml");
    const page = await browser.newPage();
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml");
      if (doc.querySelector("parsererror")) return { error: doc.querySelector("parsererror")!.textContent };
      const n = (e: Element, a: string) => Number(e.getAttribute(a));
      const root = doc.documentElement;
      return {
        root: root.tagName,
        totals: { tests: n(root, "tests"), failures: n(root, "failures"), errors: n(root, "errors") },
        suites: [...doc.querySelectorAll("testsuite")].map((s) => ({
          name: s.getAttribute("name"),
          declared: { tests: n(s, "tests"), failures: n(s, "failures"), errors: n(s, "errors") },
          counted: {
            tests: s.querySelectorAll("testcase").length,
            failures: s.querySelectorAll("testcase > failure").length,
            errors: s.querySelectorAll("testcase > error").length,
          },
          failed: [...s.querySelectorAll("testcase:has(failure)")].map(
            (c) => `${c.getAttribute("name")} :: ${c.querySelector("failure")!.getAttribute("message")}`,
          ),
        })),
      };
    }, xml);
    await page.close();
    expect(parsed.root).toBe("testsuites");
    expect(parsed.suites!.map((s) => s.name)).toEqual(["book-a-room", "cancel-a-booking", "report-room-day"]);
    for (const s of parsed.suites!) expect(s.counted).toEqual(s.declared);
    expect(parsed.suites!.map((s) => s.declared)).toEqual([
      { tests: 10, failures: 0, errors: 0 },
      { tests: 3, failures: 1, errors: 0 },
      { tests: 8, failures: 0, errors: 6 },
    ]);
    expect(parsed.totals).toEqual({ tests: 21, failures: 1, errors: 6 });
    expect(parsed.suites![1]!.failed).toEqual([
      "#1 right-booking: the named booking was cancelled :: different (no coercion)",
    ]);
  });

  it("the Markdown summary leads with the verdict and is appended to $GITHUB_STEP_SUMMARY by inter eval report", async () => {
    const summary = join(tempDir("inter-summary-"), "step-summary.md");
    writeFileSync(summary, "# earlier step\n");
    const again = await inter(mixed, ["eval", "report", ".inter-eval/results.json"], { GITHUB_STEP_SUMMARY: summary });
    expect(again.exitCode).toBe(1);
    expect(again.stdout).toContain(`Wrote ${join(mixed, ".inter-eval/report.html")}`);
    const md = readFileSync(summary, "utf8");
    expect(md.startsWith("# earlier step\n## ❌ Evaluation failed: 1/3 attempts")).toBe(true);
    expect(md).toContain("| cancel-a-booking | 0/1 | 0 % | 0.00 | 0.00 |");
    expect(md).toContain(
      '- **cancel-a-booking #1** `right-booking` fail: the named booking was cancelled — observed `"bk_0002"`, expected `"bk_0003"`.',
    );
    expect(md).toBe(`# earlier step\n${read(mixed, ".inter-eval/summary.md")}\n`);
  });

  it("inter eval report --format prints one report from results alone", async () => {
    const dir = tempDir("inter-report-");
    copyFileSync(join(mixed, ".inter-eval/results.json"), join(dir, "results.json"));
    const md = await inter(dir, ["eval", "report", "results.json", "--format", "md", "--min-pass-rate", "0"]);
    expect(md.exitCode).toBe(0);
    expect(`${md.stdout}\n`).toBe(
      read(mixed, ".inter-eval/summary.md")
        .replace("❌ Evaluation failed", "✅ Evaluation passed")
        .replace(
          /Gate not met \([^)]*\): missed by [^.]*\./,
          "Gate met: every scenario ≥ 0 %, incomplete attempts count against.",
        ),
    );
    const junit = await inter(dir, [
      "eval",
      "report",
      "results.json",
      "--format",
      "junit",
      "--json",
      "--min-pass-rate",
      "0",
    ]);
    expect(junit.json.data.content).toBe(read(mixed, ".inter-eval/junit.xml"));
  });
});

describe("an evaluation in which every attempt is a harness error", () => {
  it("is not judged: the exit's error says so (EVAL_NOT_JUDGED, exit 1) with the harness errors, and the human summary too", async () => {
    expect(brokenRun.exitCode).toBe(1);
    expect(brokenRun.stderr).toContain("⚠ NOT JUDGED: every attempt was a harness error (all 3)");
    expect(brokenRun.stderr).toMatch(
      /\nNOT JUDGED: 0\/3 attempts passed; candidate failed 0, could not judge 0, harness broke 3/,
    );
    expect(brokenRun.stderr).toMatch(
      /error EVAL_NOT_JUDGED: Not judged: every attempt was a harness error \(all 3\): the harness or the agent broke, not the candidate, so nothing was established about it\. Harness error: the agent exited with code 3 without calling rooms/,
    );
    expect(brokenRun.stderr).not.toContain("Evaluation failed");
    const r = results(broken);
    expect(validateResults(r)).toEqual([]);
    expect(r.attempts.map((a: AttemptResult) => a.status)).toEqual(["error", "error", "error"]);
    expect(r.gate.missed.map((m: GateResult["missed"][number]) => m.reason)).toEqual([
      "not judged: its only attempt was a harness error",
      "not judged: its only attempt was a harness error",
      "not judged: its only attempt was a harness error",
    ]);
    // No bar passes it: the report command, even at --min-pass-rate 0, exits 1 with the same code.
    const regated = await inter(broken, [
      "eval",
      "report",
      ".inter-eval/results.json",
      "--min-pass-rate",
      "0",
      "--json",
    ]);
    expect(regated.exitCode).toBe(1);
    expect(regated.json.error).toMatchObject({
      code: "EVAL_NOT_JUDGED",
      details: {
        not_judged: true,
        harness_errors: [expect.stringMatching(/^the agent exited with code 3 without calling rooms/)],
      },
    });
  });

  it("summary.md, junit.xml and report.html (in Chromium) lead with 'Not judged', never 'failed'", async () => {
    const md = read(broken, ".inter-eval/summary.md");
    expect(md).toMatch(
      /^## ⚠ Not judged: every attempt was a harness error \(all 3\): the harness or the agent broke, not the candidate, so nothing was established about it \(0\/3 attempts passed\)\n/,
    );
    expect(md).not.toContain("Evaluation failed");
    const junit = read(broken, ".inter-eval/junit.xml");
    const messages = [...junit.matchAll(/<error type="harness" message="([^"]*)"/g)].map((m) => m[1]);
    expect(messages).toHaveLength(3);
    for (const m of messages)
      expect(m).toMatch(/^Not judged \(every attempt was a harness error\): the agent exited with code 3/);
    expect(
      junit.match(/<property name="verdict" value="not judged: every attempt was a harness error"\/>/g),
    ).toHaveLength(3);

    const { page } = await open(join(broken, ".inter-eval/report.html"));
    await page.screenshot({ path: join(ARTIFACTS, "report-not-judged.png"), fullPage: true });
    expect(await page.title()).toMatch(/^Evaluation NOT JUDGED/);
    expect(await page.locator("h1").innerText()).toMatch(
      /^NOT JUDGED\s+Evaluation not judged: every attempt was a harness error$/,
    );
    expect(await page.locator("p.not-judged").innerText()).toMatch(
      /^⚠ Not judged: every attempt was a harness error \(all 3\)/,
    );
    expect(await page.locator("#scenarios tbody td.gate-cell").allInnerTexts()).toEqual(
      Array(3).fill("missed: not judged: its only attempt was a harness error"),
    );
    expect(await page.locator("body").innerText()).not.toMatch(/\bFAIL\b/);
    await page.close();
  });
});

describe("the CI gate", () => {
  const gate = async (dir: string, flags: string[]) => {
    const run = await inter(dir, ["eval", "report", ".inter-eval/results.json", ...flags, "--json"]);
    return {
      exit: run.exitCode,
      missed:
        run.exitCode === 0
          ? []
          : run.json.error.details.gate.missed.map((m: GateResult["missed"][number]) => m.scenario),
    };
  };

  it("repetitions give pass rates the gate measures, with incomplete attempts counted against unless allowed", async () => {
    const r = results(repeated);
    expect(r.attempts.map((a: AttemptResult) => `${a.scenario}#${a.repetition} ${a.status}`)).toEqual([
      "book-a-room#1 pass",
      "book-a-room#2 fail",
      "cancel-a-booking#1 pass",
      "cancel-a-booking#2 fail",
      "report-room-day#1 incomplete",
      "report-room-day#2 pass",
    ]);
    expect(await gate(repeated, [])).toEqual({
      exit: 1,
      missed: ["book-a-room", "cancel-a-booking", "report-room-day"],
    });
    expect(await gate(repeated, ["--min-pass-rate", "0.5"])).toEqual({ exit: 0, missed: [] });
    expect(await gate(repeated, ["--min-pass-rate", "0.6"])).toEqual({
      exit: 1,
      missed: ["book-a-room", "cancel-a-booking", "report-room-day"],
    });
    expect(await gate(repeated, ["--min-pass-rate", "0.6", "--allow-incomplete"])).toEqual({
      exit: 1,
      missed: ["book-a-room", "cancel-a-booking"],
    });
    expect(await gate(repeated, ["--min-pass-rate", "0.5", "--allow-incomplete"])).toEqual({ exit: 0, missed: [] });
  });

  it("allowing incomplete attempts never passes a scenario with nothing established", async () => {
    expect(await gate(mixed, ["--min-pass-rate", "0"])).toEqual({ exit: 0, missed: [] });
    const run = await inter(mixed, [
      "eval",
      "report",
      ".inter-eval/results.json",
      "--min-pass-rate",
      "0",
      "--allow-incomplete",
    ]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("report-room-day (its only attempt was incomplete; nothing was established)");
  });

  it("a good run meets the default gate", async () => {
    expect(await gate(good, [])).toEqual({ exit: 0, missed: [] });
  });

  it("bad gate values and unreadable results are usage errors (exit 2) that change nothing", async () => {
    const before = read(mixed, ".inter-eval/report.html");
    const rate = await inter(mixed, ["eval", "report", ".inter-eval/results.json", "--min-pass-rate", "1.5", "--json"]);
    expect(rate.exitCode).toBe(2);
    expect(rate.json.error.code).toBe("USAGE_ERROR");
    const dir = tempDir("inter-report-");
    writeFileSync(join(dir, "broken.json"), '{"schema_version": "1.0.0",');
    const broken = await inter(dir, ["eval", "report", "broken.json", "--json"]);
    expect(broken.exitCode).toBe(2);
    expect(broken.json.error).toMatchObject({
      code: "RESULTS_INVALID",
      message: expect.stringContaining("broken.json is not JSON"),
    });
    const r = results(mixed);
    r.verdict = "maybe";
    writeFileSync(join(dir, "odd.json"), JSON.stringify(r));
    const odd = await inter(dir, ["eval", "report", "odd.json", "--json"]);
    expect(odd.json.error).toMatchObject({ code: "RESULTS_INVALID", message: expect.stringContaining("at /verdict") });
    const missing = await inter(dir, ["eval", "report", "nope.json", "--json"]);
    expect(missing.json.error.code).toBe("INPUT_NOT_FOUND");
    expect(read(mixed, ".inter-eval/report.html")).toBe(before);
  });
});

describe("the gate of inter run eval", () => {
  it("comes from targets.eval.gate, and --min-pass-rate on the command line overrides it", async () => {
    const project = exampleProject({ warm: "with-key" });
    const file = join(project, "intermesh.config.ts");
    const agent = JSON.stringify({ command: ["node", SCRIPTED_AGENT, "wrong-id", "{prompt_file}", "{attempt}"] });
    writeFileSync(
      file,
      read(project, "intermesh.config.ts").replace(
        'agent: "reference",',
        `agent: ${agent},\n      gate: { minPassRate: 0 },`,
      ),
    );
    const lenient = await inter(project, ["run", "eval", "--json"], env);
    expect(lenient.exitCode, lenient.stdout).toBe(0);
    expect(JSON.parse(read(project, "dist/eval/results.json")).gate).toEqual({
      min_pass_rate: 0,
      allow_incomplete: false,
      met: true,
      missed: [],
    });
    const strict = await inter(project, ["run", "eval", "--min-pass-rate", "1"], env);
    expect(strict.exitCode).toBe(1);
    expect(strict.stderr).toMatch(/The gate was not met: cancel-a-booking \(pass rate 0 % \(0\/1\) is below 100 %\)\./);
    expect(read(project, "dist/eval/summary.md")).toMatch(/^## ❌ Evaluation failed: 2\/3 attempts/);

    writeFileSync(
      file,
      read(project, "intermesh.config.ts").replace("gate: { minPassRate: 0 }", "gate: { minPassRate: 2 }"),
    );
    const invalid = await inter(project, ["run", "eval", "--json"], env);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.json.error).toMatchObject({
      code: "CONFIG_INVALID",
      details: { issues: [{ path: "targets.eval.gate.minPassRate" }] },
    });

    // An agent that never runs: inter run eval says "not judged" in its exit, its summary and inter status.
    writeFileSync(
      file,
      read(project, "intermesh.config.ts")
        .replace("gate: { minPassRate: 2 }", "gate: { minPassRate: 0 }")
        .replace(agent, JSON.stringify({ command: JSON.parse(FAILING_AGENT) })),
    );
    const unjudged = await inter(project, ["run", "eval", "--json"], env);
    expect(unjudged.exitCode).toBe(1);
    expect(unjudged.json.error).toMatchObject({
      code: "EVAL_NOT_JUDGED",
      message: expect.stringMatching(/^Not judged: every attempt was a harness error \(all 3\)/),
    });
    expect(read(project, "dist/eval/summary.md")).toMatch(/^## ⚠ Not judged: every attempt was a harness error/);
    const status = await inter(project, ["status", "--json"], env);
    expect(status.json.data.last.evaluation).toMatchObject({
      not_judged: true,
      gate_met: false,
      gateMet: false,
      passed: 0,
      attempts: 3,
    });
    expect((await inter(project, ["status"], env)).stdout).toMatch(
      /^evaluation {2}NOT JUDGED \(every attempt was a harness error\): 0\/3 attempts \(dist\/eval\/results\.json\)$/m,
    );
  });
});

describe("inter eval diff", () => {
  const base = () => join(good, ".inter-eval/results.json");
  const head = () => join(mixed, ".inter-eval/results.json");

  it("names the scenarios and checks that regressed, with pass rates side by side, and exits 1", async () => {
    const diff = await inter(good, ["eval", "diff", base(), head(), "--json"]);
    expect(diff.exitCode).toBe(1);
    expect(diff.json.error.code).toBe("EVAL_FAILED");
    expect(diff.json.error.message).toBe("9 regressions from base to head, in cancel-a-booking, report-room-day.");
    const d = diff.json.error.details.diff;
    expect(d.plan_changed).toBe(false);
    const byId = Object.fromEntries(d.scenarios.map((s: ScenarioDiff) => [s.id, s]));
    expect(byId["book-a-room"].change).toBe("unchanged");
    expect(byId["cancel-a-booking"]).toMatchObject({
      change: "regressed",
      base: { passed: 1, attempts: 1, rate: 1 },
      head: { passed: 0, attempts: 1, rate: 0 },
    });
    expect(
      byId["cancel-a-booking"].checks.filter((c: CheckDiff) => c.change === "regressed").map((c: CheckDiff) => c.id),
    ).toEqual(["right-booking"]);
    expect(
      byId["report-room-day"].checks.filter((c: CheckDiff) => c.change === "regressed").map((c: CheckDiff) => c.id),
    ).toEqual(["listed", "room", "day", "the-interview", "only-one", "report-from-the-listing"]);

    const text = await inter(good, ["eval", "diff", base(), head()]);
    expect(text.stdout.split("\n")[1]).toMatch(/^▼ cancel-a-booking\s+1\/1 \(100 %\) → 0\/1 \(0 %\)\s+regressed$/);
    const md = await inter(good, ["eval", "diff", base(), head(), "--format", "md"]);
    expect(md.stdout).toMatch(/^## ❌ Evaluation diff: 9 regressions, 0 improvements/);
    expect(md.stdout).toContain("| ▼ | ↳ `right-booking` | 1/1 (100 %) | 0/1 (0 %) | regressed |");
  });

  it("the other way round everything improved, and the same results twice change nothing (exit 0)", async () => {
    const better = await inter(good, ["eval", "diff", head(), base(), "--json"]);
    expect(better.exitCode).toBe(0);
    expect(better.json.data).toMatchObject({ regressions: 0, improvements: 9 });
    const same = await inter(good, ["eval", "diff", base(), base(), "--json"]);
    expect(same.json.data).toMatchObject({ regressions: 0, improvements: 0 });
  });

  it("refuses results answered by different models unless told --across-models, and then says so", async () => {
    // The same results twice, the head's agent reporting another served model: only the model differs.
    const scratch = tempDir("inter-diff-models-");
    const withModel = (served: string[]) => {
      const results = JSON.parse(readFileSync(base(), "utf8"));
      results.agent.model = { configured: "m", configured_hash: null, served };
      const file = join(scratch, `${served.join("+")}.json`);
      writeFileSync(file, JSON.stringify(results));
      return file;
    };
    const [a, b] = [withModel(["model-a"]), withModel(["model-b"])];
    const refused = await inter(good, ["eval", "diff", a, b, "--json"]);
    expect(refused.exitCode).toBe(1);
    expect(refused.json.error).toMatchObject({
      code: "EVAL_MODELS_DIFFER",
      message: expect.stringContaining("base was answered by model-a and head by model-b"),
      suggestion: expect.stringContaining("--across-models"),
    });
    const allowed = await inter(good, ["eval", "diff", a, b, "--across-models"]);
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stdout.split("\n")[0]).toContain("⚠ answered by different models: model-a → model-b");
    expect((await inter(good, ["eval", "diff", a, withModel(["model-a"]), "--json"])).exitCode).toBe(0);
  });

  it("refuses results of different plans unless told --plan-changed", async () => {
    const other = join(repeated, ".inter-eval/results.json");
    const refused = await inter(good, ["eval", "diff", base(), other, "--json"]);
    expect(refused.exitCode).toBe(2);
    expect(refused.json.error).toMatchObject({
      code: "RESULTS_MISMATCH",
      suggestion: expect.stringContaining("--plan-changed"),
    });
    const allowed = await inter(good, ["eval", "diff", base(), other, "--plan-changed", "--json"]);
    expect(allowed.exitCode).toBe(1);
    expect(allowed.json.error.details.diff.plan_changed).toBe(true);
  });
});
