import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validatePlan } from "../../src/stages/plan/validate.js";
import { REPO } from "../helpers.js";

const example = () => JSON.parse(readFileSync(join(REPO, "evals/eval-plan.json"), "utf8"));
const codes = async (plan: unknown) =>
  (await validatePlan(JSON.stringify(plan), "eval-plan.json", null)).findings.map((f) => `${f.code} ${f.pointer}`);

describe("plan hygiene: credentials, not paths", () => {
  it("a $schema path through a checkout whose folders hold digits is no credential (inter eval new writes one)", async () => {
    const plan = {
      $schema:
        "../../../tmp/inter-suite-8f3a91c2d4e5/ci-runner-20261201-1234567/node_modules/intermesh/schemas/eval-plan.schema.json",
      ...example(),
    };
    expect((await codes(plan)).filter((c) => c.startsWith("CREDENTIAL_VALUE"))).toEqual([]);
  });

  it("a file path elsewhere in the plan is no credential either, while a key still is, wherever it hides", async () => {
    const plan = example();
    plan.scenarios[0].user_task =
      "Use ./fixtures/ci-20261201-1234567890abcdef/bookings-0042.json as the list of bookings to check.";
    plan.scenarios[0].inputs = {
      ...(plan.scenarios[0].inputs ?? {}),
      list: "../data/run-1234567890abcdef12/bookings-0042.json",
      token: "A9fK2mQ7xL4pR8sT1wY6uB3nE5hJ0cF2zV7kD9qW",
    };
    const found = await codes(plan);
    expect(found.filter((c) => c.startsWith("CREDENTIAL_VALUE"))).toEqual([
      "CREDENTIAL_VALUE /scenarios/0/inputs/token",
    ]);
  });
});
