import { ISSUE_TYPES } from "../../../runtime/builtins.js";
import { isObject, listOf, recordOf } from "../probe-output.js";
import { refused, section, verdict, expected } from "./judging.js";

/** The spec's Feedback rules ("Feedback" in the Agent-Friendly CLI Spec v0.1). */
export const FEEDBACK = section("Feedback", [
  {
    id: "F1",
    priority: "P2",
    title: "an issue subcommand (create / list / show)",
    judge: (f) =>
      expected(
        [f.probes.issueCreate, f.probes.issueList, f.probes.issueShow].every((p) => p?.exitCode === 0),
        "create, list and show succeed",
        f.probes.issueCreate,
        f.probes.issueList,
        f.probes.issueShow,
      ),
  },
  {
    id: "F2",
    priority: "P2",
    title: "a report records version, context and exit code",
    judge: (f) => {
      const r = recordOf(f.probes.issueCreate);
      const context = isObject(r?.context) ? r.context : undefined;
      return expected(
        !!r?.version && context?.exit_code === 1,
        "version, context and exit_code recorded",
        f.probes.issueCreate,
      );
    },
  },
  {
    id: "F3",
    priority: "P2",
    title: "types bug / requirement / suggestion / bad-output",
    judge: (f) =>
      expected(
        ISSUE_TYPES.every((t) => f.probes.help?.stdout.includes(t)),
        "all four types documented",
        f.probes.help,
      ),
  },
  {
    id: "F4",
    priority: "P2",
    title: "stored locally, no external service",
    judge: (f) =>
      verdict(
        f.probes.issueCreate?.exitCode === 0 && f.stateFiles.length > 0,
        `stored in the CLI's state folder: ${f.stateFiles.join(", ") || "nothing"}`,
        f.probes.issueCreate,
      ),
  },
  {
    id: "F5",
    priority: "P2",
    title: "issue list and issue show <id> are queryable (filters by type and status)",
    judge: (f) => {
      const id = recordOf(f.probes.issueCreate)?.id;
      const listed = !!listOf(f.probes.issueList)?.some((i) => isObject(i) && i.id === id);
      return expected(
        listed && recordOf(f.probes.issueShow)?.id === id,
        "the new issue is found by list --type --status and by show",
        f.probes.issueList,
        f.probes.issueShow,
      );
    },
  },
  {
    id: "F6",
    priority: "P2",
    title: "statuses open / in-progress / resolved / closed with transitions",
    judge: (f) =>
      expected(
        recordOf(f.probes.issueUpdate)?.status === "closed" && refused(f.probes.issueBadTransition),
        "open → closed allowed, closed → in-progress refused",
        f.probes.issueUpdate,
        f.probes.issueBadTransition,
      ),
  },
  {
    id: "F7",
    priority: "P2",
    title: "an issue record has id, type, status, message, created_at, updated_at",
    judge: (f) => {
      const r = recordOf(f.probes.issueCreate) ?? {};
      const missing = ["id", "type", "status", "message", "created_at", "updated_at"].filter((k) => !(k in r));
      return verdict(
        !missing.length,
        missing.length ? `missing: ${missing.join(", ")}` : "all six fields",
        f.probes.issueCreate,
      );
    },
  },
  {
    id: "F8",
    priority: "P2",
    title: "every listed issue has a status",
    judge: (f) => {
      const rows = listOf(f.probes.issueList);
      return expected(
        !!rows?.length && rows.every((i) => isObject(i) && typeof i.status === "string"),
        "statuses present",
        f.probes.issueList,
      );
    },
  },
]);
