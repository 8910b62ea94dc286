import { COMPOSABILITY } from "./composability.js";
import { DISCOVERABILITY } from "./discoverability.js";
import { ERRORS } from "./errors.js";
import { EXIT_CODES } from "./exit-codes.js";
import { FEEDBACK } from "./feedback.js";
import { GUARDRAILS } from "./guardrails.js";
import { INPUT } from "./input.js";
import type { Layer, Rule } from "./judging.js";
import { META } from "./meta.js";
import { NAMING } from "./naming.js";
import { OUTPUT } from "./output.js";
import { SAFETY } from "./safety.js";

export type { Evidence, Layer, Status } from "./judging.js";

/**
 * The Agent-Friendly CLI Spec v0.1 (docs/generated-cli.md): the 98 rules in the spec's order, a file per section,
 * judged only from what the probes observed.
 */
export const RULES: Rule[] = [
  ...DISCOVERABILITY,
  ...OUTPUT,
  ...ERRORS,
  ...INPUT,
  ...SAFETY,
  ...EXIT_CODES,
  ...COMPOSABILITY,
  ...NAMING,
  ...META,
  ...FEEDBACK,
  ...GUARDRAILS,
];

const CORE = new Set("O1 O2 O3 E1 E4 E5 E7 E8 X3 X9 C1 C2 I4 I5 S1 S4 G1 G2 G3 G8".split(" "));
const ECOSYSTEM = new Set("D12 D13 D14 D17 D18 R1 R2 R3 M1 M2 M3 F1 F2 F3 F4 F5 F6 F7 F8".split(" "));

/** A rule's layer, as the spec lists them: core and ecosystem by name, every other rule recommended. */
export function layerOf(id: string): Layer {
  return CORE.has(id) ? "core" : ECOSYSTEM.has(id) ? "ecosystem" : "recommended";
}
