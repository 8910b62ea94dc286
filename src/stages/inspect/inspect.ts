import { readFileSync, realpathSync, rmSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { sha256 } from "../../core/hash.js";
import { InterError } from "../../core/errors.js";
import { installCandidate, type Installed, packageRootOf } from "./install.js";
import { certifyMcp, mcpCalls, type McpCalls, openMcp } from "./mcp.js";
import { ProbeHost } from "./probe-host.js";
import { ProbeReuse, type SavedProbes } from "./probe-reuse.js";
import { collectFacts, earlyProbe, type Facts } from "./probes.js";
import { openPackage } from "./built-commands.js";
import { documentOf } from "./probe-output.js";
import { REFUSING_URL } from "./probe.js";
import { credentialVariablesOf } from "./credential-variables.js";
import { redactor } from "../../core/redact.js";
import { buildReceipt, type Receipt } from "./receipt.js";
import { checkWire, readDescription, type WireReport } from "./wire-check.js";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { validateSkills } from "./skills.js";
import { withBasePath } from "../../engine/services/supervisor.js";
import { readTarball } from "../candidate/read-tarball.js";
import { type InstalledPackage, readInstalledPackage } from "../candidate/installed-package.js";

export interface InspectOptions {
  /** Base URL of a running API for the probes that call it; without one they are "not applicable". */
  baseUrl?: string;
  /** Why there is no API to call, for the receipt. */
  apiUnavailable?: string;
  interVersion: string;
  /**
   * Probe reuse (stages/inspect/probe-reuse.ts): the last inspection's probes, what identifies the service, and where the
   * probes of this inspection are handed back (redacted) to keep for the next.
   */
  reuse?: { previous?: SavedProbes; service?: string; keep(saved: SavedProbes): void };
  /**
   * The OpenAPI description the candidate was built from (its files, and the folder its `$ref`s may read in): the wire
   * check (stages/inspect/wire-check.ts) holds the CLI's requests to it. Without one, only what the package's manifest
   * shows is judged.
   */
  description?: { files: string[]; root: string };
}

/** npm's version from its own package.json beside the `npm` on PATH (no process), else from `npm --version`. */
async function npmVersion(): Promise<string> {
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    try {
      const pkg = JSON.parse(
        readFileSync(join(dirname(realpathSync(join(dir, "npm"))), "..", "package.json"), "utf8"),
      ) as { name?: string; version?: string };
      if (pkg.name === "npm" && typeof pkg.version === "string") return pkg.version;
      break;
    } catch {
      // not in this folder
    }
  }
  const { execa } = await import("execa");
  const result = await execa("npm", ["--version"], { reject: false });
  return String(result.stdout).trim() || "unknown";
}

async function inspectInstalled(
  bin: string,
  binary: string,
  pkg: InstalledPackage | undefined,
  candidate: Receipt["candidate"],
  options: InspectOptions,
): Promise<Receipt> {
  const packageRoot = pkg?.root;
  // A minimal, predictable environment; the credential is added only when the API will be called. Its variable is
  // learnt from the CLI's own help.
  const baseEnv = probeEnv();
  // The probe host answers the first help too (each probe brings its own environment).
  const hosting = ProbeHost.start(bin, packageRoot, baseEnv);
  // The package as inter's runtime opens it (its manifest.json), for the probes and the rules.
  const cli = openPackage(packageRoot);
  const help = await earlyProbe({ bin, binary, env: baseEnv }, await hosting, ["--help"]);
  const helpDoc = documentOf(help);
  const credentialEnvs = credentialVariablesOf(helpDoc);
  const set = credentialEnvs.filter((name) => process.env[name]);
  let unavailable = options.apiUnavailable;
  if (!unavailable && options.baseUrl && credentialEnvs.length && helpDoc?.auth?.required && !set.length)
    unavailable = `${credentialEnvs.length === 1 ? `${credentialEnvs[0]} is not set` : `none of ${credentialEnvs.join(", ")} is set`}, so calls to the API cannot authenticate`;
  // A service is started at its origin; the API lives under the CLI's base path there ("/v1").
  const baseUrl = options.baseUrl ? withBasePath(options.baseUrl, helpDoc?.baseUrl.path) : undefined;
  // Only the probes meant to call the service are given its URL (stages/inspect/probe.ts: REFUSING_URL). The variable
  // is the CLI's own word: one that names what the probes' environment needs (PATH) is not taken.
  const declared = helpDoc?.baseUrl.env;
  const baseUrlEnv =
    typeof declared === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(declared) && !(declared in baseEnv)
      ? declared
      : undefined;
  const env = {
    ...baseEnv,
    ...(baseUrlEnv ? { [baseUrlEnv]: REFUSING_URL } : {}),
    ...(!unavailable ? Object.fromEntries(set.map((name) => [name, process.env[name]!])) : {}),
  };
  const reuse = options.reuse
    ? new ProbeReuse(packageRoot, options.reuse.previous, options.interVersion, options.reuse.service, baseUrl, env)
    : undefined;
  // The MCP server calls the service as the CLI does: its base URL (an unreachable one when there is no service). It
  // starts and lists its tools while the probes run. Its HOME is its own, as the probes' is: what the server and the
  // CLI calls it makes keep there (issues, tokens, the runtime's compiled code) never lands in the user's.
  const mcpHome = ownedTempDir("inspect-mcp-home");
  const opened = openMcp(pkg, binary, bin, {
    ...env,
    HOME: mcpHome,
    XDG_STATE_HOME: join(mcpHome, ".local", "state"),
    XDG_CACHE_HOME: join(mcpHome, ".cache"),
    ...(baseUrlEnv ? { [baseUrlEnv]: baseUrl && !unavailable ? baseUrl : REFUSING_URL } : {}),
  });
  // The wire check's description is read, and its validator loaded, while the first probes run; neither is needed
  // before the commands are known.
  const wireDir = ownedTempDir("inspect-wire");
  const description = options.description
    ? readDescription(options.description.files, options.description.root)
    : undefined;
  description?.catch(() => {});
  const validator = description
    ? import("./wire-validate.js").then(async (m) => {
        return m.loadWireValidator();
      })
    : undefined;
  validator?.catch(() => {});
  const wire = cli
    ? (probe: Parameters<typeof checkWire>[0]["probe"], baseUrlEnv: string | undefined): Promise<WireReport> =>
        checkWire({ cli, description, validator, probe, baseUrlEnv, tempDir: wireDir }).catch(
          (error: Error): WireReport => ({
            validator: "",
            notRun: `the wire check failed: ${error.message}`,
            checked: 0,
            valid: 0,
            of: 0,
            chosen: "",
            covers: [],
            invalid: [],
            inexpressible: [],
            inexpressibleCount: 0,
            unchecked: [],
          }),
        )
    : undefined;
  let facts: Facts;
  let npm: string;
  let calls: Promise<McpCalls> | undefined;
  try {
    [facts, npm] = await Promise.all([
      collectFacts(
        { bin, binary, env },
        pkg,
        {
          baseUrl,
          unavailable: baseUrl
            ? unavailable
            : (unavailable ?? "no API base URL was given (a configured service or --base-url)"),
        },
        reuse,
        hosting,
        cli,
        (chosen, apiUnavailable) => (calls = mcpCalls(opened, chosen, apiUnavailable)),
        wire,
      ),
      npmVersion(),
    ]);
  } catch (error) {
    await opened.then((session) => (session.served ? session.client.close() : undefined));
    rmSync(mcpHome, { recursive: true, force: true });
    throw error;
  } finally {
    (await hosting)?.stop();
    rmSync(wireDir, { recursive: true, force: true });
  }
  const skills = await validateSkills(facts.skillFiles, binary, facts.commands);
  const mcp = await certifyMcp(facts, opened, calls).finally(() => rmSync(mcpHome, { recursive: true, force: true }));
  const secrets = set.map((name) => process.env[name]!);
  const receipt = buildReceipt({
    facts,
    skills,
    candidate,
    tools: { inter: options.interVersion, node: process.version, npm },
    secrets,
    mcp,
  });
  if (reuse) {
    if (reuse.reused.length && reuse.from) receipt.reused = { candidate: reuse.from, probes: [...reuse.reused].sort() };
    options.reuse!.keep(reuse.saved(candidate?.sha256 ?? "", redactor(secrets)));
  }
  return receipt;
}

/** The environment every probe starts from, and the probe host runs in. */
const probeEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8" });

/**
 * A candidate tarball checked entry by entry and installed (no scripts), ready to probe. The probe host's process is
 * started meanwhile (stages/inspect/probe-host.ts: ProbeHost.warm).
 */
export async function installTarball(file: string): Promise<Installed> {
  ProbeHost.warm(probeEnv());
  // Read whole in the one checked pass, and unpacked from what it read.
  return installCandidate(file, undefined, await readTarball(file, file, () => true));
}

/** Inspects a candidate tarball: checked entry by entry, installed with npm (no scripts), probed, judged. */
export async function inspectTarball(
  file: string,
  bytes: Buffer,
  options: InspectOptions,
  prepared?: Installed,
): Promise<Receipt> {
  const installed = prepared ?? (await installTarball(file));
  try {
    return await inspectInstalled(
      installed.bin,
      installed.binary,
      installed.package,
      { sha256: sha256(bytes), file },
      options,
    );
  } finally {
    installed.cleanup();
  }
}

/** Inspects any installed CLI by its command (teams can certify CLIs they did not generate). */
export async function inspectBin(command: string, options: InspectOptions): Promise<Receipt> {
  const { execa } = await import("execa");
  const which = await execa("sh", ["-c", 'command -v "$1"', "sh", command], { reject: false });
  const bin = String(which.stdout).trim();
  if (!bin)
    throw new InterError("INSPECT_FAILED", `No command "${command}" on PATH.`, "Install the CLI, or give its path.", {
      command,
    });
  const root = packageRootOf(bin);
  return inspectInstalled(bin, command.split("/").pop()!, root ? readInstalledPackage(root) : undefined, null, options);
}
