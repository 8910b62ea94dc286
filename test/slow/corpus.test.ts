import fg from "fast-glob";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { assembleCapabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO } from "../helpers.js";
import { schemaValidator } from "../schema.js";

const config: InterConfig = { product: { name: "Corpus", binary: "corpus" }, inputs: { openapi: "x" } };
const validate = schemaValidator("capabilities.schema.json");

async function design(file: string) {
  const { model, warnings } = await readOperationModel(file, REPO);
  const commands = designCommands(model, config, []);
  const skills = planSkills(parseBrief("# Corpus\n\nA test.\n"), commands.plan.commands, "Corpus");
  return { model, capabilities: assembleCapabilities(commands.plan, skills.plan), warnings: [...warnings, ...commands.warnings] };
}

function expectSoundDesign(capabilities: ReturnType<typeof assembleCapabilities>, operations: number) {
  expect(validate(capabilities)).toEqual([]);
  const names = capabilities.commands.map((c) => c.name);
  expect(new Set(names).size).toBe(names.length);
  expect(capabilities.commands.length).toBe(operations);
  for (const command of capabilities.commands) {
    expect(command.path.length).toBeGreaterThanOrEqual(2);
    expect(command.path.length).toBeLessThanOrEqual(3);
    const flags = command.flags.map((f) => f.flag);
    expect(new Set(flags).size, command.name).toBe(flags.length);
  }
}

const examples = fg.sync("node_modules/@readme/oas-examples/{2.0,3.0,3.1}/**/*.{json,yaml}", { cwd: REPO }).sort();

describe("@readme/oas-examples: every 2.0 / 3.0 / 3.1 document designs", () => {
  it("finds the corpus", () => {
    expect(examples.length).toBeGreaterThan(100);
  });

  it.each(examples)("%s", async (file) => {
    const { model, capabilities } = await design(join(REPO, file));
    // Every usable operation becomes exactly one command (the corpus has no x-cli-ignore).
    expectSoundDesign(capabilities, model.operations.length);
    expect(model.skipped).toEqual([]);
  });
});

describe("GitHub's REST description (@octokit/openapi)", () => {
  it("designs about 1,200 operations into unique commands of at most three words", async () => {
    const { model, capabilities, warnings } = await design(join(REPO, "node_modules/@octokit/openapi/generated/api.github.com.json"));
    expect(model.operations.length).toBeGreaterThan(1000);
    expect(model.skipped).toEqual([]);
    expectSoundDesign(capabilities, model.operations.length);
    expect(capabilities.commands.find((c) => c.operation.operationId === "repos/get")?.name).toBe("repos get");
    expect(capabilities.auth.schemes).toEqual({});
    expect(warnings.every((w) => typeof w === "string")).toBe(true);
  });
});

describe("briefs built to hang or exhaust the parser", () => {
  it("a heading of thousands of spaces parses in linear time", () => {
    const brief = parseBrief(`# P\n\n## Tasks\n\n### a${" ".repeat(6000)}b ##\n\nExpected outcome: done.\n`);
    expect(brief.tasks[0]!.title).toBe(`a${" ".repeat(6000)}b`);
  });

  it("20,000 tasks: each Skill's description names a few others, not all", () => {
    const tasks = Array.from({ length: 20_000 }, (_, i) => `### Task ${i}\n\nExpected outcome: done ${i}.\n`).join("\n");
    const { plan } = planSkills(parseBrief(`# P\n\nA product.\n\n## Tasks and scenarios\n\n${tasks}`), [], "P");
    expect(plan.skills).toHaveLength(20_000);
    expect(Math.max(...plan.skills.map((s) => (s.description.match(/\(skill /g) ?? []).length))).toBeLessThanOrEqual(8);
  });
});
