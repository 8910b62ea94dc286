import { describe, expect, it } from "vitest";
import { draftQuerySets, firstPerson } from "../../src/evaluation/triggers/draft.js";
import type { CandidateSkill } from "../../src/evaluation/triggers/skills.js";

const skill = (name: string, title: string, when: string): CandidateSkill => ({
  name,
  description: "x",
  files: {
    "SKILL.md": `---\nname: ${name}\ndescription: x\n---\n# ${title}\n\n## When to use\n\n${when}\n\n## Commands\n`,
  },
});

describe("trigger drafts in a user's voice", () => {
  it("turns the brief's third-person situation into what the person would say", () => {
    expect(
      firstPerson(
        "A person needs a room for a meeting: they give the date and how many people attend. Find the rooms.",
      ),
    ).toBe("I need a room for a meeting: I give the date and how many people attend. Find the rooms.");
    expect(
      firstPerson(
        "A person's meeting is off. They name the booking (by id) that should be cancelled, which frees the room.",
      ),
    ).toBe("My meeting is off. I name the booking (by id) that should be cancelled, which frees the room.");
    // "them" is what the person acts on, not the person.
    expect(firstPerson("The user gives a webinar and a person's name and email, and wants them registered.")).toBe(
      "I give a webinar and a person's name and email, and want them registered.",
    );
    expect(
      firstPerson("An office manager wants to know what is booked in one room on one day, to plan cleaning."),
    ).toBe("I want to know what is booked in one room on one day, to plan cleaning.");
    expect(firstPerson("The user names a meeting and wants their registrants told.")).toBe(
      "I name a meeting and want my registrants told.",
    );
    // Prose that is not about a person is no request.
    expect(firstPerson("Rooms are listed by capacity.")).toBeUndefined();
  });

  it("drafts first-person requests and near misses, never the brief's third-person prose, and marks the set draft", () => {
    const sets = draftQuerySets(
      [
        skill("cancel-a-meeting", "Cancel a meeting", "The user names a meeting that is off."),
        skill("list-meetings", "List meetings", "Meetings are shown by date."),
      ],
      "zoom",
    );
    const cancel = sets[0]!;
    expect(cancel.draft).toBe(true);
    expect(cancel.queries.map((q) => [q.query, q.expected_skill])).toEqual([
      ["Please cancel a meeting.", "cancel-a-meeting"],
      ["I name a meeting that is off.", "cancel-a-meeting"],
      ["Can you list meetings for me?", "list-meetings"],
      ["In one sentence, what is the zoom command-line tool for?", null],
    ]);
    for (const q of sets.flatMap((s) => s.queries))
      expect(q.query).not.toMatch(/^(The user|A person|An? \w+ manager)\b/);
  });
});
