import { describe, expect, it } from "vitest";
import { sampleCommands } from "../../src/stages/inspect/command-sample.js";

const command = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  method: "GET",
  output: "object",
  ...more,
});

describe("sampleCommands: a bounded sample that covers every shape", () => {
  it("takes every command of a CLI no larger than the sample", () => {
    const all = [command("a get"), command("a list")];
    expect(sampleCommands(all, 4)).toEqual({ chosen: all, how: "every command" });
  });

  it("takes the first command of each shape, however late it comes, then an even spread, in the CLI's order", () => {
    const plain = Array.from({ length: 1000 }, (_, i) => command(`g${i} get`));
    plain[700] = command("late delete", { method: "DELETE", destructive: true });
    plain[901] = command("late create", {
      method: "POST",
      jsonInput: true,
      parameters: [{ name: "--id", required: true }],
    });
    plain[950] = command("late list", { output: "array", pagination: { style: "cursor" } });
    const { chosen, how } = sampleCommands(plain, 10);
    const names = chosen.map((c) => c.name);
    expect(names).toHaveLength(10);
    expect(names).toEqual(expect.arrayContaining(["late delete", "late create", "late list"]));
    expect(names).toEqual(plain.filter((c) => names.includes(c.name)).map((c) => c.name));
    expect(how).toContain("destructive");
    expect(how).toContain("paginated");
    expect(how).toContain("with a body");
    // The same input gives the same sample.
    expect(sampleCommands(plain, 10).chosen).toEqual(chosen);
  });

  it("never takes more than the bound, even when every command is of another shape", () => {
    const verbs = ["GET", "POST", "PUT", "PATCH", "DELETE"];
    const all = Array.from({ length: 50 }, (_, i) =>
      command(`g c${i}`, { method: verbs[i % 5], destructive: i === 4 }),
    );
    expect(sampleCommands(all, 3).chosen).toHaveLength(3);
  });
});
