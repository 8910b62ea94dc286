import type { Receipt } from "../inspect/receipt.js";
import type { CandidateTree } from "./findings.js";

/** What stage 3 of plan validation needs from an inspection receipt. */
export function treeFromReceipt(
  receipt: Pick<Receipt, "candidate" | "package" | "commands" | "globalFlags">,
): CandidateTree {
  return {
    sha256: receipt.candidate?.sha256 ?? null,
    binary: receipt.package.binary,
    commands: receipt.commands.map((c) => ({
      name: c.name,
      parameters: c.parameters.map((p) => ({
        name: p.name,
        ...(p.type ? { type: p.type } : {}),
        ...(p.enum ? { enum: p.enum } : {}),
      })),
      ...(c.permission ? { permission: c.permission } : {}),
      ...(c.fields ? { fields: c.fields } : {}),
    })),
    globalFlags: receipt.globalFlags,
  };
}
