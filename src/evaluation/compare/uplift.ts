import { writeFileSync } from "node:fs";
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
  const { packTgz } = await import("../../core/reproducible-tgz.js");
  const files = [...candidate.files].map(([path, entry]) => ({
    path,
    bytes: path === "manifest.json" ? Buffer.from(manifestWithoutSkills(candidate.manifest)) : entry.bytes,
    mode: entry.mode & 0o777,
  }));
  // Packed as every candidate is (byte for byte reproducible), straight from memory.
  writeFileSync(out, await packTgz(files));
}

const manifestWithoutSkills = (manifest: Record<string, unknown>) =>
  `${JSON.stringify({ ...manifest, skills: [] }, null, 2)}\n`;
