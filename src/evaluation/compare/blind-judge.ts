import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { Plan, Scenario } from "../../stages/plan/types.js";
import { join } from "node:path";
import type { Agent } from "../sandbox/agent-run.js";
import { prepareRun } from "../sandbox/prepare-run.js";
import type { AttemptResult } from "../run/run-attempts.js";
import type { JudgedScenario } from "./compare.js";

/** A small seeded generator (mulberry32): the same seed gives the same blind labels, so a judging can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const trim = (s: string, max: number) =>
  s.length > max ? `${s.slice(0, max)}… (${s.length - max} more characters)` : s;

/** What the judge sees of one attempt: its calls and the files it wrote. Nothing says which candidate made it. */
function evidence(attempt: AttemptResult): string {
  const calls = attempt.invocations.map(
    (inv, i) =>
      `${i + 1}. \`${inv.argv.join(" ")}\` → exit ${inv.exit_code ?? "none"}\n${inv.stdout ? `   stdout: ${trim(inv.stdout.trim(), 1500)}\n` : ""}${inv.stderr ? `   stderr: ${trim(inv.stderr.trim(), 600)}\n` : ""}`,
  );
  const outputs = join(attempt.workspace, "outputs");
  const files = existsSync(outputs) ? readdirSync(outputs).filter((f) => statSync(join(outputs, f)).isFile()) : [];
  const written = files.map((f) => `- ${f}:\n\`\`\`\n${trim(readFileSync(join(outputs, f), "utf8"), 2000)}\n\`\`\``);
  return [
    `Calls of the CLI (${calls.length}):`,
    ...(calls.length ? calls : ["(none)"]),
    "",
    `Files written (${files.length}):`,
    ...(written.length ? written : ["(none)"]),
  ].join("\n");
}

function judgePrompt(scenario: Scenario, first: AttemptResult, second: AttemptResult): string {
  return [
    "You are judging two attempts at the same task, made by an agent using a command-line tool. They are labelled A and B; the labels say nothing about where they came from.",
    "",
    `Task given to the agent:\n${scenario.user_task}`,
    "",
    `What a correct result looks like:\n${scenario.expected_outcome}`,
    "",
    "## Attempt A",
    evidence(first),
    "",
    "## Attempt B",
    evidence(second),
    "",
    "Score each attempt 1–5 for content (did it achieve the outcome, correctly) and structure (clear, minimal, well-formed calls and files). Then name the better attempt, or a tie.",
    'Answer with one JSON object on its own line, last: {"A": {"content": 1-5, "structure": 1-5}, "B": {"content": 1-5, "structure": 1-5}, "winner": "A" | "B" | "tie", "reasons": "…"}',
  ].join("\n");
}

function parseVerdict(text: string):
  | {
      A: { content: number; structure: number };
      B: { content: number; structure: number };
      winner: "A" | "B" | "tie";
      reasons: string;
    }
  | undefined {
  const score = (v: { content?: unknown; structure?: unknown } | undefined) =>
    !!v && [v.content, v.structure].every((n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 5);
  for (const line of text.split("\n").reverse()) {
    try {
      const v = JSON.parse(line.trim());
      if (v && score(v.A) && score(v.B) && ["A", "B", "tie"].includes(v.winner))
        return { A: v.A, B: v.B, winner: v.winner, reasons: String(v.reasons ?? "") };
    } catch {
      // not the verdict line
    }
  }
  return undefined;
}

/**
 * Blind judging: per scenario, the first attempt of each candidate goes to the judge labelled A and B in an order
 * drawn from the seed. The judge's workspace holds only its prompt; which candidate is behind which label is kept in
 * memory here and only unmapped once the verdict is in.
 */
export async function judgeBlind(options: {
  plan: Plan;
  a: AttemptResult[];
  b: AttemptResult[];
  judge: Agent;
  seed: number;
  dir: string;
  timeoutMs: number;
  signal: AbortSignal;
  redact(text: string): string;
  blockedEnv: string[];
  secrets: string[];
}): Promise<JudgedScenario[]> {
  const draw = random(options.seed);
  const out: JudgedScenario[] = [];
  for (const scenario of options.plan.scenarios) {
    const a = options.a.find((x) => x.scenario === scenario.id);
    const b = options.b.find((x) => x.scenario === scenario.id);
    if (!a || !b) continue;
    const aFirst = draw() < 0.5;
    const labels = aFirst ? ({ A: "a", B: "b" } as const) : ({ A: "b", B: "a" } as const);
    // The judge needs nothing of a run but its prompt: unsealed, in the runner's own HOME, without the credentials.
    const prepared = prepareRun({
      workspace: join(options.dir, scenario.id),
      isolation: { kind: "none", reason: "a judge reads only its prompt" },
      home: "runner",
    });
    // The agent's files may hold the credential (an agent that echoed it): the judge never sees it, nor does its prompt file.
    const prompt = options.redact(judgePrompt(scenario, aFirst ? a : b, aFirst ? b : a));
    const outcome = await options.judge.run(
      prepared.agentRun({
        scenarioId: scenario.id,
        label: scenario.id,
        prompt,
        binOnPath: false,
        blocked: options.blockedEnv,
        secrets: options.secrets,
        hidden: [],
        timeoutMs: options.timeoutMs,
        signal: options.signal,
      }),
    );
    const { transcriptText } = prepared.scrub(outcome, options.redact);
    let failure: string | undefined;
    switch (outcome.kind) {
      case "harness-error":
        failure = outcome.message;
        break;
      case "finished":
        failure = `the judge gave no verdict line (exit ${outcome.exitCode ?? "none"}${outcome.timedOut ? ", timed out" : ""})`;
        break;
    }
    const verdict = outcome.kind === "finished" ? parseVerdict(transcriptText) : undefined;
    if (!verdict) {
      out.push({
        id: scenario.id,
        winner: null,
        scores: null,
        reasons: "",
        labels,
        error: failure,
      });
      continue;
    }
    const unmap = (label: "A" | "B") => labels[label];
    out.push({
      id: scenario.id,
      winner: verdict.winner === "tie" ? "tie" : unmap(verdict.winner),
      scores: { [unmap("A")]: verdict.A, [unmap("B")]: verdict.B } as {
        a: { content: number; structure: number };
        b: { content: number; structure: number };
      },
      reasons: verdict.reasons,
      labels,
    });
  }
  return out;
}
