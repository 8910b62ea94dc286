/**
 * The commands every generated CLI has beside the API's: `skills`, `proof`, `auth status`, `agents install|uninstall`
 * and `issue create|list|show|update`. They are
 * declared the way API commands are — typed flags, required or not, enums — so one parser refuses an unknown or
 * mistyped flag on them (G1, I5), and help describes each in full (D2, D4–D7).
 */
import { AGENT_NAMES, agentPlaces, SKILL_FOLDER } from "../core/agent-homes.js";
import type { Command, Flag, Manifest } from "./manifest.js";

const AGENT_CHOICES = [...AGENT_NAMES, "all"];
export const ISSUE_TYPES = ["bug", "requirement", "suggestion", "bad-output"];
export const ISSUE_STATUSES = ["open", "in-progress", "resolved", "closed"];
export const ISSUE_ACTIONS = ["create", "list", "show", "update"];
export const AUTH_ACTIONS = ["status"];
export const AGENTS_ACTIONS = ["install", "uninstall"];
/** The name of every built-in command; the first words of which a designer may not give an API command. */
export const BUILTIN_NAMES: readonly string[] = [
  "skills",
  "search",
  "search-commands",
  "proof",
  ...AUTH_ACTIONS.map((a) => `auth ${a}`),
  ...ISSUE_ACTIONS.map((a) => `issue ${a}`),
  ...AGENTS_ACTIONS.map((a) => `agents ${a}`),
];
export const BUILTIN_WORDS: readonly string[] = ["skills", "auth", "issue", "proof", "agents"];

/**
 * The word of the built-in that finds commands by a request: `search`, unless the API has a group of that name (an
 * API's own search is common, and keeps its name), then `search-commands`. Never a reserved word: no resource of the
 * API is renamed for it.
 */
export const searchWord = (manifest: Pick<Manifest, "groups">): string =>
  manifest.groups.some((g) => g.name === "search") ? "search-commands" : "search";
/** Built-in words that are one command each, whatever words follow (`skills <name>`, `search <request>`). */
const SINGLE_BUILTINS = ["skills", "proof"];
/** Built-in words that name a group of commands (`issue create`), not one command (`skills`, `proof`). */
export const BUILTIN_GROUPS = ["auth", "issue", "agents"] as const;
export type BuiltinGroup = (typeof BUILTIN_GROUPS)[number];

export interface Builtin extends Command {
  usage: string;
  /** The flag a bare argument stands for (`skills <name>`, `issue show <id>`). */
  argument?: string;
  /** Whether --dry-run previews it (it writes); reads ignore --dry-run. */
  writes: boolean;
}

const flag = (
  name: string,
  type: Flag["type"],
  required: boolean,
  description: string,
  extra: Partial<Flag> = {},
): Flag => ({ flag: name, in: "query", wire: name, type, required, description, ...extra });

const builtin = (
  path: string[],
  description: string,
  usage: string,
  permission: Command["permission"],
  shape: string,
  flags: Flag[],
  extra: Partial<Builtin> = {},
): Builtin => ({
  path,
  name: path.join(" "),
  description,
  usage,
  operation: { method: "LOCAL", path: "" },
  flags,
  jsonInput: false,
  destructive: false,
  permission,
  output: { shape },
  auth: [],
  hidden: false,
  writes: false,
  ...extra,
});

const issueType = (required: boolean) =>
  flag("type", "string", required, required ? "Kind of report" : "Only issues of this kind", { enum: ISSUE_TYPES });
const issueStatus = (required: boolean) =>
  flag(
    "status",
    "string",
    required,
    required
      ? "The status to move the issue to (open → in-progress, resolved or closed; resolved → open or closed; closed → open)"
      : "Only issues with this status",
    { enum: ISSUE_STATUSES },
  );
const agentFlag = () =>
  flag(
    "agent",
    "string",
    false,
    `Which agent's places: ${AGENT_NAMES.map((a) => `${a} (${SKILL_FOLDER[a]}, ${agentPlaces(a, "project", "").mcp.file})`).join(", ")} or all`,
    { enum: AGENT_CHOICES, default: "all" },
  );
const scopeFlag = () =>
  flag("scope", "string", false, "project (the current folder) or user (your home folder)", {
    enum: ["project", "user"],
    default: "project",
  });
const jsonFlag = () =>
  flag("json", "boolean", false, "JSON output (the default; accepted as inter's commands take it)", { default: false });
const idFlag = () =>
  flag(
    "id",
    "string",
    true,
    "The issue's id, as issue create or issue list gave it (e.g. ISS-0001); also accepted as the bare argument",
  );

/** The built-in commands of a CLI (its Skills' names are what `skills --name` takes). */
export function builtins(manifest: Manifest): Builtin[] {
  return [...readingBuiltins(manifest), ...packageBuiltins(manifest.product.binary)];
}

/** The built-ins that find and read: Skills, the command search, the issue log. */
function readingBuiltins(manifest: Manifest): Builtin[] {
  const b = manifest.product.binary;
  const type = issueType;
  const status = issueStatus;
  const id = idFlag();
  return [
    builtin(
      ["skills"],
      "List the Agent Skills bundled with this CLI, or print one",
      `${b} skills [<name>]`,
      "read",
      "array",
      [
        flag(
          "name",
          "string",
          false,
          "The Skill to print; without it, all are listed. Also accepted as the bare argument: skills <name>",
        ),
      ],
      { argument: "name" },
    ),
    builtin(
      [searchWord(manifest)],
      "Find the commands that do what you describe, best first (the ranking of the MCP server's search_commands)",
      `${b} ${searchWord(manifest)} <what you want done> [--limit <n>] [--group <group>]`,
      "read",
      "array",
      [
        flag(
          "query",
          "string",
          true,
          'What you want done, in your own words (e.g. "cancel my booking for tomorrow"); also accepted as the bare words that follow',
          { maxLength: 500 },
        ),
        flag("limit", "integer", false, "How many commands at most", { default: 10, minimum: 1, maximum: 50 }),
        flag("group", "string", false, "Only commands of this group"),
      ],
      { argument: "query" },
    ),
    builtin(
      ["issue", "create"],
      "Record a problem or request locally (never sent anywhere); --dry-run shows the record without writing it",
      `${b} issue create --type <${ISSUE_TYPES.join("|")}> --message <text>`,
      "write",
      "object",
      [
        type(true),
        flag("message", "string", true, "What happened, or what is missing"),
        flag(
          "command",
          "string",
          false,
          "The command line that went wrong (recorded as context.command; null when not given)",
        ),
        flag(
          "exit-code",
          "integer",
          false,
          "The exit code it ended with (recorded as context.exit_code; null when not given)",
          { minimum: 0, maximum: 255 },
        ),
      ],
      { writes: true },
    ),
    builtin(
      ["issue", "list"],
      "List recorded issues, filtered by type and status",
      `${b} issue list [--type <type>] [--status <status>]`,
      "read",
      "array",
      [type(false), status(false)],
    ),
    builtin(["issue", "show"], "Show one recorded issue", `${b} issue show --id <id>`, "read", "object", [id], {
      argument: "id",
    }),
  ];
}

/** The built-ins about the package itself: its credentials, its proof, its place in agents, an issue's status. */
function packageBuiltins(b: string): Builtin[] {
  const status = issueStatus;
  const agent = agentFlag();
  const scope = scopeFlag();
  const json = jsonFlag();
  const id = idFlag();
  return [
    builtin(
      ["auth", "status"],
      "Say which credential variables are set, which of each command's alternatives would be used, and when cached OAuth tokens expire; never prints a value",
      `${b} auth status [--command <name>]`,
      "read",
      "object",
      [
        flag(
          "command",
          "string",
          false,
          'A command (e.g. "rooms list"): which of its alternatives would be used and what is missing; also accepted as the bare argument',
        ),
      ],
      { argument: "command" },
    ),
    builtin(
      ["proof"],
      "Say what was proven about this package (certification, evaluation pass rates, plan hash, model) and verify that its files are the ones proven",
      `${b} proof [--expect <sha256>]`,
      "read",
      "object",
      [
        flag(
          "expect",
          "string",
          false,
          "The candidate or content sha256 you were given: proof fails unless this package is that one",
        ),
        json,
      ],
    ),
    builtin(
      ["agents", "install"],
      "Put this CLI's Skills where coding agents read them, and with --mcp register its MCP server in their configuration; never overwrites what it did not write; --dry-run shows every step",
      `${b} agents install [--agent <${AGENT_CHOICES.join("|")}>] [--scope project|user] [--mcp]`,
      "write",
      "object",
      [
        agent,
        scope,
        flag("mcp", "boolean", false, "Also register the MCP server in each agent's own configuration", {
          default: false,
        }),
        json,
      ],
      { writes: true },
    ),
    builtin(
      ["agents", "uninstall"],
      "Remove what agents install wrote (the managed files and server entries it recorded), leaving anything changed since",
      `${b} agents uninstall [--agent <${AGENT_CHOICES.join("|")}>] [--scope project|user]`,
      "delete",
      "object",
      [agent, scope, json],
      { writes: true },
    ),
    builtin(
      ["issue", "update"],
      "Move an issue to another status; --dry-run shows the change without writing it",
      `${b} issue update --id <id> --status <${ISSUE_STATUSES.join("|")}>`,
      "write",
      "object",
      [id, status(true)],
      { argument: "id", writes: true },
    ),
  ];
}

/** The built-in command that leading words name (`skills …`, `issue create`), if any. */
export function findBuiltin(manifest: Manifest, words: string[]): Builtin | undefined {
  if (SINGLE_BUILTINS.includes(words[0] ?? "") || words[0] === searchWord(manifest))
    return builtins(manifest).find((c) => c.name === words[0]);
  if ((BUILTIN_GROUPS as readonly string[]).includes(words[0] ?? "") && words[1])
    return builtins(manifest).find((c) => c.path[0] === words[0] && c.path[1] === words[1]);
  return undefined;
}

export const isBuiltinWord = (word: string | undefined, manifest: Pick<Manifest, "groups">) =>
  word !== undefined && (BUILTIN_WORDS.includes(word) || word === searchWord(manifest));
