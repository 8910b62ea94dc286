import { argvProblems } from "./argv.js";
import type { CandidateTree, Finding } from "./findings.js";
import { isObj, ptr } from "./pointer.js";
import type { LoosePlan } from "./types.js";
import { MAX_DOCUMENT_DEPTH, nestedDeeper } from "../../core/json-depth.js";

/**
 * The reference solutions beside a plan (`eval-plan.reference.json`: scenario id → `[{argv, save_stdout?}]`), checked
 * with it: every key a scenario, every call a command of the candidate with flags it has, every saved file inside
 * the outputs folder. A mistake here used to show only at run time, as a harness error.
 */
export function referenceFindings(
  plan: LoosePlan,
  reference: { file: string; text: string },
  tree: CandidateTree | null,
): Finding[] {
  const out: Finding[] = [];
  const add = (
    code: string,
    pointer: string,
    message: string,
    suggestion: string,
    severity: Finding["severity"] = "error",
    renamed?: Finding["renamed"],
  ) =>
    out.push({
      stage: "references",
      severity,
      file: reference.file,
      code,
      pointer,
      message,
      suggestion,
      ...(renamed ? { renamed } : {}),
    });
  let solutions: unknown;
  try {
    solutions = JSON.parse(reference.text);
    if (nestedDeeper(solutions, MAX_DOCUMENT_DEPTH))
      throw new Error(`it nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  } catch (error) {
    add(
      "REFERENCE_INVALID",
      "",
      `${reference.file} is not valid JSON: ${(error as Error).message}.`,
      'Fix the JSON; the file maps scenario ids to [{"argv": [...], "save_stdout"?: "file"}].',
    );
    return out;
  }
  if (!isObj(solutions)) {
    add(
      "REFERENCE_INVALID",
      "",
      `${reference.file} must be an object of scenario id → steps.`,
      'Write {"<scenario id>": [{"argv": ["<binary>", "..."]}]}.',
    );
    return out;
  }
  const ids: string[] = (Array.isArray(plan?.scenarios) ? plan.scenarios : [])
    .map((s) => s?.id)
    .filter((id): id is string => typeof id === "string");
  for (const [key, steps] of Object.entries(solutions)) {
    if (!ids.includes(key)) {
      const near = ids.find((id) => id.startsWith(key.slice(0, 4)) || key.startsWith(id.slice(0, 4)));
      add(
        "REFERENCE_UNKNOWN_SCENARIO",
        ptr(key),
        `${reference.file} has a solution for "${key}", which is not a scenario of the plan.`,
        near ? `Did you mean "${near}"?` : `Scenarios: ${ids.join(", ")}.`,
      );
      continue;
    }
    if (!Array.isArray(steps)) {
      add(
        "REFERENCE_INVALID",
        ptr(key),
        `The solution for "${key}" must be a list of steps.`,
        'Write [{"argv": ["<binary>", "..."]}].',
      );
      continue;
    }
    steps.forEach((step, n) => {
      if (
        !isObj(step) ||
        !Array.isArray(step.argv) ||
        !step.argv.length ||
        !step.argv.every((a: unknown) => typeof a === "string")
      ) {
        add(
          "REFERENCE_INVALID",
          ptr(key, n),
          `Step ${n} of "${key}" must be {"argv": [strings], "save_stdout"?: "file"}.`,
          'Write {"argv": ["<binary>", "<resource>", "<action>", "--flag", "value"]}.',
        );
        return;
      }
      if (
        step.save_field !== undefined &&
        (!Array.isArray(step.save_field) ||
          !step.save_field.every((k: unknown) => typeof k === "string") ||
          step.save_stdout === undefined)
      ) {
        add(
          "REFERENCE_INVALID",
          ptr(key, n, "save_field"),
          `save_field of step ${n} of "${key}" must be a list of keys, beside save_stdout.`,
          'Write "save_stdout": "report.json", "save_field": ["result"].',
        );
      }
      if (step.save_stdout !== undefined) {
        const path = String(step.save_stdout).replace(/\\/g, "/");
        if (typeof step.save_stdout !== "string" || !path || path.startsWith("/") || path.split("/").includes(".."))
          add(
            "REFERENCE_PATH_ESCAPES",
            ptr(key, n, "save_stdout"),
            `save_stdout "${String(step.save_stdout)}" must be a relative path inside the outputs folder.`,
            'Use a file name such as "report.json".',
          );
      }
      const placeholder = step.argv.findIndex((a: string) => /<<[^>]*>>/.test(a));
      if (placeholder >= 0) {
        add(
          "REFERENCE_PLACEHOLDER",
          ptr(key, n, "argv", placeholder),
          `"${step.argv[placeholder]}" is a placeholder left by \`inter eval new\`.`,
          "Replace it with the flags and values a correct agent gives.",
        );
        return;
      }
      if (tree)
        for (const p of argvProblems(step.argv, tree, false))
          add(`REFERENCE_${p.code}`, ptr(key, n, "argv", p.index), p.message, p.suggestion, "error", p.renamed);
    });
  }
  for (const id of ids)
    if (!(id in solutions))
      add(
        "REFERENCE_MISSING_SCENARIO",
        "",
        `${reference.file} has no solution for scenario "${id}": a golden run cannot pass it.`,
        `Add "${id}": [{"argv": [...]}].`,
        "warning",
      );
  return out;
}
