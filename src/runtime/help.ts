import { GLOBAL_BOOLEANS } from "./args.js";
import type { Command, Manifest } from "./manifest.js";
import { issueLine, skillRefs } from "./output.js";

const GLOBAL_FLAG_HELP: Record<string, string> = {
  help: "Print help as JSON (this document)",
  version: "Print the version (semver)",
  agent: "Force JSON output (the default)",
  human: "Print tables and text for people instead of JSON",
  brief: "Print the one-paragraph brief of this CLI",
  yes: "Confirm a destructive command",
  "dry-run": "Print the exact request without sending it",
  quiet: "Print only the data, without the envelope",
  "json-input": "Read the request body as JSON from stdin",
  all: "Follow pagination and return every page (bounded by --max-pages)",
  "mcp-schema": "Print the commands as MCP tool schemas",
  sanitize: "Strip control characters from inputs instead of refusing them",
  ndjson: "Print lists as one JSON object per line",
  redact: "Mask e-mail addresses and phone numbers in the output",
  fields: "Comma-separated fields to keep in the output, e.g. --fields id,name",
  "max-pages": "Most pages --all fetches (1-100, default 10)",
};

export function commandHelp(manifest: Manifest, command: Command) {
  return {
    name: command.name,
    usage: `${manifest.product.binary} ${command.name}${command.flags.filter((f) => f.required).map((f) => ` --${f.flag} <${f.type}>`).join("")}`,
    description: command.description,
    method: command.operation.method,
    parameters: command.flags.map((f) => ({
      name: `--${f.flag}`,
      type: f.type,
      ...(f.items ? { items: f.items } : {}),
      required: f.required,
      ...(f.enum ? { enum: f.enum } : {}),
      ...(f.default !== undefined ? { default: f.default } : {}),
      description: f.description ?? `${f.in} parameter ${f.wire}`,
      ...(f.type === "boolean" ? { negation: `--no-${f.flag}` } : {}),
    })),
    jsonInput: command.jsonInput,
    destructive: command.destructive,
    permission: command.permission,
    output: command.output.shape === "object" && command.output.listField ? "array" : command.output.shape,
    ...(command.pagination ? { pagination: { style: command.pagination.style, all: "--all" } } : {}),
    auth: command.auth.length > 0,
  };
}

const BUILTIN_COMMANDS = (binary: string) => [
  { name: "skills", usage: `${binary} skills [name]`, description: "List the Agent Skills bundled with this CLI, or print one", parameters: [], destructive: false, permission: "read", output: "array" },
  { name: "issue create", usage: `${binary} issue create --type <bug|requirement|suggestion|bad-output> --message <text>`, description: "Record a problem or request locally", parameters: [], destructive: false, permission: "write", output: "object" },
  { name: "issue list", usage: `${binary} issue list [--type <type>] [--status <status>]`, description: "List recorded issues", parameters: [], destructive: false, permission: "read", output: "array" },
  { name: "issue show", usage: `${binary} issue show --id <id>`, description: "Show one recorded issue", parameters: [], destructive: false, permission: "read", output: "object" },
  { name: "issue update", usage: `${binary} issue update --id <id> --status <open|in-progress|resolved|closed>`, description: "Move an issue to another status", parameters: [], destructive: false, permission: "write", output: "object" },
];

/** Help as one JSON document (D1, D3, D11): help text, commands with typed parameters, rules, skills and issue. */
export function helpDocument(manifest: Manifest, commands: Command[], scope?: string) {
  const { binary, name, version, description } = manifest.product;
  return {
    help: scope ? `${binary} ${scope}: ${commands.length === 1 ? commands[0]!.description : `${commands.length} commands`}` : `${binary} ${version} — the ${name} command line. ${description}`.trim(),
    version,
    usage: `${binary} <resource> [<sub-resource>] <action> --flags. Output is JSON on stdout; errors are JSON on stderr with a stable code and exit code.`,
    commands: [...commands.filter((c) => !c.hidden).map((c) => commandHelp(manifest, c)), ...(scope ? [] : BUILTIN_COMMANDS(binary))],
    globalFlags: [...GLOBAL_BOOLEANS, "fields", "max-pages"].map((f) => ({ name: `--${f}`, description: GLOBAL_FLAG_HELP[f] })),
    exitCodes: { 0: "success", 1: "general or server error", 2: "usage or validation error", 10: "authentication", 11: "permission", 20: "not found", 30: "conflict or failed precondition" },
    auth: { env: manifest.auth.env, required: manifest.commands.some((c) => c.auth.length > 0) },
    baseUrl: { env: manifest.baseUrl.env, default: manifest.baseUrl.default },
    rules: manifest.rules,
    skills: skillRefs(manifest),
    issue: issueLine(manifest),
  };
}

/** MCP tool definitions (M2): one tool per command, its flags as a JSON Schema object. */
export function mcpSchema(manifest: Manifest) {
  return {
    tools: manifest.commands
      .filter((c) => !c.hidden)
      .map((c) => ({
        name: `${manifest.product.binary}_${c.path.join("_")}`.replace(/-/g, "_"),
        description: c.description,
        annotations: { destructiveHint: c.destructive, readOnlyHint: c.permission === "read" },
        inputSchema: {
          type: "object",
          properties: Object.fromEntries(
            c.flags.map((f) => [f.flag, { type: f.type, ...(f.items ? { items: { type: f.items } } : {}), ...(f.enum ? { enum: f.enum } : {}), ...(f.default !== undefined ? { default: f.default } : {}), ...(f.description ? { description: f.description } : {}) }]),
          ),
          required: c.flags.filter((f) => f.required).map((f) => f.flag),
          additionalProperties: false,
        },
      })),
  };
}
