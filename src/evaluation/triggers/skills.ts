import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { sha256 } from "../../core/hash.js";
import { InterError } from "../../core/errors.js";
import { type FrontMatter, frontMatterText, readFrontMatter } from "../../core/front-matter.js";
import { type Candidate, openCandidate } from "../../stages/candidate/open-candidate.js";
import { compareText } from "../../core/text-order.js";

/** One Skill of the candidate: its name, description and every file of its folder (SKILL.md, references). */
export interface CandidateSkill {
  name: string;
  description: string;
  files: Record<string, string>;
}

/** A Skill folder's files stay small; past this a Skill is not one an agent loads. */
const MAX_SKILL_BYTES = 1024 * 1024;

function skill(name: string, files: Record<string, string>, where: string, front?: FrontMatter): CandidateSkill {
  const text = files["SKILL.md"];
  if (text === undefined)
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${where} has no SKILL.md.`,
      "A Skill is a folder named for it, holding SKILL.md with name and description in its front matter.",
      { path: where },
    );
  const read = front ?? readFrontMatter(text);
  const meta = { name: frontMatterText(read, "name"), description: frontMatterText(read, "description") };
  if (meta.name && meta.name !== name)
    throw new InterError(
      "TRIGGER_QUERIES_INVALID",
      `${where}/SKILL.md names itself "${meta.name}", not its folder's name "${name}".`,
      "Agents load a Skill by its name: make the folder and the front matter's name agree.",
      { path: where },
    );
  return { name, description: meta.description ?? "", files };
}

/** The files `skillsOfCandidate` needs: every file of every bundled Skill. */
export const skillFile = (path: string) => path.startsWith("skills/");

/** The Skills bundled in a candidate opened by stages/candidate/open-candidate.ts (package/skills/<name>/…). */
export function skillsOfCandidate(candidate: Candidate): CandidateSkill[] {
  return candidate.skills.map((s) => skill(s.name, s.files, `${candidate.label} package/skills/${s.name}`, s.front));
}

/** The Skills bundled in a candidate cli.tgz, read once without unpacking anything to disk. */
export async function skillsFromTarball(tgz: string, label = "cli.tgz"): Promise<CandidateSkill[]> {
  return skillsOfCandidate(await openCandidate(tgz, { label, keep: skillFile }));
}

/** The Skills of a folder holding one folder per Skill (inter's own skills/, a plugin's). `evals/` is never installed. */
export function skillsFromFolder(dir: string): CandidateSkill[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new InterError(
      "INPUT_NOT_FOUND",
      `No Skills folder at ${dir}.`,
      "Give a folder holding one folder per Skill, each with a SKILL.md.",
      { path: dir },
    );
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "SKILL.md")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const root = join(dir, name);
      const files: Record<string, string> = {};
      let bytes = 0;
      const walk = (at: string) => {
        for (const entry of readdirSync(at, { withFileTypes: true })) {
          const path = join(at, entry.name);
          const rel = relative(root, path);
          if (rel === "evals") continue;
          if (entry.isDirectory()) walk(path);
          else if (entry.isFile()) {
            bytes += statSync(path).size;
            if (bytes > MAX_SKILL_BYTES)
              throw new InterError(
                "INPUT_TOO_LARGE",
                `${root}: the Skill's files are over ${MAX_SKILL_BYTES} bytes.`,
                "A Skill is instructions and a few references; keep data elsewhere.",
                { path: root },
              );
            files[rel] = readFileSync(path, "utf8");
          }
        }
      };
      walk(root);
      return skill(name, files, root);
    });
}

/** What results are bound to: every file of every Skill. */
export const skillsHash = (skills: CandidateSkill[]) =>
  sha256(JSON.stringify(skills.map((s) => [s.name, Object.entries(s.files).sort(([a], [b]) => compareText(a, b))])));
