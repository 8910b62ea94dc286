import { nodeCrypto } from "./node-crypto.js";
import { compareText } from "./text-order.js";

/**
 * What `inter publish` puts in a package's `proof/` folder and what `<binary> proof` checks there (docs/publishing.md).
 * Shared by inter and the generated CLI's runtime, so it imports nothing but node:crypto (through ./node-crypto.ts).
 *
 * The candidate's identity is the sha256 of its cli.tgz, which npm does not keep after install. A package's **content
 * hash** is what survives install: the sha256 of the lines `<sha256 of the file>  <path>\n` (the `sha256sum` format),
 * one per regular file of the package, paths relative to the package root with `/`, sorted by path in code-unit
 * order — every file except those under `proof/`, which are added after the content is fixed. `inter publish` computes
 * it from the cli.tgz whose sha256 the receipt and the results name, and records both in `proof/proof.json`.
 */
export const PROOF_DIR = "proof";
export const PROOF_FILE = `${PROOF_DIR}/proof.json`;
export const PROOF_RECEIPT = `${PROOF_DIR}/receipt.json`;
export const PROOF_RESULTS = `${PROOF_DIR}/results.json`;
export const PROOF_SCHEMA_VERSION = "1.0.0";

/** Whether a package path is part of the content hash (everything outside proof/). */
export const inContent = (path: string) => path !== PROOF_DIR && !path.startsWith(`${PROOF_DIR}/`);

export interface FileDigest {
  path: string;
  sha256: string;
  size: number;
}

export const sha256Hex = (data: string | Uint8Array) => nodeCrypto().createHash("sha256").update(data).digest("hex");

/** The content hash of a package's files (the proof/ files are left out whatever the list holds). */
export function contentSha256(files: readonly FileDigest[]): string {
  const lines = files
    .filter((f) => inContent(f.path))
    .map((f) => ({ path: f.path, sha256: f.sha256 }))
    .sort((a, b) => compareText(a.path, b.path))
    .map((f) => `${f.sha256}  ${f.path}\n`);
  return sha256Hex(lines.join(""));
}

/** One scenario of the evaluation, as the proof carries it. */
export interface ProofScenario {
  id: string;
  attempts: number;
  passed: number;
  pass_rate: number;
}

/** proof/proof.json. */
export interface PackageProof {
  schema_version: typeof PROOF_SCHEMA_VERSION;
  package: { name: string; version: string; binary: string };
  /** sha256 of the cli.tgz the receipt and the evaluation are bound to. */
  candidate: { sha256: string };
  /** The content hash (above) and every file it covers. */
  content: { sha256: string; files: FileDigest[] };
  certification: { level: string; blocking: string[] };
  /** null when the package was published without an evaluation (`--force-uncertified`). */
  evaluation: {
    verdict: string;
    gate_met: boolean;
    min_pass_rate: number | null;
    scenarios: ProofScenario[];
    attempts: { attempts: number; passed: number; failed: number; incomplete: number; harness_errors: number };
    plan: { file: string; sha256: string };
    agent: { name: string; model?: unknown };
    isolation?: string;
    finished_at: string;
  } | null;
  /** Why it was published although not certified or not passing, when `--force-uncertified` said so. */
  forced?: string[];
  /** sha256 of proof/receipt.json and proof/results.json, so they cannot change without proof.json changing. */
  attachments: Record<string, string>;
  published_by: { inter: string };
}
