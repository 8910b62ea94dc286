import { createHash } from "node:crypto";
import { InterError } from "../../core/errors.js";

/**
 * The npm registry as the user's npm sees it: every call is npm itself (its config, its credentials, its
 * provenance), with `--registry` when the command names one. inter never reads or writes a token.
 */
export interface RegistryTarget {
  registry?: string;
  cwd: string;
  /** npm's own fetch timeout for each request. */
  timeoutMs: number;
}

interface NpmRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

async function npm(args: string[], target: RegistryTarget): Promise<NpmRun> {
  const { execa } = await import("execa");
  const extra = [
    ...(target.registry ? [`--registry=${target.registry}`] : []),
    `--fetch-timeout=${target.timeoutMs}`,
    "--fetch-retries=0",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ];
  // The whole call is bounded too: a registry that accepts the connection and never answers must not hang publish.
  const result = await execa("npm", [...args, ...extra], {
    cwd: target.cwd,
    reject: false,
    stdin: "ignore",
    timeout: target.timeoutMs + 20_000,
    env: { npm_config_update_notifier: "false" },
  });
  return {
    exitCode: result.exitCode ?? 1,
    stdout: String(result.stdout ?? ""),
    stderr: String(result.stderr ?? ""),
    timedOut: result.timedOut === true,
  };
}

/** npm's error code (E404, E403, ETIMEDOUT…) from its --json output or its log. */
function npmCode(run: NpmRun): string | undefined {
  for (const text of [run.stdout, run.stderr]) {
    try {
      const code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
      if (code) return code;
    } catch {
      // not JSON
    }
    const m = /npm (?:ERR!|error) code (\S+)/.exec(text);
    if (m) return m[1];
  }
  return run.timedOut ? "ETIMEDOUT" : undefined;
}

/** A URL as inter prints it: any user and password it carries cut out (a registry URL may hold them). */
export const withoutUserinfo = (text: string) => text.replace(/\/\/[^/\s@]+@/g, "//");

/** The last lines npm printed about a failure, without its log-file pointers or any user:password of a URL. */
function npmSays(run: NpmRun): string {
  const lines = `${run.stderr}\n${run.stdout}`
    .split("\n")
    .map((l) => l.replace(/^npm (ERR!|error) ?/, "").trim())
    .filter((l) => l && !/complete log of this run|A complete log|^code /.test(l));
  return withoutUserinfo(run.timedOut ? "npm did not finish in time" : lines.slice(-3).join(" ")).slice(0, 500);
}

function parse<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** The published versions of a package and its latest tag; none when the registry does not have it (E404). */
export async function publishedVersions(
  name: string,
  target: RegistryTarget,
): Promise<{ latest?: string; versions: string[] }> {
  const run = await npm(["view", name, "dist-tags", "versions", "--json"], target);
  if (run.exitCode !== 0) {
    if (npmCode(run) === "E404") return { versions: [] };
    throw new InterError(
      "PUBLISH_FAILED",
      `Could not read ${name} from the registry (${npmCode(run) ?? `npm exited ${run.exitCode}`}): ${npmSays(run)}. Nothing was published.`,
      "Check the registry URL (--registry, or npm's own config) and that npm can reach it (`npm ping`).",
      { package: name, npm: npmCode(run) ?? null },
    );
  }
  const value = parse<{ "dist-tags"?: { latest?: string }; versions?: string[] | string }>(run.stdout) ?? {};
  const versions = Array.isArray(value.versions)
    ? value.versions
    : typeof value.versions === "string"
      ? [value.versions]
      : [];
  return { ...(value["dist-tags"]?.latest ? { latest: value["dist-tags"].latest } : {}), versions };
}

/** Downloads a published version's tarball into `dir`; returns its path. */
export async function fetchPublished(
  name: string,
  version: string,
  target: RegistryTarget,
  dir: string,
): Promise<string> {
  const run = await npm(["pack", `${name}@${version}`, `--pack-destination=${dir}`, "--json"], { ...target, cwd: dir });
  const file = parse<Array<{ filename?: string }>>(run.stdout)?.[0]?.filename;
  if (run.exitCode !== 0 || !file)
    throw new InterError(
      "PUBLISH_FAILED",
      `Could not download the published ${name}@${version} to compare with it (${npmCode(run) ?? `npm exited ${run.exitCode}`}): ${npmSays(run)}. Nothing was published.`,
      "Check that npm can reach the registry (`npm ping`), then run inter publish again.",
      { package: name, version },
    );
  return `${dir}/${file.replace(/^.*[\\/]/, "")}`;
}

/** The integrity npm and registries record for a tarball. */
export const integrityOf = (bytes: Uint8Array) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;

/** The integrity the registry holds for name@version: a string, "absent", or "unknown" when it cannot be asked. */
export async function publishedIntegrity(name: string, version: string, target: RegistryTarget): Promise<string> {
  const run = await npm(["view", `${name}@${version}`, "dist.integrity", "--json"], target);
  if (run.exitCode !== 0) return npmCode(run) === "E404" ? "absent" : "unknown";
  const value = parse<string | string[]>(run.stdout);
  if (run.stdout.trim() === "" || value === undefined) return "absent";
  return typeof value === "string" ? value : "unknown";
}

export type PublishOutcome = { ok: true } | { ok: false; code?: string; says: string };

export async function npmPublish(
  tgz: string,
  target: RegistryTarget,
  options: { provenance: boolean; tag: string; access?: string },
): Promise<PublishOutcome> {
  const run = await npm(
    [
      "publish",
      tgz,
      `--tag=${options.tag}`,
      ...(options.provenance ? ["--provenance"] : []),
      ...(options.access ? [`--access=${options.access}`] : []),
      "--json",
    ],
    target,
  );
  if (run.exitCode === 0) return { ok: true };
  return { ok: false, ...(npmCode(run) ? { code: npmCode(run)! } : {}), says: npmSays(run) };
}

/**
 * Whether npm's provenance can be asked for here: GitHub Actions with an OIDC token (`id-token: write`) or GitLab CI
 * with SIGSTORE_ID_TOKEN, as npm itself requires. `asked`: --provenance (true) or --no-provenance (false).
 */
export function provenanceFor(env: NodeJS.ProcessEnv, asked: boolean | undefined): { use: boolean; reason: string } {
  const github = env.GITHUB_ACTIONS === "true" && !!env.ACTIONS_ID_TOKEN_REQUEST_URL;
  const gitlab = env.GITLAB_CI === "true" && !!env.SIGSTORE_ID_TOKEN;
  if (asked === false) return { use: false, reason: "--no-provenance" };
  if (asked === true) return { use: true, reason: "--provenance" };
  if (github) return { use: true, reason: "GitHub Actions with an OIDC token" };
  if (gitlab) return { use: true, reason: "GitLab CI with SIGSTORE_ID_TOKEN" };
  return {
    use: false,
    reason:
      "not in a CI that supports npm provenance (GitHub Actions with id-token: write, or GitLab CI with SIGSTORE_ID_TOKEN)",
  };
}
