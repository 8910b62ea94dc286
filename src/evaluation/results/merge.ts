import { InterError } from "../../core/errors.js";
import { refuseAcrossModels, servedModelsDiffer } from "./served-models.js";
import { tally } from "../run/run-attempts.js";
import type { StoredResults } from "../report/facts.js";

/**
 * Joins the results of the shards of one evaluation into the results of the whole: same candidate, plan, agent and
 * settings, each attempt exactly once, none missing. Summaries and the verdict are computed again from the attempts.
 */
export function mergeResults(
  inputs: Array<{ file: string; results: StoredResults }>,
  acrossModels = false,
): StoredResults {
  const [first, ...rest] = inputs;
  if (!first)
    throw new InterError(
      "USAGE_ERROR",
      "inter eval merge needs at least one results file.",
      "Give every shard's results.json.",
    );
  const same: Array<[string, (r: StoredResults) => unknown]> = [
    ["candidate", (r) => r.candidate.sha256],
    ["plan", (r) => r.plan.sha256],
    ["agent", (r) => r.agent.identity ?? r.agent.name],
    ["settings", (r) => JSON.stringify(r.settings)],
    ["shard count", (r) => r.shard?.count ?? 1],
  ];
  for (const other of rest)
    for (const [what, of] of same)
      if (of(other.results) !== of(first.results)) {
        throw new InterError(
          "RESULTS_MISMATCH",
          `${other.file} and ${first.file} are results of different ${what}s (${String(of(other.results)).slice(0, 20)} vs ${String(of(first.results)).slice(0, 20)}); they are not shards of one evaluation.`,
          "Merge only the shards of one `inter eval run --shard i/n` series: same candidate, plan, agent and settings.",
          {
            field: what,
            files: [first.file, other.file],
          },
        );
      }
  // Shards answered by different models would merge into pass rates that mix them.
  for (const other of rest)
    refuseAcrossModels(servedModelsDiffer(first.results, other.results), [first.file, other.file], acrossModels);
  const seen = new Map<string, string>();
  for (const { file, results } of inputs)
    for (const a of results.attempts) {
      const id = `${a.scenario}#${a.repetition}`;
      if (seen.has(id))
        throw new InterError(
          "RESULTS_MISMATCH",
          `Attempt ${id} is in both ${seen.get(id)} and ${file}.`,
          "Give each shard's results once.",
          { attempt: id, files: [seen.get(id), file] },
        );
      seen.set(id, file);
    }
  const order = first.results.shard?.scenarios ?? first.results.scenarios.map((s) => s.id);
  const expected = order.flatMap((id) =>
    Array.from({ length: first.results.settings.repetitions }, (_, i) => `${id}#${i + 1}`),
  );
  const missing = expected.filter((id) => !seen.has(id));
  if (missing.length) {
    throw new InterError(
      "RESULTS_MISMATCH",
      `${missing.length} attempt${missing.length > 1 ? "s are" : " is"} in none of the inputs (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""}).`,
      `Give the results of all ${first.results.shard?.count ?? 1} shards.`,
      { missing },
    );
  }
  const rank = new Map(expected.map((id, i) => [id, i]));
  const attempts = inputs
    .flatMap((i) => i.results.attempts)
    .sort((a, b) => rank.get(`${a.scenario}#${a.repetition}`)! - rank.get(`${b.scenario}#${b.repetition}`)!);
  const times = (key: "started_at" | "finished_at") =>
    inputs
      .map((i) => i.results[key])
      .filter((t): t is string => Boolean(t))
      .sort();
  const { shard: _shard, gate: _gate, ...base } = first.results;
  // One unsealed shard makes the whole run unsealed: its evidence could have been forged.
  const unsealed = inputs.map((i) => i.results.isolation).find((iso) => !iso || iso.kind === "none");
  // The models that answered are every shard's: more than one is a run that mixed them, and says so.
  const served = [...new Set(inputs.flatMap((i) => i.results.agent.model?.served ?? []))].sort();
  const agent = base.agent.model ? { ...base.agent, model: { ...base.agent.model, served } } : base.agent;
  return {
    ...base,
    agent,
    ...(unsealed ? { isolation: unsealed } : first.results.isolation ? { isolation: first.results.isolation } : {}),
    ...(times("started_at").length
      ? { started_at: times("started_at")[0], finished_at: times("finished_at").at(-1) }
      : {}),
    ...tally(attempts, order),
  };
}
