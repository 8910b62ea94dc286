import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ISSUE_STATUSES } from "./builtins.js";
import { CliError } from "./errors.js";
import { withoutCredentials } from "./without-credentials.js";
import type { Manifest } from "./manifest.js";

const TRANSITIONS: Record<string, string[]> = {
  open: ["in-progress", "resolved", "closed"],
  "in-progress": ["open", "resolved", "closed"],
  resolved: ["open", "closed"],
  closed: ["open"],
};

export interface IssueRecord {
  id: string;
  type: string;
  status: string;
  message: string;
  created_at: string;
  updated_at: string;
  version: string;
  context: { command: string | null; exit_code: number | null; cwd: string };
}

/** Issues live on this machine only (F4), under the user's state folder. */
function storeFile(manifest: Manifest): string {
  const base =
    process.env.XDG_STATE_HOME || join(process.env.HOME || process.env.USERPROFILE || ".", ".local", "state");
  return join(base, manifest.product.binary, "issues.json");
}

function load(file: string): IssueRecord[] {
  try {
    const list = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return Array.isArray(list) ? (list as IssueRecord[]) : [];
  } catch {
    return [];
  }
}

function save(file: string, issues: IssueRecord[]): void {
  mkdirSync(join(file, ".."), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(issues, null, 2)}\n`);
  renameSync(tmp, file);
}

/** What `issue <action>` was given: flag name → typed value (bound by args.ts against builtins.ts). */
export type IssueInput = Record<string, unknown>;

const text = (value: unknown) => (value === undefined || value === null ? undefined : String(value));

/**
 * `issue create|list|show|update`: local feedback with a status lifecycle (F1–F8). Values arrive typed and checked
 * (types, enums, required flags). With `dryRun`, create and update say what they would record and write nothing (S3).
 */
export function runIssue(manifest: Manifest, action: string, input: IssueInput, dryRun = false): unknown {
  const file = storeFile(manifest);
  const issues = load(file);
  const find = () => {
    const id = text(input.id);
    if (!id)
      throw new CliError("MISSING_FLAG", `"issue ${action}" needs --id.`, "Find ids with `issue list`.", {
        missing: ["id"],
      });
    const issue = issues.find((i) => i.id === id);
    if (!issue) throw new CliError("NOT_FOUND", `No issue ${id}.`, "Find ids with `issue list`.", { id });
    return issue;
  };
  const preview = (issue: IssueRecord, change: string) => ({
    dry_run: true,
    written: false,
    action: `issue ${action}`,
    would: change,
    issue,
  });
  switch (action) {
    case "create": {
      // A credential typed into a report is not stored (issues live in a file anyone on the machine may read).
      const scrub = (s: string) => withoutCredentials(s, manifest);
      const command = text(input.command);
      const exit = input["exit-code"];
      const now = new Date().toISOString();
      const issue: IssueRecord = {
        id: `ISS-${String(issues.length + 1).padStart(4, "0")}`,
        type: String(input.type),
        status: "open",
        message: scrub(String(input.message)),
        created_at: now,
        updated_at: now,
        version: manifest.product.version,
        // The exit code is always recorded (F2): null when the report did not give one.
        context: {
          command: command === undefined ? null : scrub(command),
          exit_code: exit === undefined ? null : Number(exit),
          cwd: process.cwd(),
        },
      };
      if (dryRun) return preview(issue, `record ${issue.id} in ${file}`);
      save(file, [...issues, issue]);
      return issue;
    }
    case "list": {
      const type = text(input.type);
      const status = text(input.status);
      return issues.filter((i) => (!type || i.type === type) && (!status || i.status === status));
    }
    case "show":
      return find();
    case "update": {
      const issue = find();
      const status = text(input.status);
      if (!status)
        throw new CliError(
          "MISSING_FLAG",
          '"issue update" needs --status.',
          `Use one of: ${ISSUE_STATUSES.join(", ")}.`,
          { missing: ["status"] },
        );
      if (status !== issue.status && !TRANSITIONS[issue.status]!.includes(status)) {
        throw new CliError(
          "PRECONDITION_FAILED",
          `An issue cannot go from ${issue.status} to ${status}.`,
          `From ${issue.status} it can go to: ${TRANSITIONS[issue.status]!.join(", ")}.`,
          { from: issue.status, to: status },
        );
      }
      const updated = { ...issue, status, updated_at: new Date().toISOString() };
      if (dryRun) return preview(updated, `move ${issue.id} from ${issue.status} to ${status} in ${file}`);
      save(
        file,
        issues.map((i) => (i === issue ? updated : i)),
      );
      return updated;
    }
  }
  throw new CliError(
    "UNKNOWN_COMMAND",
    `"issue ${action}" is not a command.`,
    "Use issue create, issue list, issue show or issue update.",
    { words: ["issue", action] },
  );
}
