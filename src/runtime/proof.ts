import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  contentSha256,
  inContent,
  PROOF_FILE,
  PROOF_RECEIPT,
  PROOF_RESULTS,
  sha256Hex,
  type FileDigest,
  type PackageProof,
} from "../core/package-proof.js";
import { count } from "../core/plural.js";
import { CliError } from "./errors.js";
import type { Cli } from "./load.js";

/**
 * `<binary> proof`: what was proven about this exact package (certification, evaluation, plan, model) and whether the
 * files it carries are the ones that were proven — each file's sha256 against `proof/proof.json`, and their content
 * hash (src/core/package-proof.ts defines it) against the one recorded beside the candidate's sha256.
 */

/** At most this many paths per kind in a mismatch's details. */
const SHOWN = 20;
/** A package holds a manifest, one file per command group and the Skills; far more files is not a package inter made. */
const MAX_FILES = 50_000;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function missingProof(cli: Cli, why: string): CliError {
  const { binary } = cli.manifest.product;
  return new CliError(
    "PROOF_MISSING",
    `${binary} ${cli.manifest.product.version} carries no proof: ${why}.`,
    "Install the package as `inter publish` published it (its proof/ folder holds the receipt and the evaluation); a cli.tgz installed straight from a build has none.",
    { file: PROOF_FILE },
  );
}

function readJson(cli: Cli, path: string): unknown {
  const full = join(cli.dir, path);
  if (!existsSync(full)) throw missingProof(cli, `${path} does not exist`);
  try {
    return JSON.parse(readFileSync(full, "utf8"));
  } catch (error) {
    throw new CliError(
      "PROOF_MISMATCH",
      `${path} is not JSON (${(error as Error).message}).`,
      "Reinstall the package from its registry; do not trust this copy.",
      { file: path },
    );
  }
}

/** Every regular file of the package outside proof/, hashed; a link or other entry is reported, never followed. */
function packageFiles(dir: string): { files: FileDigest[]; odd: string[] } {
  const files: FileDigest[] = [];
  const odd: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (!inContent(path)) continue;
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) {
        if (files.length >= MAX_FILES)
          throw new CliError(
            "PROOF_MISMATCH",
            `The package holds over ${count(MAX_FILES, "file")}.`,
            "Reinstall the package from its registry.",
            { limit: MAX_FILES },
          );
        const bytes = readFileSync(join(dir, path));
        files.push({ path, sha256: sha256Hex(bytes), size: bytes.length });
      } else odd.push(path);
    }
  };
  walk("");
  return { files, odd };
}

function checkShape(value: unknown): PackageProof {
  const v = value as PackageProof;
  const ok =
    isObject(v) &&
    isObject(v.package) &&
    isObject(v.candidate) &&
    typeof v.candidate.sha256 === "string" &&
    isObject(v.content) &&
    typeof v.content.sha256 === "string" &&
    Array.isArray(v.content.files) &&
    v.content.files.every((f) => isObject(f) && typeof f.path === "string" && typeof f.sha256 === "string") &&
    isObject(v.certification) &&
    isObject(v.attachments);
  if (!ok)
    throw new CliError(
      "PROOF_MISMATCH",
      `${PROOF_FILE} is not a proof inter wrote (it lacks candidate, content, certification or attachments).`,
      "Reinstall the package from its registry; do not trust this copy.",
      { file: PROOF_FILE },
    );
  return v;
}

export function verifyProof(cli: Cli, expect: string | undefined) {
  const { manifest } = cli;
  const proof = checkShape(readJson(cli, PROOF_FILE));
  const problems: string[] = [];
  // The proof's own list must be the one its content hash was made from.
  if (contentSha256(proof.content.files) !== proof.content.sha256)
    problems.push(`${PROOF_FILE}: its file list does not hash to the content sha256 it records`);
  for (const [path, sha] of Object.entries(proof.attachments)) {
    const full = join(cli.dir, path);
    if (!existsSync(full)) problems.push(`${path}: missing`);
    else if (sha256Hex(readFileSync(full)) !== sha) problems.push(`${path}: changed since publication`);
  }
  const receipt = readJson(cli, PROOF_RECEIPT) as {
    candidate?: { sha256?: string } | null;
    certification?: { level?: string };
  };
  if (receipt?.candidate?.sha256 !== proof.candidate.sha256)
    problems.push(`${PROOF_RECEIPT}: bound to another candidate than the proof`);
  if (receipt?.certification?.level !== proof.certification.level)
    problems.push(
      `${PROOF_RECEIPT}: certifies ${receipt?.certification?.level ?? "nothing"}, the proof says ${proof.certification.level}`,
    );
  if (proof.evaluation) {
    const results = readJson(cli, PROOF_RESULTS) as { candidate?: { sha256?: string } };
    if (results?.candidate?.sha256 !== proof.candidate.sha256)
      problems.push(`${PROOF_RESULTS}: bound to another candidate than the proof`);
  }
  const { files, odd } = packageFiles(cli.dir);
  const recorded = new Map(proof.content.files.map((f) => [f.path, f.sha256]));
  const present = new Map(files.map((f) => [f.path, f.sha256]));
  const changed = files.filter((f) => recorded.has(f.path) && recorded.get(f.path) !== f.sha256).map((f) => f.path);
  const missing = [...recorded.keys()].filter((p) => !present.has(p));
  const added = [...files.filter((f) => !recorded.has(f.path)).map((f) => f.path), ...odd];
  const content = contentSha256(files);
  // Error output masks long hex strings as possible tokens (guard.ts): a mismatch names files, never hashes.
  if (content !== proof.content.sha256 && !changed.length && !missing.length && !added.length)
    problems.push("the files do not hash to the content sha256 the proof records");
  if (changed.length || missing.length || added.length || problems.length) {
    const parts = [
      ...(changed.length
        ? [`changed: ${changed.slice(0, 3).join(", ")}${changed.length > 3 ? ` and ${changed.length - 3} more` : ""}`]
        : []),
      ...(missing.length
        ? [`missing: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""}`]
        : []),
      ...(added.length
        ? [
            `not in the proof: ${added.slice(0, 3).join(", ")}${added.length > 3 ? ` and ${added.length - 3} more` : ""}`,
          ]
        : []),
      ...problems,
    ];
    throw new CliError(
      "PROOF_MISMATCH",
      `The files of ${manifest.product.binary} ${manifest.product.version} are not the ones that were proven — ${parts.join("; ")}.`,
      "Do not trust this copy: reinstall the package from its registry and run proof again.",
      {
        changed: changed.slice(0, SHOWN),
        missing: missing.slice(0, SHOWN),
        added: added.slice(0, SHOWN),
        problems,
      },
    );
  }
  if (
    expect !== undefined &&
    ![proof.candidate.sha256, proof.content.sha256].includes(
      expect
        .trim()
        .toLowerCase()
        .replace(/^sha256:/, ""),
    )
  ) {
    throw new CliError(
      "PROOF_MISMATCH",
      "This package is not the one expected: neither its candidate sha256 nor its content sha256 is the one given to --expect.",
      `Check the hash you were given (\`inter publish\` prints both; \`${manifest.product.binary} proof\` prints this package's), or reinstall the package from its registry.`,
      { flag: "expect" },
    );
  }
  return {
    verified: true,
    package: proof.package,
    candidate_sha256: proof.candidate.sha256,
    content_sha256: proof.content.sha256,
    files: files.length,
    certification: proof.certification,
    evaluation: proof.evaluation
      ? {
          verdict: proof.evaluation.verdict,
          gate_met: proof.evaluation.gate_met,
          min_pass_rate: proof.evaluation.min_pass_rate,
          scenarios: proof.evaluation.scenarios.map((s) => ({
            id: s.id,
            pass_rate: s.pass_rate,
            passed: s.passed,
            attempts: s.attempts,
          })),
          attempts: proof.evaluation.attempts,
          plan_sha256: proof.evaluation.plan.sha256,
          agent: proof.evaluation.agent.name,
          model: proof.evaluation.agent.model ?? null,
          ...(proof.evaluation.isolation ? { isolation: proof.evaluation.isolation } : {}),
          finished_at: proof.evaluation.finished_at,
        }
      : null,
    ...(proof.forced?.length ? { forced: proof.forced } : {}),
    published_by: proof.published_by,
  };
}
