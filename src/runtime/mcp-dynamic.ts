/**
 * The dynamic toolset of a large CLI (docs/generated-cli.md, "MCP server"): find commands, read one's schema, and call
 * it through the tool that says honestly what it may do — `call_read` (read-only, so a client may run it without
 * asking), `call_write` (changes, none destructive) and `call_destructive` (commands the design marks destructive,
 * which also need `yes`). A command called through another class's tool is refused (WRONG_TOOL) naming the right one.
 */
import { commandCredential } from "./auth.js";
import { commandFinder } from "./command-finder.js";
import { CliError } from "./errors.js";
import { describeCommands } from "./help.js";
import { findCommand, type Cli } from "./load.js";
import type { Command } from "./manifest.js";
import { asError, callCommand, structured, type CallOptions, type CallResult, type McpHints } from "./mcp-call.js";
import { toolsFor, type ToolDefinition } from "./mcp-tools.js";
import { unknownCommand } from "./suggest.js";

type CallTool = "call_read" | "call_write" | "call_destructive";

/** The call tool of a command: by what it may do. */
const callToolOf = (command: Command): CallTool =>
  command.destructive ? "call_destructive" : command.permission === "read" ? "call_read" : "call_write";

const CALL_TOOLS: Record<CallTool, { what: string; annotations: ToolDefinition["annotations"] }> = {
  call_read: {
    what: "a command that only reads (search and describe say which)",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
  call_write: {
    what: "a command that changes something but is not destructive (creates, updates)",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  call_destructive: {
    what: "a destructive command (deletes, cancels, overwrites); refused unless arguments.yes is true",
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
};

/**
 * The call tools a CLI's visible commands need. Read group by group until every class is seen: a large CLI's groups
 * are read (each a file to parse) only when a class is missing, not all at every server start.
 */
function callClasses(cli: Cli): Set<CallTool> {
  const found = new Set<CallTool>();
  const all = Object.keys(CALL_TOOLS).length;
  for (const { name } of cli.manifest.groups) {
    for (const command of cli.group(name)) if (!command.hidden) found.add(callToolOf(command));
    if (found.size === all) break;
  }
  return found;
}

export function dynamicToolset(cli: Cli, options: CallOptions & { maxNameLength: number }, hints: McpHints) {
  const { binary } = cli.manifest.product;
  let all: Array<{ command: Command; tool: ToolDefinition }> | undefined;
  const every = () => (all ??= toolsFor(cli.all(), options.maxNameLength, (c) => commandCredential(cli.manifest, c)));
  const find = commandFinder(cli);
  const lookup = (name: unknown): Command => {
    const words = typeof name === "string" ? name.trim().split(/\s+/).filter(Boolean) : [];
    const command = words.length ? findCommand(cli, words) : undefined;
    if (!command || command.hidden) throw unknownCommand(cli, words.length ? words : [String(name)]);
    return command;
  };
  const classes = callClasses(cli);
  const callTools = (Object.keys(CALL_TOOLS) as CallTool[]).filter((t) => classes.has(t));
  const commandArg = { type: "string", maxLength: 300, description: 'The command\'s name, e.g. "rooms list"' };
  const tools: ToolDefinition[] = [
    {
      name: "search_commands",
      description: `Find the commands of ${binary}: by words (query: what you want done, e.g. "cancel a booking"), ranked best first, within a group, or, with neither, list the groups. Each result names the tool that calls it; describe_command gives its arguments.`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", maxLength: 200, description: "What you want to do, in words" },
          group: {
            type: "string",
            maxLength: 100,
            description: "A group (the first word of its commands) to list or search within",
          },
          limit: { type: "integer", minimum: 1, maximum: 50, default: 20, description: "Most commands returned" },
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "describe_command",
      description: `The full schema of one ${binary} command: its description, the arguments it takes (JSON Schema, with limits), whether it is destructive, and which call tool runs it.`,
      inputSchema: {
        type: "object",
        properties: { command: commandArg },
        required: ["command"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ...callTools.map((name): ToolDefinition => ({
      name,
      description: `Run ${CALL_TOOLS[name].what} of ${binary}, with its arguments as describe_command gives them. Another kind of command is refused, naming its tool.`,
      inputSchema: {
        type: "object",
        properties: {
          command: commandArg,
          arguments: { type: "object", description: "The command's arguments, by name" },
        },
        required: ["command"],
        additionalProperties: false,
      },
      annotations: CALL_TOOLS[name].annotations,
    })),
  ];
  const brief = (c: Command) => ({
    command: c.name,
    description: c.description,
    tool: callToolOf(c),
    destructive: c.destructive,
    permission: c.permission,
  });
  const search = (args: Record<string, unknown>) => {
    const limit = Number.isInteger(args.limit) ? Math.min(50, Math.max(1, args.limit as number)) : 20;
    const group = typeof args.group === "string" ? args.group.trim() : "";
    const query = typeof args.query === "string" ? args.query.trim() : "";
    if (!group && !query)
      return structured({ groups: cli.manifest.groups, help: "Search by words (query) or within a group (group)." });
    if (group && !cli.manifest.groups.some((g) => g.name === group))
      throw new CliError(
        "NOT_FOUND",
        `No group "${group}".`,
        "Call search_commands with no arguments to list the groups.",
        { group },
      );
    let ranked: Command[];
    if (query) ranked = find(query, group || undefined);
    else ranked = cli.group(group).filter((c) => !c.hidden);
    const none = ranked.length
      ? {}
      : {
          help: `No command matches${group ? ` in "${group}"` : ""}: try other words (what to do and to what), or call search_commands with no arguments for the groups.`,
        };
    return structured({ total: ranked.length, commands: ranked.slice(0, limit).map(brief), ...none });
  };
  const describe = (args: Record<string, unknown>) => {
    const command = lookup(args.command);
    const tool = every().find((t) => t.command === command)!.tool;
    const described = describeCommands(cli, [command]).commands[0]!;
    return structured({
      command: command.name,
      description: command.details ?? command.description,
      tool: callToolOf(command),
      arguments: tool.inputSchema,
      annotations: tool.annotations,
      errors: described.errors,
    });
  };
  const call = async (name: string, args: Record<string, unknown>): Promise<CallResult> => {
    try {
      if (name === "search_commands") return search(args);
      if (name === "describe_command") return describe(args);
      const inner = args.arguments;
      if (inner !== undefined && (typeof inner !== "object" || inner === null || Array.isArray(inner)))
        throw new CliError(
          "INVALID_VALUE",
          `"arguments" must be an object of the command's arguments.`,
          "Call describe_command for its arguments.",
          { flag: "arguments" },
        );
      const command = lookup(args.command);
      const right = callToolOf(command);
      if (right !== name) {
        const kind = command.destructive
          ? "is destructive"
          : command.permission === "read"
            ? "only reads"
            : "changes something";
        throw new CliError(
          "WRONG_TOOL",
          `"${command.name}" ${kind}: ${name} does not run it.`,
          `Call ${right} with the same command and arguments.`,
          { command: command.name, tool: right },
        );
      }
      return callCommand(cli, options, hints, command, inner as Record<string, unknown> | undefined);
    } catch (error) {
      return asError(error, hints);
    }
  };
  return { tools, call };
}
