import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { SandboxedCommand, ShownFile } from "./agent-run.js";

/** How an attempt is isolated: recorded in results.json and shown beside every verdict. */
export type Isolation = { kind: "bubblewrap"; version: string } | { kind: "none"; reason: string };

/**
 * What the agent sees of its attempt when sealed. Fixed paths, so nothing in the agent's view names the project, the
 * evaluation folder or the other attempts.
 */
export const SEALED_PATHS = {
  root: "/attempt",
  outputs: "/attempt/outputs",
  assets: "/attempt/assets",
  home: "/attempt/home",
  bin: "/attempt/bin",
  prompt: "/attempt/prompt.md",
  tmp: "/tmp",
  socket: "/run/inter/broker.sock",
} as const;

/** The host folders of one attempt that the sandbox shows (the records, the journal and the plan are never among them). */
export interface AttemptFolders {
  outputs: string;
  assets: string;
  home: string;
  tmp: string;
  bin: string;
  prompt: string;
}

/** Top-level system folders shown read-only (or as the symlinks they are on merged-/usr systems). */
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];

const under = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
const isSystemPath = (path: string) => SYSTEM.some((dir) => under(path, dir));

let detected: Promise<Isolation> | undefined;

/**
 * Whether bubblewrap can seal an attempt here: found on PATH and able to make its namespaces (some containers ship
 * bwrap but forbid them). `INTER_SANDBOX=none` turns sealing off on purpose; the run is then labelled like any other
 * unsealed run.
 */
export function detectIsolation(): Promise<Isolation> {
  detected ??= (async (): Promise<Isolation> => {
    if (process.env.INTER_SANDBOX === "none") return { kind: "none", reason: "INTER_SANDBOX=none" };
    const { execa } = await import("execa");
    const version = await execa("bwrap", ["--version"], { reject: false, timeout: 5000 });
    if (version.exitCode !== 0) return { kind: "none", reason: "bubblewrap (bwrap) is not installed" };
    const trial = await execa(
      "bwrap",
      [...systemBinds(), "--proc", "/proc", "--dev", "/dev", "--unshare-pid", "--die-with-parent", "--", "true"],
      { reject: false, timeout: 10_000 },
    );
    if (trial.exitCode !== 0)
      return {
        kind: "none",
        reason: `bubblewrap cannot create its namespaces here: ${String(trial.stderr).trim().split("\n")[0] ?? `exit ${trial.exitCode}`}`,
      };
    return {
      kind: "bubblewrap",
      version: String(version.stdout)
        .trim()
        .replace(/^bubblewrap\s+/, ""),
    };
  })();
  return detected;
}

let binds: string[] | undefined;

/** The system's part of every sandbox, read once per process: the broker builds a sandbox for every call. */
function systemBinds(): string[] {
  if (binds) return binds;
  const args: string[] = [];
  for (const dir of SYSTEM) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  // On systemd hosts /etc/resolv.conf points into /run: agents still need to resolve their model's host.
  args.push("--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve");
  binds = args;
  return args;
}

/** Resolves a program name the way a shell would, on the given PATH. */
export function whichProgram(program: string, path: string | undefined): string | undefined {
  if (program.includes("/")) return existsSync(program) ? program : undefined;
  for (const dir of (path ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * What must be visible for a program to run: nothing for system programs; otherwise the `node_modules` folder that
 * holds its package (npm puts a native agent's platform binary in a sibling package), or else its own folder.
 */
function installationOf(program: string): string[] {
  let real: string;
  try {
    real = realpathSync(program);
  } catch {
    return [];
  }
  const out: string[] = [];
  if (!isSystemPath(program)) out.push(program);
  if (isSystemPath(real)) return out;
  const parts = real.split(sep);
  const modules = parts.lastIndexOf("node_modules");
  out.push(modules > 0 ? parts.slice(0, modules + 1).join(sep) : dirname(real));
  return out;
}

/** Node's own installation, when it is not a system one (nvm, a tarball in /opt): generated CLIs and shims run on it. */
let node: string[] | undefined;
function nodeInstallation(): string[] {
  if (node) return node;
  const real = realpathSync(process.execPath);
  node =
    isSystemPath(process.execPath) && isSystemPath(real)
      ? []
      : [dirname(dirname(real)), ...(isSystemPath(process.execPath) ? [] : [process.execPath])];
  return node;
}

export interface SandboxOptions {
  folders: AttemptFolders;
  /** Host paths shown read-only at the same path (the agent's program, files its argv names). */
  readOnly: string[];
  /** The broker's socket on the host; shown at SEALED_PATHS.socket. Absent for the candidate's own sandbox. */
  socket?: string;
  /** The candidate's installation, shown read-only at its host path: only in the sandbox the broker runs it in. */
  candidate?: string;
  chdir: string;
}

/**
 * bubblewrap arguments for one sealed process tree: the system read-only, the attempt's folders at SEALED_PATHS,
 * fresh /proc (its own PID namespace, so no other process's environment or cwd is reachable) and /dev, a read-only
 * root, no capabilities, killed with its parent. The network is shared: agents must reach their model; the API's credential
 * and address are not in the agent's environment.
 */
export function bwrapArgs(options: SandboxOptions): string[] {
  const { folders } = options;
  const args = [
    "--die-with-parent",
    "--new-session",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--hostname",
    "attempt",
    "--cap-drop",
    "ALL",
    ...systemBinds(),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--dir",
    SEALED_PATHS.root,
    "--bind",
    folders.outputs,
    SEALED_PATHS.outputs,
    "--ro-bind",
    folders.assets,
    SEALED_PATHS.assets,
    "--bind",
    folders.home,
    SEALED_PATHS.home,
    "--bind",
    folders.tmp,
    SEALED_PATHS.tmp,
    "--ro-bind",
    folders.bin,
    SEALED_PATHS.bin,
    "--ro-bind",
    folders.prompt,
    SEALED_PATHS.prompt,
  ];
  for (const path of [
    ...new Set([...nodeInstallation(), ...options.readOnly, ...(options.candidate ? [options.candidate] : [])]),
  ]) {
    if (isAbsolute(path) && existsSync(path)) args.push("--ro-bind", path, path);
  }
  if (options.socket) args.push("--bind", options.socket, SEALED_PATHS.socket);
  // Everything outside the attempt's own folders is read-only, the sandbox's root included: a folder the agent could
  // make there would not exist in the candidate's sandbox, and a call from it would fail for the harness's sake.
  args.push("--remount-ro", "/", "--chdir", options.chdir);
  return args;
}

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * How an agent's program is started in an attempt (evaluation and trigger runs alike). Sealed: under bubblewrap, with
 * the program's installation and the files its argv names shown read-only and `show` bound where the agent looks —
 * never anything inside `hidden` (the evaluation folder, reference solutions), nor a folder holding it. Unsealed: as
 * is, with `show` linked into its HOME (a link names the file; it copies no secret).
 */
export function agentCommand(
  options: { sealed: boolean; folders: AttemptFolders; hidden: string[]; socket?: string },
  argv: string[],
  shown: ShownFile[] = [],
): SandboxedCommand {
  const { folders, hidden } = options;
  const touchesHidden = (p: string) => hidden.some((h) => p === h || p.startsWith(h + sep) || h.startsWith(p + sep));
  const show = shown.filter((f) => !touchesHidden(f.host));
  if (!options.sealed) {
    for (const f of show) {
      mkdirSync(dirname(f.seen), { recursive: true });
      rmSync(f.seen, { force: true });
      symlinkSync(f.host, f.seen);
    }
    return { file: argv[0]!, args: argv.slice(1), cwd: folders.outputs };
  }
  const program = whichProgram(argv[0]!, process.env.PATH) ?? argv[0]!;
  // A script usually needs its siblings (modules it imports): its folder is shown, unless that folder holds the
  // evaluation, is a home or temp folder, or the root — then the file alone.
  const home = resolve(process.env.HOME || homedir());
  const broad = (dir: string) =>
    dir === "/" || home === dir || home.startsWith(dir + sep) || [resolve(tmpdir()), "/tmp", "/var/tmp"].includes(dir);
  const files = argv
    .slice(1)
    .filter((a) => a.startsWith("/") && !a.startsWith("/attempt") && isFile(a))
    .map((f) => (touchesHidden(dirname(f)) || broad(dirname(f)) ? f : dirname(f)));
  const readOnly = [...installationOf(program), ...files].filter((p) => !touchesHidden(p));
  return {
    file: "bwrap",
    hiddenArgs: [
      ...bwrapArgs({
        folders,
        readOnly,
        ...(options.socket ? { socket: options.socket } : {}),
        chdir: SEALED_PATHS.outputs,
      }),
      ...show.flatMap((f) => ["--ro-bind", f.host, f.seen]),
    ],
    args: ["--", program, ...argv.slice(1)],
    cwd: folders.outputs,
  };
}
