import { Command, Option } from "clipanion";
import * as t from "typanion";
import { oneOf } from "../../../core/plural.js";
import { PRESET_NAMES as AGENT_PRESETS } from "../../../evaluation/sandbox/presets.js";
import { join, relative, resolve } from "node:path";
import { InterError } from "../../../core/errors.js";
import { INTER_BUILD } from "../../../core/version.js";
import { count } from "../../../core/plural.js";
import { BaseCommand, type CommandResult } from "../../base.js";
import { argvOption, interruptible, PASS_RATE } from "./shared.js";
import { findCandidate, requireCandidate } from "../../candidate-lookup.js";

/** The candidate's Skills: --skills DIR, else the cli.tgz given or in the folder. */
async function candidateSkills(
  folder: string,
  cwd: string,
  skillsDir: string | undefined,
  candidate: string | undefined,
) {
  const { skillsFromFolder, skillsFromTarball } = await import("../../../evaluation/triggers/skills.js");
  if (skillsDir) return { skills: skillsFromFolder(resolve(cwd, skillsDir)), source: skillsDir, tgz: undefined };
  const tgz = await requireCandidate(folder, candidate, cwd, { alternative: ", or --skills <folder of Skills>" });
  const source = candidate ?? relative(cwd, tgz);
  return { skills: await skillsFromTarball(tgz, source), source, tgz };
}

export class EvalTriggersCommand extends BaseCommand {
  static paths = [["eval", "triggers"]];
  static usage = Command.Usage({
    description:
      "Measure whether an agent loads the right Skill: run the trigger queries against the candidate's Skills",
    details:
      "FOLDER holds cli.tgz (or give --skills DIR) and the query sets: trigger-queries/*.json (what `inter eval new` drafts) or trigger-queries.json (docs/triggers.md). Each query runs --runs times (default 3), each run in a fresh project where only the candidate's Skills are installed where the agent looks for them, sealed in bubblewrap like an evaluation attempt, without the candidate's credential variables (its manifest's, the folder's eval-plan.json's), which are redacted from every record; a trigger is the agent loading the Skill (its Skill tool, or reading that SKILL.md), read from its transcript. A run that breaks, or an agent that cannot see the Skills, is a harness error, never a miss. Refused (TRIGGER_SHADOWED) when the agent's own settings, or Skills folders above an unsealed run, would offer other Skills. Results go to FOLDER/.inter-triggers/ (results.json, summary.md, report.html with the confusion matrix); judged runs are cached by candidate, agent identity and query text, so a re-run of nothing changed executes nothing (--fresh runs all). Exit 0 when the gate is met, 1 when not (TRIGGERS_FAILED) or when nothing was judged (EVAL_NOT_JUDGED), 2 for invalid input.",
    examples: [
      ["Three runs per query with Claude Code", "inter eval triggers ./evaluation --agent claude-code"],
      [
        "Gate CI: every Skill found 2 times in 3, at most one false trigger",
        "inter eval triggers ./evaluation --agent codex --min-recall 0.66 --max-false-triggers 1",
      ],
      [
        "inter's own Skills",
        "inter eval triggers . --skills skills --queries skills/intermesh-evaluate/evals/trigger-queries.json --agent opencode",
      ],
    ],
  });
  folder = Option.String({ name: "folder" });
  agent = Option.String("--agent", {
    description: `${oneOf(AGENT_PRESETS)} (the programs whose Skill loading inter reads)`,
    validator: t.isEnum(AGENT_PRESETS),
  });
  agentCommand = Option.String("--agent-command", {
    description: "An argv template as JSON: it cannot report Skill loads, so every run is a harness error",
  });
  skillsDir = Option.String("--skills", {
    description: "A folder of Skills (one folder each, with SKILL.md) instead of the cli.tgz's",
  });
  candidate = Option.String("--candidate", {
    description:
      "The cli.tgz whose Skills to install (default: FOLDER/cli.tgz, else the project's build output, dist/cli.tgz)",
  });
  queries = Option.String("--queries", { description: "One query-set file instead of FOLDER/trigger-queries/*.json" });
  runs = Option.String("--runs", {
    description: "Runs per query (default 3)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 50)]),
  });
  timeout = Option.String("--timeout", {
    description: "Seconds per run (default 300)",
    validator: t.cascade(t.isNumber(), [t.isPositive()]),
  });
  runsConcurrency = Option.String("--attempts-concurrency", {
    description: "Runs at once (default 1)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 32)]),
  });
  minRecall = Option.String("--min-recall", {
    description: "The gate: each Skill's recall must reach this, 0..1",
    validator: PASS_RATE,
  });
  maxFalseTriggers = Option.String("--max-false-triggers", {
    description: "The gate: at most this many runs may load a Skill their query did not expect",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isAtLeast(0)]),
  });
  fresh = Option.Boolean("--fresh", false, { description: "Run every query again, ignoring cached runs" });
  improve = Option.String("--improve", {
    description:
      "Propose a better description for this Skill: learn from the train split, choose by the held-out test split; writes a patch, applies nothing",
  });
  iterations = Option.String("--iterations", {
    description: "With --improve: proposals to try (default 3)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 10)]),
  });
  proposerProvider = Option.String("--proposer-provider", {
    description: "With --improve: the proposing model's API, openai-compatible or anthropic",
    validator: t.isEnum(["openai-compatible", "anthropic"]),
  });
  proposerModel = Option.String("--proposer-model", { description: "With --improve: the proposing model's name" });
  proposerBaseUrl = Option.String("--proposer-base-url", {
    description: "With --improve: the proposing model's base URL",
  });
  proposerKeyEnv = Option.String("--proposer-key-env", {
    description: "With --improve: the NAME of the variable holding its key",
  });

  /** The proposing model for --improve: the design model seam (src/model), configured by the --proposer-* flags. */
  private async proposer() {
    const missing = [
      ["--proposer-provider", this.proposerProvider],
      ["--proposer-model", this.proposerModel],
      ["--proposer-base-url", this.proposerBaseUrl],
      ["--proposer-key-env", this.proposerKeyEnv],
    ]
      .filter(([, v]) => !v)
      .map(([f]) => f!);
    if (missing.length)
      throw new InterError(
        "USAGE_ERROR",
        `--improve needs a proposing model: ${missing.join(", ")} missing.`,
        "Example: --proposer-provider openai-compatible --proposer-model gpt-4.1-mini --proposer-base-url https://…/v1 --proposer-key-env OPENAI_API_KEY",
        { missing },
      );
    const { createModelClient } = await import("../../../model/client.js");
    return createModelClient(
      {
        provider: this.proposerProvider as "openai-compatible" | "anthropic",
        model: this.proposerModel!,
        baseUrl: this.proposerBaseUrl!,
        keyEnv: this.proposerKeyEnv!,
      },
      process.env,
    );
  }

  /** Runs the improvement loop and writes proposals/<skill>.json and, when one won, proposals/<skill>.patch. */
  private async writeProposal(
    skill: string,
    skills: Awaited<ReturnType<typeof candidateSkills>>["skills"],
    baseline: import("../../../evaluation/triggers/run.js").TriggerResults,
    runDir: string,
    client: import("../../../model/client.js").ModelClient,
    rerun: (s: typeof skills) => Promise<import("../../../evaluation/triggers/run.js").TriggerResults>,
    signal: AbortSignal,
  ) {
    const [{ improveDescription, proposalPatch }, { writeFileAtomic }, { mkdirSync }] = await Promise.all([
      import("../../../evaluation/triggers/improve.js"),
      import("../../../core/atomic.js"),
      import("node:fs"),
    ]);
    const proposal = await improveDescription({
      skill,
      skills,
      baseline,
      iterations: (this.iterations as unknown as number | undefined) ?? 3,
      client,
      rerun,
      signal,
    });
    const dir = join(runDir, "proposals");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${skill}.json`);
    writeFileAtomic(file, `${JSON.stringify(proposal, null, 2)}\n`);
    let patch: string | null = null;
    if (proposal.improved) {
      patch = join(dir, `${skill}.patch`);
      writeFileAtomic(
        patch,
        proposalPatch(
          skills.find((s) => s.name === skill)!,
          proposal.best.description,
          `${this.skillsDir ? this.skillsDir.replace(/\/+$/, "") : "skills"}/${skill}/SKILL.md`,
        ),
      );
    }
    return { ...proposal, file, patch };
  }

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const folder = resolve(cwd, this.folder);
    const argv = argvOption("--agent-command", this.agentCommand);
    const client = this.improve ? await this.proposer() : undefined;
    if (!argv && !this.agent)
      throw new InterError(
        "USAGE_ERROR",
        `inter eval triggers needs --agent ${AGENT_PRESETS.join("|")}.`,
        "Trigger evaluation reads which Skill a real agent program loaded; give the program with --agent.",
        {},
      );
    const [
      { loadQuerySet, checkNamedSkills },
      { runTriggers, resultsRecord },
      { writeTriggerReports, progressLine, firstHarnessError },
      { agentFor },
    ] = await Promise.all([
      import("../../../evaluation/triggers/queries.js"),
      import("../../../evaluation/triggers/run.js"),
      import("../../../evaluation/triggers/report.js"),
      import("../../../evaluation/sandbox/agents.js"),
    ]);
    const { skills, source, tgz } = await candidateSkills(folder, cwd, this.skillsDir, this.candidate);
    const { triggerCredentials } = await import("../../../evaluation/triggers/credentials.js");
    const credentials = await triggerCredentials(folder, tgz);
    if (!skills.length)
      throw new InterError(
        "INPUT_NOT_FOUND",
        `${source} holds no Skill.`,
        "A candidate built by inter bundles one Skill per task of its brief (package/skills/<name>/SKILL.md).",
        { path: source },
      );
    const set = await loadQuerySet(folder, this.queries ? resolve(cwd, this.queries) : undefined);
    checkNamedSkills(
      set.named,
      skills.map((s) => s.name),
    );
    if (this.improve && !skills.some((s) => s.name === this.improve))
      throw new InterError(
        "USAGE_ERROR",
        `--improve ${this.improve}: the candidate has no such Skill.`,
        `Its Skills: ${skills.map((s) => s.name).join(", ")}.`,
        { skill: this.improve },
      );
    const preset = this.agent ?? "claude-code";
    const agent = agentFor(argv ? { command: argv } : preset, undefined, cwd);
    const runDir = join(folder, ".inter-triggers");
    return interruptible(async (signal) => {
      const runWith = (withSkills: typeof skills, fresh = false) =>
        runTriggers({
          runDir,
          skills: withSkills,
          source,
          set,
          preset,
          agent,
          runs: (this.runs as unknown as number | undefined) ?? 3,
          timeoutSeconds: (this.timeout as unknown as number | undefined) ?? 300,
          concurrency: (this.runsConcurrency as unknown as number | undefined) ?? 1,
          gate: {
            ...(this.minRecall !== undefined ? { minRecall: this.minRecall as unknown as number } : {}),
            ...(this.maxFalseTriggers !== undefined
              ? { maxFalseTriggers: this.maxFalseTriggers as unknown as number }
              : {}),
          },
          fresh,
          hidden: [folder, ...(this.queries ? [resolve(cwd, this.queries)] : [])],
          credentials,
          interVersion: INTER_BUILD,
          signal,
          onRun: (i, run, cached) => this.json || process.stderr.write(`${progressLine(i, run, cached)}\n`),
        });
      const results = await runWith(skills, this.fresh);
      // The loop's runs share the journal; the baseline's reports are the ones written, the proposal a file beside them.
      const proposal =
        client && this.improve && results.summary.judged
          ? await this.writeProposal(this.improve, skills, results, runDir, client, runWith, signal)
          : undefined;
      const proposed = !proposal
        ? ""
        : proposal.improved
          ? `\nA better description for ${this.improve}: held-out accuracy ${fmt(proposal.current.test)} → ${fmt(proposal.best.test)}; apply ${proposal.patch} (git apply), or carry it into the brief or overlay. Proposal: ${proposal.file}`
          : `\nNo proposal beat ${this.improve}'s description on the held-out queries (${fmt(proposal.current.test)}); nothing to apply. Proposal: ${proposal.file}`;
      const { results: file, reports } = writeTriggerReports(results, runDir);
      const table = results.skills
        .map((s) => `${s.skill}: precision ${fmt(s.precision)}, recall ${fmt(s.recall)}, accuracy ${fmt(s.accuracy)}`)
        .join("\n");
      const line = `${count(results.summary.queries, "query", "queries")} × ${results.settings.runs}: ${results.summary.judged} judged, ${count(results.summary.harness_errors, "harness error")}, ${results.executed} executed, ${results.cached} cached${set.draft ? " (draft query set: review it with inter eval review-triggers)" : ""}`;
      if (!results.summary.judged)
        throw new InterError(
          "EVAL_NOT_JUDGED",
          `No run was judged: every run was a harness error (${firstHarnessError(results) ?? "?"}).`,
          "Fix what broke (the agent's model, login, or where it looks for Skills) and run again; nothing was learnt about the Skills.",
          { file, reports, summary: results.summary },
        );
      if (!results.gate.met)
        throw new InterError(
          "TRIGGERS_FAILED",
          `The trigger gate was missed: ${results.gate.findings.join("; ")}; see ${reports[1]}.${proposed}`,
          "Open report.html for the queries each Skill missed or stole; sharpen the Skills' descriptions, or lower the bar on purpose.",
          {
            file,
            reports,
            gate: results.gate,
            skills: results.skills,
            summary: results.summary,
            ...(proposal ? { proposal } : {}),
          },
        );
      return {
        data: { ...resultsRecord(results), file, reports, ...(proposal ? { proposal } : {}) },
        human: `${line}\n${table}\nReports: ${reports.join(", ")}${proposed}`,
      };
    });
  }
}

const fmt = (x: number | null) => (x === null ? "–" : x.toFixed(2));

export class EvalReviewTriggersCommand extends BaseCommand {
  static paths = [["eval", "review-triggers"]];
  static usage = Command.Usage({
    description: "Write a review page for trigger query sets: edit, add, delete and move queries, then export the JSON",
    details:
      "Writes one self-contained HTML page (no network) per query set of FOLDER (trigger-queries/*.json or trigger-queries.json, or --queries FILE) into FOLDER/.inter-triggers/review/. The page groups the queries into should trigger and should not; any query's expected Skill can be set to any of the candidate's Skills (from --skills, --candidate or FOLDER/cli.tgz; without one, the Skills the sets name) or none. Its export keeps $schema and clears the draft mark, and downloads under the set's file name. Save the exported JSON over the file; inter never changes a query set itself. A set naming a Skill the candidate lacks is refused (TRIGGER_QUERIES_INVALID).",
    examples: [
      ["Review the drafted sets", "inter eval review-triggers ./evaluation"],
      ["Review them against the build's Skills", "inter eval review-triggers ./evaluation --candidate dist/cli.tgz"],
    ],
  });
  folder = Option.String({ name: "folder" });
  queries = Option.String("--queries", { description: "One query-set file instead of FOLDER's" });
  skillsDir = Option.String("--skills", {
    description: "A folder of Skills whose names and descriptions the page offers (default: the candidate's)",
  });
  candidate = Option.String("--candidate", {
    description:
      "The cli.tgz whose Skills the page offers (default: FOLDER/cli.tgz, else the project's build output, if any)",
  });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const folder = resolve(cwd, this.folder);
    const [
      { readQueryFile, querySetFiles, namedSkills, checkNamedSkills },
      { reviewPage },
      { writeFileAtomic },
      { mkdirSync },
      { basename },
    ] = await Promise.all([
      import("../../../evaluation/triggers/queries.js"),
      import("../../../evaluation/triggers/review.js"),
      import("../../../core/atomic.js"),
      import("node:fs"),
      import("node:path"),
    ]);
    const files = querySetFiles(folder, this.queries ? resolve(cwd, this.queries) : undefined);
    const sets = [];
    for (const file of files) {
      const shown = file.startsWith(`${folder}/`) ? file.slice(folder.length + 1) : file;
      sets.push({ file, ...(await readQueryFile(file, shown)), shown });
    }
    const named = sets.map((set) => namedSkills(set.shown, set));
    const known =
      this.skillsDir || this.candidate || (await findCandidate(folder, undefined, cwd)).tgz
        ? (await candidateSkills(folder, cwd, this.skillsDir, this.candidate)).skills.map((s) => ({
            name: s.name,
            description: s.description,
          }))
        : undefined;
    if (known)
      checkNamedSkills(
        named,
        known.map((s) => s.name),
      );
    // Without a candidate, the Skills every set of the folder names: drafted sets name them all between them.
    const skills =
      known ??
      [...new Set(named.flatMap((n) => [...(n.skill ? [n.skill] : []), ...n.expected]))]
        .sort()
        .map((name) => ({ name, description: "" }));
    const out = join(folder, ".inter-triggers", "review");
    mkdirSync(out, { recursive: true });
    const pages: string[] = [];
    for (const set of sets) {
      const page = join(out, `${basename(set.file, ".json")}.html`);
      writeFileAtomic(
        page,
        reviewPage({
          file: basename(set.file),
          ...(set.skill ? { skill: set.skill } : {}),
          ...(set.schema ? { schema: set.schema } : {}),
          queries: set.queries,
          skills,
        }),
      );
      pages.push(page);
    }
    return {
      data: { pages },
      human: `Wrote ${count(pages.length, "review page")}: ${pages.join(", ")}\nOpen one in a browser, edit, export, and save the JSON over its query set.`,
    };
  }
}
