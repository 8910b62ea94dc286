import type { Globals } from "./args.js";
import type { CliError } from "./errors.js";
import type { Manifest } from "./manifest.js";
import type { PageInfo } from "./paging.js";
import { ExactInteger, stringifyExact } from "./exact.js";
import { maskSecrets } from "./guard.js";
import { withoutCredentials } from "./without-credentials.js";

/** A Skill's description as an answer names it: its first sentence ("Use when …"), within SKILL_LINE characters. */
const SKILL_LINE = 120;
const skillLine = (description: string): string => {
  const first = /^.*?[.!?](?=\s|$)/.exec(description)?.[0] ?? description;
  return first.length <= SKILL_LINE ? first : `${first.slice(0, SKILL_LINE - 1).replace(/\s+\S*$/, "")}…`;
};

/**
 * The Skills an answer names (R2): those that link the command, else those that link a command of its group, else
 * none — an agent making thirty calls is not told of every Skill thirty times (`skills` lists them all). Without a
 * command (help, built-ins) every Skill.
 */
export function skillRefs(manifest: Manifest, command?: { name: string; path: readonly string[] }) {
  let skills = manifest.skills;
  if (command) {
    const own = skills.filter((s) => s.commands?.includes(command.name));
    skills = own.length ? own : skills.filter((s) => s.commands?.some((c) => c.split(" ")[0] === command.path[0]));
  }
  return skills.map((s) => ({
    name: s.name,
    description: skillLine(s.description),
    command: `${manifest.product.binary} skills ${s.name}`,
  }));
}

export function issueLine(manifest: Manifest): string {
  return `Report a problem: ${manifest.product.binary} issue create --type bug|requirement|suggestion|bad-output --message "..."`;
}

/** An object whose fields an answer's walkers read: not a value such as an integer kept whole (an ExactInteger). */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !(value instanceof ExactInteger);

function pick(value: unknown, fields: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, fields));
  if (isRecord(value))
    return Object.fromEntries(fields.filter((f) => f in value).map((f) => [f, (value as Record<string, unknown>)[f]]));
  return value;
}

const EMAIL = /[\w.+-]+@[\w-]+\.[\w.-]+/g;
const PHONE = /\+?\d[\d\s().-]{7,}\d/g;

function redactPii(value: unknown): unknown {
  if (typeof value === "string") return value.replace(EMAIL, "[EMAIL]").replace(PHONE, "[PHONE]");
  if (Array.isArray(value)) return value.map(redactPii);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactPii(v)]));
  return value;
}

function table(rows: Array<Record<string, unknown>>): string {
  if (!rows.length) return "(none)";
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => (v === null || v === undefined ? "" : isRecord(v) ? stringifyExact(v) : String(v));
  const widths = columns.map((c) => Math.min(40, Math.max(c.length, ...rows.map((r) => cell(r[c]).length))));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.slice(0, 40).padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join(
    "\n",
  );
}

function human(data: unknown): string {
  if (Array.isArray(data))
    return data.every((d) => isRecord(d) && !Array.isArray(d))
      ? table(data as Array<Record<string, unknown>>)
      : data.map(String).join("\n");
  if (isRecord(data)) {
    const entries = Object.entries(data);
    const width = Math.max(...entries.map(([k]) => k.length));
    return entries.map(([k, v]) => `${k.padEnd(width)}  ${isRecord(v) ? stringifyExact(v) : String(v)}`).join("\n");
  }
  return data === null || data === undefined ? "" : String(data);
}

/** Terminal control sequences from the API are not passed to a person's terminal (--human). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Success: one JSON document on stdout — `{"ok": true, "result": …, "page"?, "rules", "skills", "issue"}`, the spec's
 * own shape — or the result only (--quiet), a table (--human), NDJSON; nothing on stderr. `top` adds fields beside
 * `result` that a reader looks for at the top (`version`).
 */
export function writeResult(
  manifest: Manifest,
  globals: Globals,
  data: unknown,
  page?: PageInfo,
  top: Record<string, unknown> = {},
  command?: { name: string; path: readonly string[] },
): void {
  let shaped = globals.fields ? pick(data, globals.fields) : data;
  if (globals.redact) shaped = redactPii(shaped);
  let text: string;
  if (globals.human && !globals.agent) text = human(shaped);
  else if (globals.ndjson && Array.isArray(shaped)) text = shaped.map((item) => stringifyExact(item)).join("\n");
  else if (globals.quiet) text = stringifyExact(shaped);
  else
    text = stringifyExact({
      ok: true,
      ...top,
      result: shaped,
      ...(page ? { page } : {}),
      rules: manifest.rules,
      skills: skillRefs(manifest, command),
      issue: issueLine(manifest),
    });
  // Never printed, whatever the API echoes back.
  text = withoutCredentials(text, manifest);
  if (globals.human && !globals.agent) text = text.replace(CONTROL, "");
  process.stdout.write(`${text}\n`);
}

function masked(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === "string") return scrub(value);
  if (Array.isArray(value)) return value.map((v) => masked(v, scrub));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k), masked(v, scrub)]));
  return value;
}

/**
 * Failure: stdout stays empty; stderr gets the structured error (text with --human). Whatever value it quotes, an
 * error never echoes anything that looks like a credential (guard.ts, maskSecrets).
 */
export function writeError(error: CliError, globals: Pick<Globals, "human" | "agent">, manifest?: Manifest): void {
  // The credentials this process holds are cut out too, however they reached the text (an API's message, a token URL's answer).
  const scrub = (text: string) => maskSecrets(manifest ? withoutCredentials(text, manifest) : text);
  const message = scrub(error.message);
  const suggestion = scrub(error.suggestion);
  if (globals.human && !globals.agent) {
    process.stderr.write(`Error ${error.code}: ${message}\nNext: ${suggestion}\n`);
    return;
  }
  process.stderr.write(
    `${JSON.stringify({ error: true, code: error.code, message, suggestion, ...(error.details ? { details: masked(error.details, scrub) } : {}) })}\n`,
  );
}
