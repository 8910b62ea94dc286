import type { CandidateTree, Finding } from "./findings.js";
import { isObj, isPart, ptr } from "./pointer.js";
import type { LooseCheck, LooseObservation, LoosePlan, LooseScenario } from "./types.js";

/**
 * What a plan proves, before any run: checks that cannot fail, scenarios the agent could pass without the CLI,
 * inputs and observations no check looks at, files nothing ties to a call, expected values the command cannot produce,
 * and an `api_url` outside `allowed_hosts`. Each is a warning (an error with --strict) naming the scenario and check.
 */

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every scalar inside a value (an expected object or array holds several). */
function scalars(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => scalars(v, out));
  else if (isObj(value)) Object.values(value).forEach((v) => scalars(v, out));
  else if (value !== null && value !== undefined) out.push(String(value));
  return out;
}

/** The candidate's command an observation's prefix names: the longest run of its words that is a command. */
function commandOf(prefix: string[], tree: CandidateTree | null) {
  if (!tree) return undefined;
  const words = prefix.slice(1).filter((t) => !t.startsWith("-"));
  for (let n = Math.min(3, words.length); n >= 1; n--) {
    const found = tree.commands.find((c) => c.name === words.slice(0, n).join(" "));
    if (found) return found;
  }
  return undefined;
}

/** The output field a path reads (["stdout", "result", "0", "status"] → "status"), when it reads one. */
function outputField(path: string[]): string | undefined {
  if (path[0] !== "stdout" || path[1] !== "result") return undefined;
  const rest = path.slice(2).filter((k) => !/^\d+$/.test(k));
  return rest.length === 1 ? rest[0] : undefined;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

type TreeCommand = CandidateTree["commands"][number];
type ObservationsById = Map<string | undefined, LooseObservation>;

/** A strength finding: every one is a hygiene finding, a warning unless said otherwise. */
function hygiene(
  code: string,
  pointer: string,
  message: string,
  suggestion: string,
  severity: Finding["severity"] = "warning",
): Finding {
  return { stage: "hygiene", severity, code, pointer, message, suggestion };
}

/** The observations (and fields of them) a check reads: what makes an observation used, and a file judged on content. */
function checkRefs(c: LooseCheck): Array<{ id?: string; field?: string[] }> {
  return c.type === "values_match"
    ? [c.left ?? {}, c.right ?? {}].map((x) => ({ id: x.observation_id, field: x.field }))
    : c.type === "field_equals"
      ? [{ id: c.source?.observation_id, field: c.source?.field }]
      : [{ id: c.observation_id }];
}

/** The candidate's command a cli observation calls, when the observation is one and the tree names the command. */
function cliCommand(obs: LooseObservation | undefined, tree: CandidateTree | null): TreeCommand | undefined {
  return obs?.kind === "cli" && Array.isArray(obs.command_prefix) ? commandOf(obs.command_prefix, tree) : undefined;
}

export function strengthFindings(plan: LoosePlan, tree: CandidateTree | null): Finding[] {
  return [
    ...apiUrlFindings(plan),
    ...(Array.isArray(plan?.scenarios) ? plan.scenarios : []).flatMap((s, i) =>
      isPart(s) ? scenarioFindings(s, i, tree) : [],
    ),
  ];
}

/** Whether `api_url` points at a host `allowed_hosts` leaves out (the run would refuse its own API). */
function apiUrlFindings(plan: LoosePlan): Finding[] {
  const url = plan?.target?.api_url;
  const hosts = plan?.target?.allowed_hosts;
  if (typeof url !== "string" || !Array.isArray(hosts)) return [];
  let host: string | undefined;
  try {
    host = new URL(url).hostname;
  } catch {
    host = undefined;
  }
  if (!host || hosts.includes(host)) return [];
  return [
    hygiene(
      "API_URL_NOT_ALLOWED",
      ptr("target", "api_url"),
      `api_url's host "${host}" is not in target.allowed_hosts (${hosts.join(", ") || "empty"}).`,
      `Add "${host}" to allowed_hosts, or point api_url at an allowed host.`,
      "error",
    ),
  ];
}

/** One scenario's findings, in the order a reader meets them: the scenario, its checks, its observations, its inputs. */
function scenarioFindings(s: LooseScenario, i: number, tree: CandidateTree | null): Finding[] {
  const observations: LooseObservation[] = Array.isArray(s.observations) ? s.observations.filter(isObj) : [];
  const checks: LooseCheck[] = Array.isArray(s.checks) ? s.checks.filter(isObj) : [];
  const byId: ObservationsById = new Map(observations.map((o) => [o.id, o]));
  const name = `scenario "${s.id}"`;
  return [
    ...noCliFindings(observations, i, name),
    ...checks.flatMap((c, j) => checkFindings(c, ptr("scenarios", i, "checks", j), name, byId, tree)),
    ...unusedObservationFindings(observations, checks, i, name),
    ...untiedFileFindings(observations, checks, i, name),
    ...uncheckedInputFindings(s, i, name),
  ];
}

/** Whether the scenario observes no CLI call at all, so an agent that never runs the CLI can pass it. */
function noCliFindings(observations: LooseObservation[], i: number, name: string): Finding[] {
  if (observations.some((o) => o.kind === "cli")) return [];
  return [
    hygiene(
      "NO_CLI_OBSERVATION",
      ptr("scenarios", i, "observations"),
      `${name} observes no CLI call: an agent that never runs the CLI (writing the file itself) can pass it.`,
      "Add a cli observation of the call the task needs, with a command_success check and a check on what it returned.",
    ),
  ];
}

/** Every way one check can be too weak or unsatisfiable, in a fixed order. */
function checkFindings(
  c: LooseCheck,
  at: string,
  name: string,
  byId: ObservationsById,
  tree: CandidateTree | null,
): Finding[] {
  return [
    tautologyFinding(c, at, name),
    rawOutputFinding(c, at, name, byId),
    fixedArgvFinding(c, at, name, byId),
    outputFieldFinding(c, at, name, byId, tree),
    flagFinding(c, at, name, byId, tree),
  ].filter((f): f is Finding => f !== undefined);
}

/** Whether a values_match compares a field with itself, which passes whatever the agent did. */
function tautologyFinding(c: LooseCheck, at: string, name: string): Finding | undefined {
  if (
    c.type !== "values_match" ||
    c.left?.observation_id !== c.right?.observation_id ||
    !same(c.left?.field, c.right?.field)
  )
    return undefined;
  return hygiene(
    "CHECK_TAUTOLOGICAL",
    at,
    `Check "${c.id}" of ${name} compares ${JSON.stringify(c.left?.field)} of "${c.left?.observation_id}" with itself: it passes whatever the agent did.`,
    "Compare the value with another observation's, or use field_equals with the value the task asks for.",
  );
}

/** Whether a values_match ties a file's content to a call's whole output rather than to the fields the task asks for. */
function rawOutputFinding(c: LooseCheck, at: string, name: string, byId: ObservationsById): Finding | undefined {
  if (c.type !== "values_match") return undefined;
  // A file compared with a call's whole output prescribes how the agent got it: one that lists everything and keeps
  // the asked fields with jq, or narrows with --fields where the reference did not, wrote the right file and fails.
  const sides = [c.left, c.right].map((x) => ({
    obs: byId.get(x?.observation_id),
    field: Array.isArray(x?.field) ? x.field : [],
  }));
  const file = sides.find((x) => x.obs?.kind === "file" && x.field[0] === "content");
  const call = sides.find((x) => x.obs?.kind === "cli" && x.field[0] === "stdout" && x.field.length <= 2);
  if (!file || !call) return undefined;
  return hygiene(
    "FILE_MATCHES_RAW_OUTPUT",
    at,
    `Check "${c.id}" of ${name} requires file "${file.obs?.path}" to equal the whole ${JSON.stringify(call.field)} of "${call.obs?.id}": it passes only an agent that called exactly as the plan imagines (same --fields, same paging) and saved the output unchanged.`,
    'Check what the task asks the file to hold: field_equals on ["content"] with the expected items, or values_match on single fields (["content", "0", "id"] with ["stdout", "result", "0", "id"]).',
  );
}

/** Whether a field_equals on an argv word expects what the observation's own command_prefix already fixes. */
function fixedArgvFinding(c: LooseCheck, at: string, name: string, byId: ObservationsById): Finding | undefined {
  if (
    c.type !== "field_equals" ||
    !Array.isArray(c.source?.field) ||
    c.source.field[0] !== "argv" ||
    !/^\d+$/.test(c.source.field[1] ?? "")
  )
    return undefined;
  const prefix: unknown = byId.get(c.source.observation_id)?.command_prefix;
  const k = Number(c.source.field[1]);
  if (!Array.isArray(prefix) || k >= prefix.length || c.source.field.length !== 2 || !same(prefix[k], c.expected))
    return undefined;
  return hygiene(
    "CHECK_CANNOT_FAIL",
    at,
    `Check "${c.id}" of ${name} expects argv[${k}] to be ${JSON.stringify(c.expected)}, which the observation's own command_prefix already fixes: it cannot fail.`,
    "Check what the call returned (stdout) or a flag's value (flag_equals) instead.",
  );
}

/** Whether a field_equals reads an output field the command does not return, or expects a value that field never holds. */
function outputFieldFinding(
  c: LooseCheck,
  at: string,
  name: string,
  byId: ObservationsById,
  tree: CandidateTree | null,
): Finding | undefined {
  if (c.type !== "field_equals" || !Array.isArray(c.source?.field)) return undefined;
  // Expected values the referenced command cannot produce, from the candidate's output fields.
  const command = cliCommand(byId.get(c.source.observation_id), tree);
  const fieldName = outputField(c.source.field);
  const fields = command?.fields;
  if (!command || !fields || !Object.keys(fields).length || fieldName === undefined) return undefined;
  const spec = fields[fieldName];
  if (!spec)
    return hygiene(
      "OUTPUT_FIELD_UNKNOWN",
      `${at}/source/field`,
      `Check "${c.id}" of ${name} reads "${fieldName}", which "${command.name}" does not return (it returns ${Object.keys(fields).join(", ")}).`,
      "Correct the field name; `<binary> <command> --describe` shows what the command returns.",
    );
  return expectedValueFinding(c, at, name, command, fieldName, spec);
}

/** Whether the expected value lies outside what the output field's enum or type lets the command return. */
function expectedValueFinding(
  c: LooseCheck,
  at: string,
  name: string,
  command: TreeCommand,
  fieldName: string,
  spec: { type?: string; enum?: unknown[] },
): Finding | undefined {
  if (spec.enum && !spec.enum.some((e) => same(e, c.expected)))
    return hygiene(
      "EXPECTED_NOT_PRODUCIBLE",
      `${at}/expected`,
      `Check "${c.id}" of ${name} expects ${JSON.stringify(c.expected)} in "${fieldName}", which "${command.name}" only returns as one of ${spec.enum.map((e) => JSON.stringify(e)).join(", ")}.`,
      "Expect one of the values the command can return.",
    );
  if (
    spec.type &&
    c.expected !== null &&
    !["object", "array"].includes(spec.type) &&
    typeOf(c.expected) !== spec.type &&
    !(spec.type === "number" && typeOf(c.expected) === "integer")
  )
    return hygiene(
      "EXPECTED_NOT_PRODUCIBLE",
      `${at}/expected`,
      `Check "${c.id}" of ${name} expects a ${typeOf(c.expected)} (${JSON.stringify(c.expected)}) in "${fieldName}", which "${command.name}" returns as a ${spec.type}: they are never equal (no coercion).`,
      `Expect a ${spec.type}.`,
    );
  return undefined;
}

/** Whether a flag_equals names a flag the command lacks, or expects a value the flag refuses. */
function flagFinding(
  c: LooseCheck,
  at: string,
  name: string,
  byId: ObservationsById,
  tree: CandidateTree | null,
): Finding | undefined {
  if (c.type !== "flag_equals") return undefined;
  const command = cliCommand(byId.get(c.observation_id), tree);
  const param = command?.parameters.find((p) => p.name === c.flag);
  if (command && !param)
    return hygiene(
      "OUTPUT_FIELD_UNKNOWN",
      `${at}/flag`,
      `Check "${c.id}" of ${name} reads ${c.flag}, which "${command.name}" does not have.`,
      `Its flags: ${command.parameters.map((p) => p.name).join(", ")}.`,
    );
  if (param?.enum && !param.enum.some((e) => String(e) === c.expected))
    return hygiene(
      "EXPECTED_NOT_PRODUCIBLE",
      `${at}/expected`,
      `Check "${c.id}" of ${name} expects ${c.flag} ${JSON.stringify(c.expected)}, which the command refuses (one of ${param.enum.join(", ")}).`,
      "Expect one of the flag's values.",
    );
  return undefined;
}

/** Which observations are collected but read by no check. */
function unusedObservationFindings(
  observations: LooseObservation[],
  checks: LooseCheck[],
  i: number,
  name: string,
): Finding[] {
  const used = new Set(checks.flatMap((c) => checkRefs(c).map((r) => r.id)));
  return observations.flatMap((o, k) =>
    used.has(o.id)
      ? []
      : [
          hygiene(
            "OBSERVATION_UNUSED",
            ptr("scenarios", i, "observations", k),
            `Observation "${o.id}" of ${name} is collected but no check uses it.`,
            "Check something about it, or remove it.",
          ),
        ],
  );
}

/** Which file observations are checked, but never on what they hold. */
function untiedFileFindings(
  observations: LooseObservation[],
  checks: LooseCheck[],
  i: number,
  name: string,
): Finding[] {
  return observations.flatMap((o, k) => {
    if (o.kind !== "file") return [];
    // A file judged only by existing or being non-empty is a file the agent could have written without the CLI.
    const on = checks.filter((c) => checkRefs(c).some((r) => r.id === o.id));
    const judgedOnContent = on.some(
      (c) =>
        c.type === "file_sha256" ||
        ((c.type === "field_equals" || c.type === "values_match") &&
          checkRefs(c).some((r) => r.id === o.id && r.field?.[0] === "content")),
    );
    if (!on.length || judgedOnContent) return [];
    return [
      hygiene(
        "FILE_NOT_TIED_TO_CLI",
        ptr("scenarios", i, "observations", k),
        `File "${o.path}" of ${name} is judged only by existing or being non-empty: any file with any content passes, with or without a CLI call.`,
        'Check what it holds: field_equals on ["content", …], values_match with a cli observation\'s field, or file_sha256.',
      ),
    ];
  });
}

/** Which inputs the agent is given that no check looks at (see uncheckedInputs). */
function uncheckedInputFindings(s: LooseScenario, i: number, name: string): Finding[] {
  return uncheckedInputs(s).map((key) =>
    hygiene(
      "INPUT_NOT_CHECKED",
      ptr("scenarios", i, "inputs", key),
      `Input "${key}" (${JSON.stringify(s.inputs?.[key])}) of ${name} is given to the agent, but no check looks at it: an agent that gets it wrong still passes.`,
      "Add a check on it: field_equals on what the call returned, or flag_equals on the flag that carries it.",
    ),
  );
}

/** Inputs handed to the agent that no check's expected value, prefix or file path mentions: the scenario's blind spots. */
export function uncheckedInputs(scenario: LooseScenario): string[] {
  if (!isObj(scenario?.inputs)) return [];
  const checks: LooseCheck[] = Array.isArray(scenario.checks) ? scenario.checks.filter(isObj) : [];
  const observations: LooseObservation[] = Array.isArray(scenario.observations)
    ? scenario.observations.filter(isObj)
    : [];
  const looked = new Set<string>([
    ...checks.flatMap((c) => scalars(c.expected)),
    ...observations.flatMap((o) => [
      ...(Array.isArray(o.command_prefix) ? o.command_prefix.map(String) : []),
      ...(typeof o.path === "string" ? [o.path] : []),
    ]),
  ]);
  return Object.entries(scenario.inputs)
    .filter(([, value]) => {
      const values = scalars(value);
      return values.length > 0 && !values.every((v) => looked.has(v));
    })
    .map(([key]) => key);
}
