import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Parsed } from "./args.js";
import { CliError } from "./errors.js";
import { credentialOf, withoutCredential } from "./redact.js";
import type { Manifest } from "./manifest.js";

const TYPES = ["bug", "requirement", "suggestion", "bad-output"];
const STATUSES = ["open", "in-progress", "resolved", "closed"];
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
  context: { command?: string; exit_code?: number; cwd: string };
}

/** Issues live on this machine only (F4), under the user's state folder. */
function storeFile(manifest: Manifest): string {
  const base = process.env.XDG_STATE_HOME || join(process.env.HOME || process.env.USERPROFILE || ".", ".local", "state");
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

function one(parsed: Parsed, name: string, allowed?: string[]): string | undefined {
  const values = parsed.raw.get(name);
  const value = values?.[values.length - 1];
  if (value !== undefined && allowed && !allowed.includes(value)) {
    throw new CliError("INVALID_VALUE", `--${name} must be one of ${allowed.join(", ")} (got "${value}").`, `Use one of: ${allowed.join(", ")}.`, { flag: name });
  }
  return value;
}

const KNOWN: Record<string, string[]> = { create: ["type", "message", "command", "exit-code"], list: ["type", "status"], show: ["id"], update: ["id", "status"] };

/** `issue create|list|show|update`: local feedback with a status lifecycle (F1–F8). */
export function runIssue(manifest: Manifest, action: string | undefined, parsed: Parsed): unknown {
  if (!action || !KNOWN[action]) throw new CliError("UNKNOWN_COMMAND", `"issue ${action ?? ""}" is not a command.`, "Use issue create, issue list, issue show or issue update.");
  for (const name of parsed.raw.keys()) {
    if (!KNOWN[action]!.includes(name)) throw new CliError("UNKNOWN_FLAG", `Unknown flag --${name} for "issue ${action}".`, `Its flags: ${KNOWN[action]!.map((f) => `--${f}`).join(", ")}.`, { flag: name });
  }
  const file = storeFile(manifest);
  const issues = load(file);
  const find = () => {
    const id = one(parsed, "id") ?? parsed.positionals[0];
    if (!id) throw new CliError("MISSING_FLAG", `"issue ${action}" needs --id.`, "Find ids with `issue list`.");
    const issue = issues.find((i) => i.id === id);
    if (!issue) throw new CliError("NOT_FOUND", `No issue ${id}.`, "Find ids with `issue list`.", { id });
    return issue;
  };
  switch (action) {
    case "create": {
      const type = one(parsed, "type", TYPES);
      const message = one(parsed, "message");
      if (!type || !message) throw new CliError("MISSING_FLAG", '"issue create" needs --type and --message.', `Example: ${manifest.product.binary} issue create --type bug --message "<command> returned an error it should not have"`);
      const exit = one(parsed, "exit-code");
      if (exit !== undefined && !/^\d+$/.test(exit)) throw new CliError("INVALID_VALUE", `--exit-code expects an integer (got "${exit}").`, "Give the exit code of the command that went wrong.");
      // A credential typed into a report is not stored (issues live in a file anyone on the machine may read).
      const scrub = (s: string) => withoutCredential(s, credentialOf(manifest));
      const now = new Date().toISOString();
      const issue: IssueRecord = {
        id: `ISS-${String(issues.length + 1).padStart(4, "0")}`,
        type,
        status: "open",
        message: scrub(message),
        created_at: now,
        updated_at: now,
        version: manifest.product.version,
        context: { ...(one(parsed, "command") ? { command: scrub(one(parsed, "command")!) } : {}), ...(exit !== undefined ? { exit_code: Number(exit) } : {}), cwd: process.cwd() },
      };
      save(file, [...issues, issue]);
      return issue;
    }
    case "list": {
      const type = one(parsed, "type", TYPES);
      const status = one(parsed, "status", STATUSES);
      return issues.filter((i) => (!type || i.type === type) && (!status || i.status === status));
    }
    case "show":
      return find();
    case "update": {
      const issue = find();
      const status = one(parsed, "status", STATUSES);
      if (!status) throw new CliError("MISSING_FLAG", '"issue update" needs --status.', `Use one of: ${STATUSES.join(", ")}.`);
      if (status !== issue.status && !TRANSITIONS[issue.status]!.includes(status)) {
        throw new CliError("PRECONDITION_FAILED", `An issue cannot go from ${issue.status} to ${status}.`, `From ${issue.status} it can go to: ${TRANSITIONS[issue.status]!.join(", ")}.`, { from: issue.status, to: status });
      }
      issue.status = status;
      issue.updated_at = new Date().toISOString();
      save(file, issues);
      return issue;
    }
  }
  return undefined;
}
