import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { InterConfig } from "../config/types.js";
import { InterError } from "../core/errors.js";
import type { TaskSpec } from "../engine/graph/task.js";
import type { Receipt } from "../stages/inspect/receipt.js";
import { projectPaths } from "../config/project-paths.js";
import type { InspectData } from "./inspect.js";
import { writeJson } from "./io.js";

/** Validates the eval plan against its schema and the inspected candidate; only a plan edit or a new receipt re-runs it. */
export function validateTask(config: InterConfig): TaskSpec | undefined {
  const plan = config.targets?.eval?.plan;
  if (!plan) return undefined;
  const paths = projectPaths(config);
  const reportFile = `${paths.outDir}/plan-validation.json`;
  return {
    id: "validate",
    kind: "builtin",
    description: `Validate ${plan} (shape, references, against the candidate, hygiene)`,
    impl: "1",
    deps: ["inspect"],
    // The command tree is all validation reads of the receipt.
    uses: {
      inspect: (dep) => ({
        candidate: (dep.data as InspectData).candidate,
        receipt: dep.outputs.find((o) => o.path.endsWith("receipt.json"))?.sha256,
      }),
    },
    config: { plan },
    inputs: [plan, plan.replace(/\.json$/, "") + ".reference.json"],
    outputs: [reportFile],
    env: [],
    async run(ctx) {
      const [{ validatePlan, planInvalid }, { treeFromReceipt }] = await Promise.all([
        import("../stages/plan/validate.js"),
        import("../stages/plan/tree-from-receipt.js"),
      ]);
      let text: string;
      try {
        text = readFileSync(join(ctx.root, plan), "utf8");
      } catch {
        throw new InterError(
          "INPUT_NOT_FOUND",
          `targets.eval.plan: ${plan} does not exist.`,
          "Write one with `inter eval new evals/`, or correct targets.eval.plan.",
          { field: "targets.eval.plan", file: plan },
        );
      }
      const receipt = JSON.parse(
        readFileSync(join(ctx.root, (ctx.deps.inspect!.data as InspectData).receipt), "utf8"),
      ) as Receipt;
      const referenceFile = plan.replace(/\.json$/, "") + ".reference.json";
      const reference = existsSync(join(ctx.root, referenceFile))
        ? { file: referenceFile, text: readFileSync(join(ctx.root, referenceFile), "utf8") }
        : undefined;
      const tree = treeFromReceipt(receipt);
      // The overlay's renames (capabilities.json, written by the design task upstream) explain unknown commands.
      const capabilities = join(ctx.root, paths.capabilities);
      if (existsSync(capabilities)) {
        const { renamesOf } = await import("../stages/plan/renames.js");
        tree.renames = renamesOf(
          JSON.parse(readFileSync(capabilities, "utf8")),
          tree.commands.map((c) => c.name),
        );
      }
      const report = await validatePlan(text, plan, tree, reference ? { reference } : {});
      // Written first, failed or not: plan-validation.json always describes the last validation.
      writeJson(ctx.root, reportFile, report);
      if (!report.valid) throw planInvalid(report);
      return {
        data: { valid: true, errors: 0, warnings: report.warnings, plan: report.plan, report: reportFile },
        warnings: report.findings.map((f) => `${f.code} at ${f.pointer}: ${f.message}`),
      };
    },
  };
}
