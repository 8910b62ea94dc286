import { execa } from "execa";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers.js";
import { compileSchema } from "../../src/core/json-schema.js";
import { planSample } from "../types/plan-sample.js";

/** Every property path the schema names (`scenarios[].checks[].source.field`), through $refs and oneOf branches. */
/** A JSON Schema node, as far as this walk reads it. */
interface SchemaNode {
  $ref?: string;
  $defs?: Record<string, SchemaNode>;
  oneOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

function schemaPaths(schema: SchemaNode | undefined, root: SchemaNode, at: string, out: Set<string>): Set<string> {
  if (!schema || typeof schema !== "object") return out;
  if (schema.$ref) return schemaPaths(root.$defs![schema.$ref.replace("#/$defs/", "")], root, at, out);
  for (const branch of schema.oneOf ?? []) schemaPaths(branch, root, at, out);
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    out.add(`${at}${key}`);
    schemaPaths(sub, root, `${at}${key}.`, out);
  }
  if (schema.items) schemaPaths(schema.items, root, at.replace(/\.$/, "[]."), out);
  return out;
}

/** The same paths in a value. */
function valuePaths(value: unknown, at: string, out: Set<string>, open: boolean): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => valuePaths(v, at.replace(/\.$/, "[]."), out, open));
  else if (value && typeof value === "object" && !open)
    for (const [k, v] of Object.entries(value)) {
      out.add(`${at}${k}`);
      // Free-form parts (inputs, expected values) are not the schema's properties.
      valuePaths(v, `${at}${k}.`, out, k === "inputs" || k === "expected");
    }
  return out;
}

describe("the plan's TypeScript type and its JSON Schema describe the same plan", () => {
  it("a plan using every property the schema names compiles as a Plan and passes the schema", async () => {
    const schema = JSON.parse(readFileSync(join(REPO, "schemas/eval-plan.schema.json"), "utf8"));
    expect([...schemaPaths(schema, schema, "", new Set())].sort()).toEqual(
      [...valuePaths(planSample, "", new Set(), false)].sort(),
    );
    const validate = await compileSchema(schema);
    expect(validate(planSample), JSON.stringify(validate.errors)).toBe(true);
    // tsc itself (not through npx), and without checking the libraries' declaration files: what is proved is that the
    // sample is a Plan, and checking @types/node's declarations was three quarters of this test's CPU.
    const tsc = await execa(
      process.execPath,
      [
        join(REPO, "node_modules/typescript/bin/tsc"),
        "--noEmit",
        "--skipLibCheck",
        "--strict",
        "--module",
        "NodeNext",
        "--moduleResolution",
        "NodeNext",
        "--target",
        "ES2022",
        "--types",
        "node",
        join(REPO, "test/types/plan-sample.ts"),
      ],
      { cwd: REPO, reject: false },
    );
    expect(tsc.exitCode, tsc.stdout).toBe(0);
  });
});
