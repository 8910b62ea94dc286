/** A statement of something a plan's checks do not establish; `scenario` is null for the whole plan. */
export interface Limit {
  scenario: string | null;
  text: string;
}

const WHOLE_PLAN = [
  "The API's state after an attempt is not read back: effects are judged only from what the CLI printed.",
  "Calls outside the candidate CLI (curl, other tools, the agent's own reasoning) are not recorded or judged.",
  "An observation sees only the calls whose argv starts with its prefix; other calls of the CLI are recorded but not judged.",
];

/**
 * What passing this plan would not prove, read from its observations and check types (EVAL-PLAN.md §Checks): an
 * observation with no check, a call judged only by its exit code, a file judged without its contents.
 */
export function planLimits(plan: any): Limit[] {
  const limits: Limit[] = WHOLE_PLAN.map((text) => ({ scenario: null, text }));
  for (const scenario of Array.isArray(plan?.scenarios) ? plan.scenarios : []) {
    const checks: any[] = Array.isArray(scenario.checks) ? scenario.checks : [];
    const typesFor = (id: string) =>
      new Set(checks.filter((c) => c.observation_id === id || c.source?.observation_id === id || c.left?.observation_id === id || c.right?.observation_id === id).map((c) => c.type as string));
    for (const o of Array.isArray(scenario.observations) ? scenario.observations : []) {
      const types = typesFor(o.id);
      const what = o.kind === "file" ? `the file ${o.path}` : `${o.description ?? o.id} (${(o.command_prefix ?? []).join(" ")})`;
      if (types.size === 0) limits.push({ scenario: scenario.id, text: `Observation "${o.id}" — ${what} — is recorded but no check uses it.` });
      else if (o.kind === "cli" && [...types].every((t) => t === "command_success")) limits.push({ scenario: scenario.id, text: `Only the exit code of ${what} is checked, not what it returned.` });
      else if (o.kind === "file" && !types.has("file_sha256")) limits.push({ scenario: scenario.id, text: `The contents of ${what} are not checked, only that it ${types.has("file_nonempty") ? "is not empty" : "exists"}.` });
    }
  }
  return limits;
}
