import { modelText } from "../sandbox/agents.js";
import { findings, isolationText, pct, short, showValue, verdictOf, type StoredResults } from "./facts.js";
import { gateLine, notJudgedText } from "../results/gate.js";
import { count } from "../../core/plural.js";

/** Table cells and inline code must not break the Markdown around them. */
export const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
export const code = (s: string) => {
  const text = cell(s);
  const fence = text.includes("`") ? "``" : "`";
  return `${fence}${fence.length > 1 ? " " : ""}${text}${fence.length > 1 ? " " : ""}${fence}`;
};

const MAX_FINDINGS = 30;

/** The Markdown summary: for $GITHUB_STEP_SUMMARY and pull-request comments. */
export function renderMarkdown(results: StoredResults): string {
  const verdict = verdictOf(results);
  const { summary } = results;
  const k = results.settings.repetitions;
  const lines = [
    verdict === "not-judged"
      ? `## ⚠ Not judged: ${notJudgedText(results)} (0/${count(summary.attempts, "attempt")} passed)`
      : `## ${verdict === "pass" ? "✅ Evaluation passed" : "❌ Evaluation failed"}: ${summary.passed}/${count(summary.attempts, "attempt")}`,
    "",
    `Candidate ${code(short(results.candidate.sha256))}${results.receipt ? ("status" in results.receipt ? " (receipt unbound)" : ` (${results.receipt.level})`) : ""} · plan ${code(results.plan.file)} ${code(short(results.plan.sha256))} · agent ${code(results.agent.name)}${modelText(results.agent.model) ? ` (model ${code(modelText(results.agent.model)!)})` : ""} · inter ${results.versions.inter}`,
    "",
    `${summary.failed} failed (the candidate fell short), ${summary.incomplete} incomplete (could not be judged), ${count(summary.harness_errors, "harness error")} (the harness or the agent broke, not the candidate).${results.gate ? ` ${gateLine(results.gate, true)}` : ""}`,
    "",
    `Isolation: ${isolationText(results)}.`,
    "",
    `| Scenario | Passed | Pass rate | pass@${k} | pass^${k} |`,
    "|---|---:|---:|---:|---:|",
    ...results.scenarios.map(
      (s) =>
        `| ${cell(s.id)} | ${s.passed}/${s.attempts} | ${pct(s.pass_rate)} | ${s.pass_at_k.toFixed(2)} | ${s.pass_hat_k.toFixed(2)} |`,
    ),
  ];
  const list = findings(results);
  if (list.length) {
    lines.push("", "### Failed and incomplete checks", "");
    for (const f of list.slice(0, MAX_FINDINGS)) {
      switch (f.kind) {
        case "harness-error":
          lines.push(`- **${cell(f.scenario)} #${f.repetition}** harness error: ${cell(f.message)}`);
          break;
        case "check":
          lines.push(
            `- **${cell(f.scenario)} #${f.repetition}** ${code(f.check.id)} ${f.check.status}: ${cell(f.check.description)} — observed ${code(showValue(f.check.observed, 120))}, expected ${code(showValue(f.check.expected, 120))}. ${cell(f.check.reason)}`,
          );
          break;
      }
    }
    if (list.length > MAX_FINDINGS) lines.push(`- … and ${list.length - MAX_FINDINGS} more in report.html`);
  }
  const effects = results.attempts.filter((a) => a.side_effects?.length);
  if (effects.length) {
    lines.push("", `**Unobserved side effects** — changes no observation of the scenario matches:`, "");
    for (const a of effects)
      lines.push(
        `- ${cell(a.scenario)} #${a.repetition}: ${a.side_effects!.map((s) => `\`${cell(s.argv.join(" "))}\``).join(", ")}`,
      );
  }
  const proves = results.proves ?? [];
  if (proves.length) {
    lines.push("", "<details><summary>What a pass proves</summary>", "");
    for (const p of proves) lines.push(`- **${cell(p.scenario ?? "plan")}**: ${cell(p.text)}`);
    lines.push("", "</details>");
  }
  const limits = results.limits ?? [];
  if (limits.length) {
    lines.push("", "<details><summary>What these checks cannot establish</summary>", "");
    for (const l of [...limits.filter((x) => x.scenario), ...limits.filter((x) => !x.scenario)])
      lines.push(`- ${l.scenario ? `**${cell(l.scenario)}**: ` : ""}${cell(l.text)}`);
    lines.push("", "</details>");
  }
  return `${lines.join("\n")}\n`;
}
