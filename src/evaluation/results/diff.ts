import { InterError } from "../../core/errors.js";
import { refuseAcrossModels, servedModelsDiffer } from "./served-models.js";
import { pct, short, type StoredResults } from "../report/facts.js";
import { cell, code } from "../report/markdown.js";
import { count as counted } from "../../core/plural.js";

export type Change = "regressed" | "improved" | "unchanged" | "added" | "removed";

interface Rate {
  passed: number;
  attempts: number;
  rate: number;
}

export interface CheckDiff {
  id: string;
  change: Change;
  base: Rate | null;
  head: Rate | null;
}

export interface ScenarioDiff {
  id: string;
  change: Change;
  base: Rate | null;
  head: Rate | null;
  checks: CheckDiff[];
}

export interface ResultsDiff {
  base: { candidate: string; plan: string; agent: string };
  head: { candidate: string; plan: string; agent: string };
  plan_changed: boolean;
  /** The models that answered each side, where they differ (compared only with --across-models). */
  models_differ?: { base: string[]; head: string[] };
  scenarios: ScenarioDiff[];
  /** Scenarios and checks that got worse; any makes `inter eval diff` exit 1. */
  regressions: number;
  improvements: number;
}

const change = (base: Rate | null, head: Rate | null): Change => {
  if (!base) return "added";
  if (!head) return "removed";
  // Rates over different repetition counts compare as rates; 1e-9 absorbs float noise of equal fractions.
  return head.rate < base.rate - 1e-9 ? "regressed" : head.rate > base.rate + 1e-9 ? "improved" : "unchanged";
};

function scenarioRates(results: StoredResults): Map<string, { rate: Rate; checks: Map<string, Rate> }> {
  const out = new Map<string, { rate: Rate; checks: Map<string, Rate> }>();
  for (const s of results.scenarios) {
    const attempts = results.attempts.filter((a) => a.scenario === s.id);
    const checks = new Map<string, Rate>();
    for (const a of attempts)
      for (const c of a.checks) {
        const r = checks.get(c.id) ?? { passed: 0, attempts: 0, rate: 0 };
        r.attempts += 1;
        if (c.status === "pass") r.passed += 1;
        r.rate = r.passed / attempts.length;
        checks.set(c.id, r);
      }
    // An attempt the harness could not run has no checks; it still counts in each check's denominator.
    for (const r of checks.values()) r.attempts = attempts.length;
    out.set(s.id, { rate: { passed: s.passed, attempts: s.attempts, rate: s.pass_rate }, checks });
  }
  return out;
}

/** Scenario by scenario and check by check: what got worse, better or stayed between two evaluations. */
export function diffResults(
  base: StoredResults,
  head: StoredResults,
  planChanged: boolean,
  acrossModels = false,
): ResultsDiff {
  const models = servedModelsDiffer(base, head);
  refuseAcrossModels(models, ["base", "head"], acrossModels);
  const samePlan = base.plan.sha256 === head.plan.sha256;
  if (!samePlan && !planChanged) {
    throw new InterError(
      "RESULTS_MISMATCH",
      `The two results were made with different plans (${short(base.plan.sha256)} in base, ${short(head.plan.sha256)} in head), so their checks may not mean the same.`,
      "Pass --plan-changed to compare them anyway, matching scenarios and checks by id.",
      {
        base: base.plan,
        head: head.plan,
      },
    );
  }
  const b = scenarioRates(base);
  const h = scenarioRates(head);
  const ids = [...h.keys(), ...[...b.keys()].filter((id) => !h.has(id))];
  const scenarios = ids.map((id): ScenarioDiff => {
    const bs = b.get(id);
    const hs = h.get(id);
    const checkIds = [
      ...(hs?.checks.keys() ?? []),
      ...[...(bs?.checks.keys() ?? [])].filter((c) => !hs?.checks.has(c)),
    ];
    const checks = checkIds.map((c): CheckDiff => {
      const bc = bs?.checks.get(c) ?? null;
      const hc = hs?.checks.get(c) ?? null;
      return { id: c, change: bs && hs ? change(bc, hc) : hs ? "added" : "removed", base: bc, head: hc };
    });
    return {
      id,
      change: change(bs?.rate ?? null, hs?.rate ?? null),
      base: bs?.rate ?? null,
      head: hs?.rate ?? null,
      checks,
    };
  });
  const count = (what: Change) =>
    scenarios.filter((s) => s.change === what).length +
    scenarios.flatMap((s) => s.checks).filter((c) => c.change === what).length;
  return {
    base: { candidate: base.candidate.sha256, plan: base.plan.sha256, agent: base.agent.name },
    head: { candidate: head.candidate.sha256, plan: head.plan.sha256, agent: head.agent.name },
    plan_changed: !samePlan,
    ...(models ? { models_differ: { base: models.a, head: models.b } } : {}),
    scenarios,
    regressions: count("regressed"),
    improvements: count("improved"),
  };
}

const rate = (r: Rate | null) => (r ? `${r.passed}/${r.attempts} (${pct(r.rate)})` : "—");
const ORDER: Record<Change, number> = { regressed: 0, improved: 1, added: 2, removed: 3, unchanged: 4 };
const MARK: Record<Change, string> = { regressed: "▼", improved: "▲", added: "+", removed: "−", unchanged: "=" };

/** Scenarios with a regression anywhere first. */
function ordered(diff: ResultsDiff): ScenarioDiff[] {
  const worst = (s: ScenarioDiff) => Math.min(ORDER[s.change], ...s.checks.map((c) => ORDER[c.change]));
  return [...diff.scenarios].sort((x, y) => worst(x) - worst(y));
}

function headline(diff: ResultsDiff): string {
  return `${diff.regressions} regression${diff.regressions === 1 ? "" : "s"}, ${diff.improvements} improvement${diff.improvements === 1 ? "" : "s"} (base ${short(diff.base.candidate)} → head ${short(diff.head.candidate)}${diff.plan_changed ? "; the plan changed between them" : ""}${diff.models_differ ? `; ⚠ answered by different models: ${diff.models_differ.base.join(", ")} → ${diff.models_differ.head.join(", ")}` : ""})`;
}

export function diffText(diff: ResultsDiff): string {
  const lines = [headline(diff)];
  for (const s of ordered(diff)) {
    lines.push(
      `${MARK[s.change]} ${s.id.padEnd(28)} ${rate(s.base).padStart(12)} → ${rate(s.head).padEnd(12)} ${s.change}`,
    );
    for (const c of s.checks.filter((c) => c.change !== "unchanged"))
      lines.push(
        `    ${MARK[c.change]} ${c.id.padEnd(24)} ${rate(c.base).padStart(12)} → ${rate(c.head).padEnd(12)} ${c.change}`,
      );
  }
  return lines.join("\n");
}

/** For a pull-request comment: changes first, unchanged checks folded away. */
export function diffMarkdown(diff: ResultsDiff): string {
  const lines = [
    `## ${diff.regressions ? "❌" : "✅"} Evaluation diff: ${headline(diff)}`,
    "",
    "| | Scenario / check | Base | Head | Change |",
    "|---|---|---:|---:|---|",
  ];
  for (const s of ordered(diff)) {
    lines.push(`| ${MARK[s.change]} | **${cell(s.id)}** | ${rate(s.base)} | ${rate(s.head)} | ${s.change} |`);
    for (const c of s.checks.filter((c) => c.change !== "unchanged"))
      lines.push(`| ${MARK[c.change]} | ↳ ${code(c.id)} | ${rate(c.base)} | ${rate(c.head)} | ${c.change} |`);
  }
  const same = diff.scenarios.flatMap((s) =>
    s.checks.filter((c) => c.change === "unchanged").map((c) => `${s.id}/${c.id}`),
  );
  if (same.length)
    lines.push(
      "",
      `<details><summary>${counted(same.length, "check")} unchanged</summary>`,
      "",
      same.map((s) => code(s)).join(", "),
      "",
      "</details>",
    );
  return `${lines.join("\n")}\n`;
}
