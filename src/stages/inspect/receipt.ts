import { count } from "../../core/plural.js";
import { redactDeep, redactor } from "../../core/redact.js";
import { layerOf, RULES, type Evidence, type Layer, type Status } from "./rules/index.js";
import type { Facts, Sampling } from "./probes.js";
import { globalFlagsOf } from "./probe-output.js";
import type { SkillCheck } from "./skills.js";
import type { McpReport } from "./mcp.js";
import { judgeCredentials, type CredentialReport } from "./credentials.js";
import { misleadingNames, operationTexts, type NameFinding } from "./misleading-names.js";
import { wireBlocks, type WireReport } from "./wire-check.js";

const RECEIPT_SCHEMA_VERSION = "1.0.0";
export type Level = "Agent-Native" | "Agent-Ready" | "Agent-Friendly" | "none";

export interface RuleResult {
  id: string;
  group: string;
  layer: Layer;
  priority: string;
  title: string;
  status: Status;
  reason: string;
  evidence?: Evidence[];
}

export interface Receipt {
  schemaVersion: string;
  candidate: { sha256: string; file: string } | null;
  package: { name: string; version: string; binary: string };
  /** Flags every command accepts, as the CLI's help lists them (plans may use them in command prefixes). */
  globalFlags: string[];
  commands: Array<{
    name: string;
    parameters: Array<{ name: string; type?: string; required?: boolean; enum?: unknown[] }>;
    destructive: boolean;
    permission?: string;
    output?: string;
    fields?: Record<string, { type?: string; enum?: unknown[] }>;
  }>;
  skills: SkillCheck[];
  rules: RuleResult[];
  summary: { pass: number; fail: number; notApplicable: number };
  certification: { level: Level; blocking: string[] };
  api: { probed: boolean; reason?: string; baseUrl?: string };
  tools: { inter: string; node: string; npm: string };
  /** Probes not run again but reused from the inspection of an earlier candidate with the same runtime and commands. */
  reused?: { candidate: string; probes: string[] };
  /** How the probes ran: as processes, answered by the probe host (stages/inspect/probe-host.ts), or reused. */
  probing?: { processes: number; hosted: number; reused: number };
  /**
   * What every-command rules read (the package's manifest, held to a sample of the CLI's own --describe, or the CLI's
   * --describe --all) and which probes ran on a sample of the commands only, chosen how (stages/inspect/probes.ts).
   */
  sampling?: Sampling;
  /** The MCP server's certification (stages/inspect/mcp.ts). */
  mcp?: McpReport;
  /** The credential checks (stages/inspect/credentials.ts): a failing one keeps the candidate from any level. */
  credentials: CredentialReport;
  /**
   * Names that mislead an agent (stages/inspect/misleading-names.ts): beside the 98 rules of the spec, inter's own finding. Any
   * one keeps the candidate from Agent-Native (`blocking` names "naming").
   */
  naming: { findings: NameFinding[]; count: number };
  /**
   * The wire check (stages/inspect/wire-check.ts): a sample of requests held to the description by a real OpenAPI
   * request validator, and every operation's expressibility. An invalid or inexpressible request certifies nothing
   * (`blocking` names "wire"). Absent when the package has no manifest this inter reads.
   */
  wire?: WireReport;
}

const NEXT: Record<Level, Layer[]> = {
  none: ["core"],
  "Agent-Friendly": ["recommended"],
  "Agent-Ready": ["ecosystem"],
  "Agent-Native": [],
};

/**
 * Judges the 98 rules; the level is the highest whose layers (and all below) have no failing rule. A failing
 * credential check (A1–A3) certifies nothing: a CLI that leaks or cannot send its credentials hurts the agent using it.
 * A misleading name, or a request signature the CLI cannot compute (A4), is judged with the ecosystem layer: it keeps a
 * candidate from Agent-Native, never from Agent-Ready.
 * A request the description rejects, or an operation the CLI cannot express (the wire check), certifies nothing either:
 * the agent's call fails at the API (or cannot be made) whatever the CLI's manners, so no level would be true of it.
 */
function certify(
  rules: RuleResult[],
  credentials: CredentialReport,
  misleading: number,
  wire?: WireReport,
): Receipt["certification"] {
  // A request signature the CLI cannot compute (A4) is judged with the ecosystem layer: the CLI says it plainly, and
  // the calls that need it fail at the API.
  const uncomputed = credentials.checks.filter((c) => c.id === "A4" && c.status === "fail").map((c) => c.id);
  const failing = (layer: Layer) => [
    ...rules.filter((r) => r.layer === layer && r.status === "fail").map((r) => r.id),
    ...(layer === "ecosystem" && misleading ? ["naming"] : []),
    ...(layer === "ecosystem" ? uncomputed : []),
  ];
  const unsafe: string[] = credentials.checks.filter((c) => c.status === "fail" && c.id !== "A4").map((c) => c.id);
  if (wireBlocks(wire)) unsafe.push("wire");
  if (unsafe.length) return { level: "none", blocking: [...unsafe, ...failing("core")] };
  const level: Level = failing("core").length
    ? "none"
    : failing("recommended").length
      ? "Agent-Friendly"
      : failing("ecosystem").length
        ? "Agent-Ready"
        : "Agent-Native";
  return { level, blocking: NEXT[level].flatMap(failing) };
}

/** At most this many findings in the receipt; `count` has them all. */
const MAX_NAME_FINDINGS = 50;

function judge(facts: Facts): RuleResult[] {
  return RULES.map((rule) => {
    let verdict;
    try {
      verdict = rule.judge(facts);
    } catch (error) {
      verdict = { status: "fail" as const, reason: `could not be judged: ${(error as Error).message}` };
    }
    return {
      id: rule.id,
      group: rule.group,
      layer: layerOf(rule.id),
      priority: rule.priority,
      title: rule.title,
      ...verdict,
    };
  });
}

/** The fields a command's output holds (of each item, for a list), from its --describe output schema. */
function outputFields(schema: unknown): Record<string, { type?: string; enum?: unknown[] }> {
  const s = schema as {
    type?: string;
    items?: { properties?: Record<string, { type?: string; enum?: unknown[] }> };
    properties?: Record<string, { type?: string; enum?: unknown[] }>;
  };
  const props = (s.type === "array" ? s.items?.properties : s.properties) ?? {};
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [
      k,
      { ...(typeof v?.type === "string" ? { type: v.type } : {}), ...(Array.isArray(v?.enum) ? { enum: v.enum } : {}) },
    ]),
  );
}

export function buildReceipt(input: {
  facts: Facts;
  skills: SkillCheck[];
  candidate: Receipt["candidate"];
  tools: Receipt["tools"];
  secrets: string[];
  mcp?: McpReport;
}): Receipt {
  const { facts } = input;
  const rules = judge(facts);
  const credentials = judgeCredentials(facts.credentials, facts.commands, facts.stateText);
  const misleading =
    facts.names ?? misleadingNames(facts.commands, facts.operations ?? operationTexts(facts.packageRoot));
  const pkg = facts.packageJson;
  const receipt: Receipt = {
    schemaVersion: RECEIPT_SCHEMA_VERSION,
    candidate: input.candidate,
    package: { name: pkg.name ?? facts.binary, version: pkg.version ?? "", binary: facts.binary },
    globalFlags: globalFlagsOf(facts.probes.help)
      .map((g) => String(g.name))
      .sort(),
    commands: facts.commands.map((c) => ({
      name: c.name,
      parameters: (c.parameters ?? []).map((p) => ({
        name: p.name,
        ...(p.type ? { type: p.type } : {}),
        ...(typeof p.required === "boolean" ? { required: p.required } : {}),
        ...(p.enum ? { enum: p.enum } : {}),
      })),
      destructive: c.destructive === true,
      ...(c.permission ? { permission: c.permission } : {}),
      ...(c.output ? { output: c.output } : {}),
      ...(c.outputSchema ? { fields: outputFields(c.outputSchema) } : {}),
    })),
    skills: input.skills,
    rules,
    summary: {
      pass: rules.filter((r) => r.status === "pass").length,
      fail: rules.filter((r) => r.status === "fail").length,
      notApplicable: rules.filter((r) => r.status === "not applicable").length,
    },
    certification: certify(rules, credentials, misleading.length, facts.wire),
    api: facts.apiUnavailable
      ? { probed: false, reason: facts.apiUnavailable }
      : { probed: true, ...(facts.baseUrl ? { baseUrl: facts.baseUrl } : {}) },
    tools: input.tools,
    ...(input.mcp ? { mcp: input.mcp } : {}),
    ...(facts.probing ? { probing: facts.probing } : {}),
    ...(facts.sampling ? { sampling: facts.sampling } : {}),
    credentials,
    naming: { findings: misleading.slice(0, MAX_NAME_FINDINGS), count: misleading.length },
    ...(facts.wire ? { wire: facts.wire } : {}),
  };
  // Whatever a misbehaving CLI printed, no credential value leaves in the receipt (with none set, there is none to find).
  return input.secrets.some(Boolean) ? redactDeep(receipt, redactor(input.secrets)) : receipt;
}

/**
 * Why a candidate is below the next level, one line per blocking name: a rule's title and the reason it failed, the
 * naming finding's first examples, or the wire check's counts. `inter build` and `inter status` print it.
 */
export function blockingReasons(receipt: Receipt): Array<{ id: string; why: string }> {
  return receipt.certification.blocking.map((id) => {
    if (id === "naming") {
      const first = receipt.naming.findings.slice(0, 2).map((f) => `\`${f.command}\` ${f.problem} (${f.detail})`);
      return { id, why: `${count(receipt.naming.count, "misleading name")}, e.g. ${first.join("; ")}` };
    }
    if (id === "wire" && receipt.wire) {
      const w = receipt.wire;
      return {
        id,
        why: `${count(w.invalid.length, "sampled request")} the description rejects, ${count(w.inexpressibleCount, "operation")} the CLI cannot express (receipt.wire)`,
      };
    }
    const rule = receipt.rules.find((r) => r.id === id);
    return { id, why: rule ? `${rule.title} — failed: ${rule.reason}` : "see the receipt" };
  });
}
