import { DRY_RUN_MESSAGE, PROBE_CREDENTIAL, type Facts } from "../probes.js";
import { documentOf, errorOf, isObject, listOf, recordOf } from "../probe-output.js";
import { hasFlag, na, noSubject, refused, section, verdict, expected } from "./judging.js";

/**
 * What is wrong with `issue create --dry-run`, if anything: it must answer with a preview that says so (dry_run: true)
 * and record nothing (the listing after it lacks its message). Undefined when it did not run or behaved.
 */
function previewProblem(f: Facts): string | undefined {
  const preview = f.probes.issueDryRun;
  if (!preview) return undefined;
  const said = preview.exitCode === 0 && (recordOf(preview)?.dry_run === true || !!documentOf(preview)?.dryRun);
  if (!said) return "issue create --dry-run did not answer with a preview (dry_run: true)";
  const listed = listOf(f.probes.issueList);
  if (listed?.some((i) => isObject(i) && i.message === DRY_RUN_MESSAGE))
    return "issue create --dry-run recorded the issue";
  return listed ? undefined : "issue list did not answer, so the preview's effect is unknown";
}

/** The spec's Safety rules ("Safety" in the Agent-Friendly CLI Spec v0.1). */
export const SAFETY = section("Safety", [
  {
    id: "S1",
    priority: "P1",
    title: "destructive operations refuse without --yes",
    judge: (f) =>
      f.probes.destructiveRefused
        ? verdict(refused(f.probes.destructiveRefused), "refused without --yes", f.probes.destructiveRefused)
        : noSubject(f, "destructive", "no destructive command"),
  },
  {
    id: "S2",
    priority: "P2",
    title: "the refusal names --yes",
    judge: (f) =>
      f.probes.destructiveRefused
        ? expected(
            f.probes.destructiveRefused.stderr.includes("--yes"),
            "the error mentions --yes",
            f.probes.destructiveRefused,
          )
        : noSubject(f, "destructive", "no destructive command"),
  },
  {
    id: "S3",
    priority: "P2",
    title: "--dry-run previews",
    judge: (f) => {
      const preview = f.probes.issueDryRun;
      const builtin = previewProblem(f);
      if (builtin) return verdict(false, builtin, preview, f.probes.issueList);
      const previewed = preview ? "; issue create --dry-run previewed and recorded nothing" : "";
      const dry = f.probes.dryRun;
      if (dry) {
        // Each way it fails says what failed and what to change; only a pass reads like one.
        const error = errorOf(dry);
        const problem =
          dry.exitCode !== 0
            ? `\`${dry.command}\` exited ${dry.exitCode ?? "never (stopped at its bound)"}${error ? ` with ${error.code}: ${error.message.slice(0, 160)}` : ""}; a write command's --dry-run must print the request it would send and exit 0`
            : !dry.json
              ? `\`${dry.command}\` printed no JSON; --dry-run must print the request it would send as JSON`
              : dry.stdout.includes(PROBE_CREDENTIAL)
                ? `\`${dry.command}\` printed the credential; --dry-run must hide it`
                : undefined;
        return verdict(!problem, problem ?? `dry run printed the request, credential hidden${previewed}`, dry, preview);
      }
      return verdict(
        hasFlag(f, "dry-run") && !!preview,
        preview
          ? "issue create --dry-run previewed and recorded nothing"
          : "--dry-run declared, but no write command could be probed",
        f.probes.help,
        preview,
      );
    },
  },
  {
    id: "S4",
    priority: "P1",
    title: ".. traversal and control characters in inputs are refused",
    judge: (f) =>
      f.probes.traversal
        ? expected(
            refused(f.probes.traversal) && refused(f.probes.control),
            "both refused",
            f.probes.traversal,
            f.probes.control,
          )
        : noSubject(f, "hostile", "no command takes a string value"),
  },
  {
    id: "S5",
    priority: "P2",
    title: "no self-update",
    judge: (f) => {
      const hooks = Object.keys(f.packageJson.scripts ?? {}).filter((s) => /install|prepare/.test(s));
      const updater = f.commands.find((c) => !c.method && /\b(self-update|upgrade)\b/.test(c.name));
      return verdict(
        !hooks.length && !updater,
        hooks.length
          ? `install hooks: ${hooks.join(", ")}`
          : updater
            ? `updater command: ${updater.name}`
            : "no install hooks or updater command (API operations named upgrade are not updaters)",
      );
    },
  },
  {
    id: "S6",
    priority: "P2",
    title: "destructive commands are marked destructive: true in help",
    judge: (f) => {
      const d = f.commands.filter((c) => c.destructive === true);
      return d.length
        ? verdict(true, `marked: ${d.map((c) => c.name).join(", ")}`, f.probes.help)
        : f.probes.destructiveRefused
          ? verdict(false, "a command refused without --yes but is not marked")
          : na("no destructive command");
    },
  },
  {
    id: "S7",
    priority: "P2",
    title: "--quiet never bypasses --yes",
    judge: (f) =>
      f.probes.destructiveQuiet
        ? verdict(refused(f.probes.destructiveQuiet), "still refused with --quiet", f.probes.destructiveQuiet)
        : noSubject(f, "destructive", "no destructive command"),
  },
  {
    id: "S8",
    priority: "P1",
    title: "a --sanitize flag cleans external input",
    judge: (f) => verdict(hasFlag(f, "sanitize"), "--sanitize declared", f.probes.help),
  },
]);
