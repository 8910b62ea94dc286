import { Command, Option } from "clipanion";
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { InterError } from "../../../core/errors.js";
import { count } from "../../../core/plural.js";
import { TRIGGER_DRAFTS_DIR } from "../../../config/project-paths.js";
import { BaseCommand, type CommandResult } from "../../base.js";
import { requireCandidate } from "../../candidate-lookup.js";
import type { Candidate } from "../../../stages/candidate/open-candidate.js";

/**
 * The design model of the project the folder is in, when it has one and its key is at hand: trigger drafts then come
 * from it (cached in the project's .intermesh/trigger-drafts/), else from the templates. Says why not, when not.
 */
async function draftModel(
  folder: string,
): Promise<
  | { client: import("../../../model/client.js").ModelClient; model: string; cacheDir: string }
  | { skipped: string }
  | undefined
> {
  const [{ findConfig }, { loadProjectConfig }] = await Promise.all([
    import("../../../config/find-config.js"),
    import("../../load-config.js"),
  ]);
  const file = findConfig(folder);
  if (!file) return undefined;
  let settings;
  try {
    settings = (await loadProjectConfig(dirname(file), file)).config.design?.model;
  } catch {
    return undefined;
  }
  if (!settings) return undefined;
  if (settings.keyEnv !== undefined && !process.env[settings.keyEnv])
    return {
      skipped: `${settings.keyEnv} is not set, so the design model was not asked; the drafts come from templates`,
    };
  const { configuredModelClient } = await import("../../../model/client.js");
  const client = configuredModelClient(settings, process.env);
  return { client, model: settings.model, cacheDir: join(dirname(file), TRIGGER_DRAFTS_DIR) };
}

/** One draft trigger query set per bundled Skill, in FOLDER/trigger-queries/<skill>.json; an existing one is kept. */
async function draftTriggerSets(candidate: Candidate, folder: string): Promise<string[]> {
  const [{ skillsOfCandidate }, { draftQuerySets }, { writeFileAtomic }, { schemaRef }, { mkdirSync }] =
    await Promise.all([
      import("../../../evaluation/triggers/skills.js"),
      import("../../../evaluation/triggers/draft.js"),
      import("../../../core/atomic.js"),
      import("../../../core/schema-ref.js"),
      import("node:fs"),
    ]);
  const skills = skillsOfCandidate(candidate);
  if (!skills.length) return [];
  const dir = join(folder, "trigger-queries");
  const schema = schemaRef(dir, "trigger-queries.schema.json");
  const written: string[] = [];
  const binary = candidate.manifest.product.binary;
  const missing = skills.filter((s) => !existsSync(join(dir, `${s.name}.json`)));
  const model = missing.length ? await draftModel(folder) : undefined;
  let sets = draftQuerySets(skills, binary);
  if (model && "skipped" in model) process.stderr.write(`⚠ ${model.skipped}\n`);
  else if (model) {
    try {
      // Only the missing sets are asked about; the others' neighbours still inform each question.
      const drafted = await (
        await import("../../../evaluation/triggers/draft-model.js")
      ).modelDraftSets(skills, binary, { ...model, only: new Set(missing.map((s) => s.name)) });
      sets = drafted.sets;
    } catch (error) {
      // A model that cannot answer leaves the templates: drafting never fails for want of a model.
      process.stderr.write(
        `⚠ the design model did not draft the trigger queries (${(error as Error).message}); the drafts come from templates\n`,
      );
    }
  }
  for (const set of sets) {
    const file = join(dir, `${set.skill}.json`);
    if (existsSync(file)) continue;
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(file, `${JSON.stringify({ $schema: schema, ...set }, null, 2)}\n`);
    written.push(file);
  }
  return written;
}

export class EvalNewCommand extends BaseCommand {
  static paths = [["eval", "new"]];
  static usage = Command.Usage({
    description:
      "Write a starter eval-plan.json for the candidate in a folder (one scenario per bundled Skill) and a draft trigger query set per Skill",
    details:
      "Reads cli.tgz in the folder (build one with `inter build`, then copy dist/cli.tgz there). Command prefixes come from the Skills' own commands; nothing is invented: tasks, ids and expected values are <<FILL ME>> placeholders, which make `inter eval validate` fail until replaced. It also drafts trigger-queries/<skill>.json per Skill in a user's voice (marked draft: the Skill's task as first-person requests should trigger it, its neighbours' tasks are near misses; with design.model in the project's config the model drafts them, cached in .intermesh/trigger-drafts/; docs/triggers.md). Nothing existing is overwritten: when eval-plan.json exists it is kept, and only the query sets still missing are drafted (a deleted one, a Skill added since); with nothing left to draft it is refused.",
    examples: [
      ["Start a plan in an evaluation folder holding cli.tgz", "inter eval new ./evaluation"],
      ["Start a project's plan from its build", "inter eval new evals --candidate dist/cli.tgz"],
      [
        "Draft the query set of a Skill added since the plan was written",
        "inter eval new evals --candidate dist/cli.tgz",
      ],
    ],
  });
  folder = Option.String({ name: "folder" });
  candidate = Option.String("--candidate", {
    description: "The cli.tgz to read (default: FOLDER/cli.tgz, else the project's build output, dist/cli.tgz)",
  });

  async run(): Promise<CommandResult> {
    const folder = resolve(this.cwd ?? process.cwd(), this.folder);
    const cwd = this.cwd ?? process.cwd();
    const tgz = await requireCandidate(folder, this.candidate, cwd);
    const [{ openCandidate }, { scaffoldFile }, { skillFile }] = await Promise.all([
      import("../../../stages/candidate/open-candidate.js"),
      import("../../../stages/plan/scaffold.js"),
      import("../../../evaluation/triggers/skills.js"),
    ]);
    // Read once: the starter plan and the trigger drafts both come from this copy.
    const candidate = await openCandidate(tgz, {
      label: this.candidate ?? relative(cwd, tgz),
      keep: (path) => scaffoldFile(path) || skillFile(path),
    });
    const planFile = join(folder, "eval-plan.json");
    if (existsSync(planFile)) {
      // The plan is the user's now; what may still be missing is a query set (deleted, or a Skill added since).
      const triggers = await draftTriggerSets(candidate, folder);
      if (!triggers.length)
        throw new InterError(
          "USAGE_ERROR",
          `${this.folder}/eval-plan.json already exists and every bundled Skill has its trigger query set: nothing to draft (existing files are never overwritten).`,
          "Edit them, or remove a file to draft it again.",
          { path: planFile },
        );
      return {
        data: { file: planFile, plan: "kept", trigger_queries: triggers },
        human: `Kept ${planFile}. Drafted ${count(triggers.length, "missing trigger query set")}: ${triggers.join(", ")}; review them (inter eval review-triggers ${this.folder}), then inter eval triggers ${this.folder} --agent <agent>.`,
      };
    }
    const [{ starterPlan, starterReference }, { writeFileAtomic }] = await Promise.all([
      import("../../../stages/plan/scaffold.js"),
      import("../../../core/atomic.js"),
    ]);
    const plan = starterPlan(candidate, folder);
    writeFileAtomic(planFile, `${JSON.stringify(plan, null, 2)}\n`);
    // A starter for the golden run: per scenario, each observed command with its flags to fill in.
    const referenceFile = join(folder, "eval-plan.reference.json");
    const wroteReference = !existsSync(referenceFile);
    if (wroteReference) {
      writeFileAtomic(referenceFile, `${JSON.stringify(starterReference(plan), null, 2)}\n`);
    }
    const placeholders = (JSON.stringify(plan).match(/<<FILL ME/g) ?? []).length;
    const triggers = await draftTriggerSets(candidate, folder);
    return {
      data: {
        file: planFile,
        plan: "written",
        ...(wroteReference ? { reference: referenceFile } : {}),
        scenarios: plan.scenarios.length,
        placeholders,
        trigger_queries: triggers,
      },
      human: `Wrote ${planFile}${wroteReference ? ` and ${referenceFile}` : ""}: ${count(plan.scenarios.length, "scenario")}, ${count(placeholders, "<<FILL ME>> placeholder")} to replace; then run inter eval validate ${this.folder}.${triggers.length ? `\nDrafted ${count(triggers.length, "trigger query set")} in ${join(folder, "trigger-queries")}: review them (inter eval review-triggers ${this.folder}), then inter eval triggers ${this.folder} --agent <agent>.` : ""}`,
    };
  }
}
