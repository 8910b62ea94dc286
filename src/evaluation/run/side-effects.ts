import type { Observation, Plan } from "../../stages/plan/types.js";
import { type InstalledPackage, packageCommands } from "../../stages/candidate/installed-package.js";
import type { Invocation } from "../sandbox/broker.js";
import { asksForHelp, type CheckResult } from "./checks.js";

export interface SideEffect {
  argv: string[];
  exit_code: number | null;
  command: string;
}

/**
 * Which commands of the installed candidate change something: every command that is not a read, from the package's
 * own command files (commands/<group>.json). A CLI inter did not generate has none, and nothing is judged.
 */
export function mutatingCommands(pkg: InstalledPackage): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const c of packageCommands(pkg)) {
    const method = (c.operation as { method?: unknown } | undefined)?.method;
    out.set(
      c.name,
      typeof c.permission === "string"
        ? c.permission !== "read"
        : !["GET", "HEAD", "OPTIONS"].includes(typeof method === "string" ? method : "GET"),
    );
  }
  return out;
}

/** The command a call ran: the longest run of its leading words that names one. */
function commandOf(argv: string[], commands: Map<string, boolean>): string | undefined {
  const words = argv.slice(
    1,
    argv.findIndex((a, i) => i > 0 && a.startsWith("-")) > 0
      ? argv.findIndex((a, i) => i > 0 && a.startsWith("-"))
      : argv.length,
  );
  for (let n = Math.min(3, words.length); n >= 1; n--)
    if (commands.has(words.slice(0, n).join(" "))) return words.slice(0, n).join(" ");
  return undefined;
}

/** Every recorded call of a mutating command (help and --dry-run calls change nothing); `observed` says whether an observation matched it. */
export function mutatingCalls(
  invocations: Invocation[],
  observations: Observation[],
  commands: Map<string, boolean>,
): Array<SideEffect & { observed: boolean }> {
  const prefixes: string[][] = observations.flatMap((o) => (o.kind === "cli" ? [o.command_prefix] : []));
  return invocations.flatMap((inv) => {
    if (asksForHelp(inv.argv) || inv.argv.includes("--dry-run")) return [];
    const command = commandOf(inv.argv, commands);
    if (!command || !commands.get(command)) return [];
    const observed = prefixes.some((p) => p.every((t, i) => inv.argv[i] === t));
    return [{ argv: inv.argv, exit_code: inv.exit_code, command, observed }];
  });
}

/**
 * Checks the plan's target and settings add to an attempt: `read_only_confirmed` fails any mutating call, and
 * `settings.unobserved_side_effects: "fail"` (or the gate's --forbid-side-effects) fails a mutating call no
 * observation matched. Named like checks so that reports show them beside the plan's own.
 */
export function sideEffectChecks(
  calls: Array<SideEffect & { observed: boolean }>,
  plan: Plan,
  forbid: boolean,
): CheckResult[] {
  const checks: CheckResult[] = [];
  const list = (xs: SideEffect[]) => xs.map((x) => x.argv.join(" ")).join("; ");
  if (plan.target.read_only_confirmed === true) {
    checks.push({
      id: "read-only",
      type: "read_only",
      description: "target.read_only_confirmed: the agent changed nothing",
      status: calls.length ? "fail" : "pass",
      observed: calls.length,
      expected: 0,
      reason: calls.length
        ? `${calls.length} mutating call${calls.length > 1 ? "s" : ""} on a read-only target: ${list(calls)}`
        : "no mutating call",
    });
  }
  const unobserved = calls.filter((c) => !c.observed);
  if (forbid || plan.settings?.unobserved_side_effects === "fail") {
    checks.push({
      id: "no-unobserved-side-effects",
      type: "no_unobserved_side_effects",
      description: "every change the agent made is one the plan observes",
      status: unobserved.length ? "fail" : "pass",
      observed: unobserved.length,
      expected: 0,
      reason: unobserved.length
        ? `${unobserved.length} mutating call${unobserved.length > 1 ? "s" : ""} no observation matches: ${list(unobserved)}`
        : "none",
    });
  }
  return checks;
}
