import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { insideProject, safeReads } from "../../src/engine/cache/safe-paths.js";
import { tempDir } from "../helpers.js";

describe("where a cache record may write, and what it may have read", () => {
  const root = tempDir("inter-paths-");
  const outside = tempDir("inter-outside-");
  mkdirSync(join(root, "dist"));
  symlinkSync(outside, join(root, "dist", "away"));
  writeFileSync(join(root, "openapi.yaml"), "x");
  mkdirSync(join(root, "folder"));

  it.each([
    ["dist/cli.tgz", true],
    ["new/deep/file.txt", true],
    ["../escape_remote.txt", false],
    ["dist/../../x", false],
    ["/etc/passwd", false],
    ["C:/x", false],
    ["dist\\\\x", false],
    ["./dist/x", false],
    ["", false],
    ["dist/away/planted.txt", false],
    ["dist/away", false],
  ])("%s → %s", (path, ok) => {
    expect(insideProject(root, path)).toBe(ok);
  });

  it("read lists: project files (or missing ones); never folders, devices, or absolute paths from elsewhere", () => {
    expect(safeReads(root, ["openapi.yaml", "gone.yaml"], false)).toBe(true);
    expect(safeReads(root, ["folder"], false)).toBe(false);
    expect(safeReads(root, ["/dev/zero"], false)).toBe(false);
    expect(safeReads(root, ["/dev/zero"], true)).toBe(false);
    expect(safeReads(root, [join(root, "openapi.yaml")], true)).toBe(true);
    expect(safeReads(root, [join(root, "openapi.yaml")], false)).toBe(false);
    expect(safeReads(root, "openapi.yaml", false)).toBe(false);
  });
});
