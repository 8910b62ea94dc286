import { opaque, SECRET_PATTERNS } from "../../runtime/guard.js";
import { sha256 } from "../../core/hash.js";
import { InterError } from "../../core/errors.js";
import { shippedSchemaValidator } from "../../core/json-schema.js";
import { MAX_DOCUMENT_DEPTH, nestedDeeper } from "../../core/json-depth.js";
import { escapeToken } from "../openapi/pointer.js";
import { referenceFindings } from "./reference.js";
import { strengthFindings } from "./strength.js";
import { isObj, isPart, ptr } from "./pointer.js";
import { planCredentialEnvs, type LooseObservation, type LoosePlan, type LooseScenario } from "./types.js";
import { argvProblems, FIX_RENAMES } from "./argv.js";
import { count } from "../../core/plural.js";
import type { CandidateTree, Finding, Stage } from "./findings.js";

export type { CandidateTree, Finding, Stage } from "./findings.js";
export interface ValidationReport {
  valid: boolean;
  plan: { file: string; sha256: string };
  stages: Record<Stage, { ran: boolean; reason?: string }>;
  findings: Finding[];
  errors: number;
  warnings: number;
  candidate: { sha256: string | null; binary: string } | null;
  /** What passing validation does not establish. */
  limits: string[];
}

const LIMITS = [
  "Schema validity proves the plan is well-formed, not that its expected values are true for the business.",
  "Validation cannot establish that a live identifier (the id of a record the task names) exists in the target API.",
  "Checks prove narrow facts: command_success is not correctness, a non-empty file is not the right file.",
];

const REMOVED = new Set(["pack_id", "requirements", "prerequisites"]);
const TOOL_OWNED = new Set([
  "candidate",
  "candidate_hash",
  "candidate_sha256",
  "candidate_sha",
  "cli_sha256",
  "receipt",
  "inspection_receipt",
  "receipt_sha256",
  "runtime_version",
  "inter_version",
  "node_version",
  "agent_version",
  "run_id",
  "run",
  "results",
  "plan_hash",
  "created_at",
  "generated_at",
]);
const CHECK_KINDS: Record<string, string[]> = {
  command_success: ["cli"],
  flag_equals: ["cli"],
  file_exists: ["file"],
  file_nonempty: ["file"],
  file_sha256: ["file"],
  field_equals: ["cli", "file"],
  values_match: ["cli", "file"],
};
/** Where a field path may start, by the kind of observation it reads. */
const FIELD_ROOTS: Record<string, string[]> = {
  cli: ["stdout", "exit_code", "argv"],
  file: ["content", "exists", "bytes", "sha256"],
};
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const PLACEHOLDER = /<<[^>]*>>/;

function lineColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  return { line, column: position - before.lastIndexOf("\n") };
}

/** Shape: the JSON Schema, with fields of older versions and tool-owned fields named for what they are. */
async function shape(plan: unknown, out: Finding[]): Promise<void> {
  const add = (code: string, pointer: string, message: string, suggestion: string) =>
    out.push({ stage: "shape", severity: "error", code, pointer, message, suggestion });
  const named = new Set<string>();
  const scan = (obj: unknown, at: string[]) => {
    if (!isObj(obj)) return;
    for (const key of Object.keys(obj)) {
      const pointer = ptr(...at, key);
      if (REMOVED.has(key)) {
        add(
          "REMOVED_FIELD",
          pointer,
          `"${key}" is not part of schema_version 3.0.0.`,
          `Remove "${key}"; version 3 plans have no ${key}.`,
        );
        named.add(pointer);
      } else if (TOOL_OWNED.has(key)) {
        add(
          "TOOL_OWNED_FIELD",
          pointer,
          `"${key}" is owned by the tool: it appears in results, never in an authored plan.`,
          `Remove "${key}"; inter binds results to the candidate, receipt and versions itself.`,
        );
        named.add(pointer);
      }
    }
  };
  scan(plan, []);
  if (isObj(plan)) {
    scan(plan.target, ["target"]);
    if (Array.isArray(plan.scenarios)) plan.scenarios.forEach((s, i) => scan(s, ["scenarios", String(i)]));
    if (plan.schema_version !== "3.0.0") {
      add(
        "WRONG_SCHEMA_VERSION",
        ptr("schema_version"),
        `schema_version is ${JSON.stringify(plan.schema_version)}; this tool reads exactly "3.0.0".`,
        'Set "schema_version": "3.0.0" and check the plan against docs/eval-plan.md.',
      );
      named.add(ptr("schema_version"));
    }
  }
  const validate = await shippedSchemaValidator("eval-plan");
  if (validate(plan)) return;
  for (const error of validate.errors ?? []) {
    if (error.keyword === "additionalProperties") {
      const pointer = `${error.instancePath}/${escapeToken(String(error.params.additionalProperty))}`;
      if (!named.has(pointer))
        add(
          "UNKNOWN_FIELD",
          pointer,
          `Unknown field "${error.params.additionalProperty}".`,
          "Remove it or correct its spelling; eval-plan.schema.json lists every field.",
        );
      continue;
    }
    if (named.has(error.instancePath)) continue;
    if (error.keyword === "oneOf" || error.keyword === "if") continue;
    if (error.keyword === "discriminator") {
      const allowed =
        error.params.tag === "kind"
          ? "cli, file, request"
          : "command_success, field_equals, values_match, flag_equals, file_exists, file_nonempty, file_sha256";
      add(
        "SCHEMA_VIOLATION",
        `${error.instancePath}/${error.params.tag}`,
        `${error.params.tag} ${JSON.stringify(error.params.tagValue)} is not one of ${allowed}.`,
        `Use one of: ${allowed}.`,
      );
      continue;
    }
    add(
      "SCHEMA_VIOLATION",
      error.instancePath,
      `${error.instancePath || "the plan"} ${error.message}${error.params.allowedValues ? `: ${error.params.allowedValues.join(", ")}` : ""}.`,
      "Fix the value; eval-plan.schema.json says what is allowed here.",
    );
  }
}

/** References: ids unique, checks point at observations of their own scenario of a fitting kind, paths sane. */
function references(plan: LoosePlan, out: Finding[]): void {
  const add = (code: string, pointer: string, message: string, suggestion: string) =>
    out.push({ stage: "references", severity: "error", code, pointer, message, suggestion });
  const scenarios: LooseScenario[] = Array.isArray(plan?.scenarios) ? plan.scenarios : [];
  const owner = new Map<string, number>();
  scenarios.forEach((s, i) => {
    if (!isPart(s)) return;
    if (typeof s.id === "string") {
      if (owner.has(s.id))
        add(
          "DUPLICATE_SCENARIO_ID",
          ptr("scenarios", i, "id"),
          `Scenario id "${s.id}" is already used by scenario ${owner.get(s.id)}.`,
          "Give every scenario its own id.",
        );
      else owner.set(s.id, i);
    }
  });
  const observationsOf = new Map<number, Map<string, LooseObservation>>();
  scenarios.forEach((s, i) => {
    const map = new Map<string, LooseObservation>();
    (Array.isArray(s?.observations) ? s.observations : []).forEach((o, j) => {
      if (!isPart(o) || typeof o.id !== "string") return;
      if (map.has(o.id))
        add(
          "DUPLICATE_OBSERVATION_ID",
          ptr("scenarios", i, "observations", j, "id"),
          `Observation id "${o.id}" appears twice in scenario "${s.id}".`,
          "Observation ids are unique within a scenario.",
        );
      else map.set(o.id, o);
      if (o.kind === "file" && typeof o.path === "string") {
        const path = o.path.replace(/\\/g, "/");
        if (path.startsWith("/") || /^[a-zA-Z]:/.test(path))
          add(
            "FILE_PATH_ABSOLUTE",
            ptr("scenarios", i, "observations", j, "path"),
            `File path "${o.path}" is absolute; file observations are relative to the attempt's outputs folder.`,
            'Use a relative path such as "report.json".',
          );
        else if (path.split("/").includes(".."))
          add(
            "FILE_PATH_ESCAPES",
            ptr("scenarios", i, "observations", j, "path"),
            `File path "${o.path}" leaves the outputs folder.`,
            "Remove the .. segments.",
          );
      }
    });
    observationsOf.set(i, map);
  });
  scenarios.forEach((s, i) => {
    const own = observationsOf.get(i)!;
    const seen = new Set<string>();
    (Array.isArray(s?.checks) ? s.checks : []).forEach((c, j) => {
      if (!isPart(c)) return;
      if (typeof c.id === "string") {
        if (seen.has(c.id))
          add(
            "DUPLICATE_CHECK_ID",
            ptr("scenarios", i, "checks", j, "id"),
            `Check id "${c.id}" appears twice in scenario "${s.id}".`,
            "Check ids are unique within a scenario.",
          );
        seen.add(c.id);
      }
      const refs: Array<[string, unknown, string[] | undefined]> =
        c.type === "values_match"
          ? [
              ["left", c.left?.observation_id, c.left?.field],
              ["right", c.right?.observation_id, c.right?.field],
            ]
          : c.type === "field_equals"
            ? [["source", c.source?.observation_id, c.source?.field]]
            : [["observation_id", c.observation_id, undefined]];
      for (const [where, id, field] of refs) {
        if (typeof id !== "string") continue;
        const at =
          where === "observation_id"
            ? ptr("scenarios", i, "checks", j, "observation_id")
            : ptr("scenarios", i, "checks", j, where, "observation_id");
        const target = own.get(id);
        if (!target) {
          const elsewhere = [...observationsOf].find(([k, m]) => k !== i && m.has(id));
          add(
            "UNKNOWN_OBSERVATION",
            at,
            elsewhere
              ? `Check "${c.id}" names observation "${id}" of scenario "${scenarios[elsewhere[0]]?.id}"; checks may only use their own scenario's observations.`
              : `Check "${c.id}" names observation "${id}", which scenario "${s.id}" does not have.`,
            `Use one of: ${[...own.keys()].join(", ") || "(no observations)"}.`,
          );
          continue;
        }
        const kinds = typeof c.type === "string" ? CHECK_KINDS[c.type] : undefined;
        if (kinds && target.kind !== "request" && !kinds.includes(String(target.kind)))
          add(
            "WRONG_OBSERVATION_KIND",
            at,
            `${c.type} needs a ${kinds.join(" or ")} observation; "${id}" is ${target.kind}.`,
            `Point it at a ${kinds.join(" or ")} observation.`,
          );
        const roots = typeof target.kind === "string" ? FIELD_ROOTS[target.kind] : undefined;
        if (roots && Array.isArray(field) && field.length && !roots.includes(field[0]!)) {
          add(
            "FIELD_PATH_ROOT",
            `${ptr("scenarios", i, "checks", j, where, "field")}/0`,
            `Field path ${JSON.stringify(field)} starts at "${field[0]}"; on a ${target.kind} observation it must start at ${roots.join(", ")}.`,
            target.kind === "cli"
              ? 'Start the path at "stdout", e.g. ["stdout", "result", "id"].'
              : 'Start the path at "content" (the file parsed as JSON), e.g. ["content", "0", "title"].',
          );
        }
      }
    });
  });
}

/** Against the candidate: the binary, each prefix's command path and every flag it names exist. */
function againstCandidate(plan: LoosePlan, tree: CandidateTree, out: Finding[]): void {
  (Array.isArray(plan?.scenarios) ? plan.scenarios : []).forEach((s, i) => {
    (Array.isArray(s?.observations) ? s.observations : []).forEach((o, j) => {
      if (o?.kind !== "cli" || !Array.isArray(o.command_prefix) || !o.command_prefix.length) return;
      const at = ptr("scenarios", i, "observations", j, "command_prefix");
      for (const p of argvProblems(o.command_prefix, tree, true))
        out.push({
          stage: "candidate",
          severity: "error",
          code: p.code,
          pointer: `${at}/${p.index}`,
          message: p.message,
          suggestion: p.suggestion,
          ...(p.renamed ? { renamed: p.renamed } : {}),
        });
    });
  });
}

/** Hygiene: no credential values anywhere, credential_env a variable name, request observations flagged. */
/**
 * A file path (`../../schemas/eval-plan.schema.json`, `/home/ci/build-1234/x.json`): long and made of letters and
 * digits like a key, but a key has no `../`, no path of several named folders, no file extension.
 */
const looksLikePath = (value: string) =>
  /^(\.{1,2}\/|\/)?([\w.@+-]+\/)+[\w.@+-]+\.[a-z]{2,5}$/i.test(value) && (value.match(/\//g) ?? []).length >= 2;

function hygiene(raw: unknown, plan: LoosePlan, out: Finding[]): void {
  const walk = (value: unknown, at: Array<string | number>) => {
    // `$schema` names the schema the plan was written against (inter eval new writes a path there): never a secret.
    if (at.length === 1 && at[0] === "$schema") return;
    if (typeof value === "string") {
      const secret = SECRET_PATTERNS.find(([pattern]) => pattern.test(value));
      if (secret || (opaque(value) && !looksLikePath(value)))
        out.push({
          stage: "hygiene",
          severity: "error",
          code: "CREDENTIAL_VALUE",
          pointer: ptr(...at),
          message: `This value looks like ${secret ? secret[1] : "a key or token"}; plans are shared and must never hold credentials.`,
          suggestion: "Remove it; the runner passes the credential from the variable named in target.credential_env.",
        });
      if (PLACEHOLDER.test(value))
        out.push({
          stage: "hygiene",
          severity: "error",
          code: "PLACEHOLDER",
          pointer: ptr(...at),
          message: `"${value}" is a placeholder left by \`inter eval new\`.`,
          suggestion: "Replace it with the real task, id or expected value.",
        });
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i]));
    else if (isObj(value)) for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
  };
  walk(raw, []);
  const listed = Array.isArray(plan?.target?.credential_env);
  for (const [i, env] of planCredentialEnvs(plan).entries()) {
    if (ENV_NAME.test(env)) continue;
    out.push({
      stage: "hygiene",
      severity: "error",
      code: "CREDENTIAL_ENV_INVALID",
      pointer: listed ? ptr("target", "credential_env", i) : ptr("target", "credential_env"),
      message: `credential_env must be the name of an environment variable (UPPER_SNAKE), not "${env.length > 12 ? `${env.slice(0, 4)}…` : env}".`,
      suggestion: 'Name the variable, e.g. "ROOMS_API_KEY", and keep its value out of the plan.',
    });
  }
  (Array.isArray(plan?.scenarios) ? plan.scenarios : []).forEach((s, i) =>
    (Array.isArray(s?.observations) ? s.observations : []).forEach((o, j) => {
      if (o?.kind === "request")
        out.push({
          stage: "hygiene",
          severity: "warning",
          code: "REQUEST_NOT_MEASURABLE",
          pointer: ptr("scenarios", i, "observations", j),
          message: `Observation "${o.id}" is a request observation; this runner does not record HTTP requests, so every check on it will be incomplete.`,
          suggestion: "Observe the CLI invocation (kind cli) or an output file instead.",
        });
    }),
  );
}

/** Runs the four validation stages (docs/eval-plan.md) on the plan's text; `candidate` enables stage 3. */
export interface ValidateOptions {
  /** Why there is no candidate, for the report. */
  candidateMissing?: string;
  /** Warnings count as errors. */
  strict?: boolean;
  /** The reference solutions beside the plan (file name and text), validated with it. */
  reference?: { file: string; text: string };
}

export async function validatePlan(
  text: string,
  file: string,
  candidate: CandidateTree | null,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const candidateMissing = options.candidateMissing ?? "no cli.tgz or inspection receipt is present";
  const findings: Finding[] = [];
  const stages: ValidationReport["stages"] = {
    shape: { ran: true },
    references: { ran: false },
    candidate: { ran: false },
    hygiene: { ran: false },
  };
  let plan: unknown;
  try {
    plan = JSON.parse(text);
    if (nestedDeeper(plan, MAX_DOCUMENT_DEPTH)) {
      plan = undefined;
      throw new Error(`it nests deeper than ${MAX_DOCUMENT_DEPTH} levels, which no plan does`);
    }
  } catch (error) {
    const position = Number(/position (\d+)/.exec((error as Error).message)?.[1] ?? NaN);
    const where = Number.isFinite(position) ? lineColumn(text, position) : undefined;
    findings.push({
      stage: "shape",
      severity: "error",
      code: "PLAN_JSON_INVALID",
      pointer: "",
      message: `${file} is not valid JSON${where ? ` at line ${where.line}, column ${where.column}` : ""}: ${(error as Error).message}.`,
      suggestion: where ? `Fix the JSON at line ${where.line}, column ${where.column}.` : "Fix the JSON syntax.",
    });
    for (const s of ["references", "candidate", "hygiene"] as const)
      stages[s] = { ran: false, reason: "the plan is not valid JSON" };
  }
  if (plan !== undefined) {
    await shape(plan, findings);
    // The later stages report on a plan the schema refused too: each checks a part's kind before reading it.
    const loose: LoosePlan = isObj(plan) ? (plan as LoosePlan) : {};
    references(loose, findings);
    stages.references = { ran: true };
    if (candidate) {
      againstCandidate(loose, candidate, findings);
      stages.candidate = { ran: true };
    } else stages.candidate = { ran: false, reason: candidateMissing };
    hygiene(plan, loose, findings);
    findings.push(...strengthFindings(loose, candidate));
    if (options.reference) findings.push(...referenceFindings(loose, options.reference, candidate));
    stages.hygiene = { ran: true };
  }
  if (options.strict) for (const f of findings) f.severity = "error";
  const errors = findings.filter((f) => f.severity === "error").length;
  return {
    valid: errors === 0,
    plan: { file, sha256: sha256(text) },
    stages,
    findings,
    errors,
    warnings: findings.length - errors,
    candidate: candidate ? { sha256: candidate.sha256, binary: candidate.binary } : null,
    limits: LIMITS,
  };
}

/** The one error an invalid plan gives, wherever it was validated: the first finding, the whole report in details. */
export function planInvalid(report: ValidationReport): InterError {
  const first = report.findings.find((f) => f.severity === "error")!;
  // A plan broken by the overlay's renames says so first: that is the cause, and one command fixes it.
  const renames = [
    ...new Map(
      report.findings.filter((f) => f.severity === "error" && f.renamed).map((f) => [f.renamed!.from, f.renamed!]),
    ).values(),
  ];
  const cause = renames.length
    ? ` ${count(report.findings.filter((f) => f.renamed).length, "error")} come${report.findings.filter((f) => f.renamed).length === 1 ? "s" : ""} from the overlay's renames: ${renames.map((r) => `\`${r.from}\` → \`${r.to}\` (${r.entry})`).join(", ")}.`
    : "";
  return new InterError(
    "PLAN_INVALID",
    `${report.plan.file}: ${count(report.errors, "error")}; first: ${first.code} at ${first.pointer || "/"}: ${first.message}${cause}`,
    renames.length
      ? `The plan names commands by the rules' names; ${FIX_RENAMES.replace("<plan>", report.plan.file)}. Or remove the rename from the overlay.`
      : first.suggestion,
    { report, ...(renames.length ? { renames } : {}) },
  );
}
