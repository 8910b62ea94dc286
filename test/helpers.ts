import { execa, type ResultPromise } from "execa";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Capabilities } from "../src/stages/design/capabilities.js";
import type { InterConfig } from "../src/config/types.js";
import { designCommands } from "../src/stages/design/commands.js";
import { readOperationModel } from "../src/stages/openapi/normalize.js";

export const REPO = resolve(import.meta.dirname, "..");
export const INTER_BIN = join(REPO, "bin", "inter.cjs");

const made: string[] = [];
const memos: Array<() => void> = [];

/**
 * What a test file made, undone when it ends (test/setup-file.ts calls this after each file): its temporary folders
 * removed and its per-file values forgotten. Files share one worker and its modules (vitest.config.ts: no isolation),
 * so nothing here may outlive the file that made it.
 */
export function endOfFile(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  for (const forget of memos) forget();
}

/** `make()` once per test file, on first use: the next file that asks gets its own. */
export function perFile<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  memos.push(() => (value = undefined));
  return () => (value ??= { v: make() }).v;
}

/** A temporary folder removed after the test file (the run's global teardown fails on anything left). */
export function tempDir(prefix = "inter-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A description read and designed as a build does: its model, the reader's warnings and the designer's commands. */
export async function designDocument(document: Record<string, unknown>, binary = "demo") {
  const dir = tempDir();
  const file = join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(document));
  const { model, warnings } = await readOperationModel(file, dir);
  const config: InterConfig = { product: { name: binary, binary }, inputs: { openapi: "x" } };
  return { model, warnings, commands: designCommands(model, config, []).plan.commands };
}

/** A throwaway project folder with the given files (paths relative to it). */
export function makeProject(files: Record<string, string>): string {
  const dir = tempDir();
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

export interface InterResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /**
   * stdout parsed as the one JSON document `--json` promises (throws if it is anything else). Left `any` on purpose:
   * its shape is the command's (build, status, eval validate, …) and each test reads the one it ran; the element types
   * a test reads from it are annotated where it reads them (TaskOutcome, Finding, …).
   */
  json: any;
}

/** Runs the built `inter` binary the way a user (or CI, with no TTY and no stdin) does. */
export async function inter(cwd: string, args: string[], env: Record<string, string> = {}): Promise<InterResult> {
  const result = await execa("node", [INTER_BIN, ...args], {
    cwd,
    env: { CI: "true", ...env },
    stdin: "ignore",
    reject: false,
  });
  let json: unknown;
  if (args.includes("--json")) json = JSON.parse(result.stdout);
  return { exitCode: result.exitCode ?? -1, stdout: result.stdout, stderr: result.stderr, json };
}

export function spawnInter(cwd: string, args: string[], env: Record<string, string> = {}): ResultPromise {
  return execa("node", [INTER_BIN, ...args], { cwd, env: { CI: "true", ...env }, stdin: "ignore", reject: false });
}

/** A config file; `body` is the object literal passed to defineConfig. */
export function config(body: string): string {
  return `import { defineConfig } from "intermesh";\n\nexport default defineConfig(${body});\n`;
}

/** A node one-liner as an argv array, JSON-encoded for embedding in a config. */
export function nodeCommand(script: string): string {
  return JSON.stringify(["node", "-e", script]);
}

export const statuses = (result: InterResult): Record<string, string> =>
  Object.fromEntries(
    (result.json.data?.tasks ?? result.json.error?.details?.tasks ?? []).map((t: { id: string; status: string }) => [
      t.id,
      t.status,
    ]),
  );

/** Every built-in task of `inter build`, in pipeline order. */
export const BUILTIN_TASKS = ["discover", "openapi", "commands", "skills", "design", "emit", "bundle", "inspect"];

/** Statuses of the given tasks only. */
export const statusesOf = (result: InterResult, ids: string[]): Record<string, string> => {
  const all = statuses(result);
  return Object.fromEntries(ids.filter((id) => id in all).map((id) => [id, all[id]!]));
};

/** Waits until `condition` holds, polling every 20 ms; fails after `timeoutMs` instead of hoping a sleep was enough. */
export async function until(condition: () => boolean, timeoutMs = 60_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The fields of /proc/<pid>/stat after the command name (state, parent, group, …), undefined once the process is gone.
 * The name is skipped by its last ")": it may itself hold spaces and parentheses.
 */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** When a process started (clock ticks since boot), undefined once it is gone: a reused pid has another start. */
export const startTime = (pid: number): string | undefined => statFields(pid)?.[19];

/** Every process of a process group that /proc still lists, an exited one (a zombie) included: "pid state (name)". */
export function groupMembers(group: number): string[] {
  const found: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (Number(fields?.[2]) !== group) continue;
    let name = "";
    try {
      name = readFileSync(`/proc/${entry}/comm`, "utf8").trim();
    } catch {
      // gone meanwhile
    }
    found.push(`${entry} ${fields![0]} (${name})`);
  }
  return found;
}

/**
 * The pid a program wrote to `file`, once the file holds a whole one. A file can exist before its content is written:
 * read then, it is empty, and `Number("")` is 0 — a pid that `process.kill(0, 0)` says is alive forever (it is the
 * caller's own process group).
 */
export async function waitForPid(file: string, what: string, timeoutMs = 60_000): Promise<number> {
  let pid = 0;
  await until(
    () => {
      try {
        pid = Number(readFileSync(file, "utf8").trim());
      } catch {
        pid = 0;
      }
      return Number.isInteger(pid) && pid > 0;
    },
    timeoutMs,
    what,
  );
  return pid;
}

/** What /proc says of a process, for a failure message: its state, parent and command line. */
export function describeProcess(pid: number): string {
  const fields = statFields(pid);
  if (!fields) return `pid ${pid} gone`;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    return `pid ${pid} state ${fields[0]} parent ${fields[1]}: ${cmdline.slice(0, 160)}`;
  } catch {
    return `pid ${pid} gone`;
  }
}

/** The process's state letter from /proc (R, S, Z, …), when it exists. */
const stateOf = (pid: number): string | undefined => statFields(pid)?.[0];

/**
 * Whether the process that had `pid` when `born` was read still runs (pids are reused fast on a busy machine). A
 * zombie does not run: a killed grandchild is reparented to PID 1, which in a container may never reap it.
 */
export const stillRunning = (pid: number, born: string | undefined) =>
  positivePid(pid) && alive(pid) && startTime(pid) === born && stateOf(pid) !== "Z";

/** 0 or a negative number names a process group to `kill`, never one process: a test that has one read a pid badly. */
function positivePid(pid: number): true {
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${pid} is not a process id`);
  return true;
}

export function alive(pid: number): boolean {
  positivePid(pid);
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed process whose parent has not reaped it yet is a zombie: it runs nothing, so it is not alive.
  return stateOf(pid) !== "Z";
}

/** The text of every regular file under a folder (links not followed, files over 5 MB skipped): "no file holds X". */
export function everyFile(dir: string): string {
  let out = "";
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && statSync(path).size < 5_000_000) out += readFileSync(path, "latin1");
  }
  return out;
}

/** A CLI built by `inter build` from a description and installed from its cli.tgz with npm, as a user installs it. */
export interface BuiltCli {
  /** The project folder (dist/ holds capabilities.json and cli.tgz). */
  dir: string;
  /** The installed executable. */
  bin: string;
  /** The installed package's folder (manifest.json, commands/). */
  pkg: string;
  /** dist/capabilities.json. */
  caps: Capabilities;
}

/**
 * Builds `description` (named `file` in the project, e.g. openapi.yaml) as product `name` (its binary the name in
 * lower case) and installs the candidate; `context` is the brief.
 */
export async function builtCli(
  name: string,
  description: string,
  options: { file?: string; context?: string; prefix?: string } = {},
): Promise<BuiltCli> {
  const binary = name.toLowerCase();
  const file = options.file ?? "openapi.yaml";
  const dir = makeProject({
    "intermesh.config.ts": config(
      `{ product: { name: "${name}", binary: "${binary}" }, inputs: { openapi: "${file}", context: "context.md" } }`,
    ),
    [file]: description,
    "context.md": options.context ?? `# ${name}\n\nAn API.\n`,
  });
  const built = await inter(dir, ["build", "--json"]);
  if (built.exitCode !== 0) throw new Error(`inter build failed: ${built.stdout}${built.stderr}`);
  const caps: Capabilities = JSON.parse(readFileSync(join(dir, "dist/capabilities.json"), "utf8"));
  const prefix = tempDir(options.prefix ?? "inter-installed-");
  await execa("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--prefix",
    prefix,
    join(dir, "dist/cli.tgz"),
  ]);
  return {
    dir,
    bin: join(prefix, "node_modules/.bin", binary),
    pkg: join(prefix, "node_modules", `${binary}-cli`),
    caps,
  };
}
