import { modelText } from "../sandbox/agents.js";
import type { AttemptResult } from "../run/run-attempts.js";
import {
  attemptsByConcern,
  conversationOf,
  findings,
  isolationText,
  pct,
  short,
  showValue,
  statusMark,
  transcriptOf,
  trimText,
  verdictOf,
  type StoredResults,
} from "./facts.js";
import { gateLine, notJudgedText } from "../results/gate.js";
import { count } from "../../core/plural.js";

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Text that may hold Markdown's inline code (the plan's sentences, a Skill's description) as HTML: escaped, each
 * `code` span a <code> element and **bold** a <strong>, so no backtick or asterisk shows literally.
 */
export const inlineMarkdown = (s: string) =>
  esc(s)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");

// The page must work from file:// with no network: inline style, one inline script, and a CSP that forbids loading
// anything else — the results carry API output, which is untrusted text.
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

export const STYLE = `
:root{--fail:#b3261e;--inc:#8a5a00;--pass:#1e6b34;--err:#6b1e6b;--line:#d8d8d8;--muted:#5c5c5c}
*{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:72rem;padding:1.5rem;color:#1a1a1a}
h1{font-size:1.5rem;margin:.2rem 0 .6rem}h2{font-size:1.2rem;margin:2rem 0 .6rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
h3{font-size:1rem;margin:1rem 0 .4rem}
.badge{display:inline-block;padding:.05rem .55rem;border-radius:.3rem;color:#fff;font-weight:600;font-size:.85em}
.pass{background:var(--pass)}.fail{background:var(--fail)}.incomplete{background:var(--inc)}.error{background:var(--err)}
.t-pass{color:var(--pass)}.t-fail{color:var(--fail)}.t-incomplete{color:var(--inc)}.t-error{color:var(--err)}
dl.binding{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.6rem 0}dl.binding dt{color:var(--muted)}dl.binding dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:.4rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;background:#f4f4f4}td.num,th.num{text-align:right}td.num{font-variant-numeric:tabular-nums}th.group{text-align:center}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}pre{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:24rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}
details{border:1px solid var(--line);border-radius:.4rem;margin:.5rem 0;padding:.3rem .7rem}summary{cursor:pointer;font-weight:600}
.finding{border-left:4px solid var(--line);padding:.3rem .7rem;margin:.5rem 0}.finding.fail{border-color:var(--fail);background:#fdf3f2}.finding.incomplete{border-color:var(--inc);background:#fdf8ee}.finding.error{border-color:var(--err);background:#f8f0f8}
.finding{color:inherit}.muted{color:var(--muted)}.gate{font-weight:600}.not-judged{border-left:4px solid var(--err);background:#f8f0f8;padding:.3rem .7rem;font-weight:600}
@media print{body{max-width:none;padding:0;font-size:11pt}details{break-inside:avoid}pre{max-height:none}a{color:inherit}}
`;

function binding(results: StoredResults): string {
  const rows: Array<[string, string]> = [
    ["Candidate", `<code>${esc(short(results.candidate.sha256))}</code> ${esc(results.candidate.file)}`],
    [
      "Receipt",
      !results.receipt
        ? "none (the candidate was not inspected)"
        : "status" in results.receipt
          ? `unbound: ${esc(results.receipt.reason)}`
          : `${esc(results.receipt.level)} <code>${esc(short(results.receipt.sha256 || "0".repeat(64)))}</code>`,
    ],
    ["Plan", `${esc(results.plan.file)} <code>${esc(short(results.plan.sha256))}</code>`],
    ["Agent", esc(results.agent.name)],
    ["Model", esc(modelText(results.agent.model) ?? "not reported")],
    ["Isolation", isolationText(results)],
    ["Versions", `inter ${esc(results.versions.inter)}, Node.js ${esc(results.versions.node)}`],
    [
      "Settings",
      `${count(results.settings.repetitions, "repetition")}, ${results.settings.concurrency} at once, ${results.settings.timeout_seconds} s per attempt`,
    ],
  ];
  if (results.started_at) rows.push(["Ran", `${esc(results.started_at)} → ${esc(results.finished_at ?? "?")}`]);
  return `<dl class="binding">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl>`;
}

/** A scenario's Gate cell: met, or missed and why (a scenario-wide miss, such as unsealed attempts, counts too). */
function gateCell(results: StoredResults, id: string): string {
  if (!results.gate) return `<span class="muted">no gate applied</span>`;
  const missed = results.gate.missed.filter((m) => m.scenario === id || m.scenario === "*");
  if (!missed.length) return `<span class="t-pass">met</span>`;
  return `<span class="t-${missed.some((m) => m.reason.startsWith("not judged")) ? "error" : "fail"}">missed</span>: ${missed.map((m) => esc(m.reason)).join("; ")}`;
}

function scenarioTable(results: StoredResults): string {
  const rows = results.scenarios.map((s) => {
    const missed = results.gate?.missed.find((m) => m.scenario === s.id);
    const state = missed?.reason.startsWith("not judged")
      ? "error"
      : results.gate
        ? missed
          ? "fail"
          : "pass"
        : s.passed === s.attempts
          ? "pass"
          : "fail";
    return `<tr><td><span class="t-${state}">${statusMark[state]}</span> ${esc(s.id)}</td><td class="num">${s.passed}/${s.attempts}</td><td class="num">${pct(s.pass_rate)}</td><td class="num">${s.pass_at_k.toFixed(2)}</td><td class="num">${s.pass_hat_k.toFixed(2)}</td><td class="gate-cell">${gateCell(results, s.id)}</td></tr>`;
  });
  const k = results.settings.repetitions;
  // A numeric column's header is aligned as its numbers are, so each value sits under its own header.
  return `<table><thead><tr><th>Scenario</th><th class="num">Passed</th><th class="num">Pass rate</th><th class="num">pass@${k}</th><th class="num">pass^${k}</th><th>Gate</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function findingsSection(results: StoredResults): string {
  const list = findings(results);
  if (!list.length) return `<p>Every check of every attempt passed.</p>`;
  return list
    .map((f) => {
      const where = `${esc(f.scenario)} #${f.repetition}`;
      switch (f.kind) {
        case "harness-error":
          return `<div class="finding error"><span class="badge error">harness error</span> <strong>${where}</strong><br>${esc(f.message)}</div>`;
        case "check":
          break;
      }
      const c = f.check;
      return `<div class="finding ${c.status}"><span class="badge ${c.status}">${c.status}</span> <strong>${where}</strong> · <code>${esc(c.id)}</code> (${esc(c.type)}) — ${inlineMarkdown(c.description)}<br>observed <code>${esc(showValue(c.observed))}</code>, expected <code>${esc(showValue(c.expected))}</code><br><span class="muted">${inlineMarkdown(c.reason)}</span></div>`;
    })
    .join("");
}

function attemptSection(a: AttemptResult): string {
  const checks = [...a.checks].sort((x, y) => (x.status === "pass" ? 1 : 0) - (y.status === "pass" ? 1 : 0));
  const checkRows = checks.map(
    (c) =>
      `<tr><td class="t-${c.status}">${statusMark[c.status]} ${c.status}</td><td><code>${esc(c.id)}</code></td><td>${inlineMarkdown(c.description)}</td><td><code>${esc(showValue(c.observed, 200))}</code></td><td><code>${esc(showValue(c.expected, 200))}</code></td></tr>`,
  );
  const calls = a.invocations.map(
    (inv, i) =>
      `<h3 class="call">${i + 1}. <code>${esc(inv.argv.join(" "))}</code> <span class="muted">exit ${inv.exit_code ?? "none"} · ${inv.duration_ms} ms</span></h3>${inv.stdout ? `<pre aria-label="stdout">${esc(trimText(inv.stdout, 2000))}</pre>` : ""}${inv.stderr ? `<pre aria-label="stderr" class="t-fail">${esc(trimText(inv.stderr, 1200))}</pre>` : ""}`,
  );
  const transcript = transcriptOf(a);
  const conversation = conversationOf(a);
  const said = a.agent.summary;
  const account = said
    ? `<p>${said.turns === null || said.turns === undefined ? "? turns" : count(said.turns, "turn")} · ${count(said.tool_calls, "tool call")}, ${a.invocations.length} of the CLI${said.tokens ? ` · ${said.tokens.input} tokens in, ${said.tokens.output} out` : ""}${said.cost_usd !== null ? ` · $${said.cost_usd.toFixed(4)}` : ""}${said.final ? `<br>Its answer (never evidence): <q>${esc(trimText(said.final, 600))}</q>` : ""}</p>`
    : "";
  const steps = conversation
    ? conversation.messages
        .map(
          (m) =>
            `<div class="msg ${m.role}"><span class="muted">${m.role}</span><pre>${esc(trimText(m.text, 1500))}</pre></div>`,
        )
        .join("") +
      conversation.tool_calls
        .map(
          (c, i) =>
            `<div class="msg tool"><span class="muted">tool call ${i + 1}: ${esc(c.name)}${c.exit_code !== undefined ? ` → exit ${c.exit_code ?? "none"}` : ""}</span><pre>${esc(trimText(JSON.stringify(c.input), 800))}</pre></div>`,
        )
        .join("")
    : "";
  const agent = `agent exit ${a.agent.exit_code ?? "none"}${a.agent.timed_out ? ", timed out (its process group was killed)" : ""} · ${(a.duration_ms / 1000).toFixed(1)} s`;
  return `<details${a.status === "pass" ? "" : " open"} id="attempt-${esc(a.scenario)}-${a.repetition}"><summary><span class="t-${a.status}">${statusMark[a.status]}</span> ${esc(a.scenario)} #${a.repetition} — ${a.status} <span class="muted">(${agent}, ${a.invocations.length} call${a.invocations.length === 1 ? "" : "s"})</span></summary>
${a.harness_error ? `<p class="t-error">Harness error: ${esc(a.harness_error)}</p>` : ""}
${checkRows.length ? `<table><thead><tr><th>Status</th><th>Check</th><th>Proves</th><th>Observed</th><th>Expected</th></tr></thead><tbody>${checkRows.join("")}</tbody></table>` : ""}
${a.side_effects?.length ? `<h3>Unobserved side effects</h3><p>Changes no observation of this scenario matches:</p><ul>${a.side_effects.map((s) => `<li><code>${esc(s.argv.join(" "))}</code> <span class="muted">exit ${s.exit_code ?? "none"}</span></li>`).join("")}</ul>` : ""}
<h3>Recorded invocations</h3>${calls.length ? calls.join("") : `<p class="muted">The agent did not call the CLI.</p>`}
${account || steps ? `<h3>The agent's account</h3>${account}${steps ? `<details><summary>The conversation</summary>${steps}</details>` : ""}` : ""}
<h3>Agent transcript</h3>${transcript !== null ? `<pre>${esc(transcript)}</pre>` : `<p class="muted">${a.agent.transcript ? `Kept at ${esc(a.agent.transcript)}, which is not on this machine.` : "This agent keeps no transcript."}</p>`}
</details>`;
}

function provesSection(results: StoredResults): string {
  const proves = results.proves ?? [];
  if (!proves.length) return `<p class="muted">These results predate recorded proofs; see the plan's checks.</p>`;
  const scenarios = [...new Set(proves.map((p) => p.scenario ?? "plan"))];
  return scenarios
    .map(
      (s) =>
        `<h3>${esc(s)}</h3><ul>${proves
          .filter((p) => (p.scenario ?? "plan") === s)
          .map((p) => `<li>${inlineMarkdown(p.text)}</li>`)
          .join("")}</ul>`,
    )
    .join("");
}

function limitsSection(results: StoredResults): string {
  const limits = results.limits ?? [];
  const plan = limits.filter((l) => l.scenario === null).map((l) => `<li>${inlineMarkdown(l.text)}</li>`);
  const byScenario = limits
    .filter((l) => l.scenario !== null)
    .map((l) => `<li><strong>${esc(l.scenario!)}</strong>: ${inlineMarkdown(l.text)}</li>`);
  const assumptions = results.assumptions.map((a) => `<li>${inlineMarkdown(a)}</li>`);
  return `${plan.length || byScenario.length ? `<ul>${[...byScenario, ...plan].join("")}</ul>` : `<p class="muted">These results predate recorded limits; see the plan's checks.</p>`}${assumptions.length ? `<h3>The plan's assumptions</h3><ul>${assumptions.join("")}</ul>` : ""}`;
}

/** A self-contained report: one file, no network, readable on a laptop and printable (details open for print). */
export function renderHtml(results: StoredResults): string {
  const verdict = verdictOf(results);
  const { summary } = results;
  const badge = verdict === "pass" ? "PASS" : verdict === "fail" ? "FAIL" : "NOT JUDGED";
  const heading =
    verdict === "not-judged"
      ? `Evaluation not judged: every attempt was a harness error`
      : `Evaluation: ${summary.passed} of ${count(summary.attempts, "attempt")} passed`;
  const title = `${badge} — ${summary.passed}/${count(summary.attempts, "attempt")} passed`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>Evaluation ${esc(title)}</title><style>${STYLE}</style></head>
<body>
<header><h1><span class="badge ${verdict === "not-judged" ? "error" : verdict}">${badge}</span> ${heading}</h1>
${verdict === "not-judged" ? `<p class="not-judged">⚠ Not judged: ${esc(notJudgedText(results))}. Each attempt's harness error is below; fix it and run again.</p>\n` : ""}<p>${summary.failed} failed (the candidate fell short), ${summary.incomplete} incomplete (could not be judged), ${count(summary.harness_errors, "harness error")} (the harness or the agent broke, not the candidate). Isolation: ${isolationText(results)}.</p>
${results.gate ? `<p class="gate">${esc(gateLine(results.gate, true))}</p>` : ""}
${binding(results)}</header>
<main>
<section id="scenarios"><h2>Scenarios</h2>${scenarioTable(results)}</section>
<section id="needs-attention"><h2>Failed and incomplete checks</h2>${findingsSection(results)}</section>
<section id="attempts"><h2>Attempts</h2>${attemptsByConcern(results).map(attemptSection).join("\n")}</section>
<section id="proves"><h2>What a pass proves</h2>${provesSection(results)}</section>
<section id="limits"><h2>What these checks cannot establish</h2>${limitsSection(results)}</section>
</main>
<footer class="muted"><p>Written by inter from results.json; regenerate with <code>inter eval report results.json</code>.</p></footer>
<script>addEventListener("beforeprint",()=>{for(const d of document.querySelectorAll("details"))d.open=true})</script>
</body></html>
`;
}
