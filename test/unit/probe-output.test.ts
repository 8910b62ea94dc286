import { describe, expect, it } from "vitest";
import {
  commandsOf,
  documentOf,
  errorOf,
  globalFlagsOf,
  listOf,
  parseOutput,
  versionOf,
} from "../../src/stages/inspect/probe-output.js";
import type { Probe } from "../../src/stages/inspect/probes.js";

const printed = (stdout: string, stderr = ""): Probe => ({
  command: "odd",
  exitCode: 0,
  stdout,
  stderr,
  durationMs: 1,
  timedOut: false,
  json: parseOutput(stdout),
  error: parseOutput(stderr),
});

describe("a probe's output, read once into the runtime's documents", () => {
  it("reads a call's envelope as the runtime prints it: result, page, rules, skills, issue", () => {
    const p = printed(
      JSON.stringify({
        ok: true,
        result: [{ id: "a" }],
        page: { has_more: false },
        rules: ["Never guess an id."],
        skills: [{ name: "s", description: "d", command: "odd skills s" }],
        issue: "Report a problem: odd issue create",
      }),
    );
    expect(documentOf(p)).toMatchObject({
      keys: ["ok", "result", "page", "rules", "skills", "issue"],
      page: { has_more: false },
      rules: ["Never guess an id."],
      issue: "Report a problem: odd issue create",
      dryRun: false,
      reportsError: false,
    });
    expect(listOf(p)).toEqual([{ id: "a" }]);
    // The same probe read again gives the very same document: it is read once.
    expect(documentOf(p)).toBe(documentOf(p));
  });

  it("reads a field of another type than the runtime prints as absent, and text or a bare value as no document", () => {
    const odd = printed(JSON.stringify({ rules: "all", issue: 3, page: "next", commands: {}, baseUrl: "x" }));
    expect(documentOf(odd)).toMatchObject({ keys: ["rules", "issue", "page", "commands", "baseUrl"], baseUrl: {} });
    for (const field of ["rules", "issue", "page", "commands"] as const)
      expect(documentOf(odd)![field]).toBeUndefined();
    for (const text of ["", "Usage: odd", "null", "42", "[1]"]) expect(documentOf(printed(text))).toBeUndefined();
    expect(listOf(printed("[1, 2]"))).toEqual([1, 2]);
  });

  it("takes stderr as a structured error only with error: true and a string code and message", () => {
    expect(
      errorOf(printed("", '{"error":true,"code":"NOT_FOUND","message":"no such id","suggestion":"list"}')),
    ).toEqual({ code: "NOT_FOUND", message: "no such id", suggestion: "list" });
    expect(errorOf(printed("", '{"error":true,"code":"X","message":"m","suggestion":7}'))).toEqual({
      code: "X",
      message: "m",
    });
    for (const stderr of ['{"error":true,"code":5,"message":"m"}', '{"code":"X","message":"m"}', "Error: X", "null"])
      expect(errorOf(printed("", stderr))).toBeUndefined();
  });

  it("keeps of a help listing the commands with a name, and of each the parameters with a name", () => {
    const help = printed(
      JSON.stringify({
        commands: [
          null,
          "rooms list",
          { description: "nameless" },
          { name: "rooms", group: true },
          { name: "rooms get", parameters: [{ name: "--room-id", type: "string" }, null, { type: "integer" }] },
          { name: "rooms list", parameters: "none" },
        ],
      }),
    );
    expect(commandsOf(help)).toEqual([
      { name: "rooms", group: true },
      { name: "rooms get", parameters: [{ name: "--room-id", type: "string" }] },
      { name: "rooms list" },
    ]);
  });

  it("reads the version from a version field, a JSON string or plain text; global flags as names or declarations", () => {
    expect(versionOf(printed('{"ok":true,"version":"1.2.3"}'))).toBe("1.2.3");
    expect(versionOf(printed('"1.2.3"'))).toBe("1.2.3");
    expect(versionOf(printed("1.2.3\n"))).toBe("1.2.3");
    expect(globalFlagsOf(printed(JSON.stringify({ globalFlags: ["--json", { name: "--yes" }, null] })))).toEqual([
      { name: "--json" },
      { name: "--yes", declared: { name: "--yes" } },
      {},
    ]);
  });
});
