import type { Capabilities } from "../design/capabilities.js";
import type { CommandSpec, SkillPlan } from "../design/types.js";
import { commandCredential, credentialHow, credentialRule, credentialVariables } from "../../runtime/auth.js";
import { SEARCH_INDEX_FILE } from "../../runtime/command-search.js";
import { ISSUE_TOOL } from "../../runtime/mcp-tools.js";
import type { Command } from "../../runtime/manifest.js";
import { indexInWorker, searchIndexLater, searchIndexText, type IndexJob } from "./search-index.js";
import { isPlainJson } from "../../core/plain-json.js";
import { compareText } from "../../core/text-order.js";
import { InterError } from "../../core/errors.js";
import { cliShim } from "./cli-shim.js";
import { serverJson, serverJsonProblems, type ServerJson } from "./server-json.js";

/** One file of the generated package: path relative to the package root, content, and whether it is executable. */
export interface PackageFile {
  path: string;
  content: string;
  executable?: boolean;
  /** What JSON.parse(content) gives, when the file was written from a plain JSON value (core/parsed-json.ts). */
  value?: object;
}

/** A file of the package whose content is still being made (the search index, by a worker for a large CLI). */
export interface LaterFile {
  path: string;
  content: Promise<string>;
}

/** Root help lists every command in full while their manifest entries stay under this size; above it, groups only. */
const FULL_HELP_BYTES = 32 * 1024;
/** What the group listing of a large CLI's root help may spend on names and descriptions. */
const GROUP_HELP_BYTES = 48 * 1024;

const README_COMMANDS = 200;

const clip = (text: string, max: number) =>
  text.length <= max ? text : max < 8 ? "" : `${text.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;

const frontmatter = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n`;

function usage(binary: string, command: CommandSpec): string {
  const required = command.flags
    .filter((f) => f.required)
    .map((f) => ` --${f.flag} <${f.enum ? f.enum.join("|") : f.type}>`);
  return `${binary} ${command.name}${required.join("")}${command.destructive ? " --yes" : ""}`;
}

/** How the credential is sent, one sentence per scheme the commands send (runtime/auth.ts), never a value. */
function credentialLines(caps: Capabilities): string[] {
  return Object.entries(caps.auth.schemes).map(([name, scheme]) => credentialHow(name, scheme));
}

/** What a Skill's commands need: each command's alternatives (runtime/auth.ts), once per distinct need. */
function credentialNotes(caps: Capabilities, commands: CommandSpec[]): string[] {
  const needs = [...new Set(commands.map((c) => commandCredential(caps, c)).filter((n): n is string => !!n))];
  const schemes = [...new Set(commands.flatMap((c) => c.auth.flatMap((r) => Object.keys(r))))].sort();
  if (!needs.length) return [];
  return [
    "",
    ...needs.map((n) => `Credentials: ${n}`),
    ...schemes.map((name) => `How: ${credentialHow(name, caps.auth.schemes[name]!)}`),
  ];
}

/** The three agent rules every CLI ships (D13), also carried in every response as `rules` (R1). */
function agentRules(caps: Capabilities): Array<{ name: string; description: string; text: string }> {
  const binary = caps.product.binary;
  // Every response carries this text (R1): a CLI of a thousand groups names a few and counts the rest.
  const groups = [...new Set(caps.commands.filter((c) => !c.hidden).map((c) => c.path[0]!))];
  const resources =
    groups.length > 12 ? `${groups.slice(0, 12).join(", ")} and ${groups.length - 12} more` : groups.join(", ");
  return [
    {
      name: "trigger",
      description: `When to reach for ${binary}`,
      text: `Use ${binary} for ${caps.product.name}${resources ? ` (${resources})` : ""}, not raw HTTP.`,
    },
    {
      name: "workflow",
      description: `How to work with ${binary} safely`,
      text: `Find ids with list or get commands; never invent them. --help gives a command's flags, --dry-run previews a write, destructive commands need --yes. ${credentialRule(caps)}`,
    },
    {
      name: "writeback",
      description: "What to report when done",
      text: "After a change, report the ids and the new state the command returned.",
    },
  ];
}

/**
 * The same three rules as the MCP server states them (`mcpRules` in the manifest): an agent there calls tools with
 * arguments, and reports a problem with the issue tool, not a command line.
 */
function mcpAgentRules(caps: Capabilities, cli: ReturnType<typeof agentRules>): string[] {
  const names = credentialVariables(caps);
  const credentials = names.length
    ? `Credentials are the server's own (its environment: ${names.join(", ")}), never tool arguments.`
    : "This server sends no credentials.";
  return [
    cli[0]!.text.replace(`Use ${caps.product.binary} for`, `Use the tools of this server for`),
    `Read before you write: find ids with list or get tools and never invent them. A tool's input schema (describe_command, when the tools are search, describe and call) lists its arguments. Preview writes with "dry-run": true; destructive tools need "yes": true. ${credentials}`,
    `After a change, report the ids and the new state the tool returned. If a tool misbehaves or lacks something, record it with the ${ISSUE_TOOL} tool: {"type": "bug", "message": "..."}.`,
  ];
}

function skillMarkdown(caps: Capabilities, skill: SkillPlan): string {
  const binary = caps.product.binary;
  const named = (names: readonly string[]) =>
    names.map((name) => caps.commands.find((c) => c.name === name)!).filter(Boolean);
  // The task's own commands, and apart from them the reads that find the ids they take (a starter plan observes the
  // first list only: stages/plan/scaffold.ts).
  const finders = named((skill.finders ?? []).filter((f) => skill.commands.includes(f)));
  const commands = named(skill.commands.filter((c) => !skill.finders?.includes(c)));
  return [
    frontmatter(skill.name, skill.description),
    `# ${skill.title}`,
    "",
    "## When to use",
    "",
    skill.situation || skill.title,
    "",
    ...(skill.avoid ? ["## When not to use", "", skill.avoid, ""] : []),
    ...(skill.steps?.length ? ["## Steps", "", ...skill.steps.map((step, i) => `${i + 1}. ${step}`), ""] : []),
    "## Commands",
    "",
    ...(commands.length
      ? commands.map(
          (c) => `- \`${usage(binary, c)}\` — ${c.description}${c.destructive ? " (destructive: needs --yes)" : ""}`,
        )
      : [`- Run \`${binary} --help\` to find the commands for this task.`]),
    "",
    ...(finders.length
      ? ["## Finding the ids", "", ...finders.map((c) => `- \`${usage(binary, c)}\` — ${c.description}`), ""]
      : []),
    `Run \`${binary} <command> --help\` for every flag, its type and allowed values.`,
    ...credentialNotes(caps, commands),
    "",
    "## Expected outcome",
    "",
    skill.outcome || "The user's request is done and the result is reported.",
    "",
    "## Rules",
    "",
    ...[...skill.rules, ...caps.rules].map((r) => `- ${r}`),
    ...(skill.rules.length + caps.rules.length ? [] : ["- Follow the rules in agent/rules/."]),
    "",
  ].join("\n");
}

/** What the package makes of the commands and groups alone: help's form, the group list and files, the search index. */
interface CommandParts {
  help: "full" | "groups";
  groups: Array<{ name: string; description: string; count: number }>;
  groupFiles: PackageFile[];
  searchIndex(): string;
  searchIndexLater(): Promise<string>;
  /** Stops making the search index in the background: these parts will not be emitted. */
  drop(): void;
}

/** What the parts are made of: the commands task's plan, as capabilities.json carries it on. */
type CommandsAndGroups = Pick<Capabilities, "commands" | "groups">;

/**
 * The parts made for the commands they were last made for: a watch cycle after a brief edit emits the same commands
 * again, and indexing them is most of emit's own work.
 */
let lastParts: { digest: string; parts: CommandParts } | undefined;

/** Parts begun by beginCommandParts, for the very command and group arrays they were made from. */
let begun: { of: CommandsAndGroups; parts: CommandParts } | undefined;

/**
 * Begins the parts of a large CLI, and its search index in a worker, as soon as the commands task has planned them:
 * the index is a large part of such a build, and begun here it is made while the skills and design tasks run instead
 * of at the end of emit, which otherwise waited for it. Emit takes these parts when its capabilities carry the same
 * arrays (the design task hands on the commands task's value itself, pipeline/io.ts), and makes its own otherwise (an
 * overlay renamed commands): the same text either way. A run that stops before emit leaves the worker to be dropped
 * with the process (stages/emit/search-index.ts).
 */
export function beginCommandParts(plan: CommandsAndGroups): void {
  begun?.parts.drop();
  begun = undefined;
  if (!indexInWorker(plan.commands.length, new Set(plan.commands.map((c) => c.path[0])).size)) return;
  const parts = makeCommandParts(plan, true);
  begun = { of: plan, parts };
}

function commandParts(caps: CommandsAndGroups, digest: string | undefined): CommandParts {
  const kept = digest !== undefined && lastParts?.digest === digest ? lastParts.parts : undefined;
  const early =
    !kept && begun?.of.commands === caps.commands && JSON.stringify(begun.of.groups) === JSON.stringify(caps.groups)
      ? begun.parts
      : undefined;
  if (begun && begun.parts !== early) begun.parts.drop();
  begun = undefined;
  const parts = kept ?? early ?? makeCommandParts(caps, false);
  if (digest !== undefined) lastParts = { digest, parts };
  return parts;
}

function makeCommandParts(caps: CommandsAndGroups, background: boolean): CommandParts {
  const entries = caps.commands.map((c) => ({
    path: c.path,
    name: c.name,
    description: c.description,
    ...(c.details ? { details: c.details } : {}),
    // operationId and pointer let `inter diff` recognise a renamed command by its operation and name the API side.
    operation: {
      method: c.operation.method,
      path: c.operation.path,
      ...(c.operation.operationId ? { operationId: c.operation.operationId } : {}),
      pointer: c.operation.pointer,
    },
    flags: c.flags,
    jsonInput: c.jsonInput,
    ...(c.body ? { body: c.body } : {}),
    response: c.response,
    ...(c.headers ? { headers: c.headers } : {}),
    destructive: c.destructive,
    permission: c.permission,
    ...(c.pagination ? { pagination: c.pagination } : {}),
    output: c.output,
    auth: c.auth,
    ...(c.authOptional ? { authOptional: true } : {}),
    hidden: c.hidden,
    ...(c.deprecated ? { deprecated: true } : {}),
    statuses: c.statuses,
    ...(c.retry ? { retry: c.retry } : {}),
  }));
  const groupNames = [...new Set(caps.commands.map((c) => c.path[0]!))].sort();
  const described = new Map(caps.groups.map((g) => [g.name, g.description]));
  // Help shows descriptions, not details (--describe does), and points to --describe where there are details.
  // operationId, pointer and deprecated are for `inter diff`, never shown in help: they do not count either.
  const helpSize = (c: (typeof entries)[number]) =>
    JSON.stringify(c, (key, value) =>
      key === "details" || key === "pointer" || key === "operationId" || key === "deprecated" ? undefined : value,
    ).length + (c.details ? c.name.length + 48 : 0);
  // Only whether the sum stays within the budget matters: stop adding once it is over (a large CLI is over in a few).
  let visibleSize = 0;
  for (const c of entries) {
    if (!c.hidden) visibleSize += helpSize(c);
    if (visibleSize > FULL_HELP_BYTES) break;
  }
  const help = visibleSize <= FULL_HELP_BYTES ? "full" : "groups";
  // Group descriptions share the root help's budget, so a CLI of a thousand groups still answers --help in 64 KiB.
  const perGroup =
    help === "full"
      ? 300
      : Math.max(0, Math.min(200, Math.floor(GROUP_HELP_BYTES / Math.max(1, groupNames.length)) - 70));
  const byGroup = new Map<string, typeof entries>();
  for (const c of entries) {
    if (!byGroup.has(c.path[0]!)) byGroup.set(c.path[0]!, []);
    byGroup.get(c.path[0]!)!.push(c);
  }
  const counts = new Map<string, number>();
  for (const c of entries) if (!c.hidden) counts.set(c.path[0]!, (counts.get(c.path[0]!) ?? 0) + 1);
  // One file per group, compact: a call reads and parses only the group it runs. Each keeps the value it was written
  // from when JSON gives that value back, for the inspection that reads the file again (core/parsed-json.ts).
  const plain = isPlainJson(entries);
  const groupFiles = groupNames.map((name): PackageFile => {
    const value = { name, commands: byGroup.get(name) ?? [] };
    return { path: `commands/${name}.json`, content: `${JSON.stringify(value)}\n`, ...(plain ? { value } : {}) };
  });
  const groups = groupNames.map((name) => ({
    name,
    description: clip(described.get(name) ?? name, perGroup),
    count: counts.get(name) ?? 0,
  }));
  // The index reads only the commands' fields the group files hold (runtime/command-search.ts, docOf).
  const commands = entries as unknown as Command[];
  let index: IndexJob | undefined;
  let indexText: string | undefined;
  const later = () =>
    (index ??= searchIndexLater(
      commands,
      groups,
      groupFiles.map((f) => f.content),
      background,
    ));
  if (background) later();
  return {
    help,
    groups,
    groupFiles,
    searchIndex: () => (indexText ??= searchIndexText(commands, groups)),
    searchIndexLater: () => (indexText !== undefined && !index ? Promise.resolve(indexText) : later().claim()),
    drop: () => index?.drop(),
  };
}

/**
 * Every file of the generated package except the runtime itself, deterministic for equal capabilities.
 * @param commandsDigest a digest of `caps.commands` and `caps.groups` (pipeline/capabilities-text.ts): when it is the
 * last call's, the command files, root help and search index made from them are that call's (a brief edit in watch).
 */
/**
 * The package's entry for the MCP registry (stages/emit/server-json.ts), held to the registry's rules here: an entry
 * the registry's publisher would refuse fails the build, naming what it would refuse.
 */
function registryServer(caps: Capabilities, manifest: { auth?: unknown; baseUrl?: { env?: string } }): ServerJson {
  const { product } = caps;
  const entry = serverJson({
    name: product.mcpName!,
    description: product.description || `${product.name} command line, made for agents`,
    pkg: product.package,
    version: product.version,
    manifest,
  });
  const problems = serverJsonProblems(entry, { name: product.package, mcpName: product.mcpName });
  if (problems.length)
    throw new InterError(
      "SERVER_JSON_INVALID",
      `The package's server.json would be refused by the MCP registry: ${problems.join("; ")}.`,
      "Fix product.mcpName (a reverse-DNS namespace you own, then a name) or the field named, then build again.",
      { problems },
    );
  return entry;
}

/**
 * The runtime shipped in the package: the CLI's (lib/runtime.cjs, loaded by every call) and the command search's
 * (lib/search.cjs, MiniSearch and the ranking: loaded by `search` alone, so no other call parses it).
 */
export interface RuntimeFiles {
  cli: string;
  search: string;
}

export function packageFiles(
  caps: Capabilities,
  runtime: RuntimeFiles,
  mcp?: string,
  commandsDigest?: string,
): PackageFile[] {
  return assemble(caps, runtime, mcp, commandsDigest, false).files;
}

/**
 * The same files, but the search index (with an MCP server) as a file still being made, by a worker for a large CLI
 * (stages/emit/search-index.ts): the caller writes the others meanwhile.
 */
export function packageFilesLater(
  caps: Capabilities,
  runtime: RuntimeFiles,
  mcp?: string,
  commandsDigest?: string,
): { files: PackageFile[]; later: LaterFile[] } {
  return assemble(caps, runtime, mcp, commandsDigest, true);
}

function assemble(
  caps: Capabilities,
  runtime: RuntimeFiles,
  mcp: string | undefined,
  commandsDigest: string | undefined,
  indexLater: boolean,
): { files: PackageFile[]; later: LaterFile[] } {
  const { product } = caps;
  const binary = product.binary;
  const rules = agentRules(caps);
  const parts = commandParts(caps, commandsDigest);
  // Started first, so a worker indexes while the rest of the package is made and written.
  const later = mcp && indexLater ? [{ path: SEARCH_INDEX_FILE, content: parts.searchIndexLater() }] : [];
  const manifest = {
    product: { name: product.name, binary, version: product.version, description: product.description },
    baseUrl: caps.baseUrl,
    auth: caps.auth,
    rules: [...caps.rules, ...rules.map((r) => r.text)],
    ...(mcp ? { mcpRules: [...caps.rules, ...mcpAgentRules(caps, rules)] } : {}),
    skills: caps.skills.map((s) => ({ name: s.name, description: s.description, commands: s.commands })),
    help: parts.help,
    groups: parts.groups,
  };
  const brief = product.description || `${product.name}: a command line for agents and people.`;
  const visible = caps.commands.filter((c) => !c.hidden);
  const registryEntry = mcp && product.mcpName ? registryServer(caps, manifest) : undefined;
  const files: PackageFile[] = [
    {
      path: "package.json",
      content: `${JSON.stringify(
        {
          name: product.package,
          version: product.version,
          // The MCP registry publishes the package's server.json only when the package names the same server.
          ...(registryEntry ? { mcpName: product.mcpName } : {}),
          description: `${product.name} command line, made for agents: JSON in and out, stable error codes, no prompts.`,
          type: "module",
          // The executable sits at the package root, so agent/, AGENTS.md and CHANGELOG.md are beside the resolved file.
          // The second executable is the same commands as an MCP server over stdio or HTTP (lib/mcp.cjs).
          bin: { [binary]: `${binary}.cjs`, ...(mcp ? { [`${binary}-mcp`]: `${binary}-mcp.cjs` } : {}) },
          engines: { node: ">=20" },
          keywords: ["cli", "agent", "agent-skills"],
          license: "UNLICENSED",
        },
        null,
        2,
      )}\n`,
    },
    ...(registryEntry ? [{ path: "server.json", content: `${JSON.stringify(registryEntry, null, 2)}\n` }] : []),
    {
      path: `${binary}.cjs`,
      executable: true,
      content: cliShim(binary),
    },
    { path: "lib/runtime.cjs", content: runtime.cli },
    { path: "lib/search.cjs", content: runtime.search },
    ...(mcp
      ? [
          { path: "lib/mcp.cjs", content: mcp },
          {
            path: `${binary}-mcp.cjs`,
            executable: true,
            content: `#!/usr/bin/env node\n"use strict";\nconst { serve } = require("./lib/mcp.cjs");\n\nserve(__dirname, process.argv.slice(2)).then((code) => {\n  process.exitCode = code;\n});\n`,
          },
        ]
      : []),
    { path: "manifest.json", content: `${JSON.stringify(manifest, null, 1)}\n` },
    // The MCP server's command search reads this index as it is: built here, it costs the server no start-up.
    ...(mcp && !indexLater ? [{ path: SEARCH_INDEX_FILE, content: parts.searchIndex() }] : []),
    ...parts.groupFiles.map((f) => ({ ...f })),
    { path: "agent/brief.md", content: `${brief}\n` },
    ...rules.map((r) => ({
      path: `agent/rules/${r.name}.md`,
      content: `${frontmatter(r.name, r.description)}\n${r.text}\n`,
    })),
    ...caps.skills.flatMap((s) => {
      const md = skillMarkdown(caps, s);
      return [
        { path: `agent/skills/${s.name}.md`, content: md },
        { path: `skills/${s.name}/SKILL.md`, content: md },
      ];
    }),
    {
      path: "README.md",
      content: [
        `# ${product.package}`,
        "",
        brief,
        "",
        "```sh",
        `npm install -g ${product.package}`,
        ...credentialVariables(caps).map(
          (name) => `export ${name}=...        # a credential; never pass it as an argument`,
        ),
        `${binary} --help                  # every command, as JSON`,
        "```",
        "",
        ...credentialLines(caps).flatMap((line) => [line, ""]),
        "## Commands",
        "",
        ...visible.slice(0, README_COMMANDS).map((c) => `- \`${usage(binary, c)}\` — ${c.description}`),
        ...(visible.length > README_COMMANDS
          ? [
              `- … and ${visible.length - README_COMMANDS} more: \`${binary} --help\` lists the groups, \`${binary} <group> --help\` their commands.`,
            ]
          : []),
        "",
        ...(mcp
          ? [
              `The same commands as an MCP server over stdio: \`${binary}-mcp\` (one tool per command and \`report_issue\`; above 40 commands, or \`--max-tools <n>\`, tools to search and describe them and to call reads, writes and destructive commands apart). Over Streamable HTTP: \`${binary}-mcp --http 127.0.0.1:8765\` (loopback only unless \`--allow-remote\`; the API credential is the server's environment, never the MCP client's token).`,
              "",
            ]
          : []),
        `Output is one JSON document on stdout (\`--quiet\` for data only, \`--human\` for tables); errors are JSON on stderr with a stable \`code\`. Exit codes: 0 ok, 1 error, 2 usage, 10 auth, 11 permission, 20 not found, 30 conflict. The base URL comes from \`${caps.baseUrl.env}\`${caps.baseUrl.default ? ` (default ${caps.baseUrl.default})` : ""}.`,
        "",
      ].join("\n"),
    },
    {
      path: "AGENTS.md",
      content: [
        `# ${binary} for agents`,
        "",
        brief,
        "",
        ...rules.map((r) => `- ${r.text}`),
        ...caps.rules.map((r) => `- ${r}`),
        ...credentialLines(caps).map((line) => `- ${line}`),
        "",
        `Skills: ${caps.skills.length ? caps.skills.map((s) => `\`${binary} skills ${s.name}\``).join(", ") : "none"}. Start with \`${binary} --help\`.`,
        "",
      ].join("\n"),
    },
    {
      path: "CHANGELOG.md",
      content: `# Changelog\n\n## ${product.version}\n\n- First generated version. Breaking changes are marked **BREAKING** in later entries.\n`,
    },
  ];
  return { files: files.sort((a, b) => compareText(a.path, b.path)), later };
}
