import { existsSync, readFileSync } from "node:fs";
import { InterError } from "../../core/errors.js";
import { fileSha256 } from "../../core/hash.js";
import type { EvalResults } from "../../evaluation/results/types.js";
import type { Receipt } from "../../stages/inspect/receipt.js";

/**
 * What was proven about a candidate, read from beside its cli.tgz: the inspection receipt (receipt.json) and the
 * evaluation's results (eval/results.json), each checked to be bound to this very cli.tgz. `refusals` says why it
 * should not be published: uncertified, not evaluated, or its evaluation missed the gate.
 */
export interface Evidence {
  /** sha256 of the cli.tgz. */
  candidate: string;
  receipt: Receipt;
  /** The results bound to this candidate; undefined when there are none (or they are of another candidate). */
  results?: EvalResults;
  /** Why publishing needs --force-uncertified (empty: certified and evaluated, the gate met). */
  refusals: string[];
}

function readReceipt(file: string, shown: string): Receipt {
  if (!existsSync(file))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No inspection receipt at ${shown}.`,
      "Run `inter build`: it inspects the candidate and writes receipt.json beside cli.tgz.",
      { file: shown },
    );
  let value: Receipt;
  try {
    value = JSON.parse(readFileSync(file, "utf8")) as Receipt;
  } catch (error) {
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${shown} is not JSON: ${(error as Error).message}.`,
      "Run `inter build` again to rewrite it.",
      { file: shown },
    );
  }
  if (!value || typeof value !== "object" || !value.certification || typeof value.certification.level !== "string")
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${shown} is not an inspection receipt (no certification).`,
      "Run `inter build` again to rewrite it.",
      { file: shown },
    );
  return value;
}

export async function readEvidence(
  tgz: string,
  receiptFile: string,
  resultsFile: string,
  shown: (file: string) => string,
): Promise<Evidence> {
  const candidate = fileSha256(tgz);
  const receipt = readReceipt(receiptFile, shown(receiptFile));
  // A receipt of another candidate proves nothing about this one, whatever --force-uncertified says.
  if (receipt.candidate?.sha256 !== candidate) {
    throw new InterError(
      "PUBLISH_REFUSED",
      `${shown(receiptFile)} was written for another candidate than ${shown(tgz)}, so it proves nothing about it.`,
      "Run `inter build` so the candidate is inspected again, then publish.",
      { receipt: shown(receiptFile), candidate: shown(tgz), reasons: ["the receipt is of another candidate"] },
    );
  }
  const refusals: string[] = [];
  if (receipt.certification.level === "none")
    refusals.push(`it is not certified (blocking: ${receipt.certification.blocking.slice(0, 5).join(", ") || "—"})`);
  let results: EvalResults | undefined;
  if (!existsSync(resultsFile)) refusals.push(`it was not evaluated (no ${shown(resultsFile)})`);
  else {
    const { loadResults } = await import("../../evaluation/results/load.js");
    const loaded = (await loadResults(resultsFile, shown(resultsFile))) as unknown as EvalResults;
    if (loaded.candidate.sha256 !== candidate)
      refusals.push(`${shown(resultsFile)} are of another candidate: this one was not evaluated`);
    else if (loaded.shard)
      refusals.push(
        `${shown(resultsFile)} hold one shard only (${loaded.shard.index}/${loaded.shard.count}); merge the shards with \`inter eval merge\``,
      );
    else {
      results = loaded;
      const met = loaded.gate ? loaded.gate.met : loaded.verdict === "pass";
      if (!met)
        refusals.push(
          `its evaluation did not pass the gate (${
            loaded.gate
              ? loaded.gate.missed
                  .map((m) => `${m.scenario}: ${m.reason}`)
                  .slice(0, 3)
                  .join("; ")
              : `verdict ${loaded.verdict}`
          })`,
        );
    }
  }
  return { candidate, receipt, ...(results ? { results } : {}), refusals };
}
