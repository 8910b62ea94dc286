import { MCP_NAME } from "../../core/mcp-name.js";
import { Command, Option } from "clipanion";
import * as t from "typanion";
import { relative } from "node:path";
import { InterError } from "../../core/errors.js";
import { count } from "../../core/plural.js";
import type { Publication } from "../../pipeline/publish/publication.js";
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
    const { preparePublication, publishPrepared, withWorkFolder } =
      await import("../../pipeline/publish/publication.js");
    const options = {
      cwd,
      shown,
      ...(this.registry !== undefined ? { registry: this.registry } : {}),
      forceUncertified: this.forceUncertified,
      ...(this.tag !== undefined ? { tag: this.tag } : {}),
      ...(this.access !== undefined ? { access: this.access as "public" | "restricted" } : {}),
      ...(this.provenance !== undefined ? { provenance: this.provenance } : {}),
      ...(this.mcpName !== undefined ? { mcpName: this.mcpName } : {}),
      ...(this.timeout !== undefined ? { timeoutSeconds: this.timeout as unknown as number } : {}),
      dryRun: this.dryRun,
    };
    return withWorkFolder(async (work) => {
      const publication = await preparePublication(tgz, options, work);
      const { data, server, serverFile } = publication;
      const serverLine = `  server.json      ${server ? shown(serverFile) : "none: the package names no mcpName (set product.mcpName)"}`;
      if (this.dryRun)
        return {
          data,
          human: [
            ...summary(publication, "Would publish"),
            server ? `${serverLine} (not written)` : serverLine,
            "",
            ...data.files.map((f) => `  ${f}`),
          ].join("\n"),
        };
      await publishPrepared(publication, options);
      const { already } = publication;
      return {
        data: { ...data, published: !already, already_published: already },
        human: [...summary(publication, already ? "Already published" : "Published"), serverLine].join("\n"),
      };
    });
  }
}

/** What is (or would be) published, for people. */
function summary(publication: Publication, verb: string): string[] {
  const { data, binary, latest } = publication;
  const { evaluation, forced = [] } = data;
  return [
    `${verb} ${data.package.name}@${data.package.version} (${count(data.tarball.files, "file")}, ${data.tarball.size} bytes) to ${data.registry} under ${data.tag}`,
    `  candidate sha256 ${data.candidate_sha256}`,
    `  content sha256   ${data.content_sha256}  (check after install: npx ${binary} proof --expect <either>)`,
    `  certification    ${data.certification.level}; evaluation ${evaluation ? `${String(evaluation.verdict)}, gate ${evaluation.gate_met ? "met" : "not met"}` : "none"}${forced.length ? ` — forced: ${forced.join("; ")}` : ""}`,
    `  version          ${latest ? `published latest ${latest}${data.version_check.verdict ? `, changes ${String(data.version_check.verdict)}` : ""}` : "first publication"}`,
    `  provenance       ${data.provenance.use ? "yes" : "no"} (${data.provenance.reason})`,
  ];
}
