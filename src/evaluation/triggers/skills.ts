import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { sha256 } from "../../core/hash.js";
import { InterError } from "../../core/errors.js";
import { frontMatterText, readFrontMatter } from "../../core/front-matter.js";

/** One Skill of the candidate: its name, description and every file of its folder (SKILL.md, references). */
export interface CandidateSkill {
  name: string;
  description: string;
  files: Record<string, string>;
}

/** A Skill folder's files stay small; past this a Skill is not one an agent loads. */
const MAX_SKILL_BYTES = 1024 * 1024;

function skill(name: string, files: Record<string, string>, where: string): CandidateSkill {
  const text = files["SKILL.md"];
  if (text === undefined)
    throw new InterError(
      "INPUT_NOT_FOUND",
      `${where} has no SKILL.md.`,
      "A Skill is a folder named for it, holding SKILL.md with name and description in its front matter.",
      { path: where },
    );
  const front = readFrontMatter(text);
  const meta = { name: frontMatterText(front, "name"), description: frontMatterText(front, "description") };
  if (meta.name && meta.name !== name)
    throw new InterError(
      "TRIGGER_QUERIES_INVALID",
      `${where}/SKILL.md names itself "${meta.name}", not its folder's name "${name}".`,
      "Agents load a Skill by its name: make the folder and the front matter's name agree.",
      { path: where },
    );
  return { name, description: meta.description ?? "", files };
}

/** The Skills bundled in a candidate cli.tgz (package/skills/<name>/…), read without unpacking anything to disk. */
export async function skillsFromTarball(tgz: string): Promise<CandidateSkill[]> {
  const { checkTarball } = await import("../../stages/inspect/tarball.js");
  await checkTarball(tgz);
  const tar = await import("tar");
  const byName = new Map<string, Record<string, string>>();
  await tar.t({
    file: tgz,
    onReadEntry: (entry) => {
      const m = /^package\/skills\/([a-z0-9][a-z0-9-]*)\/(.+)$/.exec(entry.path);
      if (!m || entry.type !== "File") return entry.resume();
      const chunks: Buffer[] = [];
      entry.on("data", (c: Buffer) => chunks.push(c));
      entry.on("end", () => {
        const files = byName.get(m[1]!) ?? {};
        files[m[2]!] = Buffer.concat(chunks).toString("utf8");
        byName.set(m[1]!, files);
      });
    },
  });
  return [...byName]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, files]) => skill(name, files, `cli.tgz package/skills/${name}`));
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
  sha256(JSON.stringify(skills.map((s) => [s.name, Object.entries(s.files).sort(([a], [b]) => a.localeCompare(b))])));
