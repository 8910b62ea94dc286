import { ownedTempDir } from "../../core/temp-dirs.js";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkTarball } from "../../stages/inspect/tarball.js";

/**
 * The candidate with its Skills taken out and nothing else changed: the bundled SKILL.md files, their copies under
 * agent/skills/, and the manifest's list (so `<binary> skills` lists none). A comparison against it measures what the
 * Skills contribute.
 */
export async function withoutSkills(tgz: string, out: string): Promise<void> {
  await checkTarball(tgz);
  const tar = await import("tar");
  const dir = ownedTempDir("uplift");
  try {
    await tar.x({ file: tgz, cwd: dir });
    rmSync(join(dir, "package/skills"), { recursive: true, force: true });
    rmSync(join(dir, "package/agent/skills"), { recursive: true, force: true });
    const manifestFile = join(dir, "package/manifest.json");
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { skills?: unknown[] };
    manifest.skills = [];
    writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.c({ gzip: true, file: out, cwd: dir, portable: true }, ["package"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
