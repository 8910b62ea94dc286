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

export function strengthFindings(plan: LoosePlan, tree: CandidateTree | null): Finding[] {
  const out: Finding[] = [];
  const add = (
    code: string,
    pointer: string,
    message: string,
    suggestion: string,
    severity: Finding["severity"] = "warning",
  ) => out.push({ stage: "hygiene", severity, code, pointer, message, suggestion });

  const url = plan?.target?.api_url;
  const hosts = plan?.target?.allowed_hosts;
  if (typeof url === "string" && Array.isArray(hosts)) {
    let host: string | undefined;
    try {
      host = new URL(url).hostname;
    } catch {
      host = undefined;
    }
    if (host && !hosts.includes(host))
      add(
        "API_URL_NOT_ALLOWED",
        ptr("target", "api_url"),
        `api_url's host "${host}" is not in target.allowed_hosts (${hosts.join(", ") || "empty"}).`,
        `Add "${host}" to allowed_hosts, or point api_url at an allowed host.`,
        "error",
      );
  }

  (Array.isArray(plan?.scenarios) ? plan.scenarios : []).forEach((s, i) => {
    if (!isPart(s)) return;
    const observations: LooseObservation[] = Array.isArray(s.observations) ? s.observations.filter(isObj) : [];
    const checks: LooseCheck[] = Array.isArray(s.checks) ? s.checks.filter(isObj) : [];
    const byId = new Map(observations.map((o) => [o.id, o]));
    const name = `scenario "${s.id}"`;
    const refs = (c: LooseCheck): Array<{ id?: string; field?: string[] }> =>
      c.type === "values_match"
        ? [c.left ?? {}, c.right ?? {}].map((x) => ({ id: x.observation_id, field: x.field }))
        : c.type === "field_equals"
          ? [{ id: c.source?.observation_id, field: c.source?.field }]
          : [{ id: c.observation_id }];

    if (!observations.some((o) => o.kind === "cli")) {
      add(
        "NO_CLI_OBSERVATION",
        ptr("scenarios", i, "observations"),
        `${name} observes no CLI call: an agent that never runs the CLI (writing the file itself) can pass it.`,
        "Add a cli observation of the call the task needs, with a command_success check and a check on what it returned.",
      );
    }

    checks.forEach((c, j) => {
      const at = ptr("scenarios", i, "checks", j);
      if (
        c.type === "values_match" &&
        c.left?.observation_id === c.right?.observation_id &&
        same(c.left?.field, c.right?.field)
      ) {
        add(
          "CHECK_TAUTOLOGICAL",
          at,
          `Check "${c.id}" of ${name} compares ${JSON.stringify(c.left?.field)} of "${c.left?.observation_id}" with itself: it passes whatever the agent did.`,
          "Compare the value with another observation's, or use field_equals with the value the task asks for.",
        );
      }
      // A file compared with a call's whole output prescribes how the agent got it: one that lists everything and keeps
      // the asked fields with jq, or narrows with --fields where the reference did not, wrote the right file and fails.
      if (c.type === "values_match") {
        const sides = [c.left, c.right].map((x) => ({
          obs: byId.get(x?.observation_id),
          field: Array.isArray(x?.field) ? x.field : [],
        }));
        const file = sides.find((x) => x.obs?.kind === "file" && x.field[0] === "content");
        const call = sides.find((x) => x.obs?.kind === "cli" && x.field[0] === "stdout" && x.field.length <= 2);
        if (file && call)
          add(
            "FILE_MATCHES_RAW_OUTPUT",
            at,
            `Check "${c.id}" of ${name} requires file "${file.obs?.path}" to equal the whole ${JSON.stringify(call.field)} of "${call.obs?.id}": it passes only an agent that called exactly as the plan imagines (same --fields, same paging) and saved the output unchanged.`,
            'Check what the task asks the file to hold: field_equals on ["content"] with the expected items, or values_match on single fields (["content", "0", "id"] with ["stdout", "result", "0", "id"]).',
          );
      }
      if (
        c.type === "field_equals" &&
        Array.isArray(c.source?.field) &&
        c.source.field[0] === "argv" &&
        /^\d+$/.test(c.source.field[1] ?? "")
      ) {
        const prefix: unknown = byId.get(c.source.observation_id)?.command_prefix;
        const k = Number(c.source.field[1]);
        if (Array.isArray(prefix) && k < prefix.length && c.source.field.length === 2 && same(prefix[k], c.expected)) {
          add(
            "CHECK_CANNOT_FAIL",
            at,
            `Check "${c.id}" of ${name} expects argv[${k}] to be ${JSON.stringify(c.expected)}, which the observation's own command_prefix already fixes: it cannot fail.`,
            "Check what the call returned (stdout) or a flag's value (flag_equals) instead.",
          );
        }
      }
      // Expected values the referenced command cannot produce, from the candidate's output fields.
      if (c.type === "field_equals" && Array.isArray(c.source?.field)) {
        const obs = byId.get(c.source.observation_id);
        const command =
          obs?.kind === "cli" && Array.isArray(obs.command_prefix) ? commandOf(obs.command_prefix, tree) : undefined;
        const fieldName = outputField(c.source.field);
        const fields = command?.fields;
        if (command && fields && Object.keys(fields).length && fieldName !== undefined) {
          const spec = fields[fieldName];
          if (!spec)
            add(
              "OUTPUT_FIELD_UNKNOWN",
              `${at}/source/field`,
              `Check "${c.id}" of ${name} reads "${fieldName}", which "${command.name}" does not return (it returns ${Object.keys(fields).join(", ")}).`,
              "Correct the field name; `<binary> <command> --describe` shows what the command returns.",
            );
          else if (spec.enum && !spec.enum.some((e) => same(e, c.expected)))
            add(
              "EXPECTED_NOT_PRODUCIBLE",
              `${at}/expected`,
              `Check "${c.id}" of ${name} expects ${JSON.stringify(c.expected)} in "${fieldName}", which "${command.name}" only returns as one of ${spec.enum.map((e) => JSON.stringify(e)).join(", ")}.`,
              "Expect one of the values the command can return.",
            );
          else if (
            spec.type &&
            c.expected !== null &&
            !["object", "array"].includes(spec.type) &&
            typeOf(c.expected) !== spec.type &&
            !(spec.type === "number" && typeOf(c.expected) === "integer")
          )
            add(
              "EXPECTED_NOT_PRODUCIBLE",
              `${at}/expected`,
              `Check "${c.id}" of ${name} expects a ${typeOf(c.expected)} (${JSON.stringify(c.expected)}) in "${fieldName}", which "${command.name}" returns as a ${spec.type}: they are never equal (no coercion).`,
              `Expect a ${spec.type}.`,
            );
        }
      }
      if (c.type === "flag_equals") {
        const obs = byId.get(c.observation_id);
        const command =
          obs?.kind === "cli" && Array.isArray(obs.command_prefix) ? commandOf(obs.command_prefix, tree) : undefined;
        const param = command?.parameters.find((p) => p.name === c.flag);
        if (command && !param)
          add(
            "OUTPUT_FIELD_UNKNOWN",
            `${at}/flag`,
            `Check "${c.id}" of ${name} reads ${c.flag}, which "${command.name}" does not have.`,
            `Its flags: ${command.parameters.map((p) => p.name).join(", ")}.`,
          );
        else if (param?.enum && !param.enum.some((e) => String(e) === c.expected))
          add(
            "EXPECTED_NOT_PRODUCIBLE",
            `${at}/expected`,
            `Check "${c.id}" of ${name} expects ${c.flag} ${JSON.stringify(c.expected)}, which the command refuses (one of ${param.enum.join(", ")}).`,
            "Expect one of the flag's values.",
          );
      }
    });

    const used = new Set(checks.flatMap((c) => refs(c).map((r) => r.id)));
    observations.forEach((o, k) => {
      if (!used.has(o.id))
        add(
          "OBSERVATION_UNUSED",
          ptr("scenarios", i, "observations", k),
          `Observation "${o.id}" of ${name} is collected but no check uses it.`,
          "Check something about it, or remove it.",
        );
    });

    // A file judged only by existing or being non-empty is a file the agent could have written without the CLI.
    observations.forEach((o, k) => {
      if (o.kind !== "file") return;
      const on = checks.filter((c) => refs(c).some((r) => r.id === o.id));
      const judgedOnContent = on.some(
        (c) =>
          c.type === "file_sha256" ||
          ((c.type === "field_equals" || c.type === "values_match") &&
            refs(c).some((r) => r.id === o.id && r.field?.[0] === "content")),
      );
      if (on.length && !judgedOnContent)
        add(
          "FILE_NOT_TIED_TO_CLI",
          ptr("scenarios", i, "observations", k),
          `File "${o.path}" of ${name} is judged only by existing or being non-empty: any file with any content passes, with or without a CLI call.`,
          'Check what it holds: field_equals on ["content", …], values_match with a cli observation\'s field, or file_sha256.',
        );
    });

    for (const key of uncheckedInputs(s))
      add(
        "INPUT_NOT_CHECKED",
        ptr("scenarios", i, "inputs", key),
        `Input "${key}" (${JSON.stringify(s.inputs?.[key])}) of ${name} is given to the agent, but no check looks at it: an agent that gets it wrong still passes.`,
        "Add a check on it: field_equals on what the call returned, or flag_equals on the flag that carries it.",
      );
  });
  return out;
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
