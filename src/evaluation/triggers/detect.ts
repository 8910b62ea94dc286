import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PRESETS, type Preset } from "../sandbox/presets.js";
import type { Transcript } from "../sandbox/transcript.js";

/** Every folder name any preset reads Skills from, in a project or a HOME: a Skill there would compete. */
const SKILL_FOLDERS = [...new Set(Object.values(PRESETS).flatMap((preset) => preset.skillFolders))];

/** What a trigger attempt's transcript says about Skills: what loaded, what failed to load, what was offered. */
export interface SkillUse {
  /** Skills the agent loaded, in order, each once: by its Skill tool, or by reading that Skill's SKILL.md. */
  loaded: string[];
  /** Loads that failed (no such Skill, no such file, the tool broke), with what the tool said. */
  failed: Array<{ skill: string; output: string }>;
}

const skillPathName = /(?:^|[/\s"'])([a-z0-9][a-z0-9-]*)\/SKILL\.md\b/g;

/**
 * The Skills an agent loaded, from its normalized transcript (transcript.ts): a call of its Skill tool (Claude Code's
 * `Skill` {skill}, opencode's `skill` {name}), or any tool call — a read, a shell command — that opens a SKILL.md
 * under a Skills folder (how Codex loads one).
 */
export function skillUse(transcript: Transcript): SkillUse {
  const loaded: string[] = [];
  const failed: SkillUse["failed"] = [];
  for (const call of transcript.tool_calls) {
    const input = (call.input ?? {}) as Record<string, unknown>;
    let names: string[] = [];
    if (call.name.toLowerCase() === "skill") {
      const given = input.skill ?? input.name ?? input.command;
      // A plugin's Skill is named plugin:skill.
      if (typeof given === "string" && given) names = [given.replace(/^\//, "").split(":").pop()!];
    } else {
      const text = JSON.stringify(input);
      if (/skills?\//.test(text)) names = [...text.matchAll(skillPathName)].map((m) => m[1]!);
    }
    const broke = call.is_error || (typeof call.exit_code === "number" && call.exit_code !== 0);
    for (const name of names) {
      if (!broke) loaded.includes(name) || loaded.push(name);
      else if (!failed.some((f) => f.skill === name))
        failed.push({ skill: name, output: (call.output ?? "").trim().slice(0, 300) });
    }
  }
  return { loaded, failed: failed.filter((f) => !loaded.includes(f.skill)) };
}

/**
 * Why the agent could not have seen the candidate's Skills in this attempt, or undefined. Claude Code lists the
 * Skills it offers in its first event; a Skill load that failed means the tool or file was not where it looked.
 */
export function blindness(transcript: Transcript, use: SkillUse, skills: string[]): string | undefined {
  const offered = transcript.skills;
  if (Array.isArray(offered)) {
    const missing = skills.filter((s) => !offered.includes(s));
    if (missing.length)
      return `the agent does not see the candidate's Skill${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (it offered: ${offered.slice(0, 20).join(", ") || "none"})`;
  }
  const failed = use.failed.filter((f) => skills.includes(f.skill));
  if (failed.length) {
    // opencode's skill tool lists the Skill's files with ripgrep, which it expects on PATH.
    const hint = failed.some((f) => /ripgrep|\brg\b/i.test(f.output))
      ? " (its Skill tool needs ripgrep, `rg`, on PATH)"
      : "";
    return `the agent tried to load ${failed.map((f) => f.skill).join(", ")} and could not${hint}: ${failed[0]!.output || "its tool failed"}`;
  }
  return undefined;
}

/**
 * What, outside the fresh project, would offer the agent Skills beside (or instead of) the candidate's: Skills folders
 * in the project's parent folders (agents look upward to the repository root), and the user's agent configuration
 * that adds Skills or plugins. Each finding names its file.
 */
export function shadows(preset: Preset, project: string | undefined, configFiles: string[]): string[] {
  const found: string[] = [];
  if (project) {
    for (let dir = dirname(project); ; dir = dirname(dir)) {
      for (const folder of SKILL_FOLDERS) {
        const path = join(dir, folder);
        if (existsSync(path) && readdirSync(path).length)
          found.push(`${path} (Skills in a parent folder of the attempt)`);
      }
      if (dirname(dir) === dir) break;
    }
  }
  for (const file of configFiles) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    if (preset.skillSettings.test(text)) found.push(`${file} (its settings add Skills or plugins)`);
  }
  return found;
}
