/**
 * Once per `vitest run`: a temporary folder and a HOME of the run's own, in memory where the machine allows (every
 * test, and every program a test starts, makes its temporary files there), an environment cleared of what the caller
 * exported for inter, its CLIs and agents, and the repository's example built once into it — without the API's
 * credential, and in a second copy with it too — which test/e2e/example-api.ts copies warm.
 * At the end the run fails if anything of it is left: a file in the temporary folder or a process still running there.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { memoryFolder, sweepOrphanedTempDirs } from "../src/core/temp-dirs.js";

const REPO = resolve(import.meta.dirname, "..");

declare module "vitest" {
  export interface ProvidedContext {
    /** The example project, built (cold, without a credential) once for the whole run. */
    exampleTemplate: string;
    /** A copy of it built again with the example API's key: its cache holds both inspections, dist/ the keyed one. */
    exampleTemplateWithKey: string;
  }
}

/** Processes (other than this one) whose working folder or command line lies under `root`. */
function processesUnder(root: string): Array<{ pid: number; what: string }> {
  const found: Array<{ pid: number; what: string }> = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      const state = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (state.slice(state.lastIndexOf(")") + 2, state.lastIndexOf(")") + 3) === "Z") continue;
      if (cwd.startsWith(root) || cmdline.includes(root)) found.push({ pid, what: cmdline.slice(0, 120) || cwd });
    } catch {
      // gone already, or not ours to read
    }
  }
  return found;
}

/** "inter-install-Ab12Cd" ×3 → "inter-install-* ×3": what made them, not their random names. */
function summarise(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) {
    const kind = name.replace(/[A-Za-z0-9]{6}$/, "*");
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, n]) => (n > 1 ? `${kind} ×${n}` : kind)).join(", ");
}

/** The example API's key (examples/rooms/server.mjs takes it from the example config's service). */
export const EXAMPLE_API_KEY = "rooms-demo-key";

/**
 * End-to-end tests run the bundle in lib/, not src/: a lib/ built from other source would test stale code. Rebuilt
 * here (the bundle only; types are not needed to run) when its stamp differs from the source's hash.
 */
async function freshLib(): Promise<void> {
  const { sourceHash } = (await import(join(REPO, "scripts/source-hash.mjs"))) as {
    sourceHash: (repo: string) => string;
  };
  let stamp = "";
  try {
    stamp = readFileSync(join(REPO, "lib/build-id"), "utf8").trim();
  } catch {
    // never built
  }
  if (stamp === sourceHash(REPO)) return;
  console.log(
    `lib/ ${stamp ? "was built from other source" : "is not built"}: rebuilding it (node scripts/build.mjs) so the tests run the current code`,
  );
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: REPO, stdio: "inherit" });
}

/**
 * What the suite keeps of the caller's environment: where programs are, the locale, npm's and vitest's own settings,
 * the network's proxies and OpenSSL's certificate locations. Everything else goes — a credential (the README's walk
 * exports ROOMS_API_KEY), a generated CLI's or inter's settings, CI's (CI, GITHUB_STEP_SUMMARY), colour switches
 * (FORCE_COLOR puts escape codes in what tests read), NODE_OPTIONS, a variable a fixture declares (LINT_LEVEL,
 * DESIGN_KEY) — and a test sets what it depends on. NODE_EXTRA_CA_CERTS goes too: Node 20 reads and parses that
 * bundle at every start, needed or not (a machine's whole bundle: `node -e 0` 27 ms of CPU without it, 94 ms with it,
 * measured here), the suite starts some 1,900 Node processes, and none of them makes a TLS connection — every server
 * a test calls is its own, on loopback, over HTTP.
 */
export const KEPT_VARIABLES =
  /^(PATH|PWD|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TZ|SSL_CERT_(FILE|DIR)|CHROMIUM_PATH|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|npm_.+|VITEST.*|__VITEST.*|VITE_.+|NODE_ENV|TEST)$/;

/**
 * Where the run keeps its folder: in memory (/dev/shm) when the machine has one with room to spare and programs may
 * run from it, else the machine's temporary folder. The suite creates, copies and removes some hundred thousand small
 * files (projects, caches, installed candidates); on a virtual machine's disk creating one costs ~0.2 ms, in memory a
 * tenth of that. Measured on two cores: 221 s → 201 s for `vitest run`, 75 s → 59 s of it in the kernel. Passed over
 * (src/core/temp-dirs.ts, memoryFolder): a small /dev/shm (a container's 64 MiB; a full one would fail tests for want
 * of space) and one where a program may not run (mounted `noexec`), where the installed CLIs the tests run could not
 * start.
 */
function scratchRoot(): string {
  return memoryFolder(4 * 2 ** 30) ?? tmpdir();
}

/** HOME and the temporary folder are the run's own, so nothing a program keeps there reads or lands in the caller's. */
function isolateEnvironment(root: string, tmp: string): void {
  for (const name of Object.keys(process.env)) if (!KEPT_VARIABLES.test(name)) delete process.env[name];
  process.env.HOME = join(root, "home");
  mkdirSync(process.env.HOME);
  process.env.TMPDIR = tmp;
}

export default async function setup(project: TestProject) {
  await freshLib();
  const scratch = scratchRoot();
  // Named as inter names its own temporary folders (src/core/temp-dirs.ts): a run killed before its teardown leaves its
  // folder — in memory, its share of the machine's memory — only until the next run or inter sweeps it.
  sweepOrphanedTempDirs(scratch);
  const root = mkdtempSync(join(scratch, `inter-owned-suite-p${process.pid}-`));
  const tmp = join(root, "tmp");
  mkdirSync(tmp);
  // Workers and every program they start inherit it: nothing of the suite lands in the machine's temporary folder.
  isolateEnvironment(root, tmp);

  const template = join(root, "example");
  for (const path of ["examples", "evals", "intermesh.config.ts"])
    cpSync(join(REPO, path), join(template, path), { recursive: true });
  const build = (cwd: string, env: Record<string, string> = {}) =>
    execFileSync("node", [join(REPO, "bin/inter.cjs"), "build"], {
      cwd,
      env: { ...process.env, CI: "true", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
  build(template);
  project.provide("exampleTemplate", template);
  // Most files that evaluate or inspect the example build it with the key first: once here, not once per file (an
  // inspection with API probes is most of such a build's CPU).
  const withKey = join(root, "example-with-key");
  cpSync(template, withKey, { recursive: true });
  build(withKey, { ROOMS_API_KEY: EXAMPLE_API_KEY });
  project.provide("exampleTemplateWithKey", withKey);

  return () => {
    const left = readdirSync(tmp);
    const running = processesUnder(root);
    for (const p of running) {
      try {
        process.kill(p.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    rmSync(root, { recursive: true, force: true });
    const problems = [
      ...(left.length ? [`${left.length} file(s) left in the run's temporary folder: ${summarise(left)}`] : []),
      ...(running.length
        ? [`${running.length} process(es) still running: ${running.map((p) => `${p.pid} ${p.what}`).join("; ")}`]
        : []),
    ];
    if (problems.length) {
      // A teardown's exception is only logged by vitest; the exit code is what CI reads.
      process.stderr.write(`\nThe suite left things behind (removed now): ${problems.join(". ")}\n`);
      process.exitCode = 1;
    }
  };
}
