import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as tar from "tar";
import { beforeAll, describe, expect, it } from "vitest";
import { everyFile, inter, tempDir } from "../helpers.js";

// A trigger run is sealed like an evaluation attempt (src/evaluation/sandbox/prepare-run.ts): the candidate's
// credential never reaches the agent, under its own name or any other, and nothing the run writes holds it or the
// agent's own key. The agent here is a real program on PATH under Claude Code's name that prints its whole
// environment into its stream (and its HOME), as a careless agent might.

const CREDENTIAL = "rooms-credential-3f9a7c1e5b";
const AGENT_KEY = "sk-agent-own-key-8d2e4f6a";
/** The credential the evaluation plan beside the candidate names (its target.credential_env). */
const PLAN_CREDENTIAL = "plan-credential-6b1d9e2c7a";
const SKILL = "book-a-room";

/** A cli.tgz holding what a trigger run reads: the manifest (naming the credential variable) and one Skill. */
async function candidate(dir: string): Promise<string> {
  const root = join(dir, "pkg");
  mkdirSync(join(root, "package/skills", SKILL), { recursive: true });
  writeFileSync(join(root, "package/package.json"), JSON.stringify({ name: "rooms-cli", version: "1.0.0" }));
  writeFileSync(
    join(root, "package/manifest.json"),
    JSON.stringify({ product: { binary: "rooms" }, auth: { env: "ROOMS_AUTH" }, groups: [] }),
  );
  writeFileSync(
    join(root, "package/skills", SKILL, "SKILL.md"),
    `---\nname: ${SKILL}\ndescription: Book a meeting room for a time slot.\n---\n\n# Book a room\n`,
  );
  const file = join(dir, "cli.tgz");
  await tar.c({ gzip: true, file, cwd: root, portable: true }, ["package"]);
  return file;
}

/**
 * `claude` as Claude Code's stream-json would have it: it offers and loads the Skill, then writes every value of its
 * environment into its answer and a session file in its HOME; asked about the weather, it fails with them instead.
 */
function fakeClaude(bin: string): void {
  mkdirSync(bin, { recursive: true });
  const file = join(bin, "claude");
  writeFileSync(
    file,
    `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
if (process.argv.includes("--version")) { console.log("9.9.9 (fake claude)"); process.exit(0); }
const prompt = process.argv[process.argv.indexOf("-p") + 1] || "";
const dump = Object.entries(process.env).map(([k, v]) => k + "=" + v).join("\\n");
fs.mkdirSync(path.join(process.env.HOME, ".claude"), { recursive: true });
fs.writeFileSync(path.join(process.env.HOME, ".claude", "session.jsonl"), dump);
const out = (e) => process.stdout.write(JSON.stringify(e) + "\\n");
out({ type: "system", subtype: "init", model: "fake-model", skills: ["${SKILL}"] });
if (/weather/.test(prompt)) {
  out({ type: "result", subtype: "error_during_execution", is_error: true, num_turns: 1, result: "broke with " + dump });
  process.exit(1);
}
out({ type: "assistant", message: { model: "fake-model", content: [{ type: "tool_use", id: "t1", name: "Skill", input: { skill: "${SKILL}" } }] } });
out({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", content: "loaded" }] } });
out({ type: "assistant", message: { model: "fake-model", content: [{ type: "text", text: "my environment:\\n" + dump }] } });
out({ type: "result", subtype: "success", is_error: false, num_turns: 2, result: "done" });
`,
  );
  chmodSync(file, 0o755);
}

let folder: string;
let bin: string;

beforeAll(async () => {
  folder = tempDir("inter-trigger-secrets-");
  await candidate(folder);
  writeFileSync(
    join(folder, "trigger-queries.json"),
    JSON.stringify({
      queries: [
        { query: "Book a room for 4 people tomorrow at 10:00.", expected_skill: SKILL },
        { query: "What is the weather like?", expected_skill: null },
      ],
    }),
  );
  // Only its target is read here: the plan is `inter eval run`'s to validate.
  writeFileSync(join(folder, "eval-plan.json"), JSON.stringify({ target: { credential_env: "ROOMS_PLAN_CRED" } }));
  bin = join(tempDir("inter-fake-claude-"), "bin");
  fakeClaude(bin);
});

describe("a trigger run keeps the candidate's credential from the agent and out of every record", () => {
  it("the credential, under its name or another, never reaches the agent, the results or the transcripts", async () => {
    const home = tempDir("inter-trigger-secrets-home-");
    const run = await inter(folder, ["eval", "triggers", ".", "--agent", "claude-code", "--runs", "1", "--json"], {
      HOME: home,
      PATH: `${bin}:${process.env.PATH}`,
      ROOMS_AUTH: CREDENTIAL,
      // The same value under a name no rule knows: withheld for its value.
      COPY_OF_THE_CREDENTIAL: CREDENTIAL,
      ROOMS_PLAN_CRED: PLAN_CREDENTIAL,
      ANTHROPIC_API_KEY: AGENT_KEY,
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(folder, ".inter-triggers/results.json"), "utf8"));
    // The runs happened: the Skill loaded for its query; the broken run is a harness error, its message redacted.
    expect(results.results[0].runs[0]).toMatchObject({ loaded: [SKILL] });
    expect(results.results[0].runs[0].harness_error).toBeUndefined();
    expect(results.results[1].runs[0].harness_error).toMatch(/broke with/);
    // The agent ran with its own key (it needs it) and without the credential under either name...
    const transcript = readFileSync(join(folder, ".inter-triggers/attempts/q1-1/transcript.txt"), "utf8");
    expect(transcript).toContain("ANTHROPIC_API_KEY=");
    expect(transcript).not.toContain("ROOMS_AUTH=");
    expect(transcript).not.toContain("COPY_OF_THE_CREDENTIAL=");
    expect(transcript).not.toContain("ROOMS_PLAN_CRED=");
    // ...and no file the run wrote, nor its output, holds the credential or the agent's key.
    const written = everyFile(join(folder, ".inter-triggers"));
    for (const secret of [CREDENTIAL, PLAN_CREDENTIAL, AGENT_KEY]) {
      expect(written).not.toContain(secret);
      expect(run.stdout + run.stderr).not.toContain(secret);
    }
    expect(written).toContain("my environment:");
  });
});
