import type { GlobalFlag } from "../../../runtime/args.js";
import { frontMatterText, readFrontMatter } from "../../../core/front-matter.js";
import type { Facts, Probe } from "../probes.js";
import {
  documentOf,
  errorOf,
  globalFlagsOf,
  isObject,
  recordOf,
  versionOf,
  type Json,
  type JsonObject,
} from "../probe-output.js";
import type { HelpCommand, HelpParameter, SubjectKind } from "../subjects.js";

/**
 * What every rule is judged with: the verdict's shape, the evidence it quotes, and the judgements several rules make
 * of the same probes (is this a refusal, which flags does help list, which documents must carry rules[]). A rule file
 * per section of the spec (stages/inspect/rules/index.ts assembles them in the spec's order) reads probes only through
 * these and stages/inspect/probe-output.ts.
 */

export type Layer = "core" | "recommended" | "ecosystem";
export type Status = "pass" | "fail" | "not applicable";

export interface Evidence {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface Verdict {
  status: Status;
  reason: string;
  evidence?: Evidence[];
}

export interface Rule {
  id: string;
  group: string;
  priority: "P0" | "P1" | "P2";
  title: string;
  judge(f: Facts): Verdict;
}

/** A section's rules, each given the section's name as its group. */
export const section = (group: string, rules: Array<Omit<Rule, "group">>): Rule[] =>
  rules.map((rule) => ({ id: rule.id, group, priority: rule.priority, title: rule.title, judge: rule.judge }));

const trim = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}…` : text);
const evidence = (...probes: Array<Probe | undefined>): Evidence[] =>
  probes
    .filter((p): p is Probe => !!p)
    .map((p) => ({ command: p.command, exitCode: p.exitCode, stdout: trim(p.stdout), stderr: trim(p.stderr) }));
export const verdict = (ok: boolean, reason: string, ...probes: Array<Probe | undefined>): Verdict => ({
  status: ok ? "pass" : "fail",
  reason,
  evidence: evidence(...probes),
});
/**
 * A verdict whose reason states what is expected: passing, the reason as it is; failing, what was expected and which
 * probe did otherwise (its command, exit code and error code), so the text never reads like a pass.
 */
export const expected = (ok: boolean, reason: string, ...probes: Array<Probe | undefined>): Verdict => {
  if (ok) return verdict(true, reason, ...probes);
  // Only probes that failed say more than the evidence: one that exited 0 printed what the rule found wanting.
  const shown = ran(...probes)
    .filter((p) => p.exitCode !== 0 || p.timedOut)
    .slice(0, 2)
    .map((p) => {
      const code = errorOf(p)?.code;
      return `\`${p.command}\` ${p.timedOut ? "did not return" : `exited ${p.exitCode}`}${code ? ` with ${code}` : ""}`;
    });
  return verdict(
    false,
    `expected ${reason}; not so${shown.length ? `: ${shown.join("; ")}` : " (see the evidence)"}`,
    ...probes,
  );
};
export const na = (reason: string): Verdict => ({ status: "not applicable", reason });

export const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;
export const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** The probes that ran, leaving out those that had no subject. */
export const ran = (...probes: Array<Probe | undefined>): Probe[] => probes.filter((p): p is Probe => !!p);
/** The probes that ran and exited 0. */
export const succeeded = (...probes: Array<Probe | undefined>): Probe[] =>
  ran(...probes).filter((p) => p.exitCode === 0);
/** Whether the probe reported a structured error on stderr. */
const structured = (p?: Probe) => !!errorOf(p);
/** Refused the way the spec asks: a non-zero exit in time, a structured error on stderr, nothing on stdout. */
export const refused = (p?: Probe) =>
  !!p && p.exitCode !== 0 && p.exitCode !== null && !p.timedOut && structured(p) && p.stdout === "";
/** Refused as a bad value: a refusal with exit 2. */
export const refusedWith2 = (p?: Probe) => refused(p) && p!.exitCode === 2;
/** Whether the probe printed JSON on stdout. */
export const printedJson = (p?: Probe) => p?.json !== undefined;
/**
 * What a probe printed instead of the document a rule expected: nothing, text that is not JSON, or JSON of another
 * shape — a finding to read, where reading the output would otherwise have failed.
 */
export const unreadable = (p: Probe | undefined, expected: string) => {
  if (!p) return `no call was made where ${expected} was expected`;
  const printed = !p.stdout.trim()
    ? "printed nothing on stdout"
    : p.json === undefined
      ? "printed text that is not JSON"
      : "printed JSON of another shape";
  return `${p.command} ${printed} (exit ${p.exitCode}${p.timedOut ? ", timed out" : ""}), not ${expected}`;
};
/** "<command> (exit <n>)" for each probe, joined: which calls a finding is about. */
export const calls = (probes: Probe[]) => probes.map((p) => `${p.command} (exit ${p.exitCode})`).join("; ");

const allParams = new WeakMap<HelpCommand[], HelpParameter[]>();
/** Every command's parameters, gathered once per inspection (several rules read them all). */
export const params = (f: Facts): HelpParameter[] => {
  let all = allParams.get(f.commands);
  if (!all) allParams.set(f.commands, (all = f.commands.flatMap((c) => c.parameters ?? [])));
  return all;
};
/** Command parameters and the global flags help declares as objects: what D4 and D7 hold to a type and `required`. */
export const declared = (f: Facts): Array<HelpParameter | JsonObject> => [
  ...params(f),
  ...globalFlagsOf(f.probes.help).flatMap((g) => (g.declared ? [g.declared] : [])),
];
/** Whether help lists the runtime's global flag, or mentions it. */
export const hasFlag = (f: Facts, flag: GlobalFlag) =>
  globalFlagsOf(f.probes.help).some((g) => g.name === `--${flag}`) || !!f.probes.help?.stdout.includes(`--${flag}`);
export const frontmatter = (text?: string) => {
  const front = text === undefined ? undefined : readFrontMatter(text);
  return front?.kind === "mapping"
    ? { name: frontMatterText(front, "name"), description: frontMatterText(front, "description") }
    : undefined;
};
/** Every probe that reported a structured error on stderr, whatever its exit code, with that error. */
export const errorProbes = (f: Facts) =>
  Object.values(f.probes).flatMap((p) => {
    const error = errorOf(p);
    return p && error ? [{ probe: p, error }] : [];
  });
export const version = (f: Facts) => versionOf(f.probes.version);
/** Successful JSON documents besides results that must carry rules, skills and issue too (R1–R3). */
export const documents = (f: Facts) =>
  ran(f.probes.help, f.probes.list, f.probes.describe, f.probes.mcp).filter((p) => p.exitCode === 0 && documentOf(p));
export const noApi = (f: Facts) => na(`needs the API: ${f.apiUnavailable}`);
/** "not applicable" because no command fits the probe (stages/inspect/subjects.ts says why). */
export const noSubject = (f: Facts, kind: SubjectKind, fallback: string) => na(f.subjects?.none[kind] ?? fallback);
/** "<command> (<why it was chosen>)": which command a probe ran on. */
export const subject = (f: Facts, kind: SubjectKind) => {
  const s = f.subjects?.chosen[kind];
  return s ? `${s.command.name} (${s.why})` : "";
};

/**
 * Whether the request a --json-input --dry-run would send carries the piped fields; undefined when it does or when
 * the CLI does not show its request (then its exit status is the evidence).
 */
export function bodyProblem(p: Probe, fields: string[]): string | undefined {
  const request = recordOf(p)?.request;
  if (!isObject(request)) return undefined;
  // A multipart body is shown with each file as a placeholder (its part's name still says which field it is).
  if (typeof request.body !== "string") return fields.length ? "the request it would send has no body" : undefined;
  let keys: string[];
  const parts = [...request.body.matchAll(/^Content-Disposition: form-data; name="((?:[^"\\]|\\.)*)"/gim)];
  if (parts.length) keys = parts.map((m) => m[1]!.replace(/\\(.)/g, "$1"));
  else
    try {
      const parsed: unknown = JSON.parse(request.body);
      keys = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? Object.keys(parsed) : [];
    } catch {
      keys = [...new URLSearchParams(request.body).keys()];
    }
  const missing = fields.filter((k) => !keys.some((key) => key === k || key.startsWith(`${k}[`)));
  return missing.length ? `the request it would send lacks the piped ${missing.join(", ")}` : undefined;
}

/** The root help's document. */
export const helpOf = (f: Facts) => documentOf(f.probes.help);
/** The name of each listed row (a record's `name`), as a list of names. */
export const namesOf = (rows: Json[]) => rows.map((row) => (isObject(row) ? row.name : undefined));
