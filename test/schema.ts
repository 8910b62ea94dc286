import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "./helpers.js";

/** The shipped JSON Schema, compiled by ajv: what users' editors and CI validate against. */
export function schemaValidator(name: string) {
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats.default(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(join(REPO, "schemas", name), "utf8")));
  return (value: unknown) => {
    const ok = validate(value);
    return ok ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}
