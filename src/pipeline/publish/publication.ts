import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { besideCandidate } from "../../config/project-paths.js";
import { InterError } from "../../core/errors.js";
import { sha256 } from "../../core/hash.js";
import { MCP_NAME } from "../../core/mcp-name.js";
import { inContent, PROOF_DIR } from "../../core/package-proof.js";
import { count } from "../../core/plural.js";
import { openCandidate, type Candidate } from "../../stages/candidate/open-candidate.js";
import { serverJson, serverJsonProblems } from "../../stages/emit/server-json.js";
import { readSurface, surfaceOfCandidate } from "../../surface/read-surface.js";
import { packFolder } from "../bundle.js";
import { readEvidence } from "./evidence.js";
import { proofFiles } from "./proof.js";
import * as registry from "./registry.js";

/**
 * `inter publish` (docs/publishing.md): the certified candidate with its proof inside, its version held to the surface
 * diff against what the registry has, published with the user's own npm, and server.json for the MCP registry written
 * only once the registry holds the package. The command parses and prints; everything it decides is here.
 */
export interface PublishOptions {
  cwd: string;
  /** How a file is named to the user (relative to where they are). */
  shown: (file: string) => string;
  registry?: string;
  forceUncertified: boolean;
  tag?: string;
  access?: "public" | "restricted";
  provenance?: boolean;
  mcpName?: string;
  timeoutSeconds?: number;
  dryRun: boolean;
}

type Target = Parameters<typeof registry.publishedVersions>[1];

/** What would be published, and how it was judged: `inter publish --json`'s data. */
export interface Publication {
  data: PublicationData;
  /** The package's bytes, written where npm publishes them from. */
  tarball: string;
  integrity: string;
  already: boolean;
  server: Record<string, unknown> | undefined;
  serverFile: string;
  binary: string;
  latest: string | undefined;
  target: Target;
}

export interface PublicationData {
  dry_run: boolean;
  published: boolean;
  package: { name: string; version: string };
  registry: string;
  tag: string;
  candidate_sha256: string;
  content_sha256: string;
  tarball: { sha256: string; integrity: string; size: number; files: number };
  files: string[];
  certification: ReturnType<typeof proofFiles>["proof"]["certification"];
  evaluation: Record<string, unknown> | null;
  forced?: string[];
  version_check: Record<string, unknown>;
  provenance: ReturnType<typeof registry.provenanceFor>;
  server_json: { file: string | null; content: Record<string, unknown> | null; reason?: string };
}

/**
 * Prepares the publication of `tgz` in `work` (a folder the caller removes): refuses an uncertified candidate unless
 * forced, adds the proof, packs, checks the version against the registry and builds server.json. Publishes nothing.
 */
export async function preparePublication(tgz: string, options: PublishOptions, work: string): Promise<Publication> {
  const { shown } = options;
  const beside = besideCandidate(tgz);
  const evidence = await readEvidence(tgz, beside.receipt, beside.results, shown);
  if (evidence.refusals.length && !options.forceUncertified)
    throw new InterError(
      "PUBLISH_REFUSED",
      `${shown(tgz)} is not published: ${evidence.refusals.join("; ")}.`,
      "Fix what the receipt or the evaluation reports and build and evaluate again (`inter run eval`), or publish anyway with --force-uncertified: the package's proof then says why.",
      { reasons: evidence.refusals },
    );
  const candidate = await publishableCandidate(tgz, shown);
  const { packageJson: pkg, manifest } = candidate;
  const name = pkg.name!;
  const version = pkg.version!;
  const forced = evidence.refusals.length ? evidence.refusals : [];
  const proof = proofFiles(candidate.files, evidence, { name, version, binary: manifest.product!.binary }, forced);
  const { tarball, bytes } = await packWithProof(candidate, proof.files, work, name, version);
  const integrity = registry.integrityOf(bytes);
  const target: Target = {
    ...(options.registry ? { registry: options.registry } : {}),
    cwd: options.cwd,
    timeoutMs: (options.timeoutSeconds ?? 300) * 1000,
  };
  const check = await checkVersion(candidate, integrity, target, work);
  const server = serverEntry(candidate, options);
  const serverFile = join(dirname(tgz), "server.json");
  const files = [...candidate.files.keys(), ...proof.files.keys()].sort();
  const data: PublicationData = {
    dry_run: options.dryRun,
    published: false,
    package: { name, version },
    registry: options.registry ? registry.withoutUserinfo(options.registry) : "npm's configured registry",
    tag: options.tag ?? "latest",
    candidate_sha256: evidence.candidate,
    content_sha256: proof.proof.content.sha256,
    tarball: { sha256: sha256(bytes), integrity, size: bytes.length, files: files.length },
    files,
    certification: proof.proof.certification,
    evaluation: proof.proof.evaluation
      ? {
          verdict: proof.proof.evaluation.verdict,
          gate_met: proof.proof.evaluation.gate_met,
          scenarios: proof.proof.evaluation.scenarios,
          plan_sha256: proof.proof.evaluation.plan.sha256,
          agent: proof.proof.evaluation.agent,
        }
      : null,
    ...(forced.length ? { forced } : {}),
    version_check: check.versionCheck,
    provenance: registry.provenanceFor(process.env, options.provenance),
    server_json: server
      ? { file: shown(serverFile), content: server }
      : { file: null, content: null, reason: "the package names no mcpName (product.mcpName in the config)" },
  };
  return {
    data,
    tarball,
    integrity,
    already: check.already,
    server,
    serverFile,
    binary: manifest.product!.binary,
    latest: check.latest,
    target,
  };
}

/** The candidate, opened: CANDIDATE_INVALID for one that already holds a proof or lacks its name and version. */
async function publishableCandidate(tgz: string, shown: (file: string) => string): Promise<Candidate> {
  const candidate = await openCandidate(tgz, { label: shown(tgz) });
  if ([...candidate.files.keys()].some((p) => !inContent(p)))
    throw new InterError(
      "CANDIDATE_INVALID",
      `${shown(tgz)} already holds a ${PROOF_DIR}/ folder: it is a published package, not a candidate.`,
      "Publish the cli.tgz `inter build` wrote.",
      { candidate: shown(tgz) },
    );
  const { packageJson: pkg, manifest } = candidate;
  if (!pkg.name || !pkg.version || !manifest.product?.binary)
    throw new InterError(
      "CANDIDATE_INVALID",
      `${shown(tgz)} lacks package.json's name and version or manifest.json's binary.`,
      "Publish the cli.tgz `inter build` wrote.",
      { candidate: shown(tgz) },
    );
  return candidate;
}

/** The published package: the candidate's files with their modes, and proof/, packed as the bundle task packs. */
async function packWithProof(
  candidate: Candidate,
  proof: Map<string, Uint8Array>,
  work: string,
  name: string,
  version: string,
): Promise<{ tarball: string; bytes: Buffer }> {
  const root = join(work, "package");
  for (const [path, entry] of candidate.files) write(root, path, entry.bytes, entry.mode & 0o777);
  for (const [path, bytes] of proof) write(root, path, bytes, 0o644);
  const bytes = await packFolder(root, [...candidate.files.keys(), ...proof.keys()]);
  const tarball = join(work, `${name.replace(/^@/, "").replace(/\//g, "-")}-${version}.tgz`);
  writeFileSync(tarball, bytes);
  return { tarball, bytes };
}

function write(root: string, path: string, bytes: Uint8Array, mode: number): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  chmodSync(file, mode || 0o644);
}

/**
 * The version follows the surface diff against what the registry has: VERSION_NOT_BUMPED when it does not, or when the
 * version is published with other content; `already` when it is published with these very bytes.
 */
async function checkVersion(
  candidate: Candidate,
  integrity: string,
  target: Target,
  work: string,
): Promise<{ versionCheck: Record<string, unknown>; already: boolean; latest: string | undefined }> {
  const name = candidate.packageJson.name!;
  const version = candidate.packageJson.version!;
  const { latest, versions } = await registry.publishedVersions(name, target);
  const versionCheck: Record<string, unknown> = { published_latest: latest ?? null };
  if (versions.includes(version)) {
    const held = await registry.publishedIntegrity(name, version, target);
    if (held !== integrity)
      throw new InterError(
        "VERSION_NOT_BUMPED",
        `${name}@${version} is already published with other content; a published version never changes.`,
        `Raise product.version in intermesh.config.ts (above ${latest ?? version}; \`inter diff\` against the published candidate says by how much), build and evaluate again, then publish.`,
        { package: name, version, latest: latest ?? null },
      );
    return { versionCheck: { ...versionCheck, already_published: true }, already: true, latest };
  }
  if (!latest) return { versionCheck, already: false, latest };
  const before = await readSurface(await registry.fetchPublished(name, latest, target, work), `${name}@${latest}`);
  const { diffSurfaces } = await import("../../surface/report.js");
  const diff = diffSurfaces(before, surfaceOfCandidate(candidate));
  if (!diff.version_follows)
    throw new InterError(
      "VERSION_NOT_BUMPED",
      `${name} is ${version}, but the changes since the published ${latest} are ${diff.verdict} (${count(diff.counts.breaking, "breaking change")}); it should be at least ${diff.expected_version}. Nothing was published.`,
      `Set product.version to ${diff.expected_version} or above, build and evaluate again, then publish; \`inter diff\` shows the changes.`,
      { package: name, version, latest, verdict: diff.verdict, expected_version: diff.expected_version },
    );
  return {
    versionCheck: {
      ...versionCheck,
      verdict: diff.verdict,
      expected_version: diff.expected_version ?? null,
      follows: diff.version_follows,
      changes: diff.counts,
    },
    already: false,
    latest,
  };
}

/**
 * The MCP registry's entry. The registry takes an npm package's entry only when the package names the same server (its
 * mcpName, from product.mcpName): without one there is no entry to write, and a --mcp-name of another name is refused.
 */
function serverEntry(candidate: Candidate, options: PublishOptions): Record<string, unknown> | undefined {
  const { packageJson: pkg, manifest } = candidate;
  const mcpName = typeof pkg.mcpName === "string" ? pkg.mcpName : undefined;
  if (options.mcpName !== undefined && options.mcpName !== mcpName)
    throw new InterError(
      "USAGE_ERROR",
      `--mcp-name ${options.mcpName} is not the package's mcpName (${mcpName ?? "none"}): the MCP registry takes an npm package's server.json only under the name its package.json gives.`,
      `Set product.mcpName: "${options.mcpName}" in the config and build again.`,
      { flag: "mcp-name" },
    );
  if (!mcpName || !MCP_NAME.test(mcpName)) return undefined;
  const server = serverJson({
    name: mcpName,
    description: manifest.product.description || pkg.description || pkg.name!,
    pkg: pkg.name!,
    version: pkg.version!,
    ...(options.registry ? { registry: registry.withoutUserinfo(options.registry) } : {}),
    manifest,
  });
  const problems = serverJsonProblems(server, pkg);
  if (problems.length)
    throw new InterError(
      "SERVER_JSON_INVALID",
      `server.json would be refused by the MCP registry: ${problems.join("; ")}.`,
      "Fix product.mcpName or the field named, build again, then publish.",
      { problems },
    );
  return server as unknown as Record<string, unknown>;
}

/**
 * Publishes a prepared publication with the user's npm (unless the registry holds it already) and then writes
 * server.json. npm may fail after the registry stored the package (a timeout on the answer): the registry is asked
 * what it holds before PUBLISH_FAILED, which says what state it is in.
 */
export async function publishPrepared(publication: Publication, options: PublishOptions): Promise<void> {
  const { name, version } = publication.data.package;
  if (!publication.already) {
    const outcome = await registry.npmPublish(publication.tarball, publication.target, {
      provenance: publication.data.provenance.use,
      tag: options.tag ?? "latest",
      ...(options.access ? { access: options.access } : {}),
    });
    if (!outcome.ok) {
      const held = await registry.publishedIntegrity(name, version, publication.target);
      if (held !== publication.integrity) {
        const state =
          held === "absent"
            ? "Nothing was published: the registry does not hold it."
            : held === "unknown"
              ? `The registry could not be asked whether it holds ${name}@${version}; check with \`npm view ${name}@${version} dist.integrity\` (it must be ${publication.integrity} or absent).`
              : `The registry holds ${name}@${version} with other content.`;
        throw new InterError(
          "PUBLISH_FAILED",
          `The registry did not take ${name}@${version}${outcome.code ? ` (${outcome.code})` : ""}: ${outcome.says}. ${state} server.json was not written.`,
          outcome.code === "E401" || outcome.code === "ENEEDAUTH" || outcome.code === "E403"
            ? "Log in to the registry with npm (`npm login --registry <url>`) as a user allowed to publish this package, then run inter publish again."
            : "Fix what npm reported, then run inter publish again: nothing needs cleaning up.",
          {
            package: name,
            version,
            npm: outcome.code ?? null,
            registry_state: held === "absent" || held === "unknown" ? held : "other content",
          },
        );
      }
    }
  }
  if (publication.server) writeFileAtomic(publication.serverFile, `${JSON.stringify(publication.server, null, 2)}\n`);
}

/** A work folder for one publication, removed whatever happens. */
export async function withWorkFolder<T>(use: (work: string) => Promise<T>): Promise<T> {
  const work = ownedTempDir("publish");
  try {
    return await use(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
