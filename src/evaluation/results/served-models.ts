import { InterError } from "../../core/errors.js";

/** What a run's results say of its agent's models (sandbox/agents.ts `ModelRecord`). */
interface WithModels {
  agent: { model?: { served: string[] } | undefined };
}

/**
 * The models that answered each of two runs, when the agent reported them for both and they differ; undefined when
 * they are the same or either side does not say. A difference between such runs is the models', not the candidates'.
 */
export function servedModelsDiffer(a: WithModels, b: WithModels): { a: string[]; b: string[] } | undefined {
  const sa = a.agent.model?.served ?? [];
  const sb = b.agent.model?.served ?? [];
  if (!sa.length || !sb.length) return undefined;
  return [...sa].sort().join("\n") === [...sb].sort().join("\n") ? undefined : { a: sa, b: sb };
}

/**
 * Refuses results answered by different models (EVAL_MODELS_DIFFER) unless the caller asked for it with
 * `--across-models`; `what` names the two sides ("base" and "head", "A" and "B", two shards' files).
 */
export function refuseAcrossModels(
  differ: { a: string[]; b: string[] } | undefined,
  names: [string, string],
  acrossModels: boolean,
  details: Record<string, unknown> = {},
): void {
  if (!differ || acrossModels) return;
  throw new InterError(
    "EVAL_MODELS_DIFFER",
    `${names[0]} was answered by ${differ.a.join(", ")} and ${names[1]} by ${differ.b.join(", ")}: the difference between them would be the models', not the candidates'.`,
    "Run again with one model configured for the agent; to compare models on purpose, pass --across-models.",
    { [names[0]]: differ.a, [names[1]]: differ.b, ...details },
  );
}
