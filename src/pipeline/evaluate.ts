import { join, relative } from "node:path";
import type { InterConfig } from "../config/types.js";
import { agentKey, servicesKey } from "../config/secret-keys.js";
import type { TaskSpec } from "../engine/graph/task.js";
import type { BundleData } from "./bundle.js";
import { projectPaths } from "../config/project-paths.js";
import type { InspectData } from "./inspect.js";
import { REPORT_FILES } from "../evaluation/report/formats.js";

/**
 * `inter run eval`: everything upstream comes from the cache; the evaluation itself is not hermetic (agents, live
 * APIs) and runs every time, resuming journaled attempts of the same candidate, plan and agent.
 */
export function evaluateTask(config: InterConfig): TaskSpec | undefined {
  const target = config.targets?.eval;
  if (!target) return undefined;
  const runDir = projectPaths(config).evalDir;
  const reference = target.plan.replace(/\.json$/, ".reference.json");
  return {
    id: "evaluate",
    kind: "builtin",
    description: `Run ${target.plan} with the ${typeof target.agent === "object" ? "command" : (target.agent ?? "reference")} agent; write ${runDir}/results.json`,
    impl: "1",
    deps: ["validate", "bundle", "inspect"],
    config: {
      plan: target.plan,
      agent: agentKey(target.agent ?? "reference"),
      ...(target.interface === "mcp" ? { interface: "mcp" } : {}),
      services: servicesKey(target.services ?? {}),
    },
    inputs: [target.plan],
    outputs: [`${runDir}/results.json`, ...REPORT_FILES.map((file) => `${runDir}/${file}`)],
    env: [],
    cache: false,
    async run(ctx) {
      const { executeEvaluation, attemptLine, summaryTable, gateFailure } =
        await import("../evaluation/run/evaluate-plan.js");
      const bundle = ctx.deps.bundle!.data as BundleData;
      const { results, file, reports } = await executeEvaluation({
        planFile: join(ctx.root, target.plan),
        tgz: join(ctx.root, bundle.file),
        referenceFile: join(ctx.root, reference),
        receiptFile: join(ctx.root, (ctx.deps.inspect!.data as InspectData).receipt),
        agent: target.agent,
        ...(target.interface ? { interface: target.interface } : {}),
        runDir: join(ctx.root, runDir),
        services: target.services ?? {},
        servicesCwd: ctx.root,
        settings: {},
        fresh: process.env.INTER_EVAL_FRESH === "1",
        reuse: process.env.INTER_EVAL_REUSE === "1",
        // Read when the task runs: `inter run eval --min-pass-rate` overrides the config's gate before that.
        gate: {
          minPassRate: target.gate?.minPassRate ?? 1,
          allowIncomplete: target.gate?.allowIncomplete ?? false,
          requireSealed: target.gate?.requireSealed ?? false,
          forbidSideEffects: target.gate?.forbidSideEffects ?? false,
        },
        interVersion: ctx.interVersion,
        root: ctx.root,
        signal: ctx.signal,
        onAttempt: (a, resumed) => ctx.log(attemptLine(a, resumed).split("\n")[0]!),
      });
      for (const line of summaryTable(results).split("\n")) ctx.log(line);
      if (!results.gate.met) throw gateFailure(results, file);
      return {
        data: {
          verdict: results.verdict,
          gate: results.gate,
          ...results.summary,
          results: `${runDir}/results.json`,
          reports: reports.map((r) => relative(ctx.root, r)),
        },
      };
    },
  };
}
