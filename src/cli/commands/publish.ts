import { MCP_NAME } from "../../core/mcp-name.js";
import { Command, Option } from "clipanion";
import * as t from "typanion";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { InterError } from "../../core/errors.js";
import { sha256 } from "../../core/hash.js";
import { inContent, PROOF_DIR } from "../../core/package-proof.js";
import { count } from "../../core/plural.js";
import { BaseCommand, type CommandResult } from "../base.js";
import { requireCandidate } from "../candidate-lookup.js";

export class PublishCommand extends BaseCommand {
  static paths = [["publish"]];
  static usage = Command.Usage({
    description:
      "Publish the certified candidate to npm with its proof (receipt, evaluation summary, hashes) inside, and write server.json for the MCP registry",
    details:
      "CANDIDATE is a cli.tgz (default: the one the project's build wrote); its receipt.json and eval/results.json are read from beside it. inter publish refuses a candidate that is not certified, was not evaluated, or whose evaluation missed its gate (PUBLISH_REFUSED) unless --force-uncertified says so, and the proof then records why. It adds proof/ to the package (docs/publishing.md), checks the version against what the registry has — the surface diff against the published latest decides the least version (VERSION_NOT_BUMPED) — and publishes with the user's own npm (its config and credentials; --registry overrides the URL), with npm's provenance in a CI that supports it. server.json is written beside the cli.tgz only once the registry holds the package; a refused or failed publish leaves nothing behind. --dry-run shows exactly what would be published and publishes nothing.",
    examples: [
      ["See what would be published", "inter publish --dry-run"],
      ["Publish to a private registry", "inter publish --registry https://npm.example.com/"],
      ["Publish a candidate that did not pass, saying so in its proof", "inter publish --force-uncertified"],
    ],
  });
  candidate = Option.String({ name: "candidate", required: false });
  dryRun = Option.Boolean("--dry-run", false, {
    description: "Show what would be published (files, hashes, version check, server.json) and publish nothing",
  });
  registry = Option.String("--registry", { description: "The registry URL (default: the one npm is configured for)" });
  forceUncertified = Option.Boolean("--force-uncertified", false, {
    description: "Publish even if not certified, not evaluated or not passing; the proof records why",
  });
  tag = Option.String("--tag", { description: "The dist-tag to publish under (default latest)" });
  access = Option.String("--access", {
    description: "public or restricted (scoped packages)",
    validator: t.isEnum(["public", "restricted"]),
  });
  provenance = Option.Boolean("--provenance", {
    description: "Ask npm for provenance (default: when the CI supports it); --no-provenance never",
  });
  mcpName = Option.String("--mcp-name", {
    description:
      "The server's name in the MCP registry, checked against the package's mcpName (product.mcpName in the config), e.g. io.github.acme/rooms",
  });
  timeout = Option.String("--timeout", {
    description: "Seconds npm waits for each registry request (default 300)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 3600)]),
  });

  async run(): Promise<CommandResult> {
    const cwd = this.cwd ?? process.cwd();
    const shown = (file: string) => relative(cwd, file) || file;
    if (this.registry !== undefined && !/^https?:\/\/[^\s]+$/.test(this.registry))
      throw new InterError(
        "USAGE_ERROR",
        `--registry must be an http(s) URL (got "${this.registry.replace(/\/\/[^/\s@]+@/g, "//")}").`,
        "Give the registry's URL, e.g. --registry https://npm.example.com/.",
        { flag: "registry" },
      );
    if (this.mcpName !== undefined && !MCP_NAME.test(this.mcpName))
      throw new InterError(
        "USAGE_ERROR",
        `--mcp-name must be a reverse-DNS namespace and a name, such as io.github.acme/rooms (got "${this.mcpName}").`,
        "The MCP registry names servers <namespace>/<name>: io.github.<user>/<name> or a domain you own, reversed.",
        { flag: "mcp-name" },
      );
    const tgz = await requireCandidate(undefined, this.candidate, cwd);
    const [
      { readEvidence },
      { proofFiles },
      { openCandidate },
      { readSurface, surfaceOfCandidate },
      { packFolder },
      registry,
      { serverJson, serverJsonProblems },
    ] = await Promise.all([
      import("../publish/evidence.js"),
      import("../publish/proof.js"),
      import("../../stages/candidate/open-candidate.js"),
      import("../../surface/read-surface.js"),
      import("../../pipeline/bundle.js"),
      import("../publish/registry.js"),
      import("../../stages/emit/server-json.js"),
    ]);
    const evidence = await readEvidence(
      tgz,
      join(dirname(tgz), "receipt.json"),
      join(dirname(tgz), "eval", "results.json"),
      shown,
    );
    if (evidence.refusals.length && !this.forceUncertified) {
      throw new InterError(
        "PUBLISH_REFUSED",
        `${shown(tgz)} is not published: ${evidence.refusals.join("; ")}.`,
        "Fix what the receipt or the evaluation reports and build and evaluate again (`inter run eval`), or publish anyway with --force-uncertified: the package's proof then says why.",
        { reasons: evidence.refusals },
      );
    }
    const candidate = await openCandidate(tgz, { label: shown(tgz) });
    const files = candidate.files;
    if ([...files.keys()].some((p) => !inContent(p)))
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
    const forced = evidence.refusals.length ? evidence.refusals : [];
    const proof = proofFiles(
      files,
      evidence,
      { name: pkg.name, version: pkg.version, binary: manifest.product.binary },
      forced,
    );

    const work = mkdtempSync(join(tmpdir(), "inter-publish-"));
    try {
      // The published package: the candidate's files with their modes, and proof/, packed as the bundle task packs.
      const root = join(work, "package");
      for (const [path, entry] of files) write(root, path, entry.bytes, entry.mode & 0o777);
      for (const [path, bytes] of proof.files) write(root, path, bytes, 0o644);
      const bytes = await packFolder(root, [...files.keys(), ...proof.files.keys()]);
      const published = join(work, `${pkg.name.replace(/^@/, "").replace(/\//g, "-")}-${pkg.version}.tgz`);
      writeFileSync(published, bytes);
      const integrity = registry.integrityOf(bytes);
      const target = {
        ...(this.registry ? { registry: this.registry } : {}),
        cwd,
        timeoutMs: ((this.timeout as unknown as number | undefined) ?? 300) * 1000,
      };

      // The version follows the surface diff against what the registry has.
      const { latest, versions } = await registry.publishedVersions(pkg.name, target);
      let already = false;
      let versionCheck: Record<string, unknown> = { published_latest: latest ?? null };
      if (versions.includes(pkg.version)) {
        const held = await registry.publishedIntegrity(pkg.name, pkg.version, target);
        if (held !== integrity)
          throw new InterError(
            "VERSION_NOT_BUMPED",
            `${pkg.name}@${pkg.version} is already published with other content; a published version never changes.`,
            `Raise product.version in intermesh.config.ts (above ${latest ?? pkg.version}; \`inter diff\` against the published candidate says by how much), build and evaluate again, then publish.`,
            { package: pkg.name, version: pkg.version, latest: latest ?? null },
          );
        already = true;
        versionCheck = { ...versionCheck, already_published: true };
      } else if (latest) {
        const before = await readSurface(
          await registry.fetchPublished(pkg.name, latest, target, work),
          `${pkg.name}@${latest}`,
        );
        const after = surfaceOfCandidate(candidate);
        const { diffSurfaces } = await import("../../surface/report.js");
        const diff = diffSurfaces(before, after);
        versionCheck = {
          ...versionCheck,
          verdict: diff.verdict,
          expected_version: diff.expected_version ?? null,
          follows: diff.version_follows,
          changes: diff.counts,
        };
        if (!diff.version_follows) {
          throw new InterError(
            "VERSION_NOT_BUMPED",
            `${pkg.name} is ${pkg.version}, but the changes since the published ${latest} are ${diff.verdict} (${count(diff.counts.breaking, "breaking change")}); it should be at least ${diff.expected_version}. Nothing was published.`,
            `Set product.version to ${diff.expected_version} or above, build and evaluate again, then publish; \`inter diff\` shows the changes.`,
            {
              package: pkg.name,
              version: pkg.version,
              latest,
              verdict: diff.verdict,
              expected_version: diff.expected_version,
            },
          );
        }
      }
      const provenance = registry.provenanceFor(process.env, this.provenance);
      // The registry takes an npm package's entry only when the package names the same server (its mcpName, from
      // product.mcpName): without one there is no entry to write, and a --mcp-name of another name would be refused.
      const mcpName = typeof pkg.mcpName === "string" ? pkg.mcpName : undefined;
      if (this.mcpName !== undefined && this.mcpName !== mcpName)
        throw new InterError(
          "USAGE_ERROR",
          `--mcp-name ${this.mcpName} is not the package's mcpName (${mcpName ?? "none"}): the MCP registry takes an npm package's server.json only under the name its package.json gives.`,
          `Set product.mcpName: "${this.mcpName}" in the config and build again.`,
          { flag: "mcp-name" },
        );
      const server =
        mcpName && MCP_NAME.test(mcpName)
          ? serverJson({
              name: mcpName,
              description: manifest.product.description || pkg.description || pkg.name,
              pkg: pkg.name,
              version: pkg.version,
              ...(this.registry ? { registry: registry.withoutUserinfo(this.registry) } : {}),
              manifest,
            })
          : undefined;
      const serverProblems = server ? serverJsonProblems(server, pkg) : [];
      if (serverProblems.length)
        throw new InterError(
          "SERVER_JSON_INVALID",
          `server.json would be refused by the MCP registry: ${serverProblems.join("; ")}.`,
          "Fix product.mcpName or the field named, build again, then publish.",
          { problems: serverProblems },
        );
      const serverFile = join(dirname(tgz), "server.json");
      const data = {
        dry_run: this.dryRun,
        published: false,
        package: { name: pkg.name, version: pkg.version },
        registry: this.registry ? registry.withoutUserinfo(this.registry) : "npm's configured registry",
        tag: this.tag ?? "latest",
        candidate_sha256: evidence.candidate,
        content_sha256: proof.proof.content.sha256,
        tarball: { sha256: sha256(bytes), integrity, size: bytes.length, files: files.size + proof.files.size },
        files: [...files.keys(), ...proof.files.keys()].sort(),
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
        version_check: versionCheck,
        provenance,
        server_json: server
          ? { file: shown(serverFile), content: server }
          : { file: null, content: null, reason: "the package names no mcpName (product.mcpName in the config)" },
      };
      const summary = (verb: string) => [
        `${verb} ${pkg.name}@${pkg.version} (${count(data.tarball.files, "file")}, ${bytes.length} bytes) to ${data.registry} under ${data.tag}`,
        `  candidate sha256 ${evidence.candidate}`,
        `  content sha256   ${proof.proof.content.sha256}  (check after install: npx ${manifest.product!.binary} proof --expect <either>)`,
        `  certification    ${proof.proof.certification.level}; evaluation ${proof.proof.evaluation ? `${proof.proof.evaluation.verdict}, gate ${proof.proof.evaluation.gate_met ? "met" : "not met"}` : "none"}${forced.length ? ` — forced: ${forced.join("; ")}` : ""}`,
        `  version          ${latest ? `published latest ${latest}${versionCheck.verdict ? `, changes ${String(versionCheck.verdict)}` : ""}` : "first publication"}`,
        `  provenance       ${provenance.use ? "yes" : "no"} (${provenance.reason})`,
      ];
      if (this.dryRun)
        return {
          data,
          human: [
            ...summary("Would publish"),
            `  server.json      ${server ? `${shown(serverFile)} (not written)` : "none: the package names no mcpName (set product.mcpName)"}`,
            "",
            ...data.files.map((f) => `  ${f}`),
          ].join("\n"),
        };
      if (!already) {
        const outcome = await registry.npmPublish(published, target, {
          provenance: provenance.use,
          tag: this.tag ?? "latest",
          ...(this.access ? { access: this.access } : {}),
        });
        if (!outcome.ok) {
          // npm may fail after the registry stored the package (a timeout on the answer): ask the registry what it holds.
          const held = await registry.publishedIntegrity(pkg.name, pkg.version, target);
          if (held !== integrity) {
            const state =
              held === "absent"
                ? "Nothing was published: the registry does not hold it."
                : held === "unknown"
                  ? `The registry could not be asked whether it holds ${pkg.name}@${pkg.version}; check with \`npm view ${pkg.name}@${pkg.version} dist.integrity\` (it must be ${integrity} or absent).`
                  : `The registry holds ${pkg.name}@${pkg.version} with other content.`;
            throw new InterError(
              "PUBLISH_FAILED",
              `The registry did not take ${pkg.name}@${pkg.version}${outcome.code ? ` (${outcome.code})` : ""}: ${outcome.says}. ${state} server.json was not written.`,
              outcome.code === "E401" || outcome.code === "ENEEDAUTH" || outcome.code === "E403"
                ? "Log in to the registry with npm (`npm login --registry <url>`) as a user allowed to publish this package, then run inter publish again."
                : "Fix what npm reported, then run inter publish again: nothing needs cleaning up.",
              {
                package: pkg.name,
                version: pkg.version,
                npm: outcome.code ?? null,
                registry_state: held === "absent" || held === "unknown" ? held : "other content",
              },
            );
          }
        }
      }
      if (server) writeFileAtomic(serverFile, `${JSON.stringify(server, null, 2)}\n`);
      return {
        data: { ...data, published: !already, already_published: already },
        human: [
          ...summary(already ? "Already published" : "Published"),
          `  server.json      ${server ? shown(serverFile) : "none: the package names no mcpName (set product.mcpName)"}`,
        ].join("\n"),
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

function write(root: string, path: string, bytes: Uint8Array, mode: number): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  chmodSync(file, mode || 0o644);
}
