import { modelText } from "../sandbox/agents.js";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { CSP, esc, STYLE } from "../report/html.js";
import { resultsRecord, type TriggerResults } from "./run.js";
import { harnessErrorRuns, type TriggerRun } from "./stats.js";

const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)} %`);
const expected = (s: string | null) => s ?? "(none)";

/** summary.md: the per-Skill table, the gate, and the queries that missed. */
function triggerMarkdown(r: TriggerResults): string {
  const lines = [
    `## Skill triggering: ${r.gate.met ? "gate met" : "gate missed"}${r.queries.draft ? " (draft query set)" : ""}`,
    "",
    `${r.agent.name}${modelText(r.agent.model) ? ` (model ${modelText(r.agent.model)})` : ""}, ${r.summary.queries} queries × ${r.settings.runs} runs; ${r.summary.judged} judged, ${r.summary.harness_errors} harness errors; ${r.isolation.kind === "bubblewrap" ? "sealed" : `unsealed (${r.isolation.reason})`}.`,
    "",
    "| Skill | Precision | Recall | Accuracy | False triggers | Misses |",
    "|---|---|---|---|---|---|",
    ...r.skills.map(
      (s) =>
        `| ${s.skill} | ${pct(s.precision)} | ${pct(s.recall)} | ${pct(s.accuracy)} | ${s.false_positives} | ${s.false_negatives} |`,
    ),
    "",
  ];
  if (r.gate.findings.length) lines.push("Gate findings:", "", ...r.gate.findings.map((f) => `- ${f}`), "");
  const off = r.results.filter((q) => q.trigger_rate !== null && q.trigger_rate < 1);
  if (off.length)
    lines.push(
      "Queries that did not always go where expected:",
      "",
      ...off.map(
        (q) =>
          `- ${pct(q.trigger_rate)} “${q.query.replace(/\s+/g, " ").slice(0, 120)}” expected ${expected(q.expected_skill)}, loaded ${
            Object.entries(q.loaded)
              .map(([s, n]) => `${s}×${n}`)
              .join(", ") || "none"
          }`,
      ),
      "",
    );
  const broken = r.results.flatMap((q) =>
    harnessErrorRuns(q.runs).map((x) => `- “${q.query.slice(0, 60)}” run ${x.run}: ${x.harness_error}`),
  );
  if (broken.length) lines.push("Harness errors (not misses):", "", ...broken.slice(0, 20), "");
  return `${lines.join("\n")}\n`;
}

/** report.html: self-contained (no network), with the confusion matrix of which Skill took which query. */
function triggerHtml(r: TriggerResults): string {
  const max = Math.max(1, ...r.confusion.counts.flat());
  const matrix = `<table class="matrix" id="confusion"><thead><tr><th>expected ↓ / loaded →</th>${r.confusion.labels.map((l) => `<th>${esc(l)}</th>`).join("")}</tr></thead><tbody>${r.confusion.counts
    .map(
      (row, i) =>
        `<tr><th>${esc(r.confusion.labels[i]!)}</th>${row.map((n, j) => `<td data-count="${n}" class="${i === j ? "diag" : n ? "off" : ""}" style="opacity:${n ? 0.45 + (0.55 * n) / max : 1}">${n}</td>`).join("")}</tr>`,
    )
    .join("")}</tbody></table>`;
  const skills = `<table id="skills"><thead><tr><th>Skill</th><th>Precision</th><th>Recall</th><th>Accuracy</th><th>False triggers</th><th>Misses</th></tr></thead><tbody>${r.skills.map((s) => `<tr><td>${esc(s.skill)}</td><td>${pct(s.precision)}</td><td>${pct(s.recall)}</td><td>${pct(s.accuracy)}</td><td>${s.false_positives}</td><td>${s.false_negatives}</td></tr>`).join("")}</tbody></table>`;
  const queries = `<table id="queries"><thead><tr><th>Query</th><th>Expected</th><th>Trigger rate</th><th>Loaded</th><th>Harness errors</th></tr></thead><tbody>${r.results
    .map(
      (q) =>
        `<tr class="${q.trigger_rate === 1 ? "ok" : q.trigger_rate === null ? "error" : "miss"}"><td>${esc(q.query)}</td><td>${esc(expected(q.expected_skill))}</td><td>${pct(q.trigger_rate)} (${q.judged} judged)</td><td>${esc(
          Object.entries(q.loaded)
            .map(([s, n]) => `${s}×${n}`)
            .join(", ") || "none",
        )}</td><td>${esc(
          harnessErrorRuns(q.runs)
            .map((x) => x.harness_error)
            .join("; "),
        )}</td></tr>`,
    )
    .join("")}</tbody></table>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Skill triggering — ${esc(r.agent.name)}</title><style>${STYLE}
table.matrix td{text-align:center;min-width:3em}table.matrix td.diag{background:#d7f0d7}table.matrix td.off{background:#f6d5d5}tr.miss td:first-child{border-left:3px solid #c33}</style></head>
<body><main><h1>Skill triggering: ${r.gate.met ? "gate met" : "gate missed"}</h1>
<p>${esc(r.agent.name)}${modelText(r.agent.model) ? ` · model ${esc(modelText(r.agent.model)!)}` : ""} · ${r.summary.queries} queries × ${r.settings.runs} runs · ${r.summary.judged} judged · ${r.summary.harness_errors} harness errors · ${r.executed} executed, ${r.cached} from the cache · ${r.isolation.kind === "bubblewrap" ? "sealed" : `unsealed: ${esc(r.isolation.reason)}`}${r.queries.draft ? " · <strong>draft query set</strong>" : ""}</p>
${r.gate.findings.length ? `<ul id="findings">${r.gate.findings.map((f) => `<li>${esc(f)}</li>`).join("")}</ul>` : ""}
<h2>Skills</h2>${skills}
<h2>Which Skill took which query</h2><p>Rows: the Skill each query expects; columns: what loaded, per judged run.</p>${matrix}
<h2>Queries</h2>${queries}
<p><small>Candidate <code>${esc(r.candidate.sha256.slice(0, 12))}</code> (${esc(r.candidate.source)}) · queries <code>${esc(r.queries.sha256.slice(0, 12))}</code> · inter ${esc(r.inter_version)}</small></p>
</main></body></html>
`;
}

/** One run as it finishes, for the terminal: what it loaded, or why it taught nothing. */
export function progressLine(query: number, run: TriggerRun, cached: boolean): string {
  const from = cached ? " (cached)" : "";
  switch (run.kind) {
    case "judged":
      return `· q${query + 1} #${run.run} loaded ${run.loaded.join(", ") || "none"}${from}`;
    case "harness-error":
      return `! q${query + 1} #${run.run} harness error: ${run.harness_error}${from}`;
  }
}

/** The first harness error's message, to say why nothing was judged. */
export const firstHarnessError = (r: TriggerResults): string | undefined =>
  harnessErrorRuns(r.results.flatMap((q) => q.runs))[0]?.harness_error;

/** results.json, summary.md and report.html in `dir`. */
export function writeTriggerReports(r: TriggerResults, dir: string): { results: string; reports: string[] } {
  const results = join(dir, "results.json");
  writeFileAtomic(results, `${JSON.stringify(resultsRecord(r), null, 2)}\n`);
  const md = join(dir, "summary.md");
  const html = join(dir, "report.html");
  const summary = triggerMarkdown(r);
  writeFileAtomic(md, summary);
  // In GitHub Actions the summary also goes to the job's page, as an evaluation's does (report/write.ts).
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${summary}\n`);
  writeFileAtomic(html, triggerHtml(r));
  return { results, reports: [md, html] };
}
