import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { validateSkills } from "../../src/stages/inspect/skills.js";
import { inter, REPO } from "../helpers.js";

const SKILLS_DIR = join(REPO, "skills");
const names = readdirSync(SKILLS_DIR).sort();
const skillText = (name: string) => readFileSync(join(SKILLS_DIR, name, "SKILL.md"), "utf8");

/** Every `inter …` command line a Skill quotes: inline code spans and lines of fenced blocks. */
function quotedCommands(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  const fenced = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split("\n").map((l) => l.trim()));
  return [...new Set([...spans, ...fenced].filter((line) => /^inter [a-z]/.test(line)))];
}

let help: Array<{ command: string; options: Array<{ flags: string }> }>;
beforeAll(async () => {
  help = (await inter(REPO, ["--help", "--json"])).json.data.commands;
});

describe("inter's own Skills", () => {
  it("are the four the docs promise", () => {
    expect(names).toEqual(["intermesh-context", "intermesh-eval-plan", "intermesh-evaluate", "intermesh-workspace"]);
  });

  it("pass the same portable Skill validation as generated Skills, against inter's real commands", async () => {
    const commands = help.map((c) => ({ name: c.command.replace(/^inter /, "") }));
    const checks = await validateSkills(Object.fromEntries(names.map((n) => [n, skillText(n)])), "inter", commands, {
      positionals: true,
    });
    for (const check of checks) expect(check.problems, check.name).toEqual([]);
    // Each says when to use it and when not.
    for (const n of names) expect(skillText(n)).toMatch(/## When to use this skill[\s\S]*Do not use it/);
  });

  it.each(names)(
    "%s: every command line it quotes names a real command with real flags, and its --help answers",
    async (name) => {
      const lines = quotedCommands(skillText(name));
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) {
        const words = line.split(/\s+/);
        // The longest command the line starts with; what follows are its positional arguments and flags.
        const command = help
          .filter((c) => line === c.command || line.startsWith(`${c.command} `))
          .sort((a, b) => b.command.length - a.command.length)[0];
        const path = command?.command ?? words.slice(0, 2).join(" ");
        expect(command, `${name} quotes \`${line}\`: no command "${path}"`).toBeDefined();
        const flags = new Set(command!.options.flatMap((o) => o.flags.split(/[ ,]+/).filter((f) => f.startsWith("-"))));
        for (const flag of words.filter((w) => w.startsWith("--")))
          expect(flags.has(flag), `${name} quotes \`${line}\`: ${path} has no ${flag}`).toBe(true);
        const shown = await inter(REPO, [...path.split(" ").slice(1), "--help", "--json"]);
        expect(shown.exitCode).toBe(0);
        expect(shown.json.data.commands.map((c: { command: string }) => c.command)).toEqual([path]);
      }
    },
  );

  it.each(names)("%s carries behaviour cases: prompts with the expected outcome and what must not happen", (name) => {
    const cases = JSON.parse(readFileSync(join(SKILLS_DIR, name, "evals/evals.json"), "utf8"));
    expect(cases.skill_name).toBe(name);
    expect(cases.evals.length).toBeGreaterThanOrEqual(2);
    for (const c of cases.evals) {
      expect(c.id).toMatch(/^[a-z0-9-]+$/);
      expect(c.prompt.length).toBeGreaterThan(20);
      expect(c.expected_outcome.length).toBeGreaterThan(20);
      expect(c.should_not.length).toBeGreaterThan(0);
    }
  });
});
