import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ACTION_RULES } from "../../src/stages/design/naming/action-rules.js";
import { COLLISION_RULES } from "../../src/stages/design/naming/collisions/index.js";
import { NUMBER } from "../../src/stages/design/naming/collisions/number.js";

const COLLISIONS = join(import.meta.dirname, "..", "..", "src", "stages", "design", "naming", "collisions");

/**
 * A naming rule is one module and its entry in a list (docs/architecture.md, "Where to add …"): a module written and
 * not registered would never name anything. These fail on exactly that.
 */
describe("naming rules", () => {
  it("every module of naming/collisions/ is one rule in COLLISION_RULES, and the number is the last", async () => {
    const files = readdirSync(COLLISIONS).filter((f) => f.endsWith(".ts") && f !== "index.ts" && f !== "rule.ts");
    const registered = new Set(COLLISION_RULES);
    expect(files.length).toBe(registered.size);
    for (const file of files) {
      const rules = Object.values(await import(join(COLLISIONS, file))).filter(
        (value) => typeof value === "object" && value !== null && "tell" in value && "why" in value,
      );
      expect(rules, file).toHaveLength(1);
      expect(registered.has(rules[0] as never), file).toBe(true);
    }
    expect(new Set(COLLISION_RULES.map((r) => r.name)).size).toBe(COLLISION_RULES.length);
    expect(COLLISION_RULES.every((r) => r.why && !r.why.includes("\n"))).toBe(true);
    expect(COLLISION_RULES[COLLISION_RULES.length - 1]).toBe(NUMBER);
  });

  it("every correction of an action against its method has a name of its own", () => {
    expect(ACTION_RULES.length).toBeGreaterThan(0);
    expect(new Set(ACTION_RULES.map((r) => r.name)).size).toBe(ACTION_RULES.length);
  });
});
