/**
 * The evaluation plan (eval-plan.json) and its reference solutions as TypeScript types: the shapes
 * schemas/eval-plan.schema.json accepts, checked against it by test/unit/plan-types.test.ts. A plan reaches these
 * types only after schema validation (stages/plan/validate.ts); the validation stages themselves read a `LoosePlan`,
 * because they report on plans the schema refused too.
 */

export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS";

interface ObservationBase {
  id: string;
  description: string;
}

/** The invocations of the candidate whose argv starts with `command_prefix`. */
export interface CliObservation extends ObservationBase {
  kind: "cli";
  command_prefix: string[];
}

/** A file in the attempt's outputs folder, its path relative to it. */
export interface FileObservation extends ObservationBase {
  kind: "file";
  path: string;
}

/** An HTTP request: accepted by the schema, never collected by this runner. */
export interface RequestObservation extends ObservationBase {
  kind: "request";
  method: HttpMethod;
  path: string;
}

export type Observation = CliObservation | FileObservation | RequestObservation;

/** A value inside an observation: a list of literal keys (`["stdout", "result", "0", "id"]`). */
export interface FieldSource {
  observation_id: string;
  field: string[];
}

interface CheckBase {
  id: string;
  description: string;
}

export interface ObservationCheck extends CheckBase {
  type: "command_success" | "file_exists" | "file_nonempty";
  observation_id: string;
}

export interface FieldEqualsCheck extends CheckBase {
  type: "field_equals";
  source: FieldSource;
  expected: unknown;
}

export interface ValuesMatchCheck extends CheckBase {
  type: "values_match";
  left: FieldSource;
  right: FieldSource;
}

export interface FlagEqualsCheck extends CheckBase {
  type: "flag_equals";
  observation_id: string;
  flag: string;
  expected: string;
}

export interface FileSha256Check extends CheckBase {
  type: "file_sha256";
  observation_id: string;
  expected: string;
}

export type Check = ObservationCheck | FieldEqualsCheck | ValuesMatchCheck | FlagEqualsCheck | FileSha256Check;

export interface Scenario {
  id: string;
  /** What the agent is asked; with `inputs`, all it sees. */
  user_task: string;
  inputs?: Record<string, unknown>;
  expected_outcome: string;
  observations: Observation[];
  checks: Check[];
}

export interface PlanTarget {
  api_url: string;
  account: string;
  /** One variable's name, or several (an API needing a key and a token, say): names only, never values. */
  credential_env: string | string[];
  allowed_reads: string[];
  allowed_hosts: string[];
  read_only_confirmed: boolean;
}

export interface PlanSettings {
  repetitions?: number;
  concurrency?: number;
  timeout_seconds?: number;
  unobserved_side_effects?: "report" | "fail";
}

export interface Plan {
  $schema?: string;
  schema_version: "3.0.0";
  target: PlanTarget;
  settings?: PlanSettings;
  assumptions?: string[];
  scenarios: Scenario[];
}

/** One step of a reference solution: a call, its stdout (or one field of it) optionally saved to an output file. */
export interface ReferenceStep {
  argv: string[];
  save_stdout?: string;
  save_field?: string[];
}

/** eval-plan.reference.json: scenario id → the calls a correct agent makes. */
export type ReferenceSolutions = Record<string, ReferenceStep[]>;

/*
 * A plan as the validation stages read it: any part may be missing, and they run on plans the schema refused too, so
 * each reads a value only after checking its kind (typeof, Array.isArray). The union members' properties are merged.
 */
export interface LooseSource {
  observation_id?: string;
  field?: string[];
}

export interface LooseObservation {
  id?: string;
  kind?: string;
  description?: string;
  command_prefix?: string[];
  path?: string;
  method?: string;
}

export interface LooseCheck {
  id?: string;
  type?: string;
  description?: string;
  observation_id?: string;
  source?: LooseSource;
  left?: LooseSource;
  right?: LooseSource;
  flag?: string;
  expected?: unknown;
}

export interface LooseScenario {
  id?: string;
  user_task?: string;
  inputs?: Record<string, unknown>;
  expected_outcome?: string;
  observations?: LooseObservation[];
  checks?: LooseCheck[];
}

export interface LoosePlan {
  $schema?: string;
  schema_version?: string;
  target?: Partial<PlanTarget>;
  settings?: Partial<PlanSettings>;
  assumptions?: string[];
  scenarios?: LooseScenario[];
}

/** The credential variables a plan names (`target.credential_env`, one name or a list), well-formed or not. */
export function planCredentialEnvs(plan: { target?: { credential_env?: unknown } } | undefined): string[] {
  const env = plan?.target?.credential_env;
  return (Array.isArray(env) ? env : [env]).filter((n): n is string => typeof n === "string" && n.length > 0);
}
