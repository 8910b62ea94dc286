import { describe, expect, it } from "vitest";
import { parseBrief, placeholderLines, withoutComments } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { projectFiles } from "../../src/cli/init/templates.js";

const contextSkeleton = (name: string) =>
  projectFiles({ name, binary: "acme", openapi: "inputs/openapi.yaml", openapiGiven: false, example: false }).find(
    (f) => f.path === "inputs/context.md",
  )!.content;

const BRIEF = `# Acme <!-- the product's public name -->

Acme books rooms. <!-- marketing wants a second sentence -->

## Rules

- <!-- draft --> Never delete a booking the user did not name.
- <!-- an empty rule, only a note -->

## Tasks and scenarios

### <!-- wording? --> Book a room

A user books a room. <!--
  a note over
  three lines -->

Expected outcome: the booking exists. <!-- check with PM -->

Rules:
- Confirm the time first. <!-- why? -->

### <!-- a heading that is only a comment -->

Stray text.
<!-- an unclosed note hides the rest, as rendered Markdown does

### Hidden task
`;

describe("the brief's HTML comments never become text", () => {
  it("no rule, task, outcome or Skill carries a comment, and a heading of only a comment is no task", () => {
    const brief = parseBrief(BRIEF);
    expect(brief.title).toBe("Acme");
    expect(brief.description).toBe("Acme books rooms.");
    expect(brief.rules).toEqual(["Never delete a booking the user did not name."]);
    expect(brief.tasks.map((t) => [t.title, t.situation, t.outcome, t.rules])).toEqual([
      ["Book a room", "A user books a room.", "the booking exists.", ["Confirm the time first."]],
    ]);
    const { plan } = planSkills(brief, [], "Acme");
    expect(JSON.stringify(plan)).not.toMatch(/<!--|-->|note|draft|PM/);
    // Line numbers are kept: what is reported about the brief still points at the right line.
    expect(withoutComments(BRIEF).split("\n")).toHaveLength(BRIEF.split("\n").length);
    expect(brief.tasks[0]!.line).toBe(BRIEF.split("\n").findIndex((l) => l.endsWith("Book a room")) + 1);
  });

  it("placeholderLines finds every line where inter init's <!-- TODO … --> starts, and nothing in a written brief", () => {
    const skeleton = contextSkeleton("Acme");
    const lines = placeholderLines(skeleton);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(skeleton.split("\n")[line - 1]).toMatch(/<!--\s*TODO/);
    expect(skeleton.split("\n").filter((l) => /<!--\s*TODO/.test(l))).toHaveLength(lines.length);
    expect(placeholderLines(BRIEF)).toEqual([]);
    expect(placeholderLines("a\n<!--TODO x --> <!-- TODO y -->\n\n<!-- TODO z")).toEqual([2, 4]);
  });
});
