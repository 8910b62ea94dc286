import { describe, expect, it } from "vitest";
import { parseBrief } from "../../src/stages/design/context.js";

describe("a brief whose tasks are a list", () => {
  it("makes each top-level item of the tasks section a task", () => {
    const brief = parseBrief(`# Rooms

Rooms books meeting rooms.

## Tasks

- Book a room for a meeting, with its title
- **Cancel a booking.** The user names the booking by id.
  Expected outcome: the booking is cancelled.
  Rules:
  - Confirm the booking exists first.
1. Report a room's bookings: for one day, as a file

Not a task: a closing paragraph.
`);
    expect(brief.tasks.map((t) => t.title)).toEqual([
      "Book a room for a meeting",
      "Cancel a booking",
      "Report a room's bookings",
    ]);
    const cancel = brief.tasks[1]!;
    expect(cancel.situation).toBe("The user names the booking by id.");
    expect(cancel.outcome).toBe("the booking is cancelled.");
    expect(cancel.rules).toEqual(["Confirm the booking exists first."]);
    expect(brief.tasks[0]!.situation).toBe("with its title");
    expect(brief.tasks[2]!.situation).toBe("for one day, as a file");
    expect(brief.tasks[0]!.line).toBe(7);
  });

  it("reads a list as tasks only where the section has no ### task", () => {
    const brief = parseBrief(`# Rooms

## Tasks and scenarios

Each task below:
- names its inputs

### Book a room

A person books a room.
`);
    expect(brief.tasks.map((t) => t.title)).toEqual(["Book a room"]);
  });
});
