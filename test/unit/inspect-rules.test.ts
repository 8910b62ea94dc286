import { describe, expect, it } from "vitest";
import { GLOBAL_BOOLEANS, GLOBAL_VALUES, RESERVED_FLAGS } from "../../src/runtime/args.js";
import { parseOutput } from "../../src/stages/inspect/probe-output.js";
import type { Facts, Probe } from "../../src/stages/inspect/probes.js";
import { RULES } from "../../src/stages/inspect/rules/index.js";
import type { Receipt } from "../../src/stages/inspect/receipt.js";

const judge = (id: string, facts: Partial<Facts>) =>
  RULES.find((r) => r.id === id)!.judge({
    files: {},
    packageJson: {},
    commands: [],
    probes: {},
    ...facts,
  } as unknown as Facts);

describe("S5: no self-update", () => {
  it("an API operation named upgrade (Microsoft Graph's Teams app upgrade) is not an updater", () => {
    const verdict = judge("S5", {
      commands: [{ name: "teams-installed-app upgrade", method: "POST", parameters: [] }],
    });
    expect(verdict.status).toBe("pass");
  });

  it("a local self-update command, or an install hook, fails it and is named", () => {
    expect(judge("S5", { commands: [{ name: "self-update", parameters: [] }] })).toMatchObject({
      status: "fail",
      reason: "updater command: self-update",
    });
    expect(judge("S5", { packageJson: { scripts: { postinstall: "node fetch.js" } } })).toMatchObject({
      status: "fail",
      reason: "install hooks: postinstall",
    });
  });
});

describe("the receipt keeps no credential in any form", () => {
  it("a CLI that prints its key as is, base64-encoded and URL-encoded leaves [REDACTED] in each place", async () => {
    const { buildReceipt } = await import("../../src/stages/inspect/receipt.js");
    const key = "sk/live+key=42";
    const printed = `raw ${key} basic ${Buffer.from(key).toString("base64")} url ${encodeURIComponent(key)}`;
    const probe = {
      command: "demo --help",
      exitCode: 0,
      stdout: printed,
      stderr: printed,
      json: { help: printed, commands: [] },
      timedOut: false,
    };
    const receipt = buildReceipt({
      // Only what the receipt reads to redact: a partial Facts, candidate and tools, on purpose.
      facts: { files: {}, packageJson: {}, commands: [], probes: { help: probe }, binary: "demo" } as unknown as Facts,
      skills: [],
      candidate: { sha256: "x" } as Receipt["candidate"],
      tools: {} as Receipt["tools"],
      secrets: [key],
    });
    const text = JSON.stringify(receipt);
    expect(text).not.toContain(key);
    expect(text).not.toContain(Buffer.from(key).toString("base64").replace(/=+$/, ""));
    expect(text).not.toContain(encodeURIComponent(key));
    expect(text).toContain("raw [REDACTED] basic [REDACTED] url [REDACTED]");
  });
});

/** A probe as the inspection records one: its output parsed once, where it ran. */
const probe = (command: string, stdout: string, stderr = "", exitCode: number | null = 0): Probe => ({
  command,
  exitCode,
  stdout,
  stderr,
  durationMs: 5,
  timedOut: false,
  json: parseOutput(stdout),
  error: parseOutput(stderr),
});

/** Facts in which every probe printed the same thing: each rule must still reach a verdict. */
const allPrinting = (stdout: string, stderr: string, exitCode: number): Facts =>
  ({
    binary: "odd",
    credentialEnvs: [],
    stateText: "",
    probes: Object.fromEntries(
      [
        "help",
        "helpFreshHome",
        "describe",
        "brief",
        "version",
        "bogus",
        "bare",
        "barePipe",
        "mcp",
        "skills",
        "skillsFields",
        "skillsHuman",
        "skillsQuiet",
        "skillsNdjson",
        "skillOne",
        "secret",
        "secretShort",
        "secretFields",
        "secretSkill",
        "traversal",
        "shell",
        "sensitive",
        "control",
        "positional",
        "dryRun",
        "destructiveRefused",
        "jsonInputEnvelope",
        "noCredential",
        "bogusSkills",
        "bogusIssue",
        "versionAfter",
        "issueDryRun",
        "issueCreate",
        "issueList",
        "issueShow",
        "issueUpdate",
        "issueBadTransition",
        "list",
        "listAgain",
        "listFields",
        "paged",
        "getMissing",
      ].map((name) => [name, probe(`odd ${name}`, stdout, stderr, exitCode)]),
    ),
    commands: [{ name: "things list", parameters: [{ name: "--limit" }] }],
    commandHelp: { "things list": probe("odd things list --help", stdout, stderr, exitCode) },
    files: { "README.md": stdout },
    packageJson: {},
    agentSkillFiles: {},
    skillFiles: {},
    stateFiles: [],
    subjects: { chosen: {}, none: {} },
    probing: { processes: 0, hosted: 0, reused: 0 },
  }) as unknown as Facts;

describe("a CLI that prints something other than the runtime's documents", () => {
  // Each is JSON (or not) that the generated CLI never prints, in the places the rules read.
  const outputs: Array<[string, string, string, number]> = [
    ["nothing", "", "", 0],
    ["text that is not JSON", "Usage: odd [options]", "oops", 1],
    ["null", "null", "null", 2],
    ["a number and a string", "42", '"failed"', 2],
    ["arrays of nulls", "[null, 1, []]", "[null]", 0],
    [
      "fields of the wrong type",
      JSON.stringify({
        help: 3,
        commands: "all",
        globalFlags: [null, 3, ["--agent"], { name: 4 }],
        result: [null, "x", { context: "none" }],
        rules: [null],
        skills: [null, 1],
        issue: ["x"],
        page: "next",
        exitCodes: [1],
        tools: {},
        command: "things list",
        version: 1,
      }),
      JSON.stringify({ error: true, code: 5, message: null, suggestion: [] }),
      2,
    ],
    ["an error document on stdout with exit 0", '{"ok":false,"error":true}', "", 0],
  ];

  it.each(outputs)("judges all 98 rules from %s, each with a reason, none crashing", (_, stdout, stderr, exitCode) => {
    const facts = allPrinting(stdout, stderr, exitCode);
    const verdicts = RULES.map((rule) => {
      try {
        return { id: rule.id, ...rule.judge(facts) };
      } catch (error) {
        return { id: rule.id, status: "crashed", reason: String(error) };
      }
    });
    expect(verdicts.filter((v) => v.status === "crashed")).toEqual([]);
    expect(verdicts).toHaveLength(98);
    for (const v of verdicts) expect(v.reason.length, v.id).toBeGreaterThan(0);
    // None of these CLIs is certified: the core rules about JSON output and errors fail.
    const core = verdicts.filter((v) => ["O2", "E1"].includes(v.id));
    expect(core.some((v) => v.status === "fail")).toBe(true);
  });

  it("a failing rule's reason says what was expected and which call did otherwise, never a pass's text", () => {
    const failing = allPrinting("", '{"error":true,"code":"SERVER_ERROR","message":"down","suggestion":"retry"}', 1);
    const o1 = judge("O1", failing);
    expect(o1.status).toBe("fail");
    expect(o1.reason).toBe(
      "expected plain invocations print JSON; not so: `odd skills` exited 1 with SERVER_ERROR; `odd list` exited 1 with SERVER_ERROR",
    );
    // An every-command rule whose evidence exited 0 points at the evidence rather than at a call that succeeded.
    const flat = judge("N1", { ...allPrinting("{}", "", 0), commands: [{ name: "whoami", parameters: [] }] });
    expect(flat).toMatchObject({
      status: "fail",
      reason: "expected every command is <noun> … <verb>; not so (see the evidence)",
    });
  });

  it("says what root --help printed instead of JSON with commands[] (D1), and which calls printed no JSON (O2)", () => {
    const text = allPrinting("Usage: odd [options]", "", 0);
    expect(judge("D1", text)).toMatchObject({
      status: "fail",
      reason: "odd help printed text that is not JSON (exit 0), not a JSON object with commands[]",
    });
    expect(judge("O2", text).reason).toBe("stdout is not JSON: odd help; odd skills; odd list");
    const shape = allPrinting('{"commands":"all"}', "", 0);
    expect(judge("D1", shape).reason).toBe(
      "odd help printed JSON of another shape (exit 0), not a JSON object with commands[]",
    );
  });

  it("takes an error on stderr as structured only with error: true and a string code and message (E1, E4, G1)", () => {
    const numeric = allPrinting("", JSON.stringify({ error: true, code: 5, message: "bad" }), 2);
    expect(judge("E1", numeric).status).toBe("fail");
    expect(judge("E4", numeric)).toMatchObject({ status: "fail", reason: "codes: " });
    expect(judge("G1", numeric).reason).toMatch(/^an unknown flag was not refused with exit 2: odd bogus \(exit 2\)/);
    const missing = allPrinting(
      "",
      JSON.stringify({ error: true, code: "MISSING_FLAG", message: "m", suggestion: "s" }),
      2,
    );
    expect(judge("E1", missing).status).toBe("pass");
    // MISSING_FLAG says the unknown flag was taken for a known one lacking its value.
    expect(judge("G1", missing).status).toBe("fail");
  });
});

describe("N4: the reserved flags are the runtime's", () => {
  const withFlags = (names: string[]) =>
    judge("N4", {
      probes: { help: probe("odd --help", JSON.stringify({ help: "odd", commands: [], globalFlags: names })) },
    });

  it("passes when help lists every reserved global flag of the runtime, and names the one missing", () => {
    expect(withFlags(RESERVED_FLAGS.map((f) => `--${f}`))).toMatchObject({
      status: "pass",
      reason: "all nine reserved flags exist",
    });
    expect(withFlags(RESERVED_FLAGS.filter((f) => f !== "fields").map((f) => `--${f}`))).toMatchObject({
      status: "fail",
      reason: "missing: --fields",
    });
  });

  it("holds only flags every generated CLI takes", () => {
    for (const flag of RESERVED_FLAGS) expect([...GLOBAL_BOOLEANS, ...GLOBAL_VALUES]).toContain(flag);
    expect(RESERVED_FLAGS).toHaveLength(9);
  });
});

describe("the rules, in the spec's order", () => {
  it("are the 98 of the spec, grouped by section, each id once", () => {
    expect(RULES).toHaveLength(98);
    expect(new Set(RULES.map((r) => r.id)).size).toBe(98);
    const sections = [...new Set(RULES.map((r) => r.group))];
    expect(sections).toEqual([
      "Discoverability",
      "Output",
      "Errors",
      "Input",
      "Safety",
      "Exit codes",
      "Composability",
      "Naming",
      "Meta",
      "Feedback",
      "Guardrails",
    ]);
    // Within a section, rules keep their numbers' order (D1 … D18; R1–R3 after O1–O10 under Output).
    const numbered = (prefix: string) =>
      RULES.filter((r) => r.id.startsWith(prefix)).map((r) => Number(r.id.slice(prefix.length)));
    for (const prefix of ["D", "O", "R", "E", "I", "S", "X", "C", "N", "M", "F", "G"])
      expect(numbered(prefix)).toEqual([...numbered(prefix)].sort((a, b) => a - b));
  });
});
