import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blindness, skillUse } from "../../src/evaluation/triggers/detect.js";
import { checkNamedSkills, loadQuerySet, readQueryFile } from "../../src/evaluation/triggers/queries.js";
import {
  confusion,
  gateFindings,
  NONE,
  queryResult,
  skillStats,
  type TriggerRun,
} from "../../src/evaluation/triggers/stats.js";
import { appendJournal, readJournal } from "../../src/evaluation/triggers/journal.js";
import { resultsRecord, type TriggerResults } from "../../src/evaluation/triggers/run.js";
import { InterError } from "../../src/core/errors.js";
import { tempDir } from "../helpers.js";

const runs = (...loaded: Array<string[] | "error">): TriggerRun[] =>
  loaded.map((l, i) =>
    l === "error"
      ? { kind: "harness-error", run: i + 1, loaded: [], other: [], harness_error: "broke", duration_ms: 1 }
      : { kind: "judged", run: i + 1, loaded: l, other: [], duration_ms: 1 },
  );

describe("trigger statistics on known counts", () => {
  // Two sibling Skills, three runs per query. a: 3 of 3 (q1), 1 of 3 with b stealing 2 (q2); b: 2 of 2 judged + 1
  // harness error (q3); a null query that a stole once (q4).
  const results = [
    queryResult({ query: "q1", expected_skill: "a" }, runs(["a"], ["a"], ["a"])),
    queryResult({ query: "q2", expected_skill: "a" }, runs(["a"], ["b"], ["b"])),
    queryResult({ query: "q3", expected_skill: "b" }, runs(["b"], ["b"], "error")),
    queryResult({ query: "q4", expected_skill: null }, runs([], ["a"], [])),
  ];
  it("per query: trigger rate over judged runs, Skills loaded, harness errors left out", () => {
    expect(results.map((q) => [q.judged, q.trigger_rate, q.loaded])).toEqual([
      [3, 1, { a: 3 }],
      [3, 1 / 3, { a: 1, b: 2 }],
      [2, 1, { b: 2 }],
      [3, 2 / 3, { a: 1 }],
    ]);
  });
  it("per Skill: precision, recall and accuracy", () => {
    const [a, b] = skillStats(results, ["a", "b"]);
    // a: TP 4 (q1 3, q2 1), FN 2 (q2), FP 1 (q4), TN: q3 2 + q4 2 = 4 → accuracy 8/11.
    expect(a).toMatchObject({
      true_positives: 4,
      false_negatives: 2,
      false_positives: 1,
      true_negatives: 4,
      precision: 4 / 5,
      recall: 4 / 6,
      accuracy: 8 / 11,
    });
    // b: TP 2, FN 0, FP 2 (q2), TN: q1 3 + q2 1 + q4 3 = 7 → 9/11.
    expect(b).toMatchObject({
      true_positives: 2,
      false_negatives: 0,
      false_positives: 2,
      true_negatives: 7,
      precision: 0.5,
      recall: 1,
      accuracy: 9 / 11,
    });
  });
  it("the confusion matrix says which Skill took which query", () => {
    const m = confusion(results, ["a", "b"]);
    expect(m.labels).toEqual(["a", "b", NONE]);
    expect(m.counts).toEqual([
      [4, 2, 0],
      [0, 2, 0],
      [1, 0, 2],
    ]);
  });
  it("the gate: minimum recall per Skill, maximum false triggers overall; nothing judged never passes", () => {
    const stats = skillStats(results, ["a", "b"]);
    expect(gateFindings(stats, { minRecall: 0.6, maxFalseTriggers: 3 }, 11)).toEqual([]);
    expect(gateFindings(stats, { minRecall: 0.7, maxFalseTriggers: 2 }, 11)).toEqual([
      "a: recall 0.67 < 0.7",
      "3 false triggers > 2",
    ]);
    expect(gateFindings(stats, {}, 0)).toEqual(["no run was judged: every run was a harness error"]);
  });
  it("a Skill some query expects but no run judged fails --min-recall, named as not judged", () => {
    const outage = [...results, queryResult({ query: "q5", expected_skill: "c" }, runs("error", "error", "error"))];
    const stats = skillStats(outage, ["a", "b", "c"]);
    expect(stats[2]!.recall).toBeNull();
    expect(gateFindings(stats, { minRecall: 0.5 }, 11, new Set(["a", "b", "c"]))).toEqual([
      expect.stringMatching(/^c: not judged \(every run of the queries expecting it was a harness error\)/),
    ]);
    // Without a recall gate there is nothing to fail.
    expect(gateFindings(stats, { maxFalseTriggers: 3 }, 11, new Set(["a", "b", "c"]))).toEqual([]);
  });
  it("a run that loaded the expected Skill and a wrong one is a hit and, per query, a wrong load", () => {
    const both = queryResult({ query: "q6", expected_skill: "a" }, runs(["a", "b"], ["a"], ["b"]));
    expect(both).toMatchObject({ trigger_rate: 2 / 3, wrong_loads: 2 });
    expect(skillStats([both], ["a", "b"])[1]).toMatchObject({ false_positives: 2 });
  });
  it("a Skill no query expects has no recall, and one never loaded no precision", () => {
    const [c] = skillStats(results, ["c"]);
    expect(c).toMatchObject({ precision: null, recall: null, accuracy: 1 });
  });
});

describe("the trigger journal and results.json across the tagged runs", () => {
  it("reads a journal an older inter wrote (runs without kind) as judged runs, and skips what is not one", () => {
    const file = join(tempDir("inter-trigger-journal-"), "journal.jsonl");
    writeFileSync(
      file,
      [
        // Before the tag: a judged run was the only kind ever journaled.
        JSON.stringify({ key: "old", run: { run: 1, loaded: ["a"], other: ["x"], model: "m-1", duration_ms: 5 } }),
        // A harness error (never journaled by inter, but a journal is a file anyone can edit): it runs again.
        JSON.stringify({ key: "broken", run: { run: 1, loaded: [], other: [], harness_error: "x", duration_ms: 1 } }),
        JSON.stringify({ key: "tagged-error", run: { kind: "harness-error", run: 1, loaded: [], other: [] } }),
        // Wrong shapes and a line cut by a kill: left out, never a TypeError.
        JSON.stringify({ key: "shape", run: { run: 1, loaded: "a", other: [], duration_ms: 1 } }),
        JSON.stringify({ key: 5, run: { run: 1, loaded: [], other: [], duration_ms: 1 } }),
        "null",
        '{"key":"cut","run":{"run":1,"loa',
      ].join("\n") + "\n",
    );
    appendJournal(file, "new", { kind: "judged", run: 2, loaded: [], other: [], duration_ms: 7 });
    expect(Object.fromEntries(readJournal(file))).toEqual({
      old: { kind: "judged", run: 1, loaded: ["a"], other: ["x"], model: "m-1", duration_ms: 5 },
      new: { kind: "judged", run: 2, loaded: [], other: [], duration_ms: 7 },
    });
    expect(readJournal(join(tempDir("inter-trigger-journal-"), "none.jsonl")).size).toBe(0);
  });

  it("results.json keeps its form: runs without kind, harness_error only on a harness error", () => {
    const query = queryResult({ query: "q", expected_skill: "a" }, runs(["a"], "error"));
    const record = resultsRecord({ results: [query] } as unknown as TriggerResults);
    expect(record.results[0]!.runs).toEqual([
      { run: 1, loaded: ["a"], other: [], duration_ms: 1 },
      { run: 2, loaded: [], other: [], harness_error: "broke", duration_ms: 1 },
    ]);
  });
});

describe("reading Skill loads from a normalized transcript", () => {
  it("a Skill tool call, a read of SKILL.md and a shell cat all count; a failed load does not", () => {
    const use = skillUse({
      messages: [],
      tool_calls: [
        { name: "Skill", input: { skill: "plugin:alpha" }, output: "Launching skill", is_error: false },
        { name: "read", input: { filePath: "/attempt/outputs/.opencode/skills/beta/SKILL.md" }, is_error: false },
        { name: "shell", input: { command: "cat .agents/skills/gamma/SKILL.md" }, exit_code: 0 },
        {
          name: "shell",
          input: { command: "cat .agents/skills/delta/SKILL.md" },
          exit_code: 1,
          output: "cat: No such file or directory",
        },
        { name: "Bash", input: { command: "ls" }, exit_code: 0 },
      ],
    });
    expect(use.loaded).toEqual(["alpha", "beta", "gamma"]);
    expect(use.failed).toEqual([{ skill: "delta", output: "cat: No such file or directory" }]);
  });
  it("an agent that does not offer the candidate's Skills, or cannot load one, is blind (a harness error)", () => {
    const seen = { messages: [], tool_calls: [], skills: ["dataviz"] };
    expect(blindness(seen, { loaded: [], failed: [] }, ["alpha"])).toMatch(/does not see the candidate's Skill alpha/);
    expect(
      blindness(
        { messages: [], tool_calls: [] },
        { loaded: [], failed: [{ skill: "alpha", output: "ripgrep execution failed" }] },
        ["alpha"],
      ),
    ).toMatch(/could not \(its Skill tool needs ripgrep/);
    expect(
      blindness({ messages: [], tool_calls: [], skills: ["alpha"] }, { loaded: [], failed: [] }, ["alpha"]),
    ).toBeUndefined();
  });
});

describe("the query-set format", () => {
  it("accepts the object form and a bare array; same query and expectation in two files runs once", async () => {
    const dir = tempDir("inter-trigger-set-");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "trigger-queries"));
    writeFileSync(
      join(dir, "trigger-queries/a.json"),
      JSON.stringify({
        skill: "a",
        draft: true,
        queries: [
          { query: "do a", expected_skill: "a", split: "train" },
          { query: "nothing", expected_skill: null },
        ],
      }),
    );
    writeFileSync(
      join(dir, "trigger-queries/b.json"),
      JSON.stringify([
        { query: "do b", expected_skill: "b" },
        { query: "nothing", expected_skill: null },
      ]),
    );
    const set = await loadQuerySet(dir, undefined);
    expect(set.queries.map((q) => q.query)).toEqual(["do a", "nothing", "do b"]);
    expect(set.draft).toBe(true);
    expect(set.hash).toMatch(/^[0-9a-f]{64}$/);
  });
  it("a bad set is TRIGGER_QUERIES_INVALID naming the file and the field", async () => {
    const dir = tempDir("inter-trigger-set-");
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ queries: [{ query: "x", expected_skill: "Not A Name" }] }));
    const error = await readQueryFile(file, "bad.json").catch((e) => e);
    expect(error).toBeInstanceOf(InterError);
    expect(error.code).toBe("TRIGGER_QUERIES_INVALID");
    expect(error.message).toMatch(/^bad\.json: \/queries\/0\/expected_skill/);
    writeFileSync(file, "{ not json");
    expect((await readQueryFile(file, "bad.json").catch((e) => e)).message).toMatch(/bad\.json: not JSON/);
    writeFileSync(file, JSON.stringify([{ query: "x" }]));
    expect((await readQueryFile(file, "bad.json").catch((e) => e)).message).toMatch(/expected_skill/);
  });
  it("says what is allowed: a bad split lists the splits, an empty array is too short (a bare array is allowed)", async () => {
    const file = join(tempDir("inter-trigger-set-"), "bad.json");
    writeFileSync(file, JSON.stringify({ queries: [{ query: "x", expected_skill: null, split: "dev" }] }));
    expect((await readQueryFile(file, "bad.json").catch((e) => e)).message).toBe(
      'bad.json: /queries/0/split must be equal to one of the allowed values: "train", "test"',
    );
    writeFileSync(file, "[]");
    const empty = await readQueryFile(file, "bad.json").catch((e) => e);
    expect(empty.message).toBe("bad.json: (top) must NOT have fewer than 1 items");
    expect(empty.details.findings).toEqual(["(top) must NOT have fewer than 1 items"]);
  });
  it("a Skill the candidate lacks, as a set's skill or a query's expected_skill, is refused naming the file", async () => {
    const dir = tempDir("inter-trigger-set-");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(join(dir, "trigger-queries"));
    writeFileSync(
      join(dir, "trigger-queries/a.json"),
      JSON.stringify({ skill: "a", queries: [{ query: "do a", expected_skill: "a" }] }),
    );
    writeFileSync(
      join(dir, "trigger-queries/b.json"),
      JSON.stringify({
        skill: "nope",
        queries: [
          { query: "do b", expected_skill: "typo" },
          { query: "none", expected_skill: null },
        ],
      }),
    );
    const set = await loadQuerySet(dir, undefined);
    expect(() => checkNamedSkills(set.named, ["a", "b"])).toThrow(
      "trigger-queries/b.json names Skills the candidate does not have: nope, typo.",
    );
    const error = (() => {
      try {
        checkNamedSkills(set.named, ["a", "b"]);
      } catch (e) {
        return e as InterError;
      }
    })()!;
    expect(error.code).toBe("TRIGGER_QUERIES_INVALID");
    expect(error.details).toMatchObject({
      unknown: ["nope", "typo"],
      files: [{ file: "trigger-queries/b.json", unknown: ["nope", "typo"] }],
    });
    expect(() => checkNamedSkills(set.named, ["a", "b", "nope", "typo"])).not.toThrow();
  });
  it("a folder that is not there is named, not reported as a missing trigger-queries.json", async () => {
    const missing = join(tempDir("inter-trigger-set-"), "no-such-folder");
    const error = await loadQuerySet(missing, undefined).catch((e) => e);
    expect(error.code).toBe("INPUT_NOT_FOUND");
    expect(error.message).toBe(`No folder at ${missing}.`);
  });
});

describe("a proposed description", () => {
  it("replaces only the front matter's description, quoted, and the patch names that one line with context", async () => {
    const { withDescription, proposalPatch, splitScore } = await import("../../src/evaluation/triggers/improve.js");
    const skill = {
      name: "a",
      description: "old",
      files: { "SKILL.md": '---\nname: a\ndescription: "old: text"\n---\n\n# A\ndescription: not front matter\n' },
    };
    const next = withDescription(skill, 'Use when "quoted": yes');
    expect(next.files["SKILL.md"]).toBe(
      '---\nname: a\ndescription: "Use when \\"quoted\\": yes"\n---\n\n# A\ndescription: not front matter\n',
    );
    expect(skill.files["SKILL.md"]).toContain('description: "old: text"');
    expect(proposalPatch(skill, "new one", "skills/a/SKILL.md")).toBe(
      '--- a/skills/a/SKILL.md\n+++ b/skills/a/SKILL.md\n@@ -2,3 +2,3 @@\n name: a\n-description: "old: text"\n+description: "new one"\n ---\n',
    );
    // A folded description (`>-` and its indented lines) is replaced whole, and the patch applies with git.
    const folded = {
      name: "b",
      description: "old folded text",
      files: { "SKILL.md": "---\nname: b\ndescription: >-\n  old folded\n  text\nlicense: MIT\n---\n\n# B\n" },
    };
    expect(withDescription(folded, "new one").files["SKILL.md"]).toBe(
      '---\nname: b\ndescription: "new one"\nlicense: MIT\n---\n\n# B\n',
    );
    const dir = tempDir("inter-proposal-patch-");
    mkdirSync(join(dir, "skills/b"), { recursive: true });
    writeFileSync(join(dir, "skills/b/SKILL.md"), folded.files["SKILL.md"]);
    writeFileSync(join(dir, "p.diff"), proposalPatch(folded, "new one", "skills/b/SKILL.md"));
    execFileSync("git", ["apply", "p.diff"], { cwd: dir });
    expect(readFileSync(join(dir, "skills/b/SKILL.md"), "utf8")).toBe(
      withDescription(folded, "new one").files["SKILL.md"],
    );
    const results = {
      results: [
        queryResult({ query: "x", expected_skill: "a", split: "train" }, runs(["a"], [], "error")),
        queryResult({ query: "y", expected_skill: null }, runs(["a"], [])),
      ],
      // Only the results splitScore reads.
    } as TriggerResults;
    expect(splitScore(results, "a", "train")).toEqual({ accuracy: 0.5, runs: 2 });
    expect(splitScore(results, "a", "test")).toEqual({ accuracy: 0.5, runs: 2 });
  });
});
