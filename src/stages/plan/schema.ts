import { readFileSync } from "node:fs";
import { shippedFile } from "../../core/shipped-files.js";

/** The plan schema shipped in the package (schemas/eval-plan.schema.json): the validator's single source of truth. */
export function planSchema(): object {
  return JSON.parse(readFileSync(shippedFile("schemas/eval-plan.schema.json"), "utf8")) as object;
}
