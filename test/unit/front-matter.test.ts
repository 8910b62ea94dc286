import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFrontMatter } from "../../src/core/front-matter.js";
import { skillsFromFolder } from "../../src/evaluation/triggers/skills.js";
import { validateSkills } from "../../src/stages/inspect/skills.js";
import { tempDir } from "../helpers.js";

// One reader of SKILL.md front matter (#42): the trigger evaluation and inspection see the same description.
const SKILL = `---
name: book-a-room
description: >-
  Use when the user wants to book a room
  for a time slot.
---

Run \`rooms bookings create\`.
`;

describe("front matter", () => {
  it("a folded block scalar reads as its text in trigger runs and in inspection alike", async () => {
    const dir = tempDir("inter-front-");
    mkdirSync(join(dir, "book-a-room"));
    writeFileSync(join(dir, "book-a-room", "SKILL.md"), SKILL);
    const [skill] = skillsFromFolder(dir);
    expect(skill!.description).toBe("Use when the user wants to book a room for a time slot.");
    const [check] = await validateSkills({ "book-a-room": SKILL }, "rooms", [{ name: "bookings create" } as never]);
    expect(check).toMatchObject({ valid: true, problems: [], description: skill!.description });
  });

  it("says what is wrong: no block, invalid YAML, not a mapping", () => {
    expect(readFrontMatter("# no front matter").kind).toBe("none");
    expect(readFrontMatter("---\nname: [unclosed\n---\n")).toMatchObject({
      kind: "invalid",
      message: expect.stringMatching(/YAML/),
    });
    expect(readFrontMatter("---\n- a\n- b\n---\n")).toEqual({ kind: "invalid", message: "not a mapping" });
    expect(readFrontMatter("---\r\nname: x\r\n---\r\nbody")).toEqual({
      kind: "mapping",
      data: { name: "x" },
      body: "body",
    });
  });
});
