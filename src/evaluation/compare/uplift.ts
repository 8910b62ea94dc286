import { rmSync } from "node:fs";
import { join } from "node:path";
import { ownedTempDir } from "../../core/temp-dirs.js";
import { openCandidate } from "../../stages/candidate/open-candidate.js";
import { writeCandidateFiles } from "../../stages/candidate/write-files.js";

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
    writeCandidateFiles(
      join(dir, "package"),
      [...candidate.files].map(([path, entry]) =>
        path === "manifest.json"
          ? ([path, { ...entry, bytes: Buffer.from(manifestWithoutSkills(candidate.manifest)) }] as const)
          : ([path, entry] as const),
      ),
    );
    await tar.c({ gzip: true, file: out, cwd: dir, portable: true }, ["package"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const manifestWithoutSkills = (manifest: Record<string, unknown>) =>
  `${JSON.stringify({ ...manifest, skills: [] }, null, 2)}\n`;
