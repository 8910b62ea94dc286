import { uncheckedInputs } from "./strength.js";
import type { Check, Observation, Plan } from "./types.js";

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
 * What passing this plan would not prove, read from its observations and check types (docs/eval-plan.md, checks): an
 * observation with no check, a call judged only by its exit code, a file judged without its contents.
 */
export function planLimits(plan: Plan): Limit[] {
  const limits: Limit[] = WHOLE_PLAN.map((text) => ({ scenario: null, text }));
  if (plan.target.read_only_confirmed !== true && plan.settings?.unobserved_side_effects !== "fail") {
    limits.push({
      scenario: null,
      text: 'Changes no observation matches (an extra cancel, a second booking) are listed per attempt as side effects, but do not fail it (settings.unobserved_side_effects: "fail" or --forbid-side-effects would).',
    });
  }
  for (const scenario of plan.scenarios) {
    const { checks } = scenario;
    const typesFor = (id: string) => new Set(checks.filter((c) => observationsOf(c).includes(id)).map((c) => c.type));
    for (const o of scenario.observations) {
      const types = typesFor(o.id);
      const what =
        o.kind === "file"
          ? `the file ${o.path}`
          : `${o.description || o.id} (${o.kind === "cli" ? o.command_prefix.join(" ") : `${o.method} ${o.path}`})`;
      if (types.size === 0)
        limits.push({
          scenario: scenario.id,
          text: `Observation "${o.id}" — ${what} — is recorded but no check uses it.`,
        });
      else if (o.kind === "cli" && [...types].every((t) => t === "command_success"))
        limits.push({ scenario: scenario.id, text: `Only the exit code of ${what} is checked, not what it returned.` });
      else if (o.kind === "file" && !types.has("file_sha256") && !readsContent(checks, o.id))
        limits.push({
          scenario: scenario.id,
          text: `The contents of ${what} are not checked, only that it ${types.has("file_nonempty") ? "is not empty" : "exists"}.`,
        });
    }
    for (const key of uncheckedInputs(scenario))
      limits.push({
        scenario: scenario.id,
        text: `Input "${key}" (${JSON.stringify(scenario.inputs?.[key])}) is given to the agent, but no check looks at it: an agent that gets it wrong still passes.`,
      });
  }
  return limits;
}

/** The observations a check reads. */
function observationsOf(check: Check): string[] {
  switch (check.type) {
    case "field_equals":
      return [check.source.observation_id];
    case "values_match":
      return [check.left.observation_id, check.right.observation_id];
    default:
      return [check.observation_id];
  }
}

/** The field paths a check reads, with the observation each is of. */
function sourcesOf(check: Check): Array<{ observation_id: string; field: string[] }> {
  return check.type === "field_equals"
    ? [check.source]
    : check.type === "values_match"
      ? [check.left, check.right]
      : [];
}

const readsContent = (checks: Check[], id: string) =>
  checks.some((c) => sourcesOf(c).some((s) => s.observation_id === id && s.field[0] === "content"));

const path = (field: string[]) => field.join(".");
const callOf = (o: Observation | undefined) =>
  o?.kind === "file"
    ? `the file ${o.path}`
    : o?.kind === "cli"
      ? `the call \`${o.command_prefix.join(" ")}\``
      : `observation ${o?.id}`;

/** A field of an observation as a reader names it: "the field result.room_id in the output of the call `rooms bookings create`". */
function fieldOf(field: string[], o: Observation | undefined): string {
  const [root, ...rest] = field;
  const of = callOf(o).replace(/^the call /, "");
  if (o?.kind === "cli" && root === "stdout")
    return rest.length ? `the field ${path(rest)} in the output of ${of}` : `the output of ${of}`;
  if (o?.kind === "cli" && root === "exit_code") return `the exit code of ${of}`;
  if (o?.kind === "cli" && root === "argv")
    return rest.length ? `argument ${path(rest)} of ${of}` : `the arguments of ${of}`;
  if (o?.kind === "file" && root === "content")
    return rest.length ? `the field ${path(rest)} in ${callOf(o)}` : `the content of ${callOf(o)}`;
  return `${path(field)} of ${callOf(o)}`;
}

/** What a pass of each scenario proves, one sentence per check, read from the checks themselves. */
export function planProofs(plan: Plan): Limit[] {
  const out: Limit[] = [];
  for (const scenario of plan.scenarios) {
    const byId = new Map(scenario.observations.map((o) => [o.id, o]));
    for (const c of scenario.checks) {
      const o = (id: string) => callOf(byId.get(id));
      const f = (source: { observation_id: string; field: string[] }) =>
        fieldOf(source.field, byId.get(source.observation_id));
      const text =
        c.type === "command_success"
          ? `${o(c.observation_id)} was made exactly once and exited 0.`
          : c.type === "field_equals"
            ? `${f(c.source)} was ${JSON.stringify(c.expected)}.`
            : c.type === "values_match"
              ? `${f(c.left)} equals ${f(c.right)}.`
              : c.type === "flag_equals"
                ? `${o(c.observation_id)} was made with ${c.flag} ${JSON.stringify(c.expected)}.`
                : c.type === "file_exists"
                  ? `${o(c.observation_id)} exists.`
                  : c.type === "file_nonempty"
                    ? `${o(c.observation_id)} is not empty.`
                    : `${o(c.observation_id)} has exactly the expected bytes.`;
      out.push({ scenario: scenario.id, text: text.replace(/^./, (ch) => ch.toUpperCase()) });
    }
    if (plan.target.read_only_confirmed === true)
      out.push({ scenario: scenario.id, text: "The agent made no mutating call (read_only_confirmed)." });
    else if (plan.settings?.unobserved_side_effects === "fail")
      out.push({ scenario: scenario.id, text: "Every mutating call the agent made is one the observations match." });
  }
  return out;
}
