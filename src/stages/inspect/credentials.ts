import { REDACTED } from "../../core/redact.js";
import { SIGV4_PARAMETER } from "../../runtime/sigv4.js";
import { isSigV4, signingSettingsOf } from "./credential-variables.js";
import { SCHEME_KINDS, schemeKindOf } from "../../runtime/schemes/index.js";
import { count } from "../../core/plural.js";
import { type Probe, REFUSING_URL } from "./probe.js";
import { documentOf, isObject } from "./probe-output.js";
import { fill, type HelpCommand } from "./subjects.js";

/**
 * Certification of credentials (docs/inspection.md, "Credentials"): with only the variables the CLI documents set, to
 * values made up here, a dry run of one command per distinct requirement carries every credential where its scheme
 * says; no made-up value appears in any output or file; no command asks for a flag a scheme supplies. Read from the
 * CLI's own help and --describe, as an outside checker would; a failure keeps the candidate from being certified.
 */

export interface HelpScheme {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
  /** The scheme's variables by role, as help declares them. */
  variables?: Record<string, unknown>;
  /** A request signature: `aws-sigv4` computed by the CLI, any other kind not (`computed: false`). */
  signature?: { kind?: unknown; title?: unknown; by?: unknown; computed?: unknown };
  /** AWS Signature Version 4: the region it signs for by default (null: AWS_REGION must be set). */
  aws?: { region?: unknown };
}

/** Roles whose variables make the CLI call a token endpoint: never set to made-up values outside a dry run. */
const OBTAINING = new Set(["clientId", "clientSecret", "refreshToken"]);

interface Alternative {
  schemes: string[];
  variables: string[];
}

export interface CredentialProbe {
  schemes: string[];
  command: string;
  variables: string[];
  dryRun: Probe;
}

export interface CredentialFacts {
  schemes: Record<string, HelpScheme>;
  variables: string[];
  /** Each distinct requirement's dry run. */
  dryRuns: CredentialProbe[];
  /** Runs with every variable set that must not echo a value: a real call (to nowhere), `auth status`, a value typed into an argument. */
  others: Probe[];
  /** A command given a credential's value as a flag value, which must refuse it. */
  typed?: Probe;
  /** The made-up values, to look for. */
  values: string[];
  /** How many requirements there were, and how many were probed. */
  requirements: number;
}

export interface CredentialCheck {
  id: "A1" | "A2" | "A3" | "A4";
  title: string;
  status: "pass" | "fail" | "not applicable";
  reason: string;
  evidence?: Array<{ command: string; exitCode: number | null; stdout: string; stderr: string }>;
}

export interface CredentialReport {
  status: "pass" | "fail" | "not applicable";
  checks: CredentialCheck[];
}

/** Most requirements a candidate is probed with (a huge API declares a few; more would be a process each). */
const MAX_REQUIREMENTS = 8;

const alternativesOf = (c: HelpCommand): Alternative[] => {
  const security = (c as { security?: { alternatives?: unknown } }).security;
  if (!Array.isArray(security?.alternatives)) return [];
  return security.alternatives.filter(Array.isArray).map((alt: Array<{ scheme?: unknown; variables?: unknown }>) => ({
    schemes: alt.map((s) => String(s.scheme)).sort(),
    variables: alt.flatMap((s) =>
      Array.isArray(s.variables) ? s.variables.filter((v): v is string => typeof v === "string") : [],
    ),
  }));
};

/** A value that reads as a credential to no guardrail and is easy to find again: one per variable, distinct. */
const madeUpValue = (variable: string) => `interprobe${variable.toLowerCase().replace(/[^a-z0-9]/g, "")}Qz7`;

/** Every form in which a made-up value could leak: as is, URL-encoded, base64 (also of a Basic pair with any other). */
function forms(values: string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    out.add(v);
    out.add(encodeURIComponent(v));
    out.add(Buffer.from(v).toString("base64").replace(/=+$/, ""));
    for (const w of values) if (w !== v) out.add(Buffer.from(`${v}:${w}`).toString("base64").replace(/=+$/, ""));
  }
  return [...out];
}

function leaked(text: string, values: string[]): string | undefined {
  return forms(values).find((f) => text.includes(f));
}

type Run = (args: string[], options?: { env?: Record<string, string | undefined>; input?: string }) => Promise<Probe>;

/** Runs the credential probes: a dry run per distinct requirement, and calls that must not echo a value. */
export async function probeCredentials(
  run: Run,
  help: { auth?: { env?: unknown; schemes?: unknown } } | undefined,
  commands: HelpCommand[],
  apiEnv: Record<string, string>,
): Promise<CredentialFacts | undefined> {
  const schemes =
    help?.auth?.schemes && typeof help.auth.schemes === "object"
      ? (help.auth.schemes as Record<string, HelpScheme>)
      : {};
  const variables = Array.isArray(help?.auth?.env)
    ? (help!.auth!.env as unknown[]).filter((v): v is string => typeof v === "string")
    : [];
  if (!variables.length) return undefined;
  const values = variables.map(madeUpValue);
  const all = Object.fromEntries(variables.map((v) => [v, madeUpValue(v)]));
  // Outside a dry run the CLI would take made-up client credentials to the API's real token endpoint: not those.
  const obtaining = new Set(
    Object.values(schemes).flatMap((s) =>
      Object.entries(s.variables ?? {})
        .filter(([role, v]) => OBTAINING.has(role) && typeof v === "string")
        .map(([, v]) => v as string),
    ),
  );
  const offline = Object.fromEntries(variables.map((v) => [v, obtaining.has(v) ? undefined : madeUpValue(v)]));
  const none = Object.fromEntries(variables.map((v) => [v, undefined]));
  // One command per requirement: the first that is not destructive, else any, taking the fewest required flags.
  const byRequirement = new Map<string, { alternative: Alternative; command: HelpCommand }>();
  const weight = (c: HelpCommand) => (c.destructive ? 1000 : 0) + (c.parameters ?? []).filter((p) => p.required).length;
  for (const command of commands) {
    for (const alternative of alternativesOf(command)) {
      const key = alternative.schemes.join(" + ");
      const seen = byRequirement.get(key);
      if (!seen || weight(command) < weight(seen.command)) byRequirement.set(key, { alternative, command });
    }
  }
  const chosen = [...byRequirement.values()].slice(0, MAX_REQUIREMENTS);
  const dryRuns = await Promise.all(
    chosen.map(async ({ alternative, command }) => ({
      schemes: alternative.schemes,
      command: command.name,
      variables: alternative.variables,
      dryRun: await run([...command.name.split(" "), ...fill(command), "--dry-run"], {
        env: {
          ...apiEnv,
          ...none,
          ...Object.fromEntries(alternative.variables.map((v) => [v, madeUpValue(v)])),
          // AWS Signature Version 4 with no region of its own signs for the one the user exports.
          ...(alternative.schemes.some((n) => isSigV4(schemes[n])) ? signingSettingsOf(help) : {}),
        },
      }),
    })),
  );
  const first = chosen[0]?.command;
  const others = await Promise.all([
    run(["auth", "status"], { env: all }),
    // A real call, to an address that refuses: whatever the error says, it names no value.
    ...(first
      ? [
          run([...first.name.split(" "), ...fill(first), ...(first.destructive ? ["--yes"] : [])], {
            env: { ...offline, ...Object.fromEntries(Object.keys(apiEnv).map((k) => [k, REFUSING_URL])) },
          }),
        ]
      : []),
    // A credential quoted in an issue report is cut out of the record (the report itself is kept).
    run(["issue", "create", "--type", "bug", "--message", `token ${values[0]}`], { env: all }),
  ]);
  // A credential typed into a command's value by mistake is refused, and never echoed or sent.
  const typedOn = commands.find((c) => (c.parameters ?? []).some((p) => p.type === "string" && !p.enum));
  const typedParam = typedOn?.parameters?.find((p) => p.type === "string" && !p.enum);
  const typed =
    typedOn && typedParam
      ? await run(
          [...typedOn.name.split(" "), ...fill(typedOn, typedParam.name), typedParam.name, values[0]!, "--dry-run"],
          { env: { ...apiEnv, ...all } },
        )
      : undefined;
  return { schemes, variables, dryRuns, others, ...(typed ? { typed } : {}), values, requirements: byRequirement.size };
}

const trim = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}…` : text);
const evidence = (...probes: Probe[]) =>
  probes.map((p) => ({ command: p.command, exitCode: p.exitCode, stdout: trim(p.stdout), stderr: trim(p.stderr) }));

/**
 * Whether a dry run's request carries a scheme's credential in its place (redacted there), as the scheme's kind says
 * (runtime/schemes/). A request signature the CLI says it does not compute is judged by the scheme's own type.
 */
function placed(request: { url?: unknown; headers?: unknown }, scheme: HelpScheme): boolean {
  const headers =
    request.headers && typeof request.headers === "object" ? (request.headers as Record<string, unknown>) : {};
  const seen = {
    url: String(request.url),
    header: (name: string) =>
      typeof headers[name.toLowerCase()] === "string" ? (headers[name.toLowerCase()] as string) : undefined,
  };
  const judged = {
    type: scheme.type ?? "",
    ...(scheme.scheme ? { scheme: scheme.scheme } : {}),
    ...(scheme.in ? { in: scheme.in } : {}),
    ...(scheme.name ? { name: scheme.name } : {}),
    ...(isSigV4(scheme) ? { signature: { kind: "aws-sigv4" } } : {}),
  };
  return (schemeKindOf(judged) ?? SCHEME_KINDS["http-bearer"]).carried(seen, judged, REDACTED);
}

/** Judges the credential facts into the four checks. */
export function judgeCredentials(
  facts: CredentialFacts | undefined,
  commands: HelpCommand[],
  stateText: string,
): CredentialReport {
  if (!facts)
    return {
      status: "not applicable",
      checks: [
        {
          id: "A1",
          title: "every credential travels where its scheme says",
          status: "not applicable",
          reason: "the CLI declares no credential variables",
        },
      ],
    };
  const checks: CredentialCheck[] = [];

  // A1: a dry run per requirement carries each credential in its place.
  const wrong = facts.dryRuns.filter((d) => {
    const result = documentOf(d.dryRun)?.result;
    const request = isObject(result) ? result.request : undefined;
    return (
      d.dryRun.exitCode !== 0 ||
      !isObject(request) ||
      d.schemes.some((s) => !facts.schemes[s] || !placed(request, facts.schemes[s]!))
    );
  });
  checks.push({
    id: "A1",
    title:
      "with only its documented variables set, one command per requirement carries every credential where its scheme says",
    status: !facts.dryRuns.length ? "not applicable" : wrong.length ? "fail" : "pass",
    reason: !facts.dryRuns.length
      ? "no command declares its requirements (--describe: security)"
      : wrong.length
        ? `not carried as declared: ${wrong.map((d) => `${d.command} (${d.schemes.join(" + ")}, exit ${d.dryRun.exitCode})`).join("; ")}`
        : `${facts.dryRuns.length} of ${facts.requirements} requirement${facts.requirements === 1 ? "" : "s"} probed: ${facts.dryRuns.map((d) => `${d.schemes.join(" + ")} on ${d.command}`).join("; ")}`,
    evidence: evidence(...(wrong.length ? wrong : facts.dryRuns).slice(0, 3).map((d) => d.dryRun)),
  });

  // A2: no made-up value in any output or file.
  const probes = [...facts.dryRuns.map((d) => d.dryRun), ...facts.others, ...(facts.typed ? [facts.typed] : [])];
  const leaking = probes.filter((p) => leaked(p.stdout + p.stderr, facts.values));
  const inFiles = leaked(stateText, facts.values);
  const typed = facts.typed;
  const typedAccepted = typed && typed.exitCode === 0;
  checks.push({
    id: "A2",
    title: "no credential value appears in any output or file, and none is taken as an argument",
    status: leaking.length || inFiles || typedAccepted ? "fail" : "pass",
    reason: leaking.length
      ? `a credential value was printed by ${leaking.map((p) => p.command).join("; ")}`
      : inFiles
        ? "a credential value was written to the CLI's state files"
        : typedAccepted
          ? `a credential value typed into an argument was accepted: ${typed!.command.replace(/interprobe\w+/g, "<value>")}`
          : `${count(probes.length, "call")} with the variables set (dry runs, auth status, a failing call, an issue quoting one${typed ? ", a value typed into an argument" : ""}) printed and wrote no value`,
    evidence: evidence(...(leaking.length ? leaking : typedAccepted ? [typed!] : probes.slice(0, 2))),
  });

  // A3: no command takes as a flag what a scheme supplies.
  const offenders: string[] = [];
  for (const command of commands) {
    for (const p of command.parameters ?? []) {
      const supplied = Object.entries(facts.schemes).find(([, s]) => {
        // AWS Signature Version 4 makes its own headers: a flag for one would carry part of the signature.
        if (isSigV4(s) && (p.in === "header" || p.in === "query") && SIGV4_PARAMETER.test(p.wire ?? "")) return true;
        if (s.type !== "apiKey" || !s.name) return p.in === "header" && p.wire?.toLowerCase() === "authorization";
        if (p.in && p.wire)
          return (
            p.in === s.in && (s.in === "query" ? p.wire === s.name : p.wire.toLowerCase() === s.name.toLowerCase())
          );
        return p.name.replace(/^--/, "") === s.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
      });
      if (supplied) offenders.push(`${command.name} ${p.name} (${supplied[0]})`);
    }
  }
  checks.push({
    id: "A3",
    title: "no command asks for a flag that a security scheme supplies",
    status: offenders.length ? "fail" : "pass",
    reason: offenders.length
      ? `${offenders.length} ${offenders.length === 1 ? "flag carries" : "flags carry"} a credential: ${offenders.slice(0, 5).join("; ")}${offenders.length > 5 ? "; …" : ""}`
      : `${count(commands.length, "command")}: every credential comes from the environment`,
  });

  // A4: every request signature the API requires is one the CLI computes (a candidate that cannot is not Agent-Native).
  const uncomputed = Object.entries(facts.schemes).filter(([, s]) => s.signature && !isSigV4(s));
  const signing = Object.entries(facts.schemes).filter(([, s]) => s.signature);
  // Said only where a scheme signs requests: other receipts keep the checks they had.
  if (signing.length)
    checks.push({
      id: "A4",
      title: "every request signature the API requires is computed by the CLI",
      status: uncomputed.length ? "fail" : "pass",
      reason: uncomputed.length
        ? `the CLI cannot compute ${uncomputed.map(([n, s]) => `${n} (${String(s.signature?.title ?? s.signature?.kind)}, ${String(s.signature?.by ?? "declared")})`).join("; ")}: calls that need it are refused by the API`
        : `${signing.map(([n]) => n).join(", ")}: signed with AWS Signature Version 4 by the CLI`,
    });

  const status = checks.some((c) => c.status === "fail")
    ? "fail"
    : checks.every((c) => c.status === "not applicable")
      ? "not applicable"
      : "pass";
  return { status, checks };
}
