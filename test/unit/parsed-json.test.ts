import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJsonFile, rememberJson } from "../../src/core/parsed-json.js";
import { sha256 } from "../../src/core/hash.js";
import { syncFolder } from "../../src/stages/emit/sync-folder.js";
import { tempDir } from "../helpers.js";

// Inspection reads the package emit has just written (unpacked from its tarball, so at another path): a file whose
// bytes this process wrote from a value is read as that value, anything else is parsed.
describe("JSON parsed once per content", () => {
  it("gives the value a file was written from for those very bytes, wherever they are, and parses any other", () => {
    const dir = tempDir();
    const value = { name: "users", commands: [{ path: ["users", "list"], flags: [] }] };
    const text = `${JSON.stringify(value)}\n`;
    rememberJson(sha256(Buffer.from(text)), value);
    writeFileSync(join(dir, "same.json"), text);
    writeFileSync(join(dir, "other.json"), `${JSON.stringify(value)} \n`);

    expect(readJsonFile(join(dir, "same.json"))).toBe(value);
    const other = readJsonFile(join(dir, "other.json"));
    expect(other).not.toBe(value);
    expect(other).toEqual(value);
  });

  it("knows the command files emit writes with their values, and only those", () => {
    const pkg = tempDir();
    const copy = tempDir();
    const group = { name: "pets", commands: [{ path: ["pets", "get"], description: "Get a pet" }] };
    syncFolder(pkg, [
      { path: "commands/pets.json", content: `${JSON.stringify(group)}\n`, value: group },
      { path: "manifest.json", content: '{"groups":[]}\n' },
    ]);
    cpSync(pkg, copy, { recursive: true });

    expect(readJsonFile(join(copy, "commands/pets.json"))).toBe(group);
    expect(readJsonFile(join(copy, "manifest.json"))).toEqual({ groups: [] });
  });
});
