import { Command, Option } from "clipanion";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { InterError } from "../../../core/errors.js";
import { count } from "../../../core/words.js";
import { BaseCommand, type CommandResult } from "../../base.js";

export class EvalNewCommand extends BaseCommand {
  static paths = [["eval", "new"]];
  static usage = Command.Usage({
    description: "Write a starter eval-plan.json for the candidate in a folder: one scenario per bundled Skill",
    details:
      "Reads cli.tgz in the folder (build one with `inter build`, then copy dist/cli.tgz there). Command prefixes come from the Skills' own commands; nothing is invented: tasks, ids and expected values are <<FILL ME>> placeholders, which make `inter eval validate` fail until replaced. An existing eval-plan.json is never overwritten.",
    examples: [
      ["Start a plan in an evaluation folder holding cli.tgz", "inter eval new ./evaluation"],
      ["Start a project's plan from its build", "inter eval new evals --candidate dist/cli.tgz"],
    ],
  });
  folder = Option.String({ name: "folder" });
  candidate = Option.String("--candidate", { description: "The cli.tgz to read (default: FOLDER/cli.tgz)" });

  async run(): Promise<CommandResult> {
    const folder = resolve(this.cwd ?? process.cwd(), this.folder);
    const tgz = this.candidate ? resolve(this.cwd ?? process.cwd(), this.candidate) : join(folder, "cli.tgz");
    const planFile = join(folder, "eval-plan.json");
    if (!existsSync(tgz)) throw new InterError("INPUT_NOT_FOUND", this.candidate ? `No candidate at ${this.candidate}.` : `${this.folder} holds no cli.tgz.`, "Build one with `inter build` (it writes dist/cli.tgz) and pass --candidate dist/cli.tgz, or copy it into the folder.", { path: tgz });
    if (existsSync(planFile)) throw new InterError("USAGE_ERROR", `${this.folder}/eval-plan.json already exists; it is never overwritten.`, "Edit it, or remove it first to start over.", { path: planFile });
    const [{ starterPlan, starterReference }, { writeFileAtomic }] = await Promise.all([import("../../../plan/scaffold.js"), import("../../../core/atomic.js")]);
    const plan = await starterPlan(tgz, folder);
    writeFileAtomic(planFile, `${JSON.stringify(plan, null, 2)}\n`);
    // A starter for the golden run: per scenario, each observed command with its flags to fill in.
    const referenceFile = join(folder, "eval-plan.reference.json");
    const wroteReference = !existsSync(referenceFile);
    if (wroteReference) {
      writeFileAtomic(referenceFile, `${JSON.stringify(starterReference(plan), null, 2)}\n`);
    }
    const placeholders = (JSON.stringify(plan).match(/<<FILL ME/g) ?? []).length;
    return { data: { file: planFile, ...(wroteReference ? { reference: referenceFile } : {}), scenarios: plan.scenarios.length, placeholders }, human: `Wrote ${planFile}${wroteReference ? ` and ${referenceFile}` : ""}: ${count(plan.scenarios.length, "scenario")}, ${count(placeholders, "<<FILL ME>> placeholder")} to replace; then run inter eval validate ${this.folder}.` };
  }
}
