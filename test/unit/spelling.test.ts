import { describe, expect, it } from "vitest";
import { americanSpelling } from "../../src/core/spelling.js";

// British and American spellings meet (src/core/spelling.ts): in search, and in a brief's words against commands'
// (test/unit/linking.test.ts, GSMtasks' "Optimise").

describe("one spelling for British and American words", () => {
  it("spells the pairs one way and leaves other words as they are", () => {
    const pairs: Array<[string, string]> = [
      ["organisation", "organization"],
      ["organisations", "organizations"],
      ["optimise", "optimize"],
      ["authorised", "authorized"],
      ["colour", "color"],
      ["labour", "labor"],
      ["favourites", "favorites"],
      ["analyse", "analyze"],
      ["centre", "center"],
      ["catalogue", "catalog"],
      ["cancelled", "canceled"],
      ["labelling", "labeling"],
      ["licence", "license"],
      ["programme", "program"],
    ];
    for (const [british, american] of pairs) expect(americanSpelling(british), british).toBe(american);
    for (const word of ["hour", "tour", "issue", "invoice", "release", "address", "install", "constructor"])
      expect(americanSpelling(word), word).toBe(word);
  });
});
