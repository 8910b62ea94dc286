import type { Comparison, ScenarioComparison, Side } from "../compare/compare.js";
import { pct, short } from "./facts.js";
import { count } from "../../core/plural.js";
import { CSP, esc, STYLE } from "./html.js";
import { cell, code } from "./markdown.js";
import { compareText } from "../../core/text-order.js";

const signed = (d: number) => `${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.round(Math.abs(d) * 100)} pts`;
const p = (v: number) => (v < 0.001 ? "< 0.001" : v.toFixed(3));
const betterText = (s: ScenarioComparison) =>
  s.better === "same"
    ? "same"
    : s.a.pass_rate === s.b.pass_rate
      ? `${s.better.toUpperCase()} (fewer calls)`
      : s.better.toUpperCase();
/** Scenarios that differ most first; then by id, so the order is stable. */
const byDifference = (c: Comparison) =>
  [...c.scenarios].sort((x, y) => Math.abs(y.difference) - Math.abs(x.difference) || compareText(x.id, y.id));
const sideCells = (s: Side) => [
  `${s.passed}/${s.attempts}`,
  pct(s.pass_rate),
  s.pass_at_k.toFixed(2),
  s.pass_hat_k.toFixed(2),
  `${(s.mean_duration_ms / 1000).toFixed(1)} s`,
  String(s.mean_invocations),
  s.mean_tokens === null ? "—" : String(s.mean_tokens),
];

function headline(c: Comparison): string {
  const d = c.overall.difference;
  const what = c.b.skills_removed ? "Without its Skills" : "Candidate B";
  return d === 0
    ? `${what}, agents passed as often as with A`
    : `${what}, agents passed ${Math.round(Math.abs(d) * 100)} pts ${d > 0 ? "more" : "less"} often than with A`;
}

function scenarioRow(s: ScenarioComparison): string {
  const state = s.difference > 0 ? "pass" : s.difference < 0 ? "fail" : "";
  return `<tr><td>${esc(s.id)}</td>${sideCells(s.a)
    .map((v) => `<td class="num">${esc(v)}</td>`)
    .join("")}${sideCells(s.b)
    .map((v) => `<td class="num">${esc(v)}</td>`)
    .join(
      "",
    )}<td class="num t-${state}">${signed(s.difference)}</td><td class="num">${p(s.p_value)}</td><td>${esc(betterText(s))}</td></tr>`;
}

/** The comparison report: self-contained like report.html, differences first, each side's full report linked. */
export function renderComparisonHtml(c: Comparison): string {
  const heads = [
    "passed",
    "rate",
    `pass@${c.settings.repetitions}`,
    `pass^${c.settings.repetitions}`,
    "time",
    "calls",
    "tokens",
  ];
  const table = `<table><thead><tr><th rowspan="2">Scenario</th><th colspan="7" class="group">A</th><th colspan="7" class="group">B${c.b.skills_removed ? " (no Skills)" : ""}</th><th rowspan="2" class="num">B − A</th><th rowspan="2" class="num">p (Fisher)</th><th rowspan="2">Better with</th></tr><tr>${[...heads, ...heads].map((h) => `<th class="num">${h}</th>`).join("")}</tr></thead><tbody>${byDifference(c).map(scenarioRow).join("")}<tr><td><strong>overall</strong></td>${sideCells(
    c.overall.a,
  )
    .map((v) => `<td class="num"><strong>${esc(v)}</strong></td>`)
    .join("")}${sideCells(c.overall.b)
    .map((v) => `<td class="num"><strong>${esc(v)}</strong></td>`)
    .join(
      "",
    )}<td class="num"><strong>${signed(c.overall.difference)}</strong></td><td class="num">${p(c.overall.p_value)}</td><td></td></tr></tbody></table>`;
  const checks = byDifference(c)
    .flatMap((s) =>
      s.checks
        .filter((k) => k.discriminating)
        .map(
          (k) =>
            `<tr><td>${esc(s.id)}</td><td><code>${esc(k.id)}</code></td><td class="num">${pct(k.a_rate)}</td><td class="num">${pct(k.b_rate)}</td></tr>`,
        ),
    )
    .join("");
  const judging = c.judging
    ? `<section id="judging"><h2>Blind judging</h2><p>Judge <code>${esc(c.judging.judge)}</code>, seed ${c.judging.seed}: each scenario's two attempts were shown as A and B in a random order; the table is unmapped.</p><table><thead><tr><th>Scenario</th><th>Blind labels</th><th>Winner</th><th class="num">A content / structure</th><th class="num">B content / structure</th><th>The judge's reasons (in its labels)</th></tr></thead><tbody>${c.judging.scenarios
        .map(
          (j) =>
            `<tr><td>${esc(j.id)}</td><td>A was ${j.labels.A.toUpperCase()}, B was ${j.labels.B.toUpperCase()}</td><td>${j.winner === null ? `<span class="t-error">no verdict: ${esc(j.error ?? "")}</span>` : j.winner === "tie" ? "tie" : j.winner.toUpperCase()}</td><td class="num">${j.scores ? `${j.scores.a.content} / ${j.scores.a.structure}` : "—"}</td><td class="num">${j.scores ? `${j.scores.b.content} / ${j.scores.b.structure}` : "—"}</td><td>${esc(j.reasons)}</td></tr>`,
        )
        .join("")}</tbody></table></section>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>Comparison: ${esc(headline(c))}</title><style>${STYLE}</style></head>
<body>
<header><h1>Comparison: ${esc(headline(c))}</h1>
<dl class="binding"><dt>A</dt><dd><code>${esc(short(c.a.candidate))}</code> ${esc(c.a.file)} — <a href="a/report.html">its report</a></dd>
<dt>B</dt><dd><code>${esc(short(c.b.candidate))}</code> ${esc(c.b.file)}${c.b.skills_removed ? " (A with its Skills removed)" : ""} — <a href="b/report.html">its report</a></dd>
<dt>Plan</dt><dd>${esc(c.plan.file)} <code>${esc(short(c.plan.sha256))}</code></dd><dt>Agent</dt><dd>${esc(c.agent)}</dd>
<dt>Settings</dt><dd>${count(c.settings.repetitions, "repetition")} per scenario and candidate, run in turn (A, then B)</dd></dl></header>
<main>
<section id="scenarios"><h2>Scenarios, differences first</h2>${table}
<p class="muted">p is Fisher's exact test on passes out of attempts: with few repetitions only a large difference reaches a small p.</p></section>
<section id="discriminating"><h2>Checks that differ</h2>${checks ? `<table><thead><tr><th>Scenario</th><th>Check</th><th class="num">A passed</th><th class="num">B passed</th></tr></thead><tbody>${checks}</tbody></table>` : "<p>None: every check passed or failed alike in both.</p>"}</section>
<section id="non-discriminating"><h2>Checks that cannot tell the candidates apart</h2>${c.non_discriminating.length ? `<p>They passed in every attempt of both, or failed in every attempt of both; they say nothing about which candidate is better.</p><ul>${c.non_discriminating.map((id) => `<li><code>${esc(id)}</code></li>`).join("")}</ul>` : "<p>None.</p>"}</section>
${judging}
</main></body></html>
`;
}

export function renderComparisonMarkdown(c: Comparison): string {
  const k = c.settings.repetitions;
  const lines = [
    `## Comparison: ${headline(c)}`,
    "",
    `A ${code(short(c.a.candidate))} · B ${code(short(c.b.candidate))}${c.b.skills_removed ? " (A without its Skills)" : ""} · plan ${code(c.plan.file)} · agent ${code(c.agent)} · ${count(k, "repetition")} each`,
    "",
    `| Scenario | Better with | A passed | B passed | B − A | p | A pass^${k} | B pass^${k} | A time | B time | A calls | B calls | A tokens | B tokens |`,
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...[...byDifference(c), { id: "**overall**", ...c.overall, better: "same", checks: [] } as ScenarioComparison].map(
      (s) =>
        `| ${cell(s.id)} | ${s.id === "**overall**" ? "" : betterText(s)} | ${s.a.passed}/${s.a.attempts} | ${s.b.passed}/${s.b.attempts} | ${signed(s.difference)} | ${p(s.p_value)} | ${s.a.pass_hat_k.toFixed(2)} | ${s.b.pass_hat_k.toFixed(2)} | ${(s.a.mean_duration_ms / 1000).toFixed(1)} s | ${(s.b.mean_duration_ms / 1000).toFixed(1)} s | ${s.a.mean_invocations} | ${s.b.mean_invocations} | ${s.a.mean_tokens ?? "—"} | ${s.b.mean_tokens ?? "—"} |`,
    ),
  ];
  if (c.non_discriminating.length)
    lines.push(
      "",
      `Checks that cannot tell them apart (same everywhere in both): ${c.non_discriminating.map((id) => code(id)).join(", ")}`,
    );
  if (c.judging) {
    lines.push(
      "",
      `### Blind judging (${code(c.judging.judge)}, seed ${c.judging.seed})`,
      "",
      "| Scenario | Winner | Reasons |",
      "|---|---|---|",
    );
    for (const j of c.judging.scenarios)
      lines.push(
        `| ${cell(j.id)} | ${j.winner === null ? "no verdict" : j.winner === "tie" ? "tie" : j.winner.toUpperCase()} | ${cell(j.reasons || j.error || "")} |`,
      );
  }
  return `${lines.join("\n")}\n`;
}
