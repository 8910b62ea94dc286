import { existsSync, readFileSync } from "node:fs";
import { InterError } from "../../core/errors.js";
import { MAX_DOCUMENT_DEPTH, nestedDeeper } from "../../core/json-depth.js";
import { shippedSchemaValidator } from "../../core/json-schema.js";
import type { StoredResults } from "../report/facts.js";

/** Reads a results.json given on the command line: untrusted, so parsed and checked against the shipped schema. */
export async function loadResults(file: string, shown = file): Promise<StoredResults> {
  if (!existsSync(file))
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No results at ${shown}.`,
      "Give the results.json an evaluation wrote (dist/eval/results.json, or .inter-eval/results.json of `inter eval run`).",
      { file },
    );
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
    if (nestedDeeper(value, MAX_DOCUMENT_DEPTH))
      throw new Error(`it nests deeper than ${MAX_DOCUMENT_DEPTH} levels, which no results file does`);
  } catch (error) {
    throw new InterError(
      "RESULTS_INVALID",
      `${shown} is not JSON: ${(error as Error).message}`,
      "Give the results.json an evaluation wrote, unedited.",
      { file },
    );
  }
  const validator = await shippedSchemaValidator("results");
  if (!validator(value)) {
    const first = validator.errors![0]!;
    const at = first.instancePath || "/";
    throw new InterError(
      "RESULTS_INVALID",
      `${shown} is not an inter results file: at ${at}, ${first.message}${first.params?.additionalProperty ? ` ("${first.params.additionalProperty}")` : ""}.`,
      "Give the results.json an evaluation wrote (schemas/results.schema.json describes it).",
      {
        file,
        errors: validator.errors!.slice(0, 10).map((e) => ({ pointer: e.instancePath, message: e.message })),
      },
    );
  }
  return value as StoredResults;
}
