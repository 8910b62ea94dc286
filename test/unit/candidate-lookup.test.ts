import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCandidate, requireCandidate } from "../../src/cli/candidate-lookup.js";
import { tempDir, writeFiles } from "../helpers.js";

// One lookup of the candidate for every command that takes one (#42): the same path means the same candidate in
// `inter diff`, `publish`, `agents` and every `inter eval` command.

const CONFIG = (outDir: string) =>
  `export default { product: { name: "Rooms", binary: "rooms" }, inputs: { openapi: "openapi.yaml" }, targets: { cli: { outDir: "${outDir}" } } };\n`;

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error("expected a refusal");
}

describe("the candidate lookup", () => {
  it("a named cli.tgz, a folder holding one, a project folder's build output (its configured outDir)", async () => {
    const cwd = tempDir("inter-lookup-");
    writeFiles(cwd, {
      "release/cli.tgz": "x",
      "evals/cli.tgz": "x",
      "project/intermesh.config.ts": CONFIG("out"),
      "project/out/cli.tgz": "x",
    });
    expect(await requireCandidate(undefined, "release/cli.tgz", cwd)).toBe(join(cwd, "release/cli.tgz"));
    expect(await requireCandidate(undefined, "evals", cwd)).toBe(join(cwd, "evals/cli.tgz"));
    expect(await requireCandidate(undefined, "project", cwd)).toBe(join(cwd, "project/out/cli.tgz"));
    // Nothing named: the command's folder, else the project around it, found from a folder inside it.
    expect(await requireCandidate(join(cwd, "evals"), undefined, cwd)).toBe(join(cwd, "evals/cli.tgz"));
    mkdirSync(join(cwd, "project/evals"));
    expect(await requireCandidate(join(cwd, "project/evals"), undefined, cwd)).toBe(join(cwd, "project/out/cli.tgz"));
    expect(await requireCandidate(undefined, undefined, join(cwd, "project"))).toBe(join(cwd, "project/out/cli.tgz"));
  });

  it("an unpacked package folder only where folders are read (inter diff); elsewhere CANDIDATE_INVALID", async () => {
    const cwd = tempDir("inter-lookup-");
    writeFiles(cwd, { "dist/package/manifest.json": "{}" });
    expect(await requireCandidate(undefined, "dist/package", cwd, { folders: true })).toBe(join(cwd, "dist/package"));
    expect(await requireCandidate(undefined, "dist", cwd, { folders: true })).toBe(join(cwd, "dist"));
    const refused = await refusal(requireCandidate(undefined, "dist/package", cwd));
    expect(refused.code).toBe("CANDIDATE_INVALID");
    expect(refused.message).toContain("dist/package is a folder");
  });

  it("what is missing says where it was looked for: INPUT_NOT_FOUND, or CANDIDATE_INVALID for a folder of nothing", async () => {
    const cwd = tempDir("inter-lookup-");
    writeFiles(cwd, { "project/intermesh.config.ts": CONFIG("dist"), "empty/notes.md": "" });
    expect(await refusal(requireCandidate(undefined, "nope.tgz", cwd))).toMatchObject({ code: "INPUT_NOT_FOUND" });
    const unbuilt = await refusal(requireCandidate(undefined, "project", cwd));
    expect(unbuilt.code).toBe("INPUT_NOT_FOUND");
    expect(unbuilt.message).toContain("project folder without a built candidate (project/dist/cli.tgz)");
    expect(await refusal(requireCandidate(undefined, "empty", cwd))).toMatchObject({ code: "CANDIDATE_INVALID" });
    const bare = await refusal(requireCandidate(join(cwd, "empty"), undefined, cwd));
    expect(bare.code).toBe("INPUT_NOT_FOUND");
    expect(bare.message).toContain(`no cli.tgz in ${join(cwd, "empty")} and no project around it`);
    // eval validate reports a missing candidate as a finding rather than an error.
    mkdirSync(join(cwd, "project/evals"));
    expect(await findCandidate(join(cwd, "project/evals"), undefined, cwd)).toEqual({
      missing: `no cli.tgz in ${join(cwd, "project/evals")}, and the project's ${join(cwd, "project/dist/cli.tgz")} is not built yet (inter build)`,
    });
  });

  it("a config that does not load leaves the default output folder", async () => {
    const cwd = tempDir("inter-lookup-");
    writeFileSync(join(cwd, "intermesh.config.ts"), 'throw new Error("not today");\nexport default {};\n');
    writeFiles(cwd, { "dist/cli.tgz": "x" });
    expect(await requireCandidate(undefined, ".", cwd)).toBe(join(cwd, "dist/cli.tgz"));
  });
});
