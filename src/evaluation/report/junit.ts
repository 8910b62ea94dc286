import { showValue, type StoredResults } from "./facts.js";
import { notJudged } from "../results/gate.js";

// XML 1.0 forbids most control characters even when escaped; API output can contain them.
const xml = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "\uFFFD")
    .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * JUnit XML as CI systems read it: a testsuite per scenario, a testcase per attempt × check. A failed check is a
 * <failure>, an incomplete one an <error> (the check could not be judged), and an attempt the harness could not run
 * one <error> testcase. When every attempt was a harness error the run was not judged: each of those errors says so in
 * its message, and every suite carries a `verdict` property of "not judged".
 */
export function renderJunit(results: StoredResults): string {
  const unjudged = notJudged(results);
  let tests = 0;
  let failures = 0;
  let errors = 0;
  const suites = results.scenarios.map((scenario) => {
    const attempts = results.attempts.filter((a) => a.scenario === scenario.id);
    const cases: string[] = [];
    let f = 0;
    let e = 0;
    for (const a of attempts) {
      const time = seconds(a.checks.length ? a.duration_ms / a.checks.length : a.duration_ms);
      if (a.status === "error") {
        e += 1;
        cases.push(
          `    <testcase classname="${xml(scenario.id)}" name="${xml(`#${a.repetition} harness`)}" time="${seconds(a.duration_ms)}">\n      <error type="harness" message="${xml(`${unjudged ? "Not judged (every attempt was a harness error): " : ""}${a.harness_error ?? "harness error"}`)}"/>\n    </testcase>`,
        );
        if (!a.checks.length) continue;
      }
      for (const c of a.checks) {
        const open = `    <testcase classname="${xml(scenario.id)}" name="${xml(`#${a.repetition} ${c.id}: ${c.description}`)}" time="${time}">`;
        const detail = xml(
          `${c.reason}\nobserved: ${showValue(c.observed, 2000)}\nexpected: ${showValue(c.expected, 2000)}`,
        );
        if (c.status === "fail") {
          f += 1;
          cases.push(
            `${open}\n      <failure type="${xml(c.type)}" message="${xml(c.reason)}">${detail}</failure>\n    </testcase>`,
          );
        } else if (c.status === "incomplete") {
          e += 1;
          cases.push(
            `${open}\n      <error type="incomplete" message="${xml(c.reason)}">${detail}</error>\n    </testcase>`,
          );
        } else cases.push(`${open}</testcase>`);
      }
    }
    tests += cases.length;
    failures += f;
    errors += e;
    const time = seconds(attempts.reduce((sum, a) => sum + a.duration_ms, 0));
    return `  <testsuite name="${xml(scenario.id)}" tests="${cases.length}" failures="${f}" errors="${e}" skipped="0" time="${time}"${results.started_at ? ` timestamp="${xml(results.started_at.replace(/\.\d+Z$/, ""))}"` : ""}>
    <properties>
      <property name="candidate.sha256" value="${xml(results.candidate.sha256)}"/>
      <property name="plan.sha256" value="${xml(results.plan.sha256)}"/>
      <property name="agent" value="${xml(results.agent.name)}"/>
      <property name="pass_rate" value="${scenario.pass_rate}"/>
${unjudged ? `      <property name="verdict" value="not judged: every attempt was a harness error"/>\n` : ""}    </properties>
${cases.join("\n")}
  </testsuite>`;
  });
  const time = seconds(results.attempts.reduce((sum, a) => sum + a.duration_ms, 0));
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="inter eval" tests="${tests}" failures="${failures}" errors="${errors}" time="${time}">
${suites.join("\n")}
</testsuites>
`;
}
