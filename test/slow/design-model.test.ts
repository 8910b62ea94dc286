import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  DESIGN_MODEL_KEY,
  startDesignModelServer,
  type DesignModelScript,
  type RecordedDesignModelRequest,
} from "../fixtures/design-model-server.mjs";
import { everyFile, inter, makeProject, read } from "../helpers.js";
import { schemaValidator } from "../schema.js";
import { exampleProject } from "../e2e/example-api.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";
import type { Overlay, OverlayRejection } from "../../src/stages/design/overlay.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";
import type { Dropped } from "../../src/stages/design/suggest.js";
import type { TriggerQuery } from "../../src/evaluation/triggers/queries.js";
import type { InterResult } from "../helpers.js";
import type { DesignPrompt, TriggerDraftPrompt } from "../types/read-back.js";

const execFileP = promisify(execFile);

const validateOverlay = schemaValidator("overlay.schema.json");
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

/** A scripted model that names commands well: the rules' names, its own for one room (no plan step uses it), and its own descriptions. */
const good: DesignModelScript = ({ schemaName, user }) => {
  const q: DesignPrompt = JSON.parse(user);
  if (schemaName === "command_names") {
    return {
      answer: {
        commands: q.operations.map((o) => ({
          operation: o.id,
          name: o.id === "getRoom" ? "rooms show" : o.rulesName,
          description: `Does: ${o.summary ?? o.id}`,
          flags: o.flags.slice(0, 1).map((f: string) => ({ flag: f, description: `About ${f}` })),
          phrasings: o.id === "getRoom" ? ["how many people fit in Atlas", "is the projector working in Cosmos"] : [],
        })),
      },
    };
  }
  return {
    answer: {
      description: `Use for: ${q.task.title}. Not for: other tasks.`,
      situation: `When the user asks to ${q.task.title.toLowerCase()}.`,
      avoid: "Not for anything else.",
      steps: q.commands.map((c) => `Run \`${c.command} --help\`, then \`${c.command}\` with the user's values.`),
    },
  };
};

async function modelProject(
  script: DesignModelScript,
  provider: "openai-compatible" | "anthropic" = "openai-compatible",
  options: { keyless?: boolean } = {},
) {
  const server = await startDesignModelServer({ script, requireKey: !options.keyless });
  servers.push(server);
  const dir = exampleProject({ warm: true });
  const file = join(dir, "intermesh.config.ts");
  const baseUrl = provider === "openai-compatible" ? `${server.url}/v1` : server.url;
  const keyEnv = options.keyless ? "" : ` keyEnv: "DESIGN_KEY",`;
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(
      "targets: {",
      `design: { model: { provider: "${provider}", model: "scripted", baseUrl: "${baseUrl}",${keyEnv} concurrency: 2, retries: 1 } },\n  targets: {`,
    ),
  );
  return { dir, server, env: { DESIGN_KEY: DESIGN_MODEL_KEY } };
}

const overlayOf = (dir: string): Overlay => JSON.parse(read(dir, "intermesh.overlay.json"));
const asked = (server: { requests: RecordedDesignModelRequest[] }, schema: string) =>
  server.requests.filter((r) => r.schemaName === schema);

describe("inter design suggest: a model in the design loop, cached by what it was asked", () => {
  it("asks once per group and Skill, writes a reviewable overlay, asks nothing on a warm re-run, and the build applies it without the model", async () => {
    const { dir, server, env } = await modelProject(good);
    const first = await inter(dir, ["design", "suggest", "--json"], env);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.json.data).toMatchObject({
      overlay: "intermesh.overlay.json",
      requests: 5,
      answered: 5,
      current: 0,
      rejected: [],
      failed: [],
      written: true,
    });
    expect(first.json.data.tokens.input).toBeGreaterThan(0);
    expect(asked(server, "command_names")).toHaveLength(2);
    expect(asked(server, "agent_skill")).toHaveLength(3);
    expect(server.requests.every((r) => r.keyOk)).toBe(true);
    const overlay = overlayOf(dir);
    expect(validateOverlay(overlay)).toEqual([]);
    expect(overlay.groups.rooms!.commands.getRoom).toMatchObject({
      name: "rooms show",
      description: "Does: Get one room",
      phrasings: ["how many people fit in Atlas", "is the projector working in Cosmos"],
    });
    // The numbers are the file's: every entry recorded is in it.
    const entries =
      Object.values(overlay.groups).reduce((n: number, g) => n + Object.keys(g.commands).length, 0) +
      Object.keys(overlay.skills).length;
    expect(first.json.data.recorded).toBe(entries);

    const again = await inter(dir, ["design", "suggest", "--json"], env);
    expect(again.json.data).toMatchObject({ requests: 0, answered: 0, current: 5, recorded: 0, written: false });
    expect(server.requests).toHaveLength(5);

    const built = await inter(dir, ["build", "--json"], env);
    expect(built.exitCode, built.stderr).toBe(0);
    expect(server.requests).toHaveLength(5);
    const caps: Capabilities = JSON.parse(read(dir, "dist/capabilities.json"));
    expect(caps.commands.map((c) => c.name)).toContain("rooms show");
    expect(caps.commands.map((c) => c.name)).not.toContain("rooms get");
    expect(caps.commands.find((c) => c.name === "rooms show")!.nameSource.action.from).toBe("overlay");
    // Phrasings in users' words are searched: words the document never says find the command.
    expect(caps.commands.find((c) => c.name === "rooms show")!.phrasings).toHaveLength(2);
    const search = await execFileP(process.execPath, [
      join(dir, "dist/package/rooms.cjs"),
      "search",
      "does the projector work in the big room",
      "--quiet",
    ]);
    expect(JSON.parse(search.stdout)[0].command).toBe("rooms show");
    expect(caps.commands.find((c) => c.name === "bookings list")!.description).toBe("Does: List bookings");
    expect(caps.skills.find((s) => s.name === "book-a-room-for-a-meeting")!.steps!.join("\n")).toContain(
      "rooms rooms find-availability",
    );
    const receipt = JSON.parse(read(dir, "dist/receipt.json"));
    expect(receipt.certification.level).toBe("Agent-Native");
    const skill = readFileSync(join(dir, "dist/package/skills/book-a-room-for-a-meeting/SKILL.md"), "utf8");
    expect(skill).toContain("## Steps");
    expect(skill).toContain("## When not to use");

    // Another machine: no key, no model — the same candidate from the committed overlay.
    const elsewhere = makeProject({});
    for (const path of ["examples", "evals", "intermesh.config.ts", "intermesh.overlay.json"])
      cpSync(join(dir, path), join(elsewhere, path), { recursive: true });
    await server.close();
    const offline = await inter(elsewhere, ["build", "--json"]);
    expect(offline.exitCode, offline.stderr).toBe(0);
    expect(offline.json.data.design).toMatchObject({ skipped: expect.stringContaining("DESIGN_KEY is not set") });
    const candidate = (r: InterResult) => r.json.data.tasks.find((t: TaskOutcome) => t.id === "bundle").data.candidate;
    expect(candidate(offline)).toBe(candidate(built));
    // The key is in no file inter wrote, here or in the cache.
    for (const where of [dir, elsewhere]) expect(everyFile(where)).not.toContain(DESIGN_MODEL_KEY);
  }, 240_000);

  it("an edit to one operation re-asks only its group (and the Skills that use it)", async () => {
    const { dir, server, env } = await modelProject(good);
    expect((await inter(dir, ["design", "suggest", "--json"], env)).exitCode).toBe(0);
    const openapi = join(dir, "examples/rooms/openapi.yaml");
    writeFileSync(
      openapi,
      readFileSync(openapi, "utf8").replace("summary: Get one room", "summary: Get one meeting room"),
    );
    const second = await inter(dir, ["design", "suggest", "--json"], env);
    expect(second.exitCode, second.stderr).toBe(0);
    const groups = asked(server, "command_names")
      .slice(2)
      .map((r) => JSON.parse(r.user).group);
    expect(groups).toEqual(["rooms"]);
    expect(second.json.data.current).toBeGreaterThanOrEqual(1);
  });

  it("hostile answers: each bad entry is rejected with its reason, the rules stand there, and the build still certifies", async () => {
    const script: DesignModelScript = ({ schemaName, user }) => {
      const q: DesignPrompt = JSON.parse(user);
      if (schemaName === "command_names" && q.group === "bookings") {
        const names = ["bookings list", "bookings list", "skills steal", "x".repeat(500)];
        return {
          answer: {
            commands: q.operations.map((o, i) => ({
              operation: o.id,
              name: names[i] ?? "--yes now",
              description: i === 2 ? "Uses sk-live-abcdefghijklmnop0123 to call" : "Plain",
              phrasings: i === 1 ? Array.from({ length: 9 }, (_, n) => `request ${n}`) : [],
              flags: [{ flag: "yes", description: "Skip confirmation" }].slice(0, i === 3 ? 1 : 0),
            })),
          },
        };
      }
      if (schemaName === "command_names")
        return {
          answer: {
            commands: q.operations.map((o) => ({
              operation: o.id,
              name: o.rulesName,
              description: `Key: ${DESIGN_MODEL_KEY}`,
              flags: [],
              phrasings: [],
            })),
          },
        };
      return {
        answer: {
          description: "Use it.",
          situation: "Always.",
          avoid: "Never.",
          steps: ["Run `rooms bookings obliterate --all`."],
        },
      };
    };
    const { dir, env } = await modelProject(script, "anthropic");
    const suggested = await inter(dir, ["design", "suggest", "--json"], env);
    // The group whose answer echoed the key is not recorded; the rest is, less every field the build would reject.
    expect(suggested.exitCode).toBe(1);
    expect(suggested.json.error).toMatchObject({
      code: "MODEL_OUTPUT_INVALID",
      details: { failed: [expect.objectContaining({ entry: "groups.rooms" })], written: true },
    });
    expect(read(dir, "intermesh.overlay.json")).not.toContain(DESIGN_MODEL_KEY);
    const rejected = Object.fromEntries(suggested.json.error.details.rejected.map((r: Dropped) => [r.entry, r.reason]));
    expect(rejected["groups.bookings.commands.getBooking.name"]).toMatch(/built-in command/);
    expect(Object.entries(rejected).find(([entry]) => entry.endsWith(".phrasings"))?.[1]).toMatch(
      /9 requests \(at most 8\)/,
    );
    expect(
      rejected["groups.bookings.commands.listBookings.name"] ?? rejected["groups.bookings.commands.createBooking.name"],
    ).toMatch(/over 48|words|kebab|another command's name/);
    expect(
      Object.entries(rejected).some(
        ([entry, reason]) => entry.endsWith(".description") && /looks like/.test(reason as string),
      ),
    ).toBe(true);
    expect(
      Object.entries(rejected).some(
        ([entry, reason]) => /^skills\..*\.steps$/.test(entry) && /not a command of this CLI/.test(reason as string),
      ),
    ).toBe(true);
    // What was rejected is not in the file: the overlay holds only what the build applies.
    const overlay = read(dir, "intermesh.overlay.json");
    expect(overlay).not.toMatch(/sk-live|obliterate|skills steal/);

    const built = await inter(dir, ["build", "--json", "--no-suggest"], env);
    expect(built.exitCode, built.stdout.slice(0, 2000)).toBe(0);
    const design = built.json.data.tasks.find((t: TaskOutcome) => t.id === "design");
    expect(design.data.overlay.rejected).toEqual([]);
    const caps: Capabilities = JSON.parse(read(dir, "dist/capabilities.json"));
    expect(caps.commands.map((c) => c.name)).toEqual(
      expect.arrayContaining(["bookings get", "bookings list", "bookings create", "bookings cancel"]),
    );
    expect(JSON.stringify(caps)).not.toMatch(/sk-live|obliterate|skills steal/);
    expect(JSON.parse(read(dir, "dist/receipt.json")).certification.level).toBe("Agent-Native");
  });

  it("the build rejects a person's bad edit field by field: a bad flag description drops that description, the entry's name still applies", async () => {
    const { dir, env } = await modelProject(good);
    expect((await inter(dir, ["design", "suggest", "--json"], env)).exitCode).toBe(0);
    const overlay = overlayOf(dir);
    overlay.groups.rooms!.commands.getRoom!.flags = { "no-such-flag": "Made up", yes: "<b>bold</b>" };
    writeFileSync(join(dir, "intermesh.overlay.json"), JSON.stringify(overlay, null, 2));
    const built = await inter(dir, ["build", "--json", "--no-suggest"], env);
    expect(built.exitCode, built.stdout.slice(0, 2000)).toBe(0);
    const design = built.json.data.tasks.find((t: TaskOutcome) => t.id === "design");
    expect(design.data.overlay.rejected.map((r: OverlayRejection) => r.entry).sort()).toEqual([
      "groups.rooms.commands.getRoom.flags.no-such-flag",
      "groups.rooms.commands.getRoom.flags.yes",
    ]);
    expect(design.warnings.join("\n")).toContain("not applied");
    const caps: Capabilities = JSON.parse(read(dir, "dist/capabilities.json"));
    expect(caps.commands.map((c) => c.name)).toContain("rooms show");
  });

  it("converges against a keyless local server: groups first, Skills asked with the overlay's names, every dropped answer named, and a second run asks nothing", async () => {
    const script: DesignModelScript = ({ schemaName, user }) => {
      const q: DesignPrompt = JSON.parse(user);
      if (schemaName === "command_names") {
        const commands = q.operations.map((o) => ({
          operation: o.id,
          name: o.id === "getRoom" ? "rooms show" : o.rulesName,
          description: `Does: ${o.summary ?? o.id}`,
          flags: o.id === "getRoom" ? [{ flag: "no-such-flag", description: "Invented" }] : [],
          phrasings: [],
        }));
        return {
          answer: {
            commands:
              q.group === "rooms"
                ? [
                    ...commands,
                    {
                      operation: "deleteEverything",
                      name: "rooms nuke",
                      description: "Gone",
                      flags: [],
                      phrasings: [],
                    },
                  ]
                : commands,
          },
        };
      }
      // Text that quotes the brief: the binary's word in prose is not a command.
      return {
        answer: {
          description: `Use for: ${q.task.title}. Not for: other tasks.`,
          situation: "Find the rooms that are available, as the user asks.",
          avoid: "Not for anything else.",
          steps: q.commands.map((c) => `Run \`${c.command}\` with the user's values.`),
        },
      };
    };
    const { dir, server } = await modelProject(script, "openai-compatible", { keyless: true });
    const first = await inter(dir, ["design", "suggest", "--json"]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(server.requests.every((r) => !r.keySent)).toBe(true);
    const data = first.json.data;
    expect(data).toMatchObject({ requests: 5, answered: 5, current: 0, failed: [], written: true });
    expect(data.rejected.map((r: Dropped) => r.entry).sort()).toEqual([
      "groups.rooms.commands.deleteEverything",
      "groups.rooms.commands.getRoom.flags.no-such-flag",
    ]);
    expect(data.rejected.find((r: Dropped) => r.entry.endsWith("deleteEverything")).reason).toMatch(
      /no operation "deleteEverything"/,
    );
    // Skills were asked after the groups, with the overlay's names.
    const groupsDone = Math.max(...asked(server, "command_names").map((r) => r.n));
    expect(asked(server, "agent_skill").every((r) => r.n > groupsDone)).toBe(true);
    const skillPrompts = asked(server, "agent_skill")
      .map((r) => r.user)
      .join("\n");
    expect(skillPrompts).not.toContain("rooms rooms get");
    const overlay = overlayOf(dir);
    expect(overlay.groups.rooms!.commands.getRoom).toEqual({ name: "rooms show", description: "Does: Get one room" });
    const entries =
      Object.values(overlay.groups).reduce((n: number, g) => n + Object.keys(g.commands).length, 0) +
      Object.keys(overlay.skills).length;
    expect(data.recorded).toBe(entries);

    const human = await inter(dir, ["design", "suggest"]);
    expect(human.exitCode, human.stderr).toBe(0);
    expect(server.requests).toHaveLength(5);
    expect(human.stdout + human.stderr).toContain("nothing asked");
    expect(human.stdout + human.stderr).toContain("5 questions already answered");

    const built = await inter(dir, ["build", "--json", "--no-suggest"]);
    expect(built.exitCode, built.stdout.slice(0, 2000)).toBe(0);
    const design = built.json.data.tasks.find((t: TaskOutcome) => t.id === "design");
    expect(design.data.overlay).toMatchObject({ rejected: [], stale: 0 });
    expect(design.data.overlay.applied).toBe(entries);
    const caps: Capabilities = JSON.parse(read(dir, "dist/capabilities.json"));
    expect(caps.skills.every((s) => s.situation === "Find the rooms that are available, as the user asks.")).toBe(true);
  });

  it("an overlay rename that breaks the plan says so (PLAN_INVALID names the rename), and --fix-renames rewrites the plan and its reference through it, diff first", async () => {
    const renaming: DesignModelScript = (request) => {
      const answer = good(request) as { answer: { commands: Array<{ operation: string; name: string }> } };
      if (request.schemaName === "command_names")
        for (const c of answer.answer.commands) if (c.operation === "cancelBooking") c.name = "bookings withdraw";
      return answer;
    };
    const { dir, env } = await modelProject(renaming);
    expect((await inter(dir, ["design", "suggest", "--json"], env)).exitCode).toBe(0);
    const broken = await inter(dir, ["build", "--json", "--no-suggest"], env);
    expect(broken.exitCode).toBe(2);
    expect(broken.json.error.code).toBe("PLAN_INVALID");
    expect(broken.json.error.message).toContain(
      "`bookings cancel` → `bookings withdraw` (groups.bookings.commands.cancelBooking.name)",
    );
    expect(broken.json.error.suggestion).toContain("inter eval validate evals/eval-plan.json --fix-renames");

    const planBefore = read(dir, "evals/eval-plan.json");
    const fixed = await inter(dir, ["eval", "validate", "evals/eval-plan.json", "--fix-renames"], env);
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    // The diff comes before the files change, naming each place, the rename and the overlay entry.
    expect(fixed.stderr).toContain("--- evals/eval-plan.json");
    expect(fixed.stderr).toContain('-["rooms","bookings","cancel"]');
    expect(fixed.stderr).toContain('+["rooms","bookings","withdraw"]');
    expect(fixed.stderr).toContain("--- evals/eval-plan.reference.json");
    expect(fixed.stderr).toMatch(/2 command lines rewritten/);
    const plan = read(dir, "evals/eval-plan.json");
    expect(plan.replace(/\s/g, "")).not.toContain('["rooms","bookings","cancel"]');
    // Only the command names changed: the file's layout is the person's.
    expect(plan).toBe(
      planBefore.replace(
        '"command_prefix": ["rooms", "bookings", "cancel"]',
        '"command_prefix": ["rooms", "bookings", "withdraw"]',
      ),
    );
    expect(JSON.parse(plan).scenarios.length).toBe(JSON.parse(planBefore).scenarios.length);
    expect(read(dir, "evals/eval-plan.reference.json").replace(/\s/g, "")).toContain(
      '["rooms","bookings","withdraw","--booking-id"',
    );
    const again = await inter(dir, ["eval", "validate", "evals/eval-plan.json", "--fix-renames", "--json"], env);
    expect(again.json.data).toMatchObject({ valid: true, fixed: [] });
    const built = await inter(dir, ["build", "--json", "--no-suggest"], env);
    expect(built.exitCode, built.stdout.slice(0, 1500)).toBe(0);
  });

  it("with design.model set, inter eval new drafts trigger queries with the model, in a user's voice, cached by what was asked and marked draft", async () => {
    const script: DesignModelScript = ({ schemaName, user }) => {
      if (schemaName !== "trigger_queries") return { status: 500, message: "unexpected" };
      const q: TriggerDraftPrompt = JSON.parse(user);
      const other = q.others[0]!.name;
      return {
        answer: {
          requests: [`I need to ${q.skill.name.replace(/-/g, " ")} today`, "can you sort this out for me?"],
          near_misses: [
            { query: `something for ${other}`, skill: other },
            { query: "what's the weather", skill: null },
            { query: "a Skill that does not exist", skill: "no-such-skill" },
          ],
        },
      };
    };
    const { dir, server } = await modelProject(script, "openai-compatible", { keyless: true });
    const made = await inter(dir, ["eval", "new", "evals2", "--candidate", "dist/cli.tgz", "--json"]);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(asked(server, "trigger_queries")).toHaveLength(3);
    const validateQueries = schemaValidator("trigger-queries.schema.json");
    const cancel = JSON.parse(read(dir, "evals2/trigger-queries/cancel-a-booking.json"));
    expect(validateQueries(cancel)).toEqual([]);
    expect(cancel.draft).toBe(true);
    expect(cancel.queries.map((q: TriggerQuery) => [q.query, q.expected_skill])).toEqual([
      ["I need to cancel a booking today", "cancel-a-booking"],
      ["can you sort this out for me?", "cancel-a-booking"],
      ["something for book-a-room-for-a-meeting", "book-a-room-for-a-meeting"],
      ["what's the weather", null],
      ["a Skill that does not exist", null],
      ["In one sentence, what is the rooms command-line tool for?", null],
    ]);
    expect(cancel.queries[0].note).toContain("drafted by scripted");
    // Drafting again (a deleted set) asks nothing: the answer is cached under what was asked.
    rmSync(join(dir, "evals2/trigger-queries/cancel-a-booking.json"));
    const again = await inter(dir, ["eval", "new", "evals2", "--candidate", "dist/cli.tgz", "--json"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(asked(server, "trigger_queries")).toHaveLength(3);
    expect(JSON.parse(read(dir, "evals2/trigger-queries/cancel-a-booking.json"))).toEqual(cancel);
  });

  it("a well-made client: 429 with retry-after is retried; malformed JSON fails only its entry; a dead endpoint, a refused key and a spent budget stop cleanly and leave the overlay as it was", async () => {
    let n = 0;
    const flaky: DesignModelScript = (request) => {
      n += 1;
      if (n === 1) return { status: 429, retryAfter: 1 };
      if (request.schemaName === "agent_skill" && JSON.parse(request.user).task.title.startsWith("Cancel"))
        return { raw: "{not json" };
      return good(request);
    };
    const { dir, server, env } = await modelProject(flaky);
    const run = await inter(dir, ["design", "suggest", "--json"], env);
    expect(run.json.error).toMatchObject({
      code: "MODEL_OUTPUT_INVALID",
      details: { failed: [expect.objectContaining({ entry: "skills.cancel-a-booking" })] },
    });
    expect(server.requests.length).toBeGreaterThanOrEqual(6);
    const before = read(dir, "intermesh.overlay.json");
    expect(Object.keys(JSON.parse(before).skills).sort()).toEqual([
      "book-a-room-for-a-meeting",
      "report-a-rooms-bookings-for-a-day",
    ]);

    const refused = await inter(dir, ["design", "suggest", "--refresh", "--json"], { DESIGN_KEY: "wrong-key-value" });
    expect(refused.json.error.code).toBe("MODEL_AUTH_FAILED");
    expect(refused.stdout).not.toContain("wrong-key-value");
    const spent = await inter(dir, ["design", "suggest", "--refresh", "--max-tokens", "10", "--json"], env);
    expect(spent.json.error.code).toBe("MODEL_BUDGET_EXCEEDED");
    await server.close();
    const dead = await inter(dir, ["design", "suggest", "--refresh", "--json"], env);
    expect(dead.json.error.code).toBe("MODEL_UNREACHABLE");
    expect(read(dir, "intermesh.overlay.json")).toBe(before);

    // The build goes on with the overlay as it is, and says why the model was not asked.
    const built = await inter(dir, ["build", "--json"], env);
    expect(built.exitCode, built.stderr).toBe(0);
    expect(built.json.data.design.skipped).toMatch(/MODEL_UNREACHABLE/);
    const status = await inter(dir, ["status", "--json"], env);
    expect(status.json.data.design_model).toMatchObject({
      state: "set",
      model: "scripted",
      keyEnv: "DESIGN_KEY",
      overlay: { present: true, groups: 2, skills: 2 },
    });
    expect((await inter(dir, ["status", "--json"])).json.data.design_model.state).toBe("missing");
  });

  it("a model request that never settles ends at its timeout as MODEL_UNREACHABLE, never as a success that printed nothing", async () => {
    // The config is trusted code in inter's own process: its fetch stands for a request whose socket went away without a
    // word, which left inter with nothing else to wait on; Node then ended it at once, exit code 0 and no output.
    const dir = exampleProject({ warm: true });
    const file = join(dir, "intermesh.config.ts");
    writeFileSync(
      file,
      readFileSync(file, "utf8")
        .replace(
          'import { defineConfig } from "intermesh";',
          `import { defineConfig } from "intermesh";

globalThis.fetch = ((_url: unknown, init?: { signal?: AbortSignal }) =>
  new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)))) as typeof fetch;`,
        )
        .replace(
          "targets: {",
          `design: { model: { provider: "openai-compatible", model: "scripted", baseUrl: "http://127.0.0.1:9/v1", retries: 0, timeoutMs: 1000 } },\n  targets: {`,
        ),
    );
    const run = await inter(dir, ["design", "suggest", "--json"]);
    expect(run.stdout, run.stderr).not.toBe("");
    expect(run.json.error, run.stdout).toMatchObject({ code: "MODEL_UNREACHABLE" });
    expect(run.json.error.message).toContain("gave no answer within 1.00 s (1 attempt)");
    expect(run.exitCode).not.toBe(0);
    expect(existsSync(join(dir, "intermesh.overlay.json"))).toBe(false);
  });

  it("an overlay that is not JSON, or not the format, is OVERLAY_INVALID (exit 2) and the earlier outputs stay", async () => {
    const dir = exampleProject({ warm: true });
    expect((await inter(dir, ["run", "design"])).exitCode).toBe(0);
    const caps = read(dir, "dist/capabilities.json");
    writeFileSync(join(dir, "intermesh.overlay.json"), "{ nope");
    const broken = await inter(dir, ["run", "design", "--json"]);
    expect(broken.exitCode).toBe(2);
    expect(broken.json.error).toMatchObject({ code: "OVERLAY_INVALID" });
    expect(broken.json.error.message).toContain("intermesh.overlay.json");
    writeFileSync(
      join(dir, "intermesh.overlay.json"),
      JSON.stringify({ format: "intermesh-overlay/1", groups: { rooms: { key: "nothex" } }, skills: {} }),
    );
    const invalid = await inter(dir, ["run", "design", "--json"]);
    expect(invalid.json.error).toMatchObject({ code: "OVERLAY_INVALID" });
    expect(read(dir, "dist/capabilities.json")).toBe(caps);
    rmSync(join(dir, "intermesh.overlay.json"));
    expect(existsSync(join(dir, "intermesh.overlay.json"))).toBe(false);
    expect((await inter(dir, ["run", "design"])).exitCode).toBe(0);
  });
});
