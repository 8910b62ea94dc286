import { describe, expect, it } from "vitest";
import { apiRefusal } from "../../src/stages/inspect/api-refusal.js";
import type { Probe } from "../../src/stages/inspect/probe.js";

const answered = (command: string, exitCode: number, code?: string): Probe => ({
  command,
  exitCode,
  stdout: code ? "" : '{"result":[]}',
  stderr: "",
  durationMs: 1,
  timedOut: false,
  ...(code ? { error: { error: true, code, message: "m", suggestion: "s" } } : { json: { result: [] } }),
});

describe("probes the API refuses are not judged", () => {
  it("a credential the API refuses names the variables to set", () => {
    expect(apiRefusal([answered("demo items list", 10, "AUTH_FAILED")], ["DEMO_TOKEN"], "http://127.0.0.1:1")).toBe(
      "the API refused the probes' calls (`demo items list` answered AUTH_FAILED): its answers are not judged; set DEMO_TOKEN to a credential the API accepts, then build again",
    );
  });

  it("a server that fails or is not there names the base URL to check", () => {
    expect(apiRefusal([undefined, answered("demo items get", 1, "NETWORK_ERROR")], [], "http://127.0.0.1:1")).toMatch(
      /answered NETWORK_ERROR.*check that the API at http:\/\/127\.0\.0\.1:1 answers/,
    );
  });

  it("an answer, or a failure that is the CLI's own, is judged", () => {
    expect(apiRefusal([answered("demo items list", 0)], ["DEMO_TOKEN"], undefined)).toBeUndefined();
    expect(apiRefusal([answered("demo items list", 2, "INVALID_VALUE")], ["DEMO_TOKEN"], undefined)).toBeUndefined();
    expect(apiRefusal([answered("demo items list", 1, "INTERNAL_ERROR")], ["DEMO_TOKEN"], undefined)).toBeUndefined();
  });
});
