import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeCandidateFiles } from "../../src/stages/candidate/write-files.js";
import { tempDir } from "../helpers.js";

// Inspection installs, and the Skills uplift rebuilds, a candidate from the files the safe reader kept: each must land
// with its bytes and exactly its mode, whatever umask the caller runs under.

describe("writeCandidateFiles", () => {
  it("writes each file under its folders with its bytes and exact mode, under a restrictive umask too", () => {
    const root = tempDir("inter-write-files-");
    const before = process.umask(0o077);
    try {
      writeCandidateFiles(root, [
        ["package.json", { bytes: Buffer.from('{"name":"t"}'), mode: 0o644 }],
        ["bin/t.cjs", { bytes: Buffer.from("#!/usr/bin/env node\n"), mode: 0o100755 }],
        ["commands/deep/a.json", { bytes: Buffer.from("[]"), mode: 0 }],
      ]);
    } finally {
      process.umask(before);
    }
    expect(readFileSync(join(root, "package.json"), "utf8")).toBe('{"name":"t"}');
    expect(statSync(join(root, "package.json")).mode & 0o777).toBe(0o644);
    expect(statSync(join(root, "bin/t.cjs")).mode & 0o777).toBe(0o755);
    // A header without a mode: readable, never 0.
    expect(statSync(join(root, "commands/deep/a.json")).mode & 0o777).toBe(0o644);
  });
});
