import { createHash } from "node:crypto";
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import type { Invocation } from "../sandbox/broker.js";
import { LosslessNumber, numbersEqual, parseLossless } from "./lossless-json.js";
import { count } from "../../core/plural.js";
import { GLOBAL_BOOLEANS } from "../../runtime/args.js";
import type { Check, Observation as PlanObservation } from "../../stages/plan/types.js";

export type CheckStatus = "pass" | "fail" | "incomplete";

export interface CheckResult {
  id: string;
  type: string;
  description: string;
  status: CheckStatus;
  observed?: unknown;
  expected?: unknown;
  reason: string;
}

type Observation =
  | { state: "available"; kind: "cli"; value: { argv: string[]; stdout: unknown; exit_code: number | null } }
  | {
      state: "available";
      kind: "file";
      value: { exists: boolean; bytes: number; sha256: string | null; content?: unknown };
    }
  | { state: "missing" | "ambiguous" | "truncated" | "not-collected"; kind: string; reason: string };

const HELP_FLAGS = new Set(["--help", "-h", "--brief", "--version"]);
/** Flags of every generated CLI that take no value (and their `--no-` forms); a help token after one of them is a flag. */
const BOOLEAN_FLAGS: ReadonlySet<string> = new Set(GLOBAL_BOOLEANS.flatMap((name) => [`--${name}`, `--no-${name}`]));

/**
 * A call only asks for help when a help token stands where a flag stands: `--title -h` passes "-h" as a title to a
 * CLI that reads the next token as the value, and such a call is judged like any other. When in doubt the call
 * counts: an extra call can make an observation ambiguous (incomplete), never a false pass.
 */
export function asksForHelp(argv: string[], booleans: ReadonlySet<string> = BOOLEAN_FLAGS): boolean {
  return argv.some((token, i) => {
    if (!HELP_FLAGS.has(token)) return false;
    const before = argv[i - 1];
    const valuePosition =
      before !== undefined &&
      before.startsWith("-") &&
      !before.includes("=") &&
      !booleans.has(before) &&
      !HELP_FLAGS.has(before);
    return !valuePosition;
  });
}
const UNAVAILABLE = Symbol("unavailable");
/** Files larger than this are judged by size and hash only; their content is unavailable to field paths. */
const MAX_CONTENT_BYTES = 4 * 1024 * 1024;

function parseStdout(stdout: string): unknown {
  try {
    return stdout.trim() ? parseLossless(stdout) : stdout;
  } catch {
    return stdout;
  }
}

/** docs/eval-plan.md: exactly one invocation starting with the prefix makes a cli observation available. */
export function observe(
  observation: PlanObservation,
  invocations: Invocation[],
  outputsDir: string,
  outputsCaptured: boolean,
): Observation {
  if (observation.kind === "cli") {
    const prefix = observation.command_prefix;
    const namesHelp = prefix.some((t) => HELP_FLAGS.has(t));
    const matches = invocations.filter(
      (inv) => prefix.every((t, i) => inv.argv[i] === t) && (namesHelp || !asksForHelp(inv.argv)),
    );
    if (matches.length === 0)
      return { state: "missing", kind: "cli", reason: `no invocation starts with ${prefix.join(" ")}` };
    if (matches.length > 1)
      return {
        state: "ambiguous",
        kind: "cli",
        reason: `${count(matches.length, "invocation")} start with ${prefix.join(" ")} (retries and pagination count too)`,
      };
    const [inv] = matches;
    if (inv!.truncated)
      return {
        state: "truncated",
        kind: "cli",
        reason: `the call ${prefix.join(" ")} was still running when the attempt ended (cut off: its outcome is unknown)`,
      };
    return {
      state: "available",
      kind: "cli",
      value: { argv: inv!.argv, stdout: parseStdout(inv!.stdout), exit_code: inv!.exit_code },
    };
  }
  if (observation.kind === "file") {
    if (!outputsCaptured)
      return { state: "not-collected", kind: "file", reason: "the outputs folder could not be captured" };
    const absent = { state: "available", kind: "file", value: { exists: false, bytes: 0, sha256: null } } as const;
    const file = join(outputsDir, observation.path);
    try {
      // Only a regular file reached without links counts: a link (to /etc/passwd, to the assets) is not output evidence.
      const root = realpathSync(outputsDir);
      const stat = lstatSync(file);
      if (!stat.isFile() || !realpathSync(file).startsWith(root + sep)) return absent;
      const bytes = readFileSync(file);
      // The content is read for field paths (["content", …]): parsed when the whole file is JSON, else its text.
      const content = stat.size <= MAX_CONTENT_BYTES ? parseStdout(bytes.toString("utf8")) : undefined;
      return {
        state: "available",
        kind: "file",
        value: {
          exists: true,
          bytes: stat.size,
          sha256: createHash("sha256").update(bytes).digest("hex"),
          ...(content !== undefined ? { content } : {}),
        },
      };
    } catch {
      return absent;
    }
  }
  return { state: "not-collected", kind: observation.kind, reason: "this runner does not record HTTP requests" };
}

/** A field path into an available cli or file observation; an absent key (or an absent file) is unavailable, not null. */
function field(obs: Observation | undefined, path: string[]): unknown | typeof UNAVAILABLE {
  if (!obs || obs.state !== "available") return UNAVAILABLE;
  if (obs.kind === "file" && path[0] === "content" && !obs.value.exists) return UNAVAILABLE;
  let value: unknown = obs.value;
  for (const key of path) {
    if (Array.isArray(value) && /^\d+$/.test(key) && Number(key) < value.length) value = value[Number(key)];
    else if (
      value &&
      typeof value === "object" &&
      !Array.isArray(value) &&
      Object.prototype.hasOwnProperty.call(value, key)
    )
      value = (value as Record<string, unknown>)[key];
    else return UNAVAILABLE;
  }
  return value;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const numeric = numbersEqual(a, b);
  if (numeric !== undefined) return numeric;
  if (a instanceof LosslessNumber || b instanceof LosslessNumber) return false;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]));
  const ka = Object.keys(a as object).sort();
  const kb = Object.keys(b as object).sort();
  return (
    ka.length === kb.length &&
    ka.every((k, i) => k === kb[i] && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** The value a call gave a flag, as `--flag value` or `--flag=value`; the last one when repeated. */
function flagValue(argv: string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === flag && i + 1 < argv.length) value = argv[++i];
    else if (argv[i]!.startsWith(`${flag}=`)) value = argv[i]!.slice(flag.length + 1);
  }
  return value;
}

const why = (obs: Observation | undefined, id: string) =>
  !obs
    ? `observation ${id} does not exist`
    : obs.state === "available"
      ? ""
      : `observation ${id} is ${obs.state}: ${(obs as { reason: string }).reason}`;

/** The six checks exactly as docs/eval-plan.md defines them; nothing turns incomplete into pass. */
export function judgeCheck(check: Check, observations: Map<string, Observation>): CheckResult {
  const base = { id: check.id, type: check.type, description: check.description };
  const obs = "observation_id" in check ? observations.get(check.observation_id) : undefined;
  switch (check.type) {
    case "command_success": {
      if (obs?.state !== "available" || obs.kind !== "cli")
        return { ...base, status: "incomplete", reason: why(obs, check.observation_id) || "not a cli observation" };
      const code = obs.value.exit_code;
      return {
        ...base,
        status: code === 0 ? "pass" : "fail",
        observed: code,
        expected: 0,
        reason: code === 0 ? "exit code 0" : `exit code ${code}`,
      };
    }
    case "field_equals": {
      const value = field(observations.get(check.source.observation_id), check.source.field);
      if (value === UNAVAILABLE)
        return {
          ...base,
          status: "incomplete",
          expected: check.expected,
          reason:
            why(observations.get(check.source.observation_id), check.source.observation_id) ||
            `${JSON.stringify(check.source.field)} is unavailable`,
        };
      const equal = deepEqual(value, check.expected);
      return {
        ...base,
        status: equal ? "pass" : "fail",
        observed: value,
        expected: check.expected,
        reason: equal ? "equal" : "different (no coercion)",
      };
    }
    case "flag_equals": {
      if (obs?.state !== "available" || obs.kind !== "cli")
        return {
          ...base,
          status: "incomplete",
          expected: check.expected,
          reason: why(obs, check.observation_id) || "not a cli observation",
        };
      const value = flagValue(obs.value.argv, check.flag);
      if (value === undefined)
        return { ...base, status: "fail", expected: check.expected, reason: `the call did not give ${check.flag}` };
      return {
        ...base,
        status: value === check.expected ? "pass" : "fail",
        observed: value,
        expected: check.expected,
        reason: value === check.expected ? "equal" : "different",
      };
    }
    case "values_match": {
      const left = field(observations.get(check.left.observation_id), check.left.field);
      const right = field(observations.get(check.right.observation_id), check.right.field);
      if (left === UNAVAILABLE || right === UNAVAILABLE)
        return {
          ...base,
          status: "incomplete",
          reason: `${left === UNAVAILABLE ? "left" : "right"} value is unavailable`,
        };
      const equal = deepEqual(left, right);
      return {
        ...base,
        status: equal ? "pass" : "fail",
        observed: left,
        expected: right,
        reason: equal ? "both values equal" : "the values differ",
      };
    }
    case "file_exists":
    case "file_nonempty":
    case "file_sha256": {
      if (obs?.state !== "available" || obs.kind !== "file")
        return { ...base, status: "incomplete", reason: why(obs, check.observation_id) || "not a file observation" };
      const f = obs.value;
      if (check.type === "file_exists")
        return {
          ...base,
          status: f.exists ? "pass" : "fail",
          observed: f.exists,
          reason: f.exists ? "present" : "absent",
        };
      if (check.type === "file_nonempty")
        return {
          ...base,
          status: f.exists && f.bytes > 0 ? "pass" : "fail",
          observed: f.bytes,
          reason: !f.exists ? "absent" : f.bytes ? `${f.bytes} bytes` : "empty",
        };
      const expected = check.type === "file_sha256" ? check.expected : undefined;
      return {
        ...base,
        status: f.sha256 === expected ? "pass" : "fail",
        observed: f.sha256,
        expected,
        reason: !f.exists ? "absent" : f.sha256 === expected ? "hashes equal" : "hashes differ",
      };
    }
  }
  // A check type the schema does not know never reaches here from a validated plan; say so rather than pass.
  return { ...base, status: "incomplete", reason: `unknown check type ${(check as { type: string }).type}` };
}

export function attemptStatus(checks: CheckResult[]): CheckStatus {
  if (checks.some((c) => c.status === "fail")) return "fail";
  if (checks.some((c) => c.status === "incomplete")) return "incomplete";
  return "pass";
}
