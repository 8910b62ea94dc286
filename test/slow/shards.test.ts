import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inter, read, tempDir } from "../helpers.js";
import { schemaValidator } from "../schema.js";
import { API_KEY, evaluationFolder, exampleProject, scripted } from "../e2e/example-api.js";
import type { EvalResults } from "../../src/evaluation/results/types.js";

const validateResults = schemaValidator("results.schema.json");
const env = { ROOMS_API_KEY: API_KEY };
const MODES = "wrong-id+list-twice";
const results = (dir: string): EvalResults => JSON.parse(read(dir, ".inter-eval/results.json"));
/** What a run established, without times and workspace paths. */
const verdicts = (r: EvalResults) => ({
  attempts: r.attempts.map((a) => ({
    id: `${a.scenario}#${a.repetition}`,
    status: a.status,
    checks: a.checks.map((c) => `${c.id}:${c.status}`),
  })),
  scenarios: r.scenarios,
  summary: r.summary,
  verdict: r.verdict,
  gate: r.gate,
});

let whole: string;
let shards: string[];

beforeAll(async () => {
  const project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], env);
  if (built.exitCode !== 0) throw new Error(built.stdout);
  // Each run gets the API fresh from its seed data on the same port, so all three share one plan (and plan hash).
  const first = await evaluationFolder(project);
  const port = Number(new URL(first.url).port);
  whole = first.dir;
  await inter(whole, ["eval", "run", ".", ...scripted(MODES)], env);
  await first.stop();
  shards = [];
  for (const shard of ["1/2", "2/2"]) {
    const f = await evaluationFolder(project, { port });
    copyFileSync(join(whole, "eval-plan.json"), join(f.dir, "eval-plan.json"));
    await inter(f.dir, ["eval", "run", ".", "--shard", shard, ...scripted(MODES)], env);
    await f.stop();
    shards.push(f.dir);
  }
});

describe("sharded evaluation", () => {
  it("each shard runs a deterministic, balanced share of the attempts", () => {
    const [a, b] = shards.map(results) as [EvalResults, EvalResults];
    expect(a.shard).toEqual({ index: 1, count: 2, scenarios: ["book-a-room", "cancel-a-booking", "report-room-day"] });
    expect(a.attempts.map((x) => x.scenario)).toEqual(["book-a-room", "report-room-day"]);
    expect(b.attempts.map((x) => x.scenario)).toEqual(["cancel-a-booking"]);
    for (const r of [a, b]) expect(validateResults(r)).toEqual([]);
  });

  it("shard 1/2 and 2/2 merged give the unsharded run's verdicts, results and reports", async () => {
    const out = tempDir("inter-merged-");
    const merged = await inter(out, [
      "eval",
      "merge",
      ...shards.map((d) => join(d, ".inter-eval/results.json")),
      "--out",
      "merged",
      "--json",
    ]);
    expect(merged.exitCode).toBe(1); // the same gate failure as the whole run
    expect(merged.json.error.code).toBe("EVAL_FAILED");
    const m = JSON.parse(read(out, "merged/results.json"));
    expect(validateResults(m)).toEqual([]);
    expect(m.shard).toBeUndefined();
    expect(verdicts(m)).toEqual(verdicts(results(whole)));
    expect(read(out, "merged/junit.xml")).toContain('<testsuites name="inter eval" tests="21" failures="1" errors="6"');
    expect(read(out, "merged/summary.md")).toMatch(/^## ❌ Evaluation failed: 1\/3 attempts/);
  });

  it("refuses shards of different candidates, the same attempt twice, and a missing shard", async () => {
    const dir = tempDir("inter-merge-bad-");
    const [a, b] = shards.map((d) => join(d, ".inter-eval/results.json"));
    const other = JSON.parse(readFileSync(b!, "utf8"));
    other.candidate.sha256 = "0".repeat(64);
    writeFileSync(join(dir, "other.json"), JSON.stringify(other));
    const foreign = await inter(dir, ["eval", "merge", a!, "other.json", "--json"]);
    expect(foreign.exitCode).toBe(2);
    expect(foreign.json.error).toMatchObject({ code: "RESULTS_MISMATCH", details: { field: "candidate" } });
    const twice = await inter(dir, ["eval", "merge", a!, a!, "--json"]);
    expect(twice.json.error).toMatchObject({
      code: "RESULTS_MISMATCH",
      message: expect.stringContaining("Attempt book-a-room#1 is in both"),
    });
    const missing = await inter(dir, ["eval", "merge", a!, "--json"]);
    expect(missing.json.error).toMatchObject({
      code: "RESULTS_MISMATCH",
      details: { missing: ["cancel-a-booking#1"] },
    });
    // Shards the agent reports were answered by different models merge only when asked, and the merge says so.
    const byModel = (file: string, served: string[], name: string) => {
      const r = JSON.parse(readFileSync(file, "utf8"));
      r.agent.model = { configured: "m", configured_hash: null, served };
      writeFileSync(join(dir, name), JSON.stringify(r));
      return name;
    };
    const [ma, mb] = [byModel(a!, ["model-a"], "ma.json"), byModel(b!, ["model-b"], "mb.json")];
    const mixed = await inter(dir, ["eval", "merge", ma, mb, "--out", "mixed", "--json"]);
    expect(mixed.json.error).toMatchObject({
      code: "EVAL_MODELS_DIFFER",
      suggestion: expect.stringContaining("--across-models"),
    });
    await inter(dir, ["eval", "merge", ma, mb, "--out", "mixed", "--across-models", "--json"]);
    expect(JSON.parse(read(dir, "mixed/results.json")).agent.model.served).toEqual(["model-a", "model-b"]);
    const bad = await inter(dir, ["eval", "run", ".", "--shard", "3/2", "--json"]);
    expect(bad.json.error).toMatchObject({ code: "USAGE_ERROR", message: expect.stringContaining("--shard 3/2") });
  });
});
