import { execa } from "execa";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/core/errors.js";
import { REPO } from "../helpers.js";

describe("the docs cannot drift from the code", () => {
  it("docs/config.md's field table is the one generated from src/config/types.ts", async () => {
    const check = await execa("node", [join(REPO, "scripts/config-reference.mjs"), "--check"], { reject: false });
    expect(check.stderr).toBe("");
    expect(check.exitCode).toBe(0);
  });

  it("every error code has its exit status in the README table and a section in docs/troubleshooting.md", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const troubleshooting = readFileSync(join(REPO, "docs/troubleshooting.md"), "utf8");
    const headings = [...troubleshooting.matchAll(/^### (.+)$/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z_]+)`/g)].map((c) => c[1]));
    const sections = [...troubleshooting.matchAll(/^## Exit (\d+)[\s\S]*?(?=^## |$(?![\s\S]))/gm)];
    for (const [code, exit] of Object.entries(ERROR_CODES)) {
      expect(readme, code).toContain(`| \`${code}\` | ${exit} |`);
      expect(headings, code).toContain(code);
      const section = sections.find((s) => s[0].includes(`\`${code}\``));
      expect(section?.[1], `${code} is under the wrong exit status`).toBe(String(exit));
    }
    expect(headings.every((h) => h! in ERROR_CODES)).toBe(true);
  });
});
