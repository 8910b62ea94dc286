import { ownedTempDir } from "../core/temp-dirs.js";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sampleForPattern } from "./pattern-sample.js";
import type { ProbeReuse } from "./probe-reuse.js";

export type { Probe } from "./probe.js";
import type { Probe } from "./probe.js";

export interface HelpParameter {
  name: string;
  type?: string;
  required?: boolean;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export interface HelpCommand {
  name: string;
  /** From --describe: the JSON Schema of what the command prints as `result`. */
  outputSchema?: unknown;
  description?: string;
  parameters?: HelpParameter[];
  destructive?: boolean;
  permission?: string;
  output?: string;
}

export interface Facts {
  binary: string;
  packageRoot?: string;
  /** Why probes that call the API were not run (no service, no credential); undefined when they ran. */
  apiUnavailable?: string;
  /** The base URL the API probes called. */
  baseUrl?: string;
  credentialEnv?: string;
  probes: Record<string, Probe | undefined>;
  commands: HelpCommand[];
  /** Per-command help probes: every command, or an even sample of a large CLI. */
  commandHelp: Record<string, Probe>;
  files: Record<string, string | undefined>;
  agentSkillFiles: Record<string, string>;
  skillFiles: Record<string, string>;
  /** Files the CLI wrote under its state folder (issues stay local: F4). */
  stateFiles: string[];
}

const parse = (text: string) => {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

export interface ProbeEnv {
  bin: string;
  binary: string;
  env: Record<string, string>;
}

export async function runProbe(target: ProbeEnv, args: string[], options: { input?: string; pipeOpen?: boolean; timeoutMs?: number; env?: Record<string, string | undefined>; maxBuffer?: number } = {}): Promise<Probe> {
  const { execa } = await import("execa");
  const started = performance.now();
  const result = await execa(target.bin, args, {
    env: { ...target.env, ...options.env },
    extendEnv: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: options.pipeOpen ? "pipe" : "ignore" }),
    reject: false,
    timeout: options.timeoutMs ?? 10_000,
    killSignal: "SIGKILL",
    maxBuffer: options.maxBuffer ?? 4 * 1024 * 1024,
  });
  const stdout = String(result.stdout ?? "");
  const stderr = String(result.stderr ?? "");
  return {
    command: [target.binary, ...args].map(quote).join(" "),
    exitCode: result.exitCode ?? null,
    stdout,
    stderr,
    durationMs: Math.round(performance.now() - started),
    timedOut: result.timedOut === true,
    json: parse(stdout),
    error: parse(stderr),
  };
}

const FORMAT_SAMPLES: Record<string, string> = { date: "2026-05-04", "date-time": "2026-05-04T09:30:00Z", time: "09:30", email: "probe@example.com", uuid: "123e4567-e89b-42d3-a456-426614174000", uri: "https://example.com/probe", url: "https://example.com/probe", ipv4: "192.0.2.1" };
const STRING_SAMPLES = ["inter-probe", "probe", "p1", "09:30", "2026-05-04", "1", "a", "A", "AB", "abc123", "PROBE"];

/**
 * Sample values that pass a flag's declared type, enum and limits, so a probe reaches the behaviour it tests; `far`
 * asks for an identifier that exists nowhere (the not-found probe).
 */
function sample(p: HelpParameter, far = false): string {
  if (p.enum?.length) return String(p.enum.find((e) => e !== null));
  if (p.type === "integer" || p.type === "number") {
    const low = p.minimum ?? (p.exclusiveMinimum !== undefined ? Math.floor(p.exclusiveMinimum) + 1 : undefined);
    return String(low !== undefined ? Math.max(low, Math.min(1, p.maximum ?? 1)) : Math.min(1, p.maximum ?? 1));
  }
  if (p.type === "boolean") return "true";
  if (p.type === "object") return "{}";
  if (p.format && FORMAT_SAMPLES[p.format]) return FORMAT_SAMPLES[p.format]!;
  const fits = (v: string) => {
    if (p.minLength !== undefined && v.length < p.minLength) return false;
    if (p.maxLength !== undefined && v.length > p.maxLength) return false;
    try {
      return p.pattern === undefined || new RegExp(p.pattern, "u").test(v);
    } catch {
      return true;
    }
  };
  const candidates = [...(far ? ["inter-probe-missing-id"] : []), ...(p.pattern ? [sampleForPattern(p.pattern, far)] : []), ...STRING_SAMPLES].filter((v): v is string => v !== undefined);
  return candidates.find(fits) ?? (p.minLength ? "p".repeat(p.minLength) : "inter-probe");
}

const required = (c: HelpCommand) => (c.parameters ?? []).filter((p) => p.required);
const fill = (c: HelpCommand, except?: string) => required(c).filter((p) => p.name !== except).flatMap((p) => [p.name, sample(p)]);
const words = (c: HelpCommand) => c.name.split(" ");
const HELP_SAMPLE = 24;
const API_COMMAND = (c: HelpCommand) => !["skills", "issue create", "issue list", "issue show", "issue update"].includes(c.name);

function readFiles(root: string | undefined): Pick<Facts, "files" | "agentSkillFiles" | "skillFiles"> {
  const read = (path: string) => (root && existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined);
  const list = (dir: string) => (root && existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : []);
  const files: Record<string, string | undefined> = {};
  for (const f of ["agent/brief.md", "agent/rules/trigger.md", "agent/rules/workflow.md", "agent/rules/writeback.md", "AGENTS.md", "CHANGELOG.md", "README.md", "package.json"]) files[f] = read(f);
  const agentSkillFiles: Record<string, string> = {};
  for (const f of list("agent/skills").filter((f) => f.endsWith(".md"))) agentSkillFiles[f.replace(/\.md$/, "")] = read(`agent/skills/${f}`)!;
  const skillFiles: Record<string, string> = {};
  for (const d of list("skills")) {
    const text = read(`skills/${d}/SKILL.md`);
    if (text !== undefined) skillFiles[d] = text;
  }
  return { files, agentSkillFiles, skillFiles };
}

/**
 * Probes the installed CLI from outside, the way an independent checker would.
 * Independent probes run in parallel; probes that need the API run only when `api` gives a base URL and credential.
 */
export async function collectFacts(target: ProbeEnv, packageRoot: string | undefined, api: { baseUrl?: string; unavailable?: string }, reuse?: ProbeReuse): Promise<Facts> {
  const state = ownedTempDir("inspect-state");
  const base: ProbeEnv = { ...target, env: { ...target.env, XDG_STATE_HOME: state, HOME: state } };
  const probe = async (args: string[], options: Parameters<typeof runProbe>[2] = {}) => {
    const key = reuse?.keyOf(args, options);
    const reused = reuse?.lookup(key);
    if (reused) return reused;
    const fresh = await runProbe(base, args, options);
    reuse?.remember(key, fresh);
    return fresh;
  };
  const freshHome = ownedTempDir("inspect-home");
  try {
    const [help, helpFreshHome, issueEmpty, brief, version, bogus, bare, barePipe, mcp, skills, skillsFields, skillsHuman, skillsQuiet, skillsNdjson, describe] = await Promise.all([
      probe(["--help"]),
      probe(["--help"], { env: { HOME: freshHome, XDG_STATE_HOME: freshHome } }),
      probe(["issue", "list", "--status", "in-progress"]),
      probe(["--brief"]),
      probe(["--version"]),
      probe(["--inter-probe-bogus-flag"]),
      probe([], { timeoutMs: 5000 }),
      probe([], { input: "\n", timeoutMs: 5000 }),
      probe(["--mcp-schema"], { maxBuffer: 512 * 1024 * 1024, timeoutMs: 60_000 }),
      probe(["skills"]),
      probe(["skills", "--fields", "name"]),
      probe(["skills", "--human"]),
      probe(["skills", "--quiet"]),
      probe(["skills", "--ndjson"]),
      // The whole schema, where the CLI has one: every command with its parameters, however large the CLI.
      probe(["--describe"], { maxBuffer: 512 * 1024 * 1024, timeoutMs: 60_000 }),
    ]);
    const listed: Array<HelpCommand & { group?: boolean }> = Array.isArray(help.json?.commands) ? help.json.commands.filter((c: HelpCommand) => typeof c?.name === "string") : [];
    const groups = listed.filter((c) => c.group === true);
    let commands: HelpCommand[] = listed.filter((c) => c.group !== true);
    if (describe.exitCode === 0 && Array.isArray(describe.json?.commands)) {
      commands = [...describe.json.commands.filter((c: HelpCommand) => typeof c?.name === "string"), ...commands.filter((c) => !API_COMMAND(c))];
    } else if (groups.length) {
      // A root help that lists groups (progressive disclosure): open an even sample of them.
      const step = Math.max(1, Math.ceil(groups.length / HELP_SAMPLE));
      const opened = await Promise.all(groups.filter((_, i) => i % step === 0).map((g) => probe([...words(g), "--help"])));
      commands = [...opened.flatMap((p) => (Array.isArray(p.json?.commands) ? p.json.commands : [])), ...commands];
    }
    describe.stdout = describe.stdout.length > 4096 ? `${describe.stdout.slice(0, 4096)}…` : describe.stdout;
    const apiCommands = commands.filter(API_COMMAND);
    const group = groups[0] ?? (apiCommands[0] && apiCommands[0].name.includes(" ") ? { name: apiCommands[0].name.split(" ")[0]! } : undefined);
    const commandHelp: Record<string, Probe> = {};
    // A few hundred commands would mean a few hundred processes: probe an even spread of at most HELP_SAMPLE.
    const step = Math.max(1, Math.ceil(apiCommands.length / HELP_SAMPLE));
    const sampled = apiCommands.filter((_, i) => i % step === 0);
    await Promise.all(sampled.map(async (c) => (commandHelp[c.name] = await probe([...words(c), "--help"]))));

    const detailed = apiCommands.map((c) => ({ ...c, ...(commandHelp[c.name]?.json?.command ?? {}) }) as HelpCommand);
    const list = detailed.find((c) => / list$/.test(c.name) && !required(c).length);
    const get = detailed.find((c) => / get$/.test(c.name) && required(c).length === 1 && required(c)[0]!.type === "string");
    const create = detailed.find((c) => / create$/.test(c.name) && required(c).length) ?? detailed.find((c) => c.permission === "write" && required(c).length);
    const hostileTarget = get ?? detailed.find((c) => required(c).some((p) => p.type === "string"));
    const hostileParam = hostileTarget && required(hostileTarget).find((p) => p.type === "string");
    const typed = detailed.find((c) => (c.parameters ?? []).some((p) => p.type === "integer"));
    const typedParam = typed?.parameters?.find((p) => p.type === "integer");
    const destructive = detailed.find((c) => c.destructive);
    // Without a credential, a command that needs one must stop before anything else (not at a --yes prompt).
    const withAuth = detailed.find((c) => (c as { auth?: boolean }).auth && !c.destructive);
    const hostile = (value: string) => hostileTarget && hostileParam ? probe([...words(hostileTarget), ...fill(hostileTarget, hostileParam.name), hostileParam.name, value]) : Promise.resolve(undefined);
    const credentialEnv = typeof help.json?.auth?.env === "string" ? help.json.auth.env : undefined;
    const apiEnv = api.baseUrl && typeof help.json?.baseUrl?.env === "string" ? { [help.json.baseUrl.env]: api.baseUrl } : {};

    const envelope = create ? JSON.stringify({ ok: true, result: Object.fromEntries(required(create).map((p) => [p.name.replace(/^--/, ""), p.type === "integer" || p.type === "number" ? 1 : sample(p)])) }) : undefined;
    const [groupBare, jsonInputEnvelope, createEmpty, secret, traversal, shell, sensitive, control, typedBad, positional, dryRun, destructiveRefused, destructiveQuiet, jsonInputClosed, noCredential, skillOne] = await Promise.all([
      group ? probe([group.name]) : undefined,
      create && envelope ? probe([...words(create), "--json-input", "--dry-run"], { input: envelope, env: apiEnv }) : undefined,
      create ? probe(words(create)) : undefined,
      hostile("sk-interprobe0123456789abcdefABCDEF"),
      hostile("../../etc/passwd"),
      hostile("x;rm -rf /"),
      hostile("./.env"),
      hostile("inter\u0007probe"),
      typed && typedParam ? probe([...words(typed), ...fill(typed, typedParam.name), typedParam.name, "not-a-number"]) : undefined,
      probe([...(list ? words(list) : apiCommands[0] ? words(apiCommands[0]) : []), "inter-probe-stray-argument"]),
      create ? probe([...words(create), ...fill(create), "--dry-run"], { env: { ...apiEnv, ...(credentialEnv ? { [credentialEnv]: "inter-probe-credential" } : {}) } }) : undefined,
      destructive ? probe([...words(destructive), ...fill(destructive)], { env: apiEnv }) : undefined,
      destructive ? probe([...words(destructive), ...fill(destructive), "--quiet"], { env: apiEnv }) : undefined,
      create ? probe([...words(create), "--json-input"], { timeoutMs: 8000 }) : undefined,
      withAuth && credentialEnv ? probe([...words(withAuth), ...fill(withAuth)], { env: { ...apiEnv, [credentialEnv]: undefined } }) : undefined,
      Array.isArray(skills.json?.result) && skills.json.result[0]?.name ? probe(["skills", skills.json.result[0].name]) : undefined,
    ]);

    const issueCreate = await probe(["issue", "create", "--type", "bug", "--message", "inter inspect probe", "--exit-code", "1"]);
    const issueId = issueCreate.json?.result?.id ?? issueCreate.json?.id;
    const [issueList, issueShow] = await Promise.all([probe(["issue", "list", "--type", "bug", "--status", "open"]), issueId ? probe(["issue", "show", "--id", String(issueId)]) : Promise.resolve(undefined)]);
    const issueUpdate = issueId ? await probe(["issue", "update", "--id", String(issueId), "--status", "closed"]) : undefined;
    const issueBadTransition = issueId ? await probe(["issue", "update", "--id", String(issueId), "--status", "in-progress"]) : undefined;

    let listProbe: Probe | undefined;
    let listAgain: Probe | undefined;
    let listFields: Probe | undefined;
    let getMissing: Probe | undefined;
    if (api.baseUrl && !api.unavailable) {
      const env = apiEnv;
      [listProbe, listAgain, getMissing] = await Promise.all([
        list ? probe(words(list), { env }) : undefined,
        list ? probe(words(list), { env }) : undefined,
        get ? probe([...words(get), required(get)[0]!.name, sample(required(get)[0]!, true)], { env }) : undefined,
      ]);
      const first = Array.isArray(listProbe?.json?.result) ? listProbe!.json.result[0] : undefined;
      const field = first && typeof first === "object" ? Object.keys(first)[0] : undefined;
      if (list && field) listFields = await probe([...words(list), "--fields", field], { env });
    }

    return {
      binary: target.binary,
      packageRoot,
      ...(api.unavailable || !api.baseUrl ? { apiUnavailable: api.unavailable ?? "no service is configured to call" } : { baseUrl: api.baseUrl }),
      credentialEnv,
      probes: { help, helpFreshHome, describe, groupBare, issueEmpty, jsonInputEnvelope, brief, version, bogus, bare, barePipe, mcp, skills, skillsFields, skillsHuman, skillsQuiet, skillsNdjson, skillOne, createEmpty, secret, traversal, shell, sensitive, control, typedBad, positional, dryRun, destructiveRefused, destructiveQuiet, jsonInputClosed, noCredential, issueCreate, issueList, issueShow, issueUpdate, issueBadTransition, list: listProbe, listAgain, listFields, getMissing },
      commands: detailed,
      commandHelp,
      ...readFiles(packageRoot),
      stateFiles: readdirSync(state, { recursive: true }).map(String),
    };
  } finally {
    rmSync(state, { recursive: true, force: true });
    rmSync(freshHome, { recursive: true, force: true });
  }
}
