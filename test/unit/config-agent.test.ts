import { describe, expect, it } from "vitest";
import type { InterError } from "../../src/core/errors.js";
import { validateConfig } from "../../src/config/validate.js";
import { PRESET_NAMES } from "../../src/evaluation/sandbox/presets.js";

const withAgent = (agent: unknown) => ({
  product: { name: "Rooms", binary: "rooms" },
  inputs: { openapi: "openapi.yaml" },
  targets: { eval: { plan: "plan.json", agent } },
});

const refusal = (value: unknown, presets: readonly string[] = PRESET_NAMES): InterError => {
  try {
    validateConfig(value, "intermesh.config.ts", presets);
  } catch (error) {
    return error as InterError;
  }
  throw new Error("the config was accepted");
};

describe("a target's agent is one of the registered presets", () => {
  it("accepts every registered preset, by name and with arguments, and the reference solutions", () => {
    for (const name of ["reference", ...PRESET_NAMES])
      expect(() => validateConfig(withAgent(name), "c.ts", PRESET_NAMES)).not.toThrow();
    for (const name of PRESET_NAMES)
      expect(() =>
        validateConfig(withAgent({ preset: name, args: ["--model", "m"] }), "c.ts", PRESET_NAMES),
      ).not.toThrow();
  });

  it("refuses an unknown name with CONFIG_INVALID, naming the field and every preset the caller registered", () => {
    const error = refusal(withAgent("gemini"));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toContain("targets.eval.agent");
    for (const name of ["reference", ...PRESET_NAMES]) expect(error.suggestion).toContain(`"${name}"`);
    expect(refusal(withAgent({ preset: "gemini" })).message).toContain("targets.eval.agent");
  });

  it("reads the names it is given: a preset registered later is accepted without touching the config layer", () => {
    expect(() => validateConfig(withAgent("future-agent"), "c.ts", [...PRESET_NAMES, "future-agent"])).not.toThrow();
    expect(refusal(withAgent("future-agent")).suggestion).not.toContain("future-agent");
  });
});
