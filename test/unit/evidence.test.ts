import { describe, expect, it } from "vitest";
import { asksForHelp, judgeCheck, observe } from "../../src/evaluation/run/checks.js";
import { parseLossless } from "../../src/evaluation/run/lossless-json.js";
import { redactor } from "../../src/core/redact.js";
import { redactTree } from "../../src/evaluation/sandbox/redact-files.js";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Invocation } from "../../src/evaluation/sandbox/broker.js";
import type { CliObservation } from "../../src/stages/plan/types.js";
import { tempDir } from "../helpers.js";

const call = (argv: string[], stdout = "", extra: Partial<Invocation> = {}): Invocation => ({
  argv,
  cwd: "/attempt/outputs",
  exit_code: 0,
  stdout,
  stderr: "",
  started_at: "",
  duration_ms: 1,
  ...extra,
});
const cli = (prefix: string[]): CliObservation => ({ id: "o", kind: "cli", description: "", command_prefix: prefix });

describe("which calls only ask for help", () => {
  it("a help flag in flag position excludes the call; a help token given as a flag's value does not", () => {
    expect(asksForHelp(["rooms", "bookings", "create", "--help"])).toBe(true);
    expect(asksForHelp(["rooms", "bookings", "create", "-h"])).toBe(true);
    expect(asksForHelp(["rooms", "bookings", "cancel", "--yes", "-h"])).toBe(true);
    expect(asksForHelp(["rooms", "bookings", "list", "--no-retry", "-h"])).toBe(true);
    expect(asksForHelp(["rooms", "bookings", "create", "--title", "-h"])).toBe(false);
    expect(asksForHelp(["rooms", "bookings", "create", "--title", "--help"])).toBe(false);
    expect(asksForHelp(["rooms", "bookings", "create", "--title=x", "--help"])).toBe(true);
    // Every flag the runtime knows takes no value is known here: `--describe --help` only asks for help.
    expect(asksForHelp(["rooms", "bookings", "list", "--describe", "--help"])).toBe(true);
  });

  it("a destructive call hidden behind a help value is observed and judged", () => {
    const obs = observe(
      cli(["rooms", "bookings", "cancel"]),
      [call(["rooms", "bookings", "cancel", "--booking-id", "bk_1", "--reason", "-h"], '{"result":{"id":"bk_1"}}')],
      "/nonexistent",
      true,
    );
    expect(obs.state).toBe("available");
  });
});

describe("numbers compared without precision loss", () => {
  it("two integers beyond 2^53 that JSON.parse would make equal stay different", () => {
    const observations = new Map([
      ["o", observe(cli(["x"]), [call(["x"], '{"result":{"id":9007199254740993}}')], "/nonexistent", true)],
    ]);
    const check = (expected: unknown) =>
      judgeCheck(
        {
          id: "c",
          type: "field_equals",
          description: "",
          source: { observation_id: "o", field: ["stdout", "result", "id"] },
          expected,
        },
        observations,
      );
    expect(check(parseLossless("9007199254740992")).status).toBe("fail");
    expect(check(parseLossless("9007199254740993")).status).toBe("pass");
    expect(check("9007199254740993").status).toBe("fail");
    expect(JSON.parse(JSON.stringify(check(parseLossless("9007199254740993")).observed))).toBe("9007199254740993");
  });

  it("ordinary JSON parses exactly as JSON.parse does, strings with digits untouched", () => {
    const text = '{"a":[1,2.5,-3e2],"b":"12345678901234567890","c":{"d":null,"e":true}}';
    expect(parseLossless(text)).toEqual(JSON.parse(text));
    expect(() => parseLossless("{bad")).toThrow(SyntaxError);
  });
});

describe("a call cut off by the end of the attempt", () => {
  it("makes its observation truncated, and every check on it incomplete", () => {
    const obs = observe(
      cli(["rooms", "bookings", "create"]),
      [call(["rooms", "bookings", "create"], "", { exit_code: null, signal: "SIGKILL", truncated: true })],
      "/nonexistent",
      true,
    );
    expect(obs.state).toBe("truncated");
    expect(
      judgeCheck({ id: "c", type: "command_success", description: "", observation_id: "o" }, new Map([["o", obs]]))
        .status,
    ).toBe("incomplete");
  });
});

describe("redaction", () => {
  it("replaces the credential as is, in base64, base64url and URL-encoded", () => {
    const secret = "s3cr3t/key+value=";
    const redact = redactor([secret]);
    const text = [
      secret,
      Buffer.from(secret).toString("base64"),
      Buffer.from(secret).toString("base64url"),
      encodeURIComponent(secret),
    ].join(" | ");
    expect(redact(text)).toBe("[REDACTED] | [REDACTED] | [REDACTED] | [REDACTED]");
    // A secret too short to cut from inside words is still cut where it stands alone (core/redact.ts).
    expect(redactor(["ab"])("ab cd abc")).toBe("[REDACTED] cd abc");
  });
});

describe("redacting what an agent left in its HOME", () => {
  it("rewrites files that hold a secret, leaves others and never follows a link out", () => {
    const home = tempDir("inter-redact-");
    const outside = tempDir("inter-redact-outside-");
    mkdirSync(join(home, ".claude/projects"), { recursive: true });
    writeFileSync(join(home, ".claude/projects/session.jsonl"), '{"apiKey":"sk-agent-secret-123"}\n');
    writeFileSync(join(home, "notes.txt"), "nothing here");
    writeFileSync(join(outside, "keep.txt"), "sk-agent-secret-123");
    symlinkSync(join(outside, "keep.txt"), join(home, "link.txt"));
    redactTree(home, redactor(["sk-agent-secret-123"]));
    expect(readFileSync(join(home, ".claude/projects/session.jsonl"), "utf8")).toBe('{"apiKey":"[REDACTED]"}\n');
    expect(readFileSync(join(home, "notes.txt"), "utf8")).toBe("nothing here");
    expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("sk-agent-secret-123");
  });
});
