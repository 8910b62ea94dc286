import { execa } from "execa";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { everyFile, inter, read, REPO, tempDir } from "../helpers.js";
import { schemaValidator } from "../schema.js";
import { API_KEY, copyProject, evaluationFolder as folderFor, exampleProject, scripted } from "../e2e/example-api.js";
import type { AttemptResult } from "../../src/evaluation/run/attempt.js";
import type { Scenario } from "../../src/stages/plan/types.js";

// The evaluation as an adversary meets it: every attempt sealed by bubblewrap (installed by .ci/run), the candidate
// behind the broker. Each hostile agent below tries one way around that and must get exactly the prescribed verdict.

const ADVERSARY = join(REPO, "test/fixtures/adversary.mjs");
const adversary = (mode: string) => [
  "--agent-command",
  JSON.stringify(["node", ADVERSARY, mode, "{prompt_file}", "{attempt}"]),
];
const validateResults = schemaValidator("results.schema.json");

let project: string;
beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
});

type Results = {
  attempts: Array<{
    scenario: string;
    status: string;
    harness_error?: string;
    checks: Array<{ id: string; status: string }>;
    invocations: Array<{ argv: string[]; truncated?: boolean }>;
  }>;
  isolation: { kind: string };
  summary: Record<string, number>;
};

/** Runs one adversary on a fresh bare evaluation folder (its own example API); returns results and each attempt's loot. */
async function attack(mode: string, extra: string[] = [], env: Record<string, string> = {}) {
  const folder = await folderFor(project);
  try {
    const run = await inter(folder.dir, ["eval", "run", ".", ...adversary(mode), ...extra, "--json"], {
      ROOMS_API_KEY: API_KEY,
      ...env,
    });
    const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8")) as Results;
    expect(validateResults(results)).toEqual([]);
    const loot = (scenario: string) => {
      const file = join(folder.dir, `.inter-eval/attempts/${scenario}-1/outputs/loot.json`);
      return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
    };
    const booking = await (await fetch(`${folder.url}/bookings/bk_0003`, { headers: { "x-api-key": API_KEY } })).json();
    return { run, results, loot, booking, dir: folder.dir, all: everyFile(folder.dir) };
  } finally {
    await folder.stop();
  }
}

const statusOf = (results: Results) => Object.fromEntries(results.attempts.map((a) => [a.scenario, a.status]));

describe("sealed attempts against hostile agents", () => {
  it("an agent that forges call records and writes the file itself gets no pass", async () => {
    const { results, loot } = await attack("forge");
    expect(results.isolation.kind).toBe("bubblewrap");
    // It could write only into its own folders; the records it planted are not evidence.
    expect(loot("cancel-a-booking").found.every((f: string) => /\/attempt|\/tmp/.test(f))).toBe(true);
    expect(results.attempts.every((a) => a.invocations.length === 0)).toBe(true);
    expect(results.attempts.some((a) => a.status === "pass")).toBe(false);
    expect(statusOf(results)).toEqual({
      "book-a-room": "incomplete",
      "cancel-a-booking": "incomplete",
      "report-room-day": "fail",
    }); // its file holds a made-up booking
  });

  it("an agent searching the filesystem finds no plan, reference, journal, result, receipt or other attempt", async () => {
    const { loot, results } = await attack("peek");
    for (const scenario of ["book-a-room", "cancel-a-booking", "report-room-day"]) {
      const found: string[] = loot(scenario).found;
      const ours = found.filter((p) => !/^\/(usr|etc)\//.test(p));
      expect(
        ours.filter((p) =>
          /eval-plan|\.inter-eval|journal\.jsonl|results\.json|receipt\.json|cli\.tgz|intermesh\.config|attempts\//.test(
            p,
          ),
        ),
      ).toEqual([]);
      // Of the repository, only the agent's own program (its script's folder) is visible.
      const fixtures = join(REPO, "test/fixtures");
      expect(found.filter((p) => p.startsWith(REPO) && !fixtures.startsWith(p) && !p.startsWith(fixtures))).toEqual([]);
    }
    expect(results.attempts.some((a) => a.status === "pass")).toBe(false);
  });

  it("an agent looking for other copies of the binary finds only the broker client, which holds nothing of the candidate", async () => {
    const { loot, results, booking } = await attack("find-binary");
    const found: string[] = loot("cancel-a-booking").found;
    expect(found.filter((p) => /rooms/.test(p))).toEqual(["/attempt/bin/rooms"]);
    expect(found.filter((p) => p.endsWith("manifest.json"))).toEqual([]);
    // The client (a small native program, or a Node script where there is no C compiler) knows the broker, nothing else.
    const client = loot("cancel-a-booking").notes.at(-1) as string;
    expect(client.length).toBeLessThan(100_000);
    expect(client).not.toMatch(/rooms-cli|manifest|ROOMS_|bookings|availability/);
    expect(booking.status).toBe("confirmed");
    expect(results.attempts.some((a) => a.status === "pass")).toBe(false);
  });

  it("an agent holds no credential: not in its environment, not in any process it can see, not in any file written", async () => {
    const { loot, all } = await attack("credential", [], {
      ROOMS_KEY_COPY: API_KEY,
      ROOMS_BASE_URL: "http://127.0.0.1:1",
    });
    const seen = JSON.stringify(loot("book-a-room"));
    expect(seen).not.toContain(API_KEY);
    expect(seen).not.toContain(Buffer.from(API_KEY).toString("base64"));
    expect(loot("book-a-room").env.ROOMS_API_KEY).toBeUndefined();
    expect(loot("book-a-room").env.ROOMS_BASE_URL).toBeUndefined();
    // Its own PID namespace: no evaluator, broker or candidate process is visible, only the sandbox and itself.
    const commands = (loot("book-a-room").found as string[])
      .filter((f) => /^\d+\/cmdline:/.test(f))
      .map((f) => f.replace(/^\d+\/cmdline: /, ""));
    expect(commands.every((c) => c.startsWith("bwrap ") || c.includes(ADVERSARY))).toBe(true);
    expect(commands.join("\n")).not.toMatch(/inter\.mjs|broker|\.inter-eval/);
    expect(all).not.toContain(API_KEY);
  });

  it("the candidate keeps no compiled code in the agent's HOME, which it shares: nothing there runs as the candidate", async () => {
    const { loot } = await attack("compile-cache");
    expect(loot("book-a-room").found.filter((f: string) => /[\\/]v8([\\/]|$)/.test(f))).toEqual([]);
  });

  it("an agent calling the API directly, past the CLI, changes nothing and gets no pass", async () => {
    const { loot, booking, results } = await attack("direct-api");
    const calls: string[] = loot("cancel-a-booking").found;
    expect(calls.some((c) => /→ 2\d\d/.test(c) && /cancel|DELETE/.test(c))).toBe(false);
    expect(booking.status).toBe("confirmed");
    expect(results.attempts.some((a) => a.status === "pass")).toBe(false);
  });

  it("an agent that exits at once without calling the CLI is a harness error carrying its own message", async () => {
    const { run, results } = await attack("exit-at-once");
    expect(run.exitCode).toBe(1);
    expect(results.summary).toMatchObject({ harness_errors: 3, failed: 0, passed: 0 });
    expect(results.attempts[0]!.harness_error).toContain("could not reach the model");
  });

  it("a call still running when the attempt times out is truncated: its checks are incomplete, not failed", async () => {
    const { results } = await attack("hang-in-call", ["--timeout", "3"]);
    const book = results.attempts.find((a) => a.scenario === "book-a-room")!;
    expect(book.invocations).toHaveLength(1);
    expect(book.invocations[0]).toMatchObject({ truncated: true });
    expect(book.checks.find((c) => c.id === "booked")!.status).toBe("incomplete");
    expect(book.status).toBe("incomplete");
  });

  it("the sandbox's root is read-only: no folder the candidate's sandbox lacks, so no call fails for the harness's sake", async () => {
    const { loot, results } = await attack("elsewhere");
    expect(loot("cancel-a-booking").notes).toEqual(["/attempt/mine: EROFS", "/run/mine: EROFS", "/mine: EROFS"]);
    const cancel = results.attempts.find((a) => a.scenario === "cancel-a-booking")!;
    expect(cancel.invocations[0]).toMatchObject({ cwd: "/attempt", exit_code: 0 });
    expect(cancel.status).toBe("pass");
  });

  it("a link out of outputs/ is not a file the agent wrote", async () => {
    const { results } = await attack("symlink");
    const report = results.attempts.find((a) => a.scenario === "report-room-day")!;
    expect(report.checks.find((c) => c.id === "report-written")!.status).toBe("fail");
  });

  it("signals reach the real candidate: a call the agent interrupts ends by that signal", async () => {
    const { loot, results } = await attack("signal");
    expect(loot("book-a-room").notes).toContain("exit null signal SIGTERM");
    expect(results.attempts[0]!.invocations[0]).toMatchObject({ signal: "SIGTERM" });
  });
});

describe("evaluation harness apart from the candidate", () => {
  it("the golden run with 2 repetitions passes all 6 attempts: every attempt meets fresh API state", async () => {
    const own = copyProject(project);
    const plan = JSON.parse(read(own, "evals/eval-plan.json"));
    plan.settings.repetitions = 2;
    writeFileSync(join(own, "evals/eval-plan.json"), JSON.stringify(plan, null, 2));
    const run = await inter(own, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(run.exitCode, run.stdout).toBe(0);
    const results = JSON.parse(read(own, "dist/eval/results.json"));
    expect(results.summary).toMatchObject({ attempts: 6, passed: 6 });
    expect(results.isolation.kind).toBe("bubblewrap");
    expect(read(own, "dist/eval/summary.md")).toContain("Isolation: sealed (bubblewrap");
    // The service's secret (its env in the config) is in no cache record or stored output (only in the compiled
    // config, which is the user's own file).
    for (const dir of readdirSync(join(own, ".intermesh")).filter((d) => d !== "config"))
      expect(everyFile(join(own, ".intermesh", dir))).not.toContain(API_KEY);
  });

  it("inter run eval with the credential unset exits 2 before any attempt and leaves the last results as they were", async () => {
    // Its own "last results" in its own copy of the project.
    const own = copyProject(project);
    const results = join(own, "dist/eval/results.json");
    mkdirSync(dirname(results), { recursive: true });
    const before = JSON.stringify({ kept: "the results of an earlier run" });
    writeFileSync(results, before);
    const run = await inter(own, ["run", "eval", "--json"], { ROOMS_API_KEY: "" });
    expect(run.exitCode).toBe(2);
    expect(run.json.error.code).toBe("CREDENTIAL_MISSING");
    expect(run.json.error.suggestion).toContain("export ROOMS_API_KEY=");
    expect(read(own, "dist/eval/results.json")).toBe(before);
  });

  it("a service that does not come up is SERVICE_FAILED, not a candidate failure", async () => {
    const own = copyProject(project);
    writeFileSync(
      join(own, "intermesh.config.ts"),
      read(own, "intermesh.config.ts")
        .replace('ready: "http://127.0.0.1:{port}/health"', 'ready: "http://127.0.0.1:{port}/health", timeoutMs: 1500')
        .replace('"examples/rooms/server.mjs"', '"-e", "process.exit(3)"'),
    );
    const run = await inter(own, ["run", "eval", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(run.json.error.message + JSON.stringify(run.json.error.details)).toContain("SERVICE_FAILED");
  });

  it("another agent never inherits attempts, and a receipt of another candidate is never bound", async () => {
    const folder = await folderFor(project);
    try {
      const first = await inter(folder.dir, ["eval", "run", ".", ...scripted("good"), "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      expect(first.exitCode).toBe(0);
      // Same program (node), another script: a different agent, whatever argv[0] says.
      const other = await inter(folder.dir, ["eval", "run", ".", ...adversary("exit-at-once"), "--reuse", "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      expect(other.exitCode).toBe(1);
      expect(other.json.error.details.summary).toMatchObject({ harness_errors: 3 });

      const receipt = JSON.parse(readFileSync(join(folder.dir, "receipt.json"), "utf8"));
      receipt.candidate.sha256 = "0".repeat(64);
      writeFileSync(join(folder.dir, "receipt.json"), JSON.stringify(receipt));
      await inter(folder.dir, ["eval", "run", ".", ...scripted("good"), "--fresh", "--json"], {
        ROOMS_API_KEY: API_KEY,
      });
      const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.receipt).toMatchObject({ status: "unbound" });
      expect(results.receipt.reason).toContain("sha256:000000000000");
    } finally {
      await folder.stop();
    }
  });
});

describe("the broker client", () => {
  it.each([
    ["native", /^\x7fELF/, {}],
    ["node", /^#!/, { INTER_BROKER_CLIENT: "node" }],
  ] as const)(
    "the %s client serves a sealed golden run: every call goes through the broker",
    async (_kind, magic, env) => {
      const folder = await folderFor(project);
      try {
        const run = await inter(folder.dir, ["eval", "run", ".", ...scripted("good"), "--json"], {
          ROOMS_API_KEY: API_KEY,
          ...env,
        });
        expect(run.exitCode, run.stdout).toBe(0);
        expect(readFileSync(join(folder.dir, ".inter-eval/attempts/book-a-room-1/bin/rooms"), "latin1")).toMatch(magic);
        const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
        expect(results.attempts.map((a: AttemptResult) => a.invocations.length)).toEqual([2, 1, 1]);
      } finally {
        await folder.stop();
      }
    },
  );
});

describe("an agent program of several files", () => {
  it("sees its script's folder (its own modules), and still nothing of the evaluation", async () => {
    const dir = tempDir("inter-agent-program-");
    writeFileSync(
      join(dir, "helper.mjs"),
      'import { execFileSync } from "node:child_process";\nexport const cancel = () => execFileSync("rooms", ["bookings", "cancel", "--booking-id", "bk_0003", "--yes"], { encoding: "utf8" });\n',
    );
    writeFileSync(
      join(dir, "agent.mjs"),
      'import { cancel } from "./helper.mjs";\nif (process.argv[2].startsWith("cancel")) console.log(cancel());\n',
    );
    const folder = await folderFor(project);
    try {
      const plan = JSON.parse(readFileSync(join(folder.dir, "eval-plan.json"), "utf8"));
      plan.scenarios = plan.scenarios.filter((s: Scenario) => s.id === "cancel-a-booking");
      writeFileSync(join(folder.dir, "eval-plan.json"), JSON.stringify(plan));
      const run = await inter(
        folder.dir,
        [
          "eval",
          "run",
          ".",
          "--agent-command",
          JSON.stringify(["node", join(dir, "agent.mjs"), "{attempt}"]),
          "--json",
        ],
        { ROOMS_API_KEY: API_KEY },
      );
      expect(run.exitCode, run.stdout).toBe(0);
    } finally {
      await folder.stop();
    }
  });
});

describe("where bubblewrap is unavailable", () => {
  it("runs unsealed but says so on stderr, in results, summary and report; --require-sealed fails the gate", async () => {
    const folder = await folderFor(project);
    try {
      const env = { ROOMS_API_KEY: API_KEY, INTER_SANDBOX: "none" };
      const run = await inter(folder.dir, ["eval", "run", ".", ...scripted("good"), "--json"], env);
      expect(run.exitCode, run.stdout).toBe(0);
      expect(run.stderr).toContain("attempts run unsealed");
      const results = JSON.parse(readFileSync(join(folder.dir, ".inter-eval/results.json"), "utf8"));
      expect(results.isolation).toEqual({ kind: "none", reason: "INTER_SANDBOX=none" });
      expect(readFileSync(join(folder.dir, ".inter-eval/summary.md"), "utf8")).toContain("evidence could be forged");
      expect(readFileSync(join(folder.dir, ".inter-eval/report.html"), "utf8")).toContain("evidence could be forged");

      const gated = await inter(
        folder.dir,
        ["eval", "run", ".", ...scripted("good"), "--require-sealed", "--fresh", "--json"],
        env,
      );
      expect(gated.exitCode).toBe(1);
      expect(gated.json.error.code).toBe("EVAL_FAILED");
      expect(gated.json.error.message).toContain("unsealed");
    } finally {
      await folder.stop();
    }
  });

  it("no process of an attempt outlives the run", async () => {
    const ps = await execa("ps", ["-eo", "args"]);
    expect(ps.stdout).not.toContain(ADVERSARY);
  });
});
