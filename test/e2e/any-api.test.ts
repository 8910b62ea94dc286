import { execa, type ResultPromise } from "execa";
import { cpSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inter, makeProject, REPO, tempDir } from "../helpers.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";
import type { Receipt } from "../../src/stages/inspect/receipt.js";
import type { HelpCommand, HelpParameter } from "../../src/stages/inspect/subjects.js";

/**
 * A second product nobody tuned the designer to: a Swagger 2.0 library API under basePath /v1, served by a server that
 * answers 404 outside /v1, paging in four styles (test/products/library/server.mjs).
 */
const FIXTURE = join(REPO, "test/products/library");
const KEY = "library-demo-key";

/** A library CLI's stdout, as the tests read it: an answer's envelope, or a command's help. */
interface LibraryAnswer {
  result: unknown;
  page: { has_more: boolean; total?: number; pages?: number };
  command: { parameters: HelpParameter[] };
}

async function startLibrary(): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ResultPromise = execa("node", [join(FIXTURE, "server.mjs"), "--port", "0"], {
    env: { LIBRARY_SERVER_KEY: KEY },
    reject: false,
    buffer: false,
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("library API did not start within 60 s")), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return { url, stop: async () => void (child.kill("SIGTERM"), await child) };
}

describe("a second product: Swagger 2.0, basePath /v1, page numbers, offsets, Link headers, next URLs", () => {
  let dir: string;
  let built: Awaited<ReturnType<typeof inter>>;
  let api: Awaited<ReturnType<typeof startLibrary>>;
  let bin: string;
  const cli = async (args: string[], env: Record<string, string> = {}) => {
    const r = await execa(bin, args, {
      env: { LIBRARY_API_KEY: KEY, LIBRARY_BASE_URL: api.url, ...env },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    // undefined when stdout is not JSON: the tests read it only from commands that answer.
    let json: LibraryAnswer | undefined;
    try {
      json = JSON.parse(r.stdout);
    } catch {
      json = undefined;
    }
    return {
      exitCode: r.exitCode,
      stdout: r.stdout,
      stderr: r.stderr,
      json: json!,
      error: r.stderr ? JSON.parse(r.stderr) : undefined,
    };
  };

  beforeAll(async () => {
    dir = makeProject({});
    cpSync(FIXTURE, dir, { recursive: true });
    built = await inter(dir, ["build", "--json"], { LIBRARY_API_KEY: KEY });
    const prefix = tempDir("inter-library-");
    await execa("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      prefix,
      join(dir, "dist/cli.tgz"),
    ]);
    bin = join(prefix, "node_modules/.bin/library");
    api = await startLibrary();
  });
  afterAll(async () => api?.stop());

  it("certifies Agent-Native, its API probes reaching the service under /v1", () => {
    expect(built.exitCode, built.stdout).toBe(0);
    const receipt: Receipt = JSON.parse(readFileSync(join(dir, "dist/receipt.json"), "utf8"));
    expect(receipt.certification).toEqual({ level: "Agent-Native", blocking: [] });
    expect(receipt.api).toEqual({ probed: true, baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/) });
    // The not-found probe used an id that passes the flag's pattern, so it reached the API and got its 404.
    expect(receipt.rules.find((r) => r.id === "X6")).toMatchObject({
      status: "pass",
      evidence: [
        expect.objectContaining({
          command: expect.stringMatching(/^library books get --book-id bk_9+$/),
          exitCode: 20,
        }),
      ],
    });
  });

  it("links each Skill to the commands its task needs, with reasons: returning a book never links the lending command", () => {
    const caps: Capabilities = JSON.parse(readFileSync(join(dir, "dist/capabilities.json"), "utf8"));
    const skill = (name: string) => caps.skills.find((s) => s.name === name)!;
    expect(skill("find-available-books-by-an-author").commands[0]).toBe("books search");
    expect(skill("find-available-books-by-an-author").commands).not.toContain("loans lend");
    expect(skill("lend-a-book").commands).toEqual(["loans lend"]);
    // The return, then the list that finds the loan's id it takes (apart in SKILL.md: "Finding the ids").
    expect(skill("return-a-book").commands).toEqual(["loans record-return", "loans list"]);
    expect(skill("return-a-book").finders).toEqual(["loans list"]);
    expect(skill("return-a-book").links.find((l) => l.command === "loans lend")?.linked ?? false).toBe(false);
    expect(skill("return-a-book").links[0]).toMatchObject({
      command: "loans record-return",
      linked: true,
      reason: expect.stringContaining("return (the action)"),
    });
    // "**Relevant rules or constraints:**" is a rules label; "Notes:" is not understood and says so.
    expect(skill("lend-a-book").rules).toEqual(["a loan lasts at most 30 days; ask the member how long they need it."]);
    const warnings = built.json.data.tasks.flatMap((t: TaskOutcome) => t.warnings ?? []);
    expect(warnings).toContainEqual(
      expect.stringContaining('the part labelled "Notes" is not a situation, outcome or rules label'),
    );
    expect(caps.baseUrl).toEqual({ default: "https://library.example.com/v1", env: "LIBRARY_BASE_URL", path: "/v1" });
  });

  it("says has_more and keeps total for page numbers, offsets, Link headers and next URLs, and --all follows each", async () => {
    const cases: Array<[string[], number, object, number]> = [
      [["books", "search", "--per-page", "2"], 2, { has_more: true, total: 5 }, 5],
      [["members", "list", "--limit", "10"], 10, { has_more: true, total: 25 }, 25],
      [["authors", "list", "--per-page", "3"], 3, { has_more: true, total: 7 }, 7],
      [["events", "list", "--size", "3"], 3, { has_more: true }, 7],
    ];
    for (const [args, first, page, all] of cases) {
      const one = await cli(args);
      expect(one.json.result, args.join(" ")).toHaveLength(first);
      expect(one.json.page, args.join(" ")).toEqual(page);
      const every = await cli([...args, "--all"]);
      expect(every.json.result, `${args.join(" ")} --all`).toHaveLength(all);
      expect(every.json.page.has_more).toBe(false);
      expect(every.json.page.pages).toBe(3);
    }
    const last = await cli(["books", "search", "--per-page", "2", "--page", "3"]);
    expect(last.json.page).toEqual({ has_more: false, total: 5 });
    const bounded = await cli(["members", "list", "--limit", "5", "--all", "--max-pages", "2"]);
    expect(bounded.json.result).toHaveLength(10);
    expect(bounded.json.page).toEqual({ has_more: true, total: 25, pages: 2 });
  });

  it("checks the document's limits before any request, and lists them in help", async () => {
    // A dead base URL: any request would be NETWORK_ERROR, so VALIDATION_ERROR proves nothing was sent.
    const dead = { LIBRARY_BASE_URL: "http://127.0.0.1:9/v1" };
    const tooLong = await cli(["loans", "lend", "--book-id", "bk_4", "--member-id", "mem_03", "--days", "40"], dead);
    expect(tooLong.exitCode).toBe(2);
    expect(tooLong.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { flag: "days", value: 40, bound: { maximum: 30 } },
    });
    expect(tooLong.error.message).toBe("--days must be at most 30 (got 40).");
    expect((await cli(["loans", "lend", "--book-id", "book-4", "--member-id", "mem_03"], dead)).error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { flag: "book-id", bound: { pattern: "^bk_[0-9]+$" } },
    });
    expect((await cli(["loans", "lend", "--book-id", "bk_4", "--member-id", "m"], dead)).error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { flag: "member-id", bound: { minLength: 3 } },
    });
    expect((await cli(["books", "search", "--per-page", "0"], dead)).error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { bound: { minimum: 1 } },
    });
    const help = await cli(["loans", "lend", "--help"]);
    expect(help.json.command.parameters.find((p) => p.name === "--days")).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 30,
      default: 14,
      description: expect.stringContaining("from 1 to 30"),
    });
    expect(help.json.command.parameters.find((p) => p.name === "--book-id")).toMatchObject({
      pattern: "^bk_[0-9]+$",
    });
    const lent = await cli(["loans", "lend", "--book-id", "bk_4", "--member-id", "mem_03", "--days", "30"]);
    expect(lent.json.result).toMatchObject({ book_id: "bk_4", days: 30, status: "active" });
  });

  it("reaches the API only under its base path: the server refuses the bare origin, the CLI at /v1 works", async () => {
    const bare = await cli(["books", "get", "--book-id", "bk_1"], { LIBRARY_BASE_URL: new URL(api.url).origin });
    expect(bare.exitCode).toBe(20);
    expect(bare.error.message).toContain("the API is under /v1");
    expect(((await cli(["books", "get", "--book-id", "bk_1"])).json.result as { title: string }).title).toBe(
      "A Wizard of Earthsea",
    );
  });

  it("ends quietly when a reader closes stdout early (| head)", async () => {
    const piped = await execa("sh", ["-c", `"${bin}" books search --all | head -c 10`], {
      env: { LIBRARY_API_KEY: KEY, LIBRARY_BASE_URL: api.url, PATH: process.env.PATH! },
      reject: false,
    });
    expect(piped.stdout).toBe('{"ok":true');
    expect(piped.stderr).toBe("");
    expect(piped.exitCode).toBe(0);
    const big = await execa("sh", ["-c", `"${bin}" --describe | head -c 1`], { reject: false });
    expect(big.stderr).toBe("");
  });

  it("passes its golden evaluation against the server that enforces /v1", async () => {
    const run = await inter(dir, ["run", "eval", "--json"], { LIBRARY_API_KEY: KEY });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, "dist/eval/results.json"), "utf8"));
    expect(results.summary).toMatchObject({ passed: 3, failed: 0 });
  });

  it("inspects again when the service's script changes, and not otherwise", async () => {
    const again = await inter(dir, ["build", "--json"], { LIBRARY_API_KEY: KEY });
    expect(again.json.data.tasks.find((t: TaskOutcome) => t.id === "inspect").status).toBe("cached");
    writeFileSync(join(dir, "server.mjs"), `${readFileSync(join(dir, "server.mjs"), "utf8")}\n// changed\n`);
    const changed = await inter(dir, ["build", "--json"], { LIBRARY_API_KEY: KEY });
    const inspect = changed.json.data.tasks.find((t: TaskOutcome) => t.id === "inspect");
    expect(inspect.status).toBe("ran");
    expect(inspect.reasons).toContain("input server.mjs modified");
  });
});

describe("the spec's own shapes, read from outside the way a checker reads them (the example candidate)", () => {
  let bin: string;
  beforeAll(async () => {
    const { exampleProject, buildAndInstall } = await import("./example-api.js");
    bin = (await buildAndInstall(exampleProject({ warm: true }))).bin;
  });
  const run = (args: string[]) => execa(bin, args, { reject: false, stdin: "ignore", env: { ROOMS_API_KEY: "x" } });

  it("answers {ok, result, rules, skills, issue}; --version with a top-level version; a group alone is MISSING_COMMAND", async () => {
    const skills = JSON.parse((await run(["skills"])).stdout);
    expect(Object.keys(skills)).toEqual(["ok", "result", "rules", "skills", "issue"]);
    expect(Array.isArray(skills.result)).toBe(true);
    const version = JSON.parse((await run(["--version"])).stdout);
    expect(version.version).toMatch(/^\d+\.\d+\.\d+$/);
    const group = await run(["bookings"]);
    expect(group.exitCode).toBe(2);
    expect(JSON.parse(group.stderr)).toMatchObject({
      error: true,
      code: "MISSING_COMMAND",
      details: { commands: expect.arrayContaining(["bookings create"]) },
    });
    expect(JSON.parse((await run(["issue"])).stderr).code).toBe("MISSING_COMMAND");
    const typo = JSON.parse((await run(["bokings", "list"])).stderr);
    expect(typo).toMatchObject({ code: "UNKNOWN_COMMAND", details: { suggestions: ["bookings"] } });
  });

  it("--describe gives every command's typed parameters, safety, output schema and exit codes", async () => {
    const d = JSON.parse((await run(["--describe"])).stdout);
    expect(d).toMatchObject({ name: "rooms", version: "0.1.0" });
    const cancel = d.commands.find((c: HelpCommand) => c.name === "bookings cancel");
    expect(cancel).toMatchObject({
      destructive: true,
      permission: "delete",
      parameters: [expect.objectContaining({ name: "--booking-id", type: "string", required: true })],
    });
    expect(cancel.exitCodes).toEqual(expect.arrayContaining([0, 2, 10, 20, 30]));
    expect(cancel.errors).toContainEqual({ code: "CONFIRMATION_REQUIRED", exitCode: 2 });
    const list = d.commands.find((c: HelpCommand) => c.name === "rooms list");
    expect(list.output).toBe("array");
    expect(list.outputSchema).toMatchObject({
      type: "array",
      items: { type: "object", properties: expect.objectContaining({ id: expect.any(Object) }) },
    });
    for (const c of d.commands)
      for (const p of c.parameters)
        expect(typeof p.type === "string" && typeof p.required === "boolean", `${c.name} ${p.name}`).toBe(true);
    const scoped = JSON.parse((await run(["bookings", "--describe"])).stdout);
    expect(scoped.commands.every((c: HelpCommand) => c.name.startsWith("bookings "))).toBe(true);
  });

  it("keeps agent/, AGENTS.md and CHANGELOG.md beside the resolved executable", () => {
    const home = dirname(realpathSync(bin));
    for (const file of [
      "agent/brief.md",
      "agent/rules/trigger.md",
      "agent/rules/workflow.md",
      "agent/rules/writeback.md",
      "AGENTS.md",
      "CHANGELOG.md",
    ]) {
      expect(readFileSync(join(home, file), "utf8").length, file).toBeGreaterThan(10);
    }
  });
});
