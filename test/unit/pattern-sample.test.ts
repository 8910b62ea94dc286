import { describe, expect, it } from "vitest";
import { sampleForPattern } from "../../src/stages/inspect/pattern-sample.js";
import { sample } from "../../src/stages/inspect/subjects.js";

describe("a value the probes make up for a flag's pattern", () => {
  it("matches the pattern, far from any real identifier when asked", () => {
    expect(sampleForPattern("^bk_[0-9]{4}$")).toBe("bk_0000");
    expect(sampleForPattern("^bk_[0-9]+$", true)).toMatch(/^bk_9{8}$/);
    expect(sampleForPattern("^(?:a|b)c?d*$")).toBe("a");
    // What it cannot read gives nothing, and the probe falls back to fixed samples.
    expect(sampleForPattern("^(?=x)x$")).toBeUndefined();
    expect(sampleForPattern("^\\p{L}+$")).toBeUndefined();
  });

  it("repeats an unbounded part to reach the flag's minimum length (AWS's `^i-[a-f0-9]+$` of 10 to 19)", () => {
    const id = sampleForPattern("^i-[a-f0-9]+$", false, 10)!;
    expect(id).toMatch(/^i-[a-f0-9]+$/);
    expect(id.length).toBeGreaterThanOrEqual(10);
    // Nothing to repeat: the plain match, which the caller then finds too short.
    expect(sampleForPattern("^i-[a-f0-9]{3}$", false, 10)).toBe("i-aaa");
    const flag = {
      name: "--instance-id",
      type: "string",
      required: true,
      pattern: "^i-[a-f0-9]+$",
      minLength: 10,
      maxLength: 19,
    };
    const value = sample(flag);
    expect(value).toMatch(/^i-[a-f0-9]+$/);
    expect(value.length).toBeGreaterThanOrEqual(10);
    expect(value.length).toBeLessThanOrEqual(19);
  });
});
