import type { GlobalFlag } from "../../runtime/args.js";
import { BUILTIN_NAMES } from "../../runtime/builtins.js";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { progressDeadline } from "../../core/progress-deadline.js";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { count } from "../../core/plural.js";
import { apiRefusal } from "./api-refusal.js";
import { builtCommands, sameCommand, visibleGroups } from "./built-commands.js";
import { misleadingNames, type NameFinding, operationTexts } from "./misleading-names.js";
import { sampleCommands, type CommandSample } from "./command-sample.js";
import { join } from "node:path";
import type { CandidatePackageJson } from "../candidate/candidate-manifest.js";
import type { InstalledPackage } from "../candidate/installed-package.js";
import type { ProbeReuse } from "./probe-reuse.js";
import { hostable, ProbeHost } from "./probe-host.js";

export type { Probe } from "./probe.js";
import { type JsonObject, type Probe, REFUSING_URL } from "./probe.js";
import type { Cli } from "../../runtime/load.js";
import { commandsOf, documentOf, helpCommandOf, isObject, listOf, parseOutput, type Json } from "./probe-output.js";

export type { HelpCommand } from "./subjects.js";
import { credentialVariablesOf, signingSettingsOf } from "./credential-variables.js";
import { probeCredentials, type CredentialFacts } from "./credentials.js";
import {
  bodyFor,
  chooseSubjects,
  fill,
  forProbes,
  probePool,
  sample,
  type HelpCommand,
  type Subjects,
} from "./subjects.js";
import type { RunProbe, WireReport } from "./wire-check.js";

/**
 * Every probe by name, in the order rules that read all of them meet them (E4 lists error codes in it, E2 and X8 quote
 * the first offenders).
 */
const PROBE_NAMES = [
  "help",
  "helpFreshHome",
  "describe",
  "groupBare",
  "issueEmpty",
  "jsonInputEnvelope",
  "brief",
  "version",
  "bogus",
  "bare",
  "barePipe",
  "mcp",
  "skills",
  "skillsFields",
  "skillsHuman",
  "skillsQuiet",
  "skillsNdjson",
  "skillOne",
  "createEmpty",
  "secret",
  "secretShort",
  "secretFields",
  "secretSkill",
  "traversal",
  "shell",
  "sensitive",
  "sensitiveBare",
  "control",
  "typedBad",
  "positional",
  "dryRun",
  "destructiveRefused",
  "destructiveQuiet",
  "jsonInputClosed",
  "noCredential",
  "bogusSkills",
  "bogusIssue",
  "versionAfter",
  "versionGroup",
  "issueDryRun",
  "issueCreate",
  "issueList",
  "issueShow",
  "issueUpdate",
  "issueBadTransition",
  "list",
  "listAgain",
  "listFields",
  "paged",
  "getMissing",
] as const;
export type ProbeName = (typeof PROBE_NAMES)[number];
/** The probes that ran, by name; one whose subject was missing (or that needs the API, without one) is absent. */
export type Probes = Partial<Record<ProbeName, Probe>>;

/** Every probe under its name, in PROBE_NAMES' order; a probe of a name not listed there does not compile. */
const inProbeOrder = <T extends Probes>(probes: T & Record<Exclude<keyof T, ProbeName>, never>): Probes =>
  Object.fromEntries(PROBE_NAMES.map((name) => [name, probes[name]]));

/**
 * What the every-command rules read, and what was asked of the CLI on a sample only (issue #46): the receipt says so,
 * never claiming to have judged what it did not.
 */
export interface Sampling {
  /** Where the commands the every-command rules judge came from, and why. */
  commands: { total: number; source: "manifest" | "describe"; why: string };
  /** The commands whose own --describe was compared with the package's manifest. */
  describe?: { checked: number; of: number; chosen: string; commands: string[] };
  /** The commands whose own --help was probed (D2). */
  help: { checked: number; of: number };
  /** The group whose tools the --mcp-schema probe exported, when it was not the whole CLI. */
  mcpSchema?: { scope: string; commands: number; of: number };
}

export interface Facts {
  binary: string;
  packageRoot?: string;
  /** The package's package.json, read and checked once (stages/candidate/installed-package.ts); empty when none. */
  packageJson: CandidatePackageJson;
  /** Why probes that call the API were not run (no service, no credential); undefined when they ran. */
  apiUnavailable?: string;
  /** The base URL the API probes called. */
  baseUrl?: string;
  /** The credential variables the CLI's help declares. */
  credentialEnvs: string[];
  /** The credential probes (stages/inspect/credentials.ts); undefined when the CLI declares no credential. */
  credentials?: CredentialFacts;
  /** What the CLI wrote under its state folder, for the credential check (a value must not be there). */
  stateText: string;
  probes: Probes;
  commands: HelpCommand[];
  /** Per-command help probes: every command, or an even sample of a large CLI. */
  commandHelp: Record<string, Probe>;
  files: Record<string, string | undefined>;
  agentSkillFiles: Record<string, string>;
  skillFiles: Record<string, string>;
  /** Files the CLI wrote under its state folder (issues stay local: F4). */
  stateFiles: string[];
  /** Which command each probe ran on and why, or why none fitted (stages/inspect/subjects.ts). */
  subjects: Subjects;
  /** How the probes ran: each as its own process, answered by the probe host, or reused from the last inspection. */
  probing: { processes: number; hosted: number; reused: number };
  /** What was judged on every command and what on a sample of them, and how the sample was chosen. */
  sampling: Sampling;
  /** The body fields the body probe piped to --json-input (I3, C5). */
  bodyFields?: string[];
  /**
   * The operation each command calls (its path and id) where the package says (stages/inspect/misleading-names.ts),
   * from the group files read for the commands; read from the package when absent.
   */
  operations?: Map<string, string>;
  /**
   * The names that mislead an agent (stages/inspect/misleading-names.ts), judged while the host answered the last
   * probes: they depend on the commands alone. Judged from `commands` and `operations` when absent.
   */
  names?: NameFinding[];
  /** The wire check (stages/inspect/wire-check.ts): sampled requests validated, every operation's expressibility. */
  wire?: WireReport;
}

/** Runs probes at once and hands each result back under its own name, never by its place in a list. */
async function named<T extends Record<string, Promise<Probe | undefined> | Probe | undefined>>(
  probes: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.all(Object.entries(probes).map(async ([name, probe]) => [name, await probe] as const));
  return Object.fromEntries(settled) as { [K in keyof T]: Awaited<T[K]> };
}

const PROBE_TIMEOUT_MS = 10_000;
const PROBE_MAX_BUFFER = 4 * 1024 * 1024;
const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/** How a probe's command is shown in evidence: the binary and its arguments, quoted for a shell. */
const commandLine = (binary: string, args: string[]) => [binary, ...args].map(quote).join(" ");

export interface ProbeEnv {
  bin: string;
  binary: string;
  env: Record<string, string>;
}

export async function runProbe(
  target: ProbeEnv,
  args: string[],
  options: {
    input?: string;
    pipeOpen?: boolean;
    timeoutMs?: number;
    env?: Record<string, string | undefined>;
    maxBuffer?: number;
  } = {},
): Promise<Probe> {
  const { execa } = await import("execa");
  const started = performance.now();
  const subprocess = execa(target.bin, args, {
    env: { ...target.env, ...options.env },
    extendEnv: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: options.pipeOpen ? "pipe" : "ignore" }),
    reject: false,
    maxBuffer: options.maxBuffer ?? PROBE_MAX_BUFFER,
  });
  let timedOut = false;
  const cancel = progressDeadline(
    () => subprocess.pid,
    options.timeoutMs ?? PROBE_TIMEOUT_MS,
    () => {
      timedOut = true;
      subprocess.kill("SIGKILL");
    },
  );
  let result: Awaited<typeof subprocess>;
  try {
    result = await subprocess;
  } finally {
    cancel();
  }
  const stdout = String(result.stdout ?? "");
  const stderr = String(result.stderr ?? "");
  return {
    command: commandLine(target.binary, args),
    exitCode: result.exitCode ?? null,
    stdout,
    stderr,
    durationMs: Math.round(performance.now() - started),
    timedOut,
    json: parseOutput(stdout),
    error: parseOutput(stderr),
  };
}

/**
 * A probe before the inspection's own (the root --help that names the credential variables): answered by the probe
 * host when there is one, as the probes after it are (no process of its own, and none of inter's large one), else
 * run as a process.
 */
export async function earlyProbe(target: ProbeEnv, host: ProbeHost | undefined, args: string[]): Promise<Probe> {
  const limits = { timeoutMs: PROBE_TIMEOUT_MS, maxBuffer: PROBE_MAX_BUFFER };
  const hosted =
    host && hostable(args, {})
      ? await host.run(commandLine(target.binary, args), { args, env: target.env, ...limits })
      : undefined;
  return hosted ?? runProbe(target, args);
}

const words = (c: HelpCommand) => c.name.split(" ");
/** A global flag of the generated CLI as a probe passes it: only flags the runtime has compile (src/runtime/args.ts). */
const flag = (name: GlobalFlag) => `--${name}`;
/** A record's `id`, when it is a value a flag can carry. */
const idOf = (value: Json | undefined) => {
  const id = isObject(value) ? value.id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
};
/** What a command's own --help adds to its entry in the listing. */
const ownHelp = (p?: Probe) => {
  const command = documentOf(p)?.command;
  return command ? helpCommandOf(command) : {};
};
/** The message of the issue the S3 probe previews with --dry-run (and which must never be recorded). */
export const DRY_RUN_MESSAGE = "inter inspect dry-run probe";
/** The made-up credential the --dry-run probe sets, which its printed request must not show (S3). */
export const PROBE_CREDENTIAL = "inter-probe-credential";
/** The made-up keys the hostile probes pass as values (G2): each must be refused, and never echoed. */
export const PROBE_SECRET = "sk-interprobe0123456789abcdefABCDEF";
export const PROBE_SHORT_SECRET = "sk-live-0123abcd";
const HELP_SAMPLE = 24;
/** How many commands' own --describe hold the package's manifest to what the CLI prints. */
const DESCRIBE_SAMPLE = 32;
/** The most commands the one --mcp-schema probe asks for, when the CLI's groups allow (a group's tools). */
const MCP_SCOPE = 64;

/**
 * Which part of the CLI the --mcp-schema probe exports: the whole of a CLI of one group, else its largest group of at
 * most MCP_SCOPE commands (or its smallest group when every group is larger), the first of equals.
 */
function mcpScopeOf(
  groups: Array<{ name: string; commands: number }>,
  visible: number,
): { name: string; commands: number } | undefined {
  if (groups.length <= 1 || visible <= MCP_SCOPE) return undefined;
  const fitting = groups.filter((g) => g.commands <= MCP_SCOPE);
  const pool = fitting.length ? fitting : groups;
  return pool.reduce((best, g) =>
    fitting.length ? (g.commands > best.commands ? g : best) : g.commands < best.commands ? g : best,
  );
}
const API_COMMAND = (c: HelpCommand) => !BUILTIN_NAMES.includes(c.name);

/** What the CLI wrote under its state folder (its issues), bounded: read for credential values. */
function stateText(dir: string): string {
  let text = "";
  for (const entry of readdirSync(dir, { recursive: true }).map(String)) {
    try {
      text += readFileSync(join(dir, entry), "utf8").slice(0, 1 << 20);
    } catch {
      // a folder
    }
  }
  return text;
}

function readFiles(root: string | undefined): Pick<Facts, "files" | "agentSkillFiles" | "skillFiles"> {
  const read = (path: string) =>
    root && existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined;
  const list = (dir: string) => (root && existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : []);
  const files: Record<string, string | undefined> = {};
  for (const f of [
    "agent/brief.md",
    "agent/rules/trigger.md",
    "agent/rules/workflow.md",
    "agent/rules/writeback.md",
    "AGENTS.md",
    "CHANGELOG.md",
    "README.md",
  ])
    files[f] = read(f);
  const agentSkillFiles: Record<string, string> = {};
  for (const f of list("agent/skills").filter((f) => f.endsWith(".md")))
    agentSkillFiles[f.replace(/\.md$/, "")] = read(`agent/skills/${f}`)!;
  const skillFiles: Record<string, string> = {};
  for (const d of list("skills")) {
    const text = read(`skills/${d}/SKILL.md`);
    if (text !== undefined) skillFiles[d] = text;
  }
  return { files, agentSkillFiles, skillFiles };
}

type ProbeOptions = Parameters<typeof runProbe>[2];
type Probing = (args: string[], options?: ProbeOptions) => Promise<Probe>;

/**
 * The one way a probe is run: reused from an earlier candidate's inspection where it may be, else answered by the
 * host process, else a process of its own (started by the host when there is one: no fork of this process). `counted`
 * records which.
 */
function probeRunner(
  target: ProbeEnv,
  base: ProbeEnv,
  reuse: ProbeReuse | undefined,
  hosting: Promise<ProbeHost | undefined>,
  counted: Facts["probing"],
): Probing {
  return async (args, options = {}) => {
    const key = reuse?.keyOf(args, options);
    const reused = reuse?.lookup(key);
    if (reused) {
      counted.reused++;
      return reused;
    }
    const host = await hosting;
    const env = Object.fromEntries(
      Object.entries({ ...base.env, ...options.env }).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const limits = {
      timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
      maxBuffer: options.maxBuffer ?? PROBE_MAX_BUFFER,
    };
    const command = commandLine(target.binary, args);
    const hosted = host && hostable(args, options) ? await host.run(command, { args, env, ...limits }) : undefined;
    if (hosted) counted.hosted++;
    else counted.processes++;
    const fresh =
      hosted ??
      (host &&
        (await host.spawn(command, target.bin, {
          args,
          env,
          input: options.input,
          pipeOpen: options.pipeOpen,
          ...limits,
        }))) ??
      (await runProbe(base, args, options));
    reuse?.remember(key, fresh);
    return fresh;
  };
}

/** The manifest's commands and the CLI's own --describe of a sample of them, asked (not yet answered). */
interface DescribeSample {
  manifest: ReturnType<typeof builtCommands>;
  /** The manifest, when the CLI has more commands than the sample: else its --describe --all is read whole. */
  built: ReturnType<typeof builtCommands>;
  sample: CommandSample<JsonObject> | undefined;
  answers: Promise<Probe[]>;
}

/**
 * What inter built, from the package's manifest: the every-command rules read it, once a sample of the CLI's own
 * --describe answers agrees with it (stages/inspect/built-commands.ts); without one, --describe --all is read. A CLI of
 * no more commands than the sample prints them all in one answer, read whole.
 */
function askDescribeSample(probe: Probing, cli: Cli | undefined): DescribeSample {
  const manifest = builtCommands(cli);
  const built = manifest && manifest.commands.length > DESCRIBE_SAMPLE ? manifest : undefined;
  const sample = built ? sampleCommands(built.commands, DESCRIBE_SAMPLE) : undefined;
  const answers = Promise.all(
    (sample?.chosen ?? []).map((c) =>
      probe([...String(c.name).split(" "), flag("describe"), flag("all")], { maxBuffer: 64 * 1024 * 1024 }),
    ),
  );
  return { manifest, built, sample, answers };
}

/** The commands the rules judge, and how they were read. */
interface CommandsRead {
  describe: Probe;
  commands: HelpCommand[];
  apiCommands: HelpCommand[];
  group: { name: string } | undefined;
  sampling: Omit<Sampling, "help" | "mcpSchema">;
}

/**
 * The commands, from the manifest where the sample of the CLI's own --describe agrees with it, else from its
 * --describe --all, else from an even sample of its groups' helps.
 */
async function readCommands(
  probe: Probing,
  described: DescribeSample,
  help: Probe,
  packageRoot: string | undefined,
): Promise<CommandsRead> {
  const { manifest, built, sample } = described;
  const answers = await described.answers;
  // The first sampled command whose own --describe is not what the manifest says it prints.
  const differs = sample?.chosen.find((c, i) => {
    const answer = answers[i]!;
    const printed = documentOf(answer)?.commands?.find((p) => isObject(p) && p.name === c.name);
    return answer.exitCode !== 0 || !sameCommand(c, printed);
  });
  const fromManifest = built && sample && !differs ? built : undefined;
  // The whole schema otherwise: every command with its parameters, however large the CLI (--all: a large CLI's
  // plain --describe answers with an index of its groups).
  const describe = fromManifest
    ? answers[0]!
    : await probe([flag("describe"), flag("all")], { maxBuffer: 512 * 1024 * 1024, timeoutMs: 60_000 });
  const listed = commandsOf(help);
  const groups = listed.filter((c) => c.group === true);
  let commands: HelpCommand[] = listed.filter((c) => c.group !== true);
  if (fromManifest) {
    commands = [...fromManifest.commands.map(helpCommandOf), ...commands.filter((c) => !API_COMMAND(c))];
  } else if (describe.exitCode === 0 && documentOf(describe)?.commands) {
    commands = [...commandsOf(describe), ...commands.filter((c) => !API_COMMAND(c))];
  } else if (groups.length) {
    // A root help that lists groups (progressive disclosure): open an even sample of them.
    const step = Math.max(1, Math.ceil(groups.length / HELP_SAMPLE));
    const opened = await Promise.all(
      groups.filter((_, i) => i % step === 0).map((g) => probe([...words(g), flag("help")])),
    );
    commands = [...opened.flatMap((p) => commandsOf(p)), ...commands];
  }
  describe.stdout = describe.stdout.length > 4096 ? `${describe.stdout.slice(0, 4096)}…` : describe.stdout;
  commands = forProbes(commands, packageRoot);
  const apiCommands = commands.filter(API_COMMAND);
  const group =
    groups[0] ??
    (apiCommands[0] && apiCommands[0].name.includes(" ") ? { name: apiCommands[0].name.split(" ")[0]! } : undefined);
  const total = apiCommands.length;
  const sampling: CommandsRead["sampling"] = {
    commands: {
      total,
      source: fromManifest ? "manifest" : "describe",
      why: fromManifest
        ? `the package's manifest, held to the CLI's own --describe of ${count(answers.length, "command")} of ${total}`
        : differs
          ? `the CLI's --describe --all: its --describe of ${String(differs.name)} differs from the package's manifest`
          : manifest
            ? `the CLI's --describe --all: ${count(total, "command")}, no more than a sample, read whole`
            : "the CLI's --describe --all (the package has no manifest this inter reads)",
    },
    ...(sample
      ? {
          describe: {
            checked: answers.length,
            of: built!.commands.length,
            chosen: sample.how,
            commands: sample.chosen.map((c) => String(c.name)),
          },
        }
      : {}),
  };
  return { describe, commands, apiCommands, group, sampling };
}

/**
 * Each API command's own help, for an even spread of at most HELP_SAMPLE of them (a few hundred commands would mean
 * a few hundred processes), and the built-ins' (D2: skills and one issue command); the commands with what their help
 * adds.
 */
async function probeCommandHelps(
  probe: Probing,
  read: CommandsRead,
): Promise<{ commandHelp: Record<string, Probe>; sampled: number; detailed: HelpCommand[] }> {
  const { commands, apiCommands } = read;
  const commandHelp: Record<string, Probe> = {};
  const step = Math.max(1, Math.ceil(apiCommands.length / HELP_SAMPLE));
  const sampled = apiCommands.filter((_, i) => i % step === 0);
  const builtinHelp = commands.filter((c) => !API_COMMAND(c) && (c.name === "skills" || c.name === "issue create"));
  await Promise.all(
    [...sampled, ...builtinHelp].map(async (c) => (commandHelp[c.name] = await probe([...words(c), flag("help")]))),
  );
  // A command's own help adds what the listing lacks; --describe's parameters, where it ran, say more (their place
  // in the request, which the credential check needs) and are kept.
  const detailed = apiCommands.map((c) =>
    // A command whose own help was not probed gains nothing here: itself, not a copy (a large CLI has thousands).
    !commandHelp[c.name]
      ? c
      : ({
          ...c,
          ...ownHelp(commandHelp[c.name]),
          ...(c.parameters?.some((p) => p.in)
            ? { parameters: c.parameters, security: (c as { security?: unknown }).security }
            : {}),
        } as HelpCommand),
  );
  return { commandHelp, sampled: sampled.length, detailed };
}

/** What the second batch of probes needs to know of the CLI and its environment. */
interface SecondBatchInput {
  subjects: Subjects;
  apiCommands: HelpCommand[];
  group: { name: string } | undefined;
  skills: Probe;
  credentialEnvs: string[];
  /** What a signed request needs beside its credentials (AWS_REGION for a SigV4 scheme with no region of its own). */
  signing: Record<string, string>;
  baseUrlEnv: string | undefined;
  apiEnv: Record<string, string>;
  /** The request body the body probe pipes (another command's output envelope's result). */
  piped: Record<string, unknown> | undefined;
}

/** The probes that need the chosen subjects: hostile values, dry runs, refusals, --json-input, built-ins' guards. */
function askSecondBatch(probe: Probing, input: SecondBatchInput) {
  const { apiCommands, group, skills, credentialEnvs, baseUrlEnv, apiEnv, piped, signing } = input;
  const {
    list,
    required: needy,
    dryRun: writer,
    body,
    destructive,
    auth: withAuth,
    typed,
    hostile: hostileTarget,
  } = input.subjects.chosen;
  const on = (s: { command: HelpCommand } | undefined) => (s ? words(s.command) : []);
  const hostile = (value: string) =>
    hostileTarget?.param
      ? probe([
          ...on(hostileTarget),
          ...fill(hostileTarget.command, hostileTarget.param.name),
          hostileTarget.param.name,
          value,
        ])
      : Promise.resolve(undefined);
  const unset = Object.fromEntries(credentialEnvs.map((name) => [name, undefined]));
  // The body probe pipes another command's output envelope; the command's other required flags are given as flags.
  const bodyArgs = body ? [...on(body), ...fill(body.command, undefined, true)] : [];
  const envelope = piped ? JSON.stringify({ ok: true, result: piped }) : undefined;
  // --version after a command must print the version and run nothing (N6). Should the CLI run it anyway, it finds no
  // credential and an API that answers nothing, so the probe itself changes nothing.
  const versionOn = writer ?? list ?? (apiCommands[0] ? { command: apiCommands[0] } : undefined);
  const listedSkill = listOf(skills)?.[0];
  const firstSkill = isObject(listedSkill) && typeof listedSkill.name === "string" ? listedSkill.name : undefined;
  const inert = { ...unset, ...(baseUrlEnv ? { [baseUrlEnv]: REFUSING_URL } : {}) };
  return named({
    groupBare: group ? probe([group.name]) : undefined,
    jsonInputEnvelope:
      body && envelope
        ? probe([...bodyArgs, flag("json-input"), flag("dry-run")], { input: envelope, env: apiEnv })
        : undefined,
    createEmpty: needy ? probe(on(needy)) : undefined,
    secret: hostile(PROBE_SECRET),
    secretShort: hostile(PROBE_SHORT_SECRET),
    traversal: hostile("../../etc/passwd"),
    shell: hostile("x;rm -rf /"),
    sensitive: hostile("./.env"),
    sensitiveBare: hostile("id_rsa"),
    control: hostile("inter\u0007probe"),
    typedBad: typed?.param
      ? probe([...on(typed), ...fill(typed.command, typed.param.name), typed.param.name, "not-a-number"])
      : undefined,
    positional: probe([
      ...(list ? on(list) : apiCommands[0] ? words(apiCommands[0]) : []),
      "inter-probe-stray-argument",
    ]),
    dryRun: writer
      ? probe([...on(writer), ...fill(writer.command), flag("dry-run")], {
          env: {
            ...apiEnv,
            ...Object.fromEntries(credentialEnvs.map((name) => [name, PROBE_CREDENTIAL])),
            ...signing,
          },
        })
      : undefined,
    destructiveRefused: destructive
      ? probe([...on(destructive), ...fill(destructive.command)], { env: apiEnv })
      : undefined,
    destructiveQuiet: destructive
      ? probe([...on(destructive), ...fill(destructive.command), flag("quiet")], { env: apiEnv })
      : undefined,
    jsonInputClosed: body ? probe([...bodyArgs, flag("json-input")], { timeoutMs: 8000 }) : undefined,
    noCredential:
      withAuth && credentialEnvs.length
        ? probe([...on(withAuth), ...fill(withAuth.command)], { env: { ...apiEnv, ...unset } })
        : undefined,
    skillOne: firstSkill ? probe(["skills", firstSkill]) : undefined,
    // Built-in commands refuse unknown flags too (G1), with or without a value.
    bogusSkills: probe(["skills", "--inter-probe-bogus-flag", "x"]),
    bogusIssue: probe(["issue", "list", "--inter-probe-bogus-flag"]),
    versionAfter: versionOn
      ? probe([...on(versionOn), ...fill(versionOn.command), flag("version")], { env: inert })
      : undefined,
    versionGroup: group ? probe([group.name, flag("version")], { env: inert }) : undefined,
    // A global flag's value and a built-in's argument are guarded like a command's flags, and never echoed (G2).
    secretFields: probe(["skills", flag("fields"), PROBE_SECRET]),
    secretSkill: probe(["skills", PROBE_SECRET]),
  });
}

/**
 * The issue log's life, one step after another: a --dry-run create that must record nothing (S3), a create, the
 * listing and the new issue, an update and a transition the log refuses.
 */
async function probeIssueLog(probe: Probing) {
  const issueDryRun = await probe(["issue", "create", "--type", "bug", "--message", DRY_RUN_MESSAGE, flag("dry-run")]);
  const issueCreate = await probe([
    "issue",
    "create",
    "--type",
    "bug",
    "--message",
    "inter inspect probe",
    "--exit-code",
    "1",
  ]);
  // The new issue's id, in the envelope's result or at the top.
  const issueId = idOf(documentOf(issueCreate)?.result) ?? idOf(issueCreate.json);
  const [issueList, issueShow] = await Promise.all([
    probe(["issue", "list", "--type", "bug", "--status", "open"]),
    issueId ? probe(["issue", "show", "--id", String(issueId)]) : Promise.resolve(undefined),
  ]);
  const issueUpdate = issueId
    ? await probe(["issue", "update", "--id", String(issueId), "--status", "closed"])
    : undefined;
  const issueBadTransition = issueId
    ? await probe(["issue", "update", "--id", String(issueId), "--status", "in-progress"])
    : undefined;
  return { issueDryRun, issueCreate, issueList, issueShow, issueUpdate, issueBadTransition };
}

/**
 * The probes that call the API: a listing twice, a page, a missing record, a listing trimmed to its first field. An
 * API that refuses the caller's credential, or cannot answer, says nothing of the CLI: its answers are not judged,
 * as when no API was given, and `refusal` says why and what to do (stages/inspect/api-refusal.ts).
 */
async function probeApi(
  probe: Probing,
  chosen: Subjects["chosen"],
  baseUrl: string,
  env: Record<string, string>,
  credentialEnvs: string[],
): Promise<{ fromApi: Probes; refusal: string | undefined }> {
  const { list, paged, get } = chosen;
  const on = (s: { command: HelpCommand } | undefined) => (s ? words(s.command) : []);
  const fromApi: Probes = {};
  const pagedOnList = !!paged && paged.command === list?.command;
  Object.assign(
    fromApi,
    await named({
      list: list ? probe(on(list), { env }) : undefined,
      listAgain: list ? probe(on(list), { env }) : undefined,
      getMissing: get?.param ? probe([...on(get), get.param.name, sample(get.param, true)], { env }) : undefined,
      paged: paged && !pagedOnList ? probe([...on(paged), ...fill(paged.command)], { env }) : undefined,
    }),
  );
  if (pagedOnList) fromApi.paged = fromApi.list;
  const refusal = apiRefusal([fromApi.list, fromApi.getMissing, fromApi.paged], credentialEnvs, baseUrl);
  if (refusal) for (const key of Object.keys(fromApi) as Array<keyof Probes>) delete fromApi[key];
  const rows = documentOf(fromApi.list)?.result;
  const row = Array.isArray(rows) ? rows[0] : undefined;
  const field = row && typeof row === "object" ? Object.keys(row)[0] : undefined;
  if (list && field) fromApi.listFields = await probe([...on(list), flag("fields"), field], { env });
  return { fromApi, refusal };
}

/**
 * Probes the installed CLI from outside, the way an independent checker would.
 * Independent probes run in parallel; probes that need the API run only when `api` gives a base URL and credential.
 */
export async function collectFacts(
  target: ProbeEnv,
  pkg: InstalledPackage | undefined,
  api: { baseUrl?: string; unavailable?: string },
  reuse: ProbeReuse | undefined,
  // One process answers the probes that need no process of their own (stages/inspect/probe-host.ts), started by the
  // caller.
  hosting: Promise<ProbeHost | undefined>,
  // The package as inter's runtime opens it (stages/inspect/built-commands.ts), when it has a manifest this inter reads.
  cli: Cli | undefined,
  // Told which commands the probes chose, as soon as they are chosen: the MCP server's tool calls on them
  // (stages/inspect/mcp.ts) are then made beside the probes that follow.
  onSubjects: (chosen: Subjects["chosen"], apiUnavailable: string | undefined) => void = () => {},
  // The wire check (stages/inspect/wire-check.ts), given the probe runner and the CLI's base URL variable: its dry runs
  // are answered beside the second batch of probes.
  wire?: (probe: RunProbe, baseUrlEnv: string | undefined) => Promise<WireReport>,
): Promise<Facts> {
  const packageRoot = pkg?.root;
  const apiUnavailable =
    api.unavailable || !api.baseUrl ? (api.unavailable ?? "no service is configured to call") : undefined;
  const state = ownedTempDir("inspect-state");
  const base: ProbeEnv = { ...target, env: { ...target.env, XDG_STATE_HOME: state, HOME: state } };
  const counted = { processes: 0, hosted: 0, reused: 0 };
  const probe = probeRunner(target, base, reuse, hosting, counted);
  const freshHome = ownedTempDir("inspect-home");
  try {
    // The bare calls are about stdin and hanging. A CLI that prompts never returns: it sleeps, using no CPU, and is
    // stopped at the bound. One that answers does so within seconds even for 20,000 commands, and while it uses CPU or
    // waits for one the bound stretches (src/core/progress-deadline.ts: until it has used four bounds of CPU), so the
    // bound need not be generous for it, however loaded the machine. The one that pipes a line runs the installed
    // executable as a process of its own: started now, awaited last, so no later probe waits for it.
    const BARE_TIMEOUT_MS = 5_000;
    const barePipe = probe([], { input: "\n", timeoutMs: BARE_TIMEOUT_MS });
    const firstBatch = named({
      help: probe([flag("help")]),
      helpFreshHome: probe([flag("help")], { env: { HOME: freshHome, XDG_STATE_HOME: freshHome } }),
      issueEmpty: probe(["issue", "list", "--status", "in-progress"]),
      brief: probe([flag("brief")]),
      version: probe([flag("version")]),
      bogus: probe(["--inter-probe-bogus-flag"]),
      skills: probe(["skills"]),
      skillsFields: probe(["skills", flag("fields"), "name"]),
      skillsHuman: probe(["skills", flag("human")]),
      skillsQuiet: probe(["skills", flag("quiet")]),
      skillsNdjson: probe(["skills", flag("ndjson")]),
    });
    // A large CLI's whole tool list is tens of megabytes: one group's tools show the export (M2, R1–R3). The group is
    // chosen from manifest.json's counts alone, so the probe is asked now and answered while the commands are read.
    const manifestGroups = visibleGroups(cli);
    const manifestCommands = manifestGroups.reduce((n, g) => n + g.commands, 0);
    const mcpScope = mcpScopeOf(manifestGroups, manifestCommands);
    const mcpSchema = probe([...(mcpScope ? [mcpScope.name] : []), flag("mcp-schema")], {
      maxBuffer: 512 * 1024 * 1024,
      timeoutMs: 60_000,
    });
    // Reading every command is a second's work on a large CLI: the probes above are sent first (a turn of the event
    // loop), so the host answers them meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    const described = askDescribeSample(probe, cli);
    // The one with stdin ignored is answered by the host when there is one (its stdin is /dev/null too), asked after
    // the probes above, which what follows waits on.
    const bare = probe([], { timeoutMs: BARE_TIMEOUT_MS });
    const first = { ...(await firstBatch), mcp: await mcpSchema };
    const { help, skills } = first;
    const read = await readCommands(probe, described, help, packageRoot);
    const { describe, apiCommands } = read;
    const { commandHelp, sampled, detailed } = await probeCommandHelps(probe, read);
    // Each probe's command is chosen by what it takes and does (stages/inspect/subjects.ts), never by its name.
    const subjects = chooseSubjects(probePool(detailed, pkg, cli?.group));
    onSubjects(subjects.chosen, apiUnavailable);
    const helpDoc = documentOf(help);
    const credentialEnvs = credentialVariablesOf(helpDoc);
    const signing = signingSettingsOf(helpDoc);
    const baseUrlEnv = helpDoc?.baseUrl.env;
    const apiEnv = api.baseUrl && baseUrlEnv ? { [baseUrlEnv]: api.baseUrl } : {};
    const body = subjects.chosen.body;
    const piped = body ? bodyFor(body.command) : undefined;
    const secondBatch = askSecondBatch(probe, {
      subjects,
      apiCommands,
      group: read.group,
      skills,
      credentialEnvs,
      signing,
      baseUrlEnv,
      apiEnv,
      piped,
    });
    const wireReport = wire?.(probe, typeof baseUrlEnv === "string" ? baseUrlEnv : undefined);
    wireReport?.catch(() => {});
    // The commands are final now: their names are judged while the host answers the probes just asked (a turn of the
    // event loop sends them first). A probe that throws meanwhile is thrown where the batch is awaited, below.
    secondBatch.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    const operations = operationTexts(packageRoot, cli);
    const names = misleadingNames(detailed, operations);
    const second = await secondBatch;

    const credentials = await probeCredentials(probe, helpDoc, apiCommands, apiEnv);
    const issueLog = await probeIssueLog(probe);
    const { fromApi, refusal } =
      api.baseUrl && !api.unavailable
        ? await probeApi(probe, subjects.chosen, api.baseUrl, apiEnv, credentialEnvs)
        : { fromApi: {}, refusal: undefined };

    const bareCalls = { bare: await bare, barePipe: await barePipe };
    return {
      binary: target.binary,
      packageRoot,
      packageJson: pkg?.packageJson ?? {},
      ...((apiUnavailable ?? refusal) !== undefined
        ? { apiUnavailable: (apiUnavailable ?? refusal)! }
        : { baseUrl: api.baseUrl }),
      credentialEnvs,
      ...(credentials ? { credentials } : {}),
      stateText: stateText(state),
      probes: inProbeOrder({
        ...first,
        describe,
        ...second,
        ...issueLog,
        ...fromApi,
        ...bareCalls,
      }),
      subjects,
      ...(piped ? { bodyFields: Object.keys(piped) } : {}),
      commands: detailed,
      commandHelp,
      sampling: {
        ...read.sampling,
        ...(mcpScope ? { mcpSchema: { scope: mcpScope.name, commands: mcpScope.commands, of: manifestCommands } } : {}),
        help: { checked: sampled, of: apiCommands.length },
      },
      ...readFiles(packageRoot),
      stateFiles: readdirSync(state, { recursive: true }).map(String),
      probing: counted,
      operations,
      names,
      ...(wireReport ? { wire: await wireReport } : {}),
    };
  } finally {
    rmSync(state, { recursive: true, force: true });
    rmSync(freshHome, { recursive: true, force: true });
  }
}
