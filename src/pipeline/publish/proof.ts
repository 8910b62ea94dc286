import { sha256 } from "../../core/hash.js";
import {
  contentSha256,
  PROOF_FILE,
  PROOF_RECEIPT,
  PROOF_RESULTS,
  PROOF_SCHEMA_VERSION,
  type FileDigest,
  type PackageProof,
} from "../../core/package-proof.js";
import { INTER_VERSION } from "../../core/version.js";
import type { EvalResults } from "../../evaluation/results/types.js";
import type { PackageEntry } from "../../stages/candidate/read-tarball.js";
import type { Evidence } from "./evidence.js";

/**
 * The proof/ folder `inter publish` adds to the package (src/core/package-proof.ts defines it): the receipt, a summary
 * of the results (every attempt's transcript stays at home), and proof.json binding them to the candidate's sha256
 * and to the content hash of the files published beside them.
 */

/** The results without their attempts: what was run, how it went, and what a pass proves. */
function resultsSummary(results: EvalResults) {
  const { attempts: _attempts, ...rest } = results;
  return rest;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

export function proofFiles(
  files: Map<string, PackageEntry>,
  evidence: Evidence,
  pkg: { name: string; version: string; binary: string },
  forced: string[],
): { proof: PackageProof; files: Map<string, Buffer> } {
  const digests: FileDigest[] = [...files]
    .map(([path, entry]) => ({ path, sha256: sha256(entry.bytes), size: entry.bytes.length }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const receipt = json(evidence.receipt);
  const { results } = evidence;
  const summary = results ? json(resultsSummary(results)) : undefined;
  const proof: PackageProof = {
    schema_version: PROOF_SCHEMA_VERSION,
    package: pkg,
    candidate: { sha256: evidence.candidate },
    content: { sha256: contentSha256(digests), files: digests },
    certification: { level: evidence.receipt.certification.level, blocking: evidence.receipt.certification.blocking },
    evaluation: results
      ? {
          verdict: results.verdict,
          gate_met: results.gate ? results.gate.met : results.verdict === "pass",
          min_pass_rate: results.gate?.min_pass_rate ?? null,
          scenarios: results.scenarios.map((s) => ({
            id: s.id,
            attempts: s.attempts,
            passed: s.passed,
            pass_rate: s.pass_rate,
          })),
          attempts: results.summary,
          plan: results.plan,
          agent: { name: results.agent.name, ...(results.agent.model ? { model: results.agent.model } : {}) },
          ...(results.isolation ? { isolation: results.isolation.kind } : {}),
          finished_at: results.finished_at,
        }
      : null,
    ...(forced.length ? { forced } : {}),
    attachments: { [PROOF_RECEIPT]: sha256(receipt), ...(summary ? { [PROOF_RESULTS]: sha256(summary) } : {}) },
    published_by: { inter: INTER_VERSION },
  };
  const out = new Map<string, Buffer>([
    [PROOF_RECEIPT, receipt],
    ...(summary ? ([[PROOF_RESULTS, summary]] as const) : []),
    [PROOF_FILE, json(proof)],
  ]);
  return { proof, files: out };
}
