import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers.js";
import { programsStarted } from "../sequencer.js";

const cost = (file: string) => programsStarted(readFileSync(join(REPO, "test", file), "utf8"));
const unitFiles = readdirSync(join(REPO, "test/unit")).filter((name) => name.endsWith(".test.ts"));

describe("the order test files start in without recorded durations", () => {
  it("counts the programs a file starts, not its assertions", () => {
    expect(programsStarted('await inter(dir, ["build"]); execa("npm", ["pack"]); expect(x).toBe(1);')).toBe(3);
    expect(programsStarted("expect(interval).toBe(1); // the inter build")).toBe(0);
  });

  it("starts an end-to-end file of many builds (the cache's) before every unit file", () => {
    const cache = cost("slow/cache.test.ts");
    const units = unitFiles.map((name) => ({ name, cost: cost(`unit/${name}`) }));
    expect(units.filter((unit) => unit.cost >= cache)).toEqual([]);
  });
});
