import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, tempDir } from "../helpers.js";

const { sourceHash } = (await import(join(REPO, "scripts/source-hash.mjs"))) as {
  sourceHash: (repo: string) => string;
};

/** A repository of the shape the hash reads: the build's inputs, a small src/ and a shipped schema. */
function miniRepo(): string {
  const repo = tempDir("inter-source-hash-");
  mkdirSync(join(repo, "scripts"));
  mkdirSync(join(repo, "schemas"));
  mkdirSync(join(repo, "src/core"), { recursive: true });
  writeFileSync(join(repo, "schemas/a.schema.json"), '{ "type": "object" }\n');
  for (const file of ["package.json", "scripts/build.mjs", "scripts/source-hash.mjs"])
    cpSync(join(REPO, file), join(repo, file));
  writeFileSync(join(repo, "src/core/a.ts"), "export const a = 1;\n");
  writeFileSync(join(repo, "src/index.ts"), 'export { a } from "./core/a.js";\n');
  return repo;
}

describe("the build id (scripts/source-hash.mjs), which decides whether the tests rebuild lib/", () => {
  it("the lib/ this run uses was built from the source as it is now", () => {
    // test/global-setup.ts rebuilds lib/ when its stamp differs: an edit to src/ is always what the tests run.
    expect(readFileSync(join(REPO, "lib/build-id"), "utf8").trim()).toBe(sourceHash(REPO));
  });

  it("changes with a source file's content, a rename, a new file, a shipped schema and the build's own inputs; nothing else", () => {
    const repo = miniRepo();
    const before = sourceHash(repo);
    expect(before).toMatch(/^[0-9a-f]{12}$/);
    expect(sourceHash(repo)).toBe(before);

    const seen = new Set([before]);
    const changed = (what: string, edit: () => void, undo: () => void) => {
      edit();
      const after = sourceHash(repo);
      expect(seen.has(after), what).toBe(false);
      seen.add(after);
      undo();
      expect(sourceHash(repo), `${what}, undone`).toBe(before);
    };
    const file = (path: string) => join(repo, path);
    const original = (path: string) => readFileSync(file(path));
    const a = original("src/core/a.ts");
    changed(
      "an edited source file",
      () => writeFileSync(file("src/core/a.ts"), "export const a = 2;\n"),
      () => writeFileSync(file("src/core/a.ts"), a),
    );
    changed(
      "a renamed source file",
      () => renameSync(file("src/core/a.ts"), file("src/core/b.ts")),
      () => renameSync(file("src/core/b.ts"), file("src/core/a.ts")),
    );
    // lib/ holds a compiled validator of each shipped schema (scripts/build.mjs).
    const schema = original("schemas/a.schema.json");
    changed(
      "an edited shipped schema",
      () => writeFileSync(file("schemas/a.schema.json"), '{ "type": "string" }\n'),
      () => writeFileSync(file("schemas/a.schema.json"), schema),
    );
    changed(
      "a new shipped schema",
      () => writeFileSync(file("schemas/b.schema.json"), "{}\n"),
      () => rmSync(file("schemas/b.schema.json")),
    );
    for (const input of ["package.json", "scripts/build.mjs"]) {
      const text = original(input);
      changed(
        `an edited ${input}`,
        () => writeFileSync(file(input), Buffer.concat([text, Buffer.from("\n")])),
        () => writeFileSync(file(input), text),
      );
    }

    // What the bundle is not made of leaves the id alone: a cache keyed on it stays valid.
    writeFileSync(file("src/core/notes.md"), "# notes\n");
    writeFileSync(file("schemas/README.md"), "# schemas\n");
    mkdirSync(file("test"));
    writeFileSync(file("test/a.test.ts"), "it('x', () => {});\n");
    expect(sourceHash(repo)).toBe(before);
  });
});
