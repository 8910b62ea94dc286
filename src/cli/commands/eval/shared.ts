import { Option } from "clipanion";
import * as t from "typanion";
import { BaseCommand } from "../../base.js";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { InterError } from "../../../core/errors.js";
import { besideCandidate } from "../../../config/project-paths.js";
import type { Receipt } from "../../../stages/inspect/receipt.js";
import type { CandidateTree } from "../../../stages/plan/validate.js";
import { INTER_BUILD } from "../../../core/version.js";
import type { GateOptions } from "../../../evaluation/results/gate.js";

export const PASS_RATE = t.cascade(t.isNumber(), [t.isInInclusiveRange(0, 1)]);

export function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const [index, count] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || count < 1 || index < 1 || index > count)
    throw new InterError(
      "USAGE_ERROR",
      `--shard ${value} is not I/N with 1 ≤ I ≤ N.`,
      "Example: --shard 1/4 on the first of four runners, --shard 4/4 on the last.",
      { shard: value },
    );
  return { index, count };
}

/** Runs work that stops on Ctrl-C or SIGTERM: the signal aborts it; finished attempts stay journaled. */
export async function interruptible<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** An agent's argv template given on the command line as a JSON array of strings. */
export function argvOption(flag: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.length || !parsed.every((x) => typeof x === "string"))
    throw new InterError(
      "USAGE_ERROR",
      `${flag} must be a JSON array of strings.`,
      `Example: ${flag} '["my-agent", "{prompt_file}"]'`,
    );
  return parsed as string[];
}

/** The gate the flags ask for; by default every attempt of every scenario must pass. */
const gateOf = (
  minPassRate: unknown,
  allowIncomplete: boolean,
  requireSealed = false,
  forbidSideEffects = false,
): GateOptions => ({
  minPassRate: (minPassRate as number | undefined) ?? 1,
  allowIncomplete,
  ...(requireSealed ? { requireSealed } : {}),
  ...(forbidSideEffects ? { forbidSideEffects } : {}),
});
const FORBID_SIDE_EFFECTS = "Fail an attempt (and the gate) on a mutating call no observation of its scenario matches";
const REQUIRE_SEALED =
  "Fail the gate when the attempts ran unsealed (no bubblewrap): their evidence could have been forged";

/** A command that judges results against a gate: the four gate flags, defined once (eval run, report, merge). */
export abstract class GatedCommand extends BaseCommand {
  minPassRate = Option.String("--min-pass-rate", {
    description: "The gate: each scenario's pass rate must reach this, 0..1 (default 1)",
    validator: PASS_RATE,
  });
  allowIncomplete = Option.Boolean("--allow-incomplete", false, {
    description: "Leave incomplete attempts out of the gate's pass rates instead of counting them as not passed",
  });
  requireSealed = Option.Boolean("--require-sealed", false, { description: REQUIRE_SEALED });
  forbidSideEffects = Option.Boolean("--forbid-side-effects", false, { description: FORBID_SIDE_EFFECTS });

  protected gate(): GateOptions {
    return gateOf(this.minPassRate, this.allowIncomplete, this.requireSealed, this.forbidSideEffects);
  }
}

/**
 * The candidate tree of a cli.tgz, with the overlay's renames the capabilities.json beside it records (a project's
 * build output).
 */
export async function candidateTree(
  tgz: string | undefined,
  missing: string,
  json: boolean,
): Promise<{ tree: CandidateTree | null; missing?: string }> {
  const found = await receiptTree(tgz, missing, json);
  const capabilities = tgz ? join(dirname(tgz), "capabilities.json") : undefined;
  if (!found.tree || !capabilities || !existsSync(capabilities)) return found;
  const { renamesOf } = await import("../../../stages/plan/renames.js");
  let renames: CandidateTree["renames"] = [];
  try {
    renames = renamesOf(
      JSON.parse(readFileSync(capabilities, "utf8")),
      found.tree.commands.map((c) => c.name),
    );
  } catch {
    // An unreadable capabilities.json explains nothing: validation goes on without renames.
  }
  return renames.length ? { tree: { ...found.tree, renames } } : found;
}

/** The candidate tree of a cli.tgz: the receipt.json beside it when it matches, else a fresh inspection. */
async function receiptTree(
  tgz: string | undefined,
  missing: string,
  json: boolean,
): Promise<{ tree: CandidateTree | null; missing?: string }> {
  if (!tgz) return { tree: null, missing };
  const [{ treeFromReceipt }, { sha256 }] = await Promise.all([
    import("../../../stages/plan/tree-from-receipt.js"),
    import("../../../core/hash.js"),
  ]);
  const bytes = readFileSync(tgz);
  const hash = sha256(bytes);
  const receiptFile = besideCandidate(tgz).receipt;
  if (existsSync(receiptFile)) {
    const receipt = JSON.parse(readFileSync(receiptFile, "utf8")) as Receipt;
    if (receipt.candidate?.sha256 === hash && Array.isArray(receipt.globalFlags))
      return { tree: treeFromReceipt(receipt) };
  }
  if (!json) process.stderr.write(`inter: inspecting ${tgz} to learn its commands…\n`);
  const { inspectTarball } = await import("../../../stages/inspect/inspect.js");
  return { tree: treeFromReceipt(await inspectTarball(tgz, bytes, { interVersion: INTER_BUILD })) };
}
