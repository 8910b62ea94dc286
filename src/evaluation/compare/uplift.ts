import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { openCandidate } from "../../stages/candidate/open-candidate.js";

/** The files that make a candidate's Skills: the bundled SKILL.md folders and their copies for agents. */
const skillFile = (path: string) => path.startsWith("skills/") || path.startsWith("agent/skills/");

/**
 * The candidate with its Skills taken out and nothing else changed: the bundled SKILL.md files, their copies under
 * agent/skills/, and the manifest's list (so `<binary> skills` lists none). A comparison against it measures what the
 * Skills contribute. The candidate is read once by the candidate reader (nothing of it is unpacked as it came).
 */
export async function withoutSkills(tgz: string, out: string): Promise<void> {
  const candidate = await openCandidate(tgz, { keep: (path) => !skillFile(path) });
  const tar = await import("tar");
  const dir = ownedTempDir("uplift");
  try {
    for (const [path, entry] of candidate.files) {
      const file = join(dir, "package", path);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, path === "manifest.json" ? manifestWithoutSkills(candidate.manifest) : entry.bytes);
      chmodSync(file, entry.mode & 0o777 || 0o644);
    }
    await tar.c({ gzip: true, file: out, cwd: dir, portable: true }, ["package"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const manifestWithoutSkills = (manifest: Record<string, unknown>) =>
  `${JSON.stringify({ ...manifest, skills: [] }, null, 2)}\n`;
