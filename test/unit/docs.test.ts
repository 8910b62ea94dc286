import { execa } from "execa";
import { readdirSync, readFileSync, statSync } from "node:fs";
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
    const headings = [...troubleshooting.matchAll(/^### (.+)$/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([A-Z_]+)`/g)].map((c) => c[1]),
    );
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

describe("inter's words", () => {
  // A count printed before a plural noun says "1 scenarios" when it is one: every count goes through count() instead.
  const NOUNS =
    "scenarios|attempts|checks|commands|groups|Skills|files|operations|tasks|objects|records|calls|blockers|entries|findings|regressions|improvements|repetitions|errors|warnings|rules|items|invocations|placeholders|hits|misses|uploads|requests|answers|turns|issues|steps|values|outputs|flags";
  const PLURAL = new RegExp(
    `\\$\\{[^{}\`]*\\}\\s+(?:${NOUNS})\\b|\\$\\{[^{}\`]*\\}\\s+[a-z]+(?: [a-z]+)?\\((?:s|es)\\)`,
  );

  it("count() says one scenario and two scenarios", async () => {
    const { count } = await import("../../src/core/plural.js");
    expect([
      count(0, "scenario"),
      count(1, "scenario"),
      count(2, "scenario"),
      count(1, "entry", "entries"),
      count(3, "entry", "entries"),
    ]).toEqual(["0 scenarios", "1 scenario", "2 scenarios", "1 entry", "3 entries"]);
  });

  it('no message in src prints a count before a fixed plural ("1 scenarios") or a "(s)"', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith(".ts")) files.push(path);
      }
    };
    walk(join(REPO, "src"));
    const found = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => [line, i] as const)
        .filter(
          ([line]) => !line.trimStart().startsWith("//") && !line.trimStart().startsWith("*") && PLURAL.test(line),
        )
        .map(([line, i]) => `${file.slice(REPO.length + 1)}:${i + 1}: ${line.match(PLURAL)![0]}`),
    );
    expect(found).toEqual([]);
  });
});

describe("the docs index", () => {
  it("docs/README.md lists every page in docs/ with a line, and the README links it", () => {
    const index = readFileSync(join(REPO, "docs/README.md"), "utf8");
    const pages = readdirSync(join(REPO, "docs")).filter((f) => f.endsWith(".md") && f !== "README.md");
    for (const page of pages)
      expect(index, page).toMatch(
        new RegExp(`^\\| \\[${page.replace(".", "\\.")}\\]\\(${page.replace(".", "\\.")}\\) \\| .{20,} \\|$`, "m"),
      );
    expect(readFileSync(join(REPO, "README.md"), "utf8")).toContain("(docs/README.md)");
  });
});
