import { existsSync, lstatSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import {
  AGENT_NAMES,
  agentPlaces,
  type AgentName,
  type InstallScope,
  type McpConfigPlace,
} from "../core/agent-homes.js";
import { writeFileAtomic } from "../core/atomic.js";
import { sha256Hex } from "../core/package-proof.js";
import { count } from "../core/plural.js";
import { variablesOf } from "./credentials.js";
import { CliError } from "./errors.js";
import type { Cli } from "./load.js";
import { loadJsonc, readPresent, sameJson, tomlBlock, withEntry, withoutEntry, type McpEntry } from "./mcp-config.js";

/**
 * `<binary> agents install|uninstall`: the package's Skills put where each agent reads them, and (with --mcp) its MCP
 * server registered in each agent's own configuration (src/core/agent-homes.ts). Every file and entry it writes is
 * recorded in a managed-files manifest (`.agents/managed/<binary>.json` in the project, or in HOME for the user scope),
 * so an upgrade and `uninstall` touch only those. Nothing it did not write is ever overwritten: a Skill folder or
 * server entry of the same name is a conflict (INSTALL_CONFLICT, exit 30) and nothing at all is written.
 */

export interface AgentsOptions {
  agents: AgentName[];
  scope: InstallScope;
  mcp: boolean;
  dryRun: boolean;
  /** The project folder (the current directory). */
  root: string;
}

interface ManagedFile {
  agent: AgentName;
  sha256: string;
}

interface ManagedServer {
  agent: AgentName;
  file: string;
  name: string;
  /** The JSON entry, or the TOML table's exact text. */
  entry: McpEntry | string;
  /** The exact text the install inserted in the file, which uninstall takes out (src/runtime/mcp-config.ts). */
  inserted?: string;
  /** The configuration file did not exist before: uninstall removes it when nothing else is left in it. */
  created: boolean;
}

interface Managed {
  schema: 1;
  package: string;
  version: string;
  binary: string;
  scope: InstallScope;
  /** Paths relative to the scope's base (the project folder, or HOME). */
  files: Record<string, ManagedFile>;
  servers: ManagedServer[];
  /** Folders it created, removed again when empty. */
  dirs: string[];
}

type Action = "create" | "update" | "unchanged" | "remove" | "kept";

interface Step {
  agent: AgentName;
  kind: "skill" | "mcp";
  path: string;
  action: Action;
  reason?: string;
}

interface Conflict {
  agent: AgentName;
  path: string;
  reason: string;
}

const base = (scope: InstallScope, root: string) => (scope === "project" ? root : process.env.HOME || homedir());
const manifestPath = (scope: InstallScope, root: string, binary: string) =>
  join(base(scope, root), ".agents", "managed", `${binary}.json`);

/** A path as the steps show it: relative to the project, or under `~` for the user scope. */
function shown(scope: InstallScope, root: string, abs: string): string {
  const rel = relative(base(scope, root), abs);
  if (rel.startsWith("..") || isAbsolute(rel)) return abs;
  const slashed = rel.split(sep).join("/");
  return scope === "user" ? `~/${slashed}` : slashed;
}

const keyOf = (scope: InstallScope, root: string, abs: string) => relative(base(scope, root), abs).split(sep).join("/");
const absOf = (scope: InstallScope, root: string, key: string) => join(base(scope, root), key);

function readManaged(file: string, binary: string): Managed | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Managed;
    if (value?.schema === 1 && value.files && Array.isArray(value.servers))
      return { ...value, dirs: Array.isArray(value.dirs) ? value.dirs : [] };
  } catch {
    // below
  }
  throw new CliError(
    "INSTALL_CONFLICT",
    `${file} is not a managed-files manifest ${binary} can read.`,
    `Restore it from version control, or move it away and remove what ${binary} installed by hand.`,
    { manifest: file },
  );
}

/** Every file of every Skill the package carries (skills/<name>/…). */
function packageSkills(dir: string): Array<{ name: string; files: Array<{ path: string; bytes: Buffer }> }> {
  const root = join(dir, "skills");
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const files: Array<{ path: string; bytes: Buffer }> = [];
      const walk = (rel: string) => {
        for (const entry of readdirSync(join(root, name, rel), { withFileTypes: true })) {
          const path = rel ? `${rel}/${entry.name}` : entry.name;
          if (entry.isDirectory()) walk(path);
          else if (entry.isFile()) files.push({ path, bytes: readFileSync(join(root, name, path)) });
        }
      };
      walk("");
      return { name, files };
    });
}

/** Files under a folder, relative to it (links included, never followed). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  if (!lstatSync(dir).isDirectory()) return [""];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk("");
  return out;
}

const fileSha = (abs: string) =>
  existsSync(abs) && lstatSync(abs).isFile() ? sha256Hex(readFileSync(abs)) : undefined;

/** The MCP entry this package registers for an agent: node running its `<binary>-mcp.cjs`, credentials passed on by name only. */
function serverEntry(cli: Cli, agent: AgentName): McpEntry | string {
  const { binary } = cli.manifest.product;
  const script = join(cli.dir, `${binary}-mcp.cjs`);
  const variables = [
    ...new Set([...Object.values(cli.manifest.auth.schemes).flatMap(variablesOf), cli.manifest.baseUrl.env]),
  ]
    .filter(Boolean)
    .sort();
  if (agent === "claude-code") return { type: "stdio", command: "node", args: [script] };
  if (agent === "opencode") return { type: "local", command: ["node", script], enabled: true };
  // Gemini CLI and Cursor start a stdio server with the user's environment: the credential reaches it from there.
  if (agent === "gemini-cli" || agent === "cursor") return { command: "node", args: [script] };
  return tomlBlock(binary, { command: "node", args: [script], env_vars: variables }, binary);
}

function packageInfo(cli: Cli): { name: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(cli.dir, "package.json"), "utf8")) as { name?: string; version?: string };
    return { name: pkg.name ?? cli.manifest.product.binary, version: pkg.version ?? cli.manifest.product.version };
  } catch {
    return { name: cli.manifest.product.binary, version: cli.manifest.product.version };
  }
}

/** Folders between `from` (exclusive of what exists) and `file`'s folder that do not exist yet, outermost first. */
function missingDirs(file: string): string[] {
  const out: string[] = [];
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) {
    out.unshift(dir);
    dir = dirname(dir);
  }
  return out;
}

function conflictError(binary: string, conflicts: Conflict[]): CliError {
  const first = conflicts[0]!;
  return new CliError(
    "INSTALL_CONFLICT",
    `${count(conflicts.length, "path")} ${binary} did not write ${conflicts.length === 1 ? "is" : "are"} in the way, so nothing was written: ${first.path} (${first.reason})${conflicts.length > 1 ? ` and ${conflicts.length - 1} more` : ""}.`,
    `Keep yours and install for other agents only (--agent), or move ${first.path} away and run \`${binary} agents install\` again; ${binary} never overwrites what it did not write.`,
    { conflicts },
  );
}

/** A Skill file to write, for an agent. */
interface FileWrite {
  abs: string;
  bytes: Buffer | string;
  agent: AgentName;
}

/** An MCP server entry to write into an agent's configuration. */
interface ServerWrite {
  place: McpConfigPlace;
  agent: AgentName;
  entry: McpEntry | string;
  previous?: ManagedServer;
  created: boolean;
}

interface Plan {
  steps: Step[];
  conflicts: Conflict[];
}

/**
 * Each agent's Skill files: what to create or update, what is unchanged, and what is in the way (a Skill of that name
 * it did not install, or a file changed since it did).
 */
function planSkillFiles(
  cli: Cli,
  options: AgentsOptions,
  managed: Managed,
  plan: Plan & { writes: FileWrite[]; planned: Set<string> },
): void {
  const { binary } = cli.manifest.product;
  const { scope, root } = options;
  const { steps, conflicts, writes, planned } = plan;
  const skills = packageSkills(cli.dir);
  for (const agent of options.agents) {
    const places = agentPlaces(agent, scope, root);
    for (const skill of skills) {
      const folder = join(places.skills, skill.name);
      const known = new Set(skill.files.map((f) => f.path));
      const strangers = filesUnder(folder).filter(
        (f) => !known.has(f) && !managed.files[keyOf(scope, root, join(folder, f))],
      );
      const unmanaged = skill.files.filter(
        (f) => existsSync(join(folder, f.path)) && !managed.files[keyOf(scope, root, join(folder, f.path))],
      );
      if (strangers.length || unmanaged.length) {
        conflicts.push({
          agent,
          path: shown(scope, root, folder),
          reason: `a Skill named ${skill.name} is there and ${binary} did not install it`,
        });
        continue;
      }
      for (const file of skill.files) {
        const abs = join(folder, file.path);
        if (planned.has(abs)) continue;
        planned.add(abs);
        const key = keyOf(scope, root, abs);
        const current = fileSha(abs);
        const next = sha256Hex(file.bytes);
        const record = managed.files[key];
        if (record && current && current !== record.sha256) {
          conflicts.push({ agent, path: shown(scope, root, abs), reason: `changed since ${binary} installed it` });
          continue;
        }
        const action: Action = !current ? "create" : current === next ? "unchanged" : "update";
        steps.push({ agent, kind: "skill", path: shown(scope, root, abs), action });
        if (action !== "unchanged") writes.push({ abs, bytes: file.bytes, agent });
        else managed.files[key] = { agent, sha256: next };
      }
    }
  }
}

/**
 * Each agent's MCP configuration: its server entry to add or update, unless a server of that name is there that it did
 * not write (or that was changed since), or the file cannot be read.
 */
function planServers(cli: Cli, options: AgentsOptions, managed: Managed, plan: Plan): ServerWrite[] {
  const { binary } = cli.manifest.product;
  const { scope, root } = options;
  const { steps, conflicts } = plan;
  const serverWrites: ServerWrite[] = [];
  for (const agent of options.agents) {
    const place = agentPlaces(agent, scope, root).mcp;
    const entry = serverEntry(cli, agent);
    const previousServer = managed.servers.find((s) => s.agent === agent && s.file === place.file && s.name === binary);
    const present = readPresent(
      place,
      binary,
      typeof previousServer?.entry === "string" ? previousServer.entry : undefined,
    );
    const where = shown(scope, root, place.file);
    if (present.kind === "unreadable") {
      conflicts.push({ agent, path: where, reason: `${binary} cannot add its server: ${present.reason}` });
      continue;
    }
    const ours =
      present.kind === "none" ||
      (present.kind === "toml" && present.ours) ||
      (present.kind === "json" && previousServer !== undefined && sameJson(present.entry, previousServer.entry));
    if (!ours) {
      conflicts.push({
        agent,
        path: `${where} (${place.key}.${binary})`,
        reason: `an MCP server named ${binary} is there and ${binary} did not write it${previousServer ? " (or it was changed since)" : ""}`,
      });
      continue;
    }
    const same =
      previousServer &&
      present.kind !== "none" &&
      (typeof entry === "string" ? entry === previousServer.entry : sameJson(entry, previousServer.entry));
    steps.push({
      agent,
      kind: "mcp",
      path: `${where} (${place.key}.${binary})`,
      action: same ? "unchanged" : present.kind === "none" ? "create" : "update",
    });
    if (!same)
      serverWrites.push({
        place,
        agent,
        entry,
        ...(previousServer ? { previous: previousServer } : {}),
        created: previousServer ? previousServer.created : present.kind === "none" && !present.fileExists,
      });
  }
  return serverWrites;
}

export async function installAgents(cli: Cli, options: AgentsOptions) {
  await loadJsonc();
  const { binary } = cli.manifest.product;
  const { scope, root } = options;
  const pkg = packageInfo(cli);
  const manifestFile = manifestPath(scope, root, binary);
  const previous = readManaged(manifestFile, binary);
  const managed: Managed = previous
    ? { ...previous, package: pkg.name, version: pkg.version }
    : { schema: 1, package: pkg.name, version: pkg.version, binary, scope, files: {}, servers: [], dirs: [] };
  if (options.mcp && !existsSync(join(cli.dir, `${binary}-mcp.cjs`)))
    throw new CliError(
      "USAGE_ERROR",
      `This package has no MCP server (${binary}-mcp.cjs), so --mcp does not apply.`,
      `Run \`${binary} agents install\` without --mcp to install the Skills.`,
    );
  const steps: Step[] = [];
  const conflicts: Conflict[] = [];
  const writes: FileWrite[] = [];
  const planned = new Set<string>();
  planSkillFiles(cli, options, managed, { steps, conflicts, writes, planned });
  // Files an earlier version installed for these agents that this one no longer has (a Skill renamed or dropped).
  const removals = planFileRemovals(managed, options, binary, steps, {
    keep: (abs) => planned.has(abs),
    reason: "this version no longer has it",
  });
  const serverWrites = options.mcp ? planServers(cli, options, managed, { steps, conflicts }) : [];
  if (conflicts.length) throw conflictError(binary, conflicts);
  const result = {
    dry_run: options.dryRun,
    written: !options.dryRun && writes.length + removals.length + serverWrites.length > 0,
    package: pkg,
    scope,
    agents: options.agents,
    mcp: options.mcp,
    steps,
    manifest: shown(scope, root, manifestFile),
  };
  if (options.dryRun) return result;

  const save = () => writeFileAtomic(manifestFile, `${JSON.stringify(managed, null, 2)}\n`);
  const remember = (dirs: string[]) => {
    for (const d of dirs) {
      const key = keyOf(scope, root, d);
      if (!managed.dirs.includes(key)) managed.dirs.push(key);
    }
  };
  remember(missingDirs(manifestFile));
  save();
  for (const w of writes) {
    remember(missingDirs(w.abs));
    writeFileAtomic(w.abs, w.bytes);
    managed.files[keyOf(scope, root, w.abs)] = { agent: w.agent, sha256: sha256Hex(w.bytes) };
    save();
  }
  for (const key of removals) {
    rmSync(absOf(scope, root, key), { force: true });
    delete managed.files[key];
    save();
  }
  for (const s of serverWrites) {
    remember(missingDirs(s.place.file));
    const edited = withEntry(s.place, binary, s.entry, s.previous);
    writeFileAtomic(s.place.file, edited.text);
    managed.servers = [
      ...managed.servers.filter((m) => m !== s.previous),
      {
        agent: s.agent,
        file: s.place.file,
        name: binary,
        entry: edited.entry,
        ...(edited.inserted !== undefined ? { inserted: edited.inserted } : {}),
        created: s.created,
      },
    ];
    save();
  }
  removeEmptyDirs(scope, root, managed);
  save();
  return result;
}

/** Folders it created that are empty now, deepest first. */
function removeEmptyDirs(scope: InstallScope, root: string, managed: Managed): void {
  for (const key of [...managed.dirs].sort((a, b) => b.length - a.length)) {
    const abs = absOf(scope, root, key);
    if (!existsSync(abs)) {
      managed.dirs = managed.dirs.filter((d) => d !== key);
      continue;
    }
    if (lstatSync(abs).isDirectory() && !readdirSync(abs).length) {
      rmdirSync(abs);
      managed.dirs = managed.dirs.filter((d) => d !== key);
    }
  }
}

/**
 * The managed Skill files of the chosen agents to remove, with a step for each: one the user changed since it was
 * installed is kept, never removed.
 */
function planFileRemovals(
  managed: Managed,
  options: AgentsOptions,
  binary: string,
  steps: Step[],
  how: { keep: (abs: string) => boolean; reason?: string },
): string[] {
  const { scope, root } = options;
  const removals: string[] = [];
  for (const [key, record] of Object.entries(managed.files)) {
    const abs = absOf(scope, root, key);
    if (!options.agents.includes(record.agent) || how.keep(abs)) continue;
    const current = fileSha(abs);
    const path = shown(scope, root, abs);
    if (current && current !== record.sha256)
      steps.push({
        agent: record.agent,
        kind: "skill",
        path,
        action: "kept",
        reason: `changed since ${binary} installed it`,
      });
    else {
      steps.push({
        agent: record.agent,
        kind: "skill",
        path,
        action: "remove",
        ...(how.reason ? { reason: how.reason } : {}),
      });
      removals.push(key);
    }
  }
  return removals;
}

export async function uninstallAgents(cli: Cli, options: AgentsOptions) {
  await loadJsonc();
  const { binary } = cli.manifest.product;
  const { scope, root } = options;
  const manifestFile = manifestPath(scope, root, binary);
  const managed = readManaged(manifestFile, binary);
  const steps: Step[] = [];
  if (!managed)
    return {
      dry_run: options.dryRun,
      written: false,
      scope,
      agents: options.agents,
      steps,
      manifest: shown(scope, root, manifestFile),
      installed: false,
    };
  const removals = planFileRemovals(managed, options, binary, steps, { keep: () => false });
  const serverRemovals: ManagedServer[] = [];
  for (const server of managed.servers.filter((s) => options.agents.includes(s.agent))) {
    const place = agentPlaces(server.agent, scope, root).mcp;
    const samePlace = { ...place, file: server.file };
    const present = readPresent(samePlace, binary, typeof server.entry === "string" ? server.entry : undefined);
    const ours =
      (present.kind === "toml" && present.ours) || (present.kind === "json" && sameJson(present.entry, server.entry));
    const where = `${shown(scope, root, server.file)} (${place.key}.${binary})`;
    if (ours) {
      steps.push({ agent: server.agent, kind: "mcp", path: where, action: "remove" });
      serverRemovals.push(server);
    } else
      steps.push({
        agent: server.agent,
        kind: "mcp",
        path: where,
        action: present.kind === "none" ? "remove" : "kept",
        ...(present.kind === "none" ? { reason: "already gone" } : { reason: "changed since it was written" }),
      });
  }
  const result = {
    dry_run: options.dryRun,
    written: !options.dryRun && removals.length + serverRemovals.length > 0,
    scope,
    agents: options.agents,
    steps,
    manifest: shown(scope, root, manifestFile),
    installed: true,
  };
  if (options.dryRun) return result;
  for (const key of removals) {
    rmSync(absOf(scope, root, key), { force: true });
    delete managed.files[key];
  }
  for (const server of serverRemovals) {
    const place = { ...agentPlaces(server.agent, scope, root).mcp, file: server.file };
    const text = withoutEntry(place, binary, server, server.created);
    if (text === undefined) rmSync(server.file, { force: true });
    else writeFileAtomic(server.file, text);
  }
  // Entries of the selected agents are forgotten (a changed file kept is the user's now).
  for (const [key, record] of Object.entries(managed.files))
    if (options.agents.includes(record.agent)) delete managed.files[key];
  managed.servers = managed.servers.filter((s) => !options.agents.includes(s.agent));
  if (!Object.keys(managed.files).length && !managed.servers.length) {
    rmSync(manifestFile, { force: true });
    removeEmptyDirs(scope, root, managed);
  } else {
    removeEmptyDirs(scope, root, managed);
    writeFileAtomic(manifestFile, `${JSON.stringify(managed, null, 2)}\n`);
  }
  return result;
}

/** `--agent`: one of the three, or all. */
export const agentsOf = (value: string | undefined): AgentName[] =>
  !value || value === "all" ? [...AGENT_NAMES] : [value as AgentName];
