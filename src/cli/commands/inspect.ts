import { Command, Option } from "clipanion";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as t from "typanion";
import { InterError } from "../../core/errors.js";
import type { Receipt } from "../../stages/inspect/receipt.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { INTER_BUILD } from "../../core/version.js";

const LEVELS = ["none", "agent-friendly", "agent-ready", "agent-native"];

/** The compact human view: one line per rule group, failures spelled out. */
function receiptTable(receipt: Receipt): string {
  const groups = [...new Set(receipt.rules.map((r) => r.group))];
  const lines = groups.map((group) => {
    const rules = receipt.rules.filter((r) => r.group === group);
    const marks = rules.map((r) => `${r.id}${r.status === "pass" ? "✓" : r.status === "fail" ? "✗" : "–"}`).join(" ");
    return `  ${group.padEnd(16)} ${marks}`;
  });
  const failures = receipt.rules
    .filter((r) => r.status === "fail")
    .map(
      (r) =>
        `  ✗ ${r.id} ${r.title}: ${r.reason}${r.evidence?.[0] ? `\n      $ ${r.evidence[0].command}  → exit ${r.evidence[0].exitCode}` : ""}`,
    );
  const skills = receipt.skills.filter((s) => !s.valid).map((s) => `  ✗ Skill ${s.name}: ${s.problems.join("; ")}`);
  // Receipts written before names were judged have no naming section.
  const naming = (receipt.naming?.findings ?? [])
    .slice(0, 5)
    .map((f) => `  ✗ name ${f.command}: ${f.problem} (${f.detail})`);
  return [
    `${receipt.package.name}@${receipt.package.version} (${receipt.package.binary})${receipt.candidate ? `  sha256:${receipt.candidate.sha256}` : ""}`,
    ...lines,
    ...failures,
    ...skills,
    ...naming,
    ...((receipt.naming?.count ?? 0) > naming.length
      ? [`    … ${receipt.naming!.count - naming.length} more misleading names in receipt.json`]
      : []),
    `  ✓ pass ${receipt.summary.pass}  ✗ fail ${receipt.summary.fail}  – not applicable ${receipt.summary.notApplicable}${receipt.api.probed ? "" : `  (API probes not run: ${receipt.api.reason})`}`,
    ...(receipt.mcp ? [mcpLine(receipt.mcp)] : []),
    ...(receipt.wire ? wireLines(receipt.wire) : []),
    `certification: ${receipt.certification.level}${receipt.certification.blocking.length ? ` (next level blocked by ${receipt.certification.blocking.join(", ")})` : ""}`,
  ].join("\n");
}

/** The wire check: requests validated against the description, and what the CLI cannot express. */
function wireLines(wire: NonNullable<Receipt["wire"]>): string[] {
  const head = wire.notRun
    ? `  wire: requests not validated (${wire.notRun})`
    : `  wire: ${wire.valid} of ${wire.checked} sampled requests valid against the description (${wire.validator})`;
  return [
    head,
    ...wire.invalid.slice(0, 5).map((i) => `  ✗ wire ${i.command} (${i.operation}): ${i.errors.join("; ")}`),
    ...wire.inexpressible.slice(0, 5).map((i) => `  ✗ wire ${i.command} (${i.operation}): ${i.reason}`),
    ...(wire.inexpressibleCount > Math.min(5, wire.inexpressible.length)
      ? [
          `    … ${wire.inexpressibleCount - Math.min(5, wire.inexpressible.length)} more operations that cannot be expressed in receipt.json`,
        ]
      : []),
  ];
}

/** One line on the MCP server: what it serves, its size in tokens, which client profiles it fits, what failed. */
function mcpLine(mcp: NonNullable<Receipt["mcp"]>): string {
  if (!mcp.served) return `  MCP: not certified (${mcp.reason})`;
  const call = (c: NonNullable<typeof mcp.readCall>) =>
    "skipped" in c ? "skipped" : c.ok ? "ok" : `failed (${c.code})`;
  const problems = [
    ...(mcp.names?.invalid.length
      ? [`names over 64 or with other characters: ${mcp.names.invalid.slice(0, 3).join(", ")}`]
      : []),
    ...(mcp.names?.duplicates.length ? ["duplicate names"] : []),
    ...(mcp.invalidSchemas?.length ? [`invalid schemas: ${mcp.invalidSchemas.slice(0, 3).join(", ")}`] : []),
  ];
  return [
    `  ${mcp.ok ? "✓" : "✗"} MCP ${mcp.executable}: ${mcp.tools} tools (${mcp.toolset}), ~${mcp.tokens} tokens${mcp.perCommandTokens ? ` (one per command: ~${mcp.perCommandTokens})` : ""}, ${mcp.prompts} prompts, ${mcp.resources} resources; read call ${call(mcp.readCall!)}, destructive call refused ${call(mcp.destructiveRefused!)}`,
    `      fits clients of ${mcp.profiles!.map((p) => `${p.maxTools} tools ${p.fits ? "✓" : "✗"}`).join(", ")}${problems.length ? `; ${problems.join("; ")}` : ""}`,
    ...(mcp.http
      ? [
          `      Streamable HTTP: ${!mcp.http.offered ? `not offered (${mcp.http.reason})` : mcp.http.ok ? `✓ ${mcp.http.tools} tools, as over stdio` : `✗ ${mcp.http.reason}`}`,
        ]
      : []),
    ...(mcp.stateless
      ? [
          `      revision 2026-07-28: ${!mcp.stateless.offered ? `not offered (${mcp.stateless.reason})` : mcp.stateless.ok ? `✓ server/discover, ${mcp.stateless.tools} tools listed statelessly, as in a session` : `✗ ${mcp.stateless.reason}`}`,
        ]
      : []),
  ].join("\n");
}

export class InspectCommand extends BaseCommand {
  static paths = [["inspect"]];
  static usage = Command.Usage({
    description:
      "Install and probe a CLI from outside, judge the 98 rules of the Agent-Friendly CLI Spec and certify it",
    details:
      "Give a candidate tarball (cli.tgz: checked entry by entry, then installed with npm, scripts disabled) or --bin with an installed command. Probes that call the API run when --base-url is given and the CLI's credential variable is set; otherwise they are 'not applicable' with the reason. A package with an MCP server (<binary>-mcp) has it certified too, started like a client: tools, names, schemas, size in tokens, a read call, a refused destructive call, whether it fits clients of 40, 50 and 128 tools, the same tools over Streamable HTTP on a free loopback port, and the same again as a client of revision 2026-07-28 asks (server/discover, then a stateless tools/list) (the receipt's mcp). --json prints the inspection receipt.",
    examples: [
      ["Inspect a candidate", "inter inspect dist/cli.tgz"],
      ["Inspect an installed CLI against a running API", "inter inspect --bin rooms --base-url http://127.0.0.1:4010"],
      ["Fail unless fully certified", "inter inspect dist/cli.tgz --min-level agent-native"],
    ],
  });
  tarball = Option.String({ name: "cli.tgz", required: false });
  bin = Option.String("--bin", { description: "Inspect an installed command instead of a tarball" });
  baseUrl = Option.String("--base-url", {
    description: "Base URL of a running API for the probes that call it",
    validator: t.cascade(t.isString(), [t.matchesRegExp(/^https?:\/\/\S+$/)]),
  });
  openapi = Option.String("--openapi", {
    description:
      "The OpenAPI description the CLI was built from: a sample of its requests is validated against it (the receipt's wire)",
  });
  minLevel = Option.String("--min-level", {
    description: "Exit 1 below this level: agent-friendly, agent-ready or agent-native",
    validator: t.isEnum(LEVELS.slice(1)),
  });

  async run(): Promise<CommandResult> {
    if (!this.tarball === !this.bin)
      throw new InterError(
        "USAGE_ERROR",
        this.bin ? "Give either a tarball or --bin, not both." : "Give a cli.tgz to inspect, or --bin <command>.",
        "Example: inter inspect dist/cli.tgz",
      );
    const { inspectBin, inspectTarball } = await import("../../stages/inspect/inspect.js");
    const cwd = this.cwd ?? process.cwd();
    const options = {
      baseUrl: this.baseUrl,
      interVersion: INTER_BUILD,
      ...(this.openapi ? { description: { files: [resolve(cwd, this.openapi)], root: cwd } } : {}),
    };
    let receipt: Receipt;
    if (this.tarball) {
      // A cli.tgz, a folder holding one, or a project folder's build output: the one lookup.
      const { requireCandidate } = await import("../candidate-lookup.js");
      const file = await requireCandidate(undefined, this.tarball, this.cwd ?? process.cwd());
      receipt = await inspectTarball(file, readFileSync(file), options);
    } else {
      receipt = await inspectBin(this.bin!, options);
    }
    if (this.minLevel && LEVELS.indexOf(receipt.certification.level.toLowerCase()) < LEVELS.indexOf(this.minLevel)) {
      throw new InterError(
        "CERTIFICATION_BELOW",
        `Certified ${receipt.certification.level}, below ${this.minLevel}; blocked by ${receipt.certification.blocking.join(", ") || "core rules"}.`,
        "Fix the failing rules listed in the receipt (inter inspect --json).",
        { receipt },
      );
    }
    return { data: receipt, human: receiptTable(receipt) };
  }
}
