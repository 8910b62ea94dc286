import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "./process.js";

// Temporary folders carry the pid of the inter process that made them, so a later run can tell the leftovers of a
// process killed with SIGKILL (which runs no cleanup) from the folders of one still working, and remove only those.
// The name is distinctive on purpose (`inter-owned-…-p<pid>-`): only folders inter made this way are ever removed,
// never another tool's (or a user's) folder that happens to start with "inter-".
const NAME = /^inter-owned-[a-z]+(?:-[a-z]+)*-p(\d+)-[A-Za-z0-9]{6}$/;

/** A fresh folder under the system's temporary folder, named `inter-owned-<purpose>-p<pid>-XXXXXX`. */
export function ownedTempDir(purpose: string): string {
  sweepOrphanedTempDirs();
  return mkdtempSync(join(tmpdir(), `inter-owned-${purpose}-p${process.pid}-`));
}

const swept = new Set<string>();

/** Removes (once per process) the temporary folders of inter processes that are no longer running. */
export function sweepOrphanedTempDirs(dir = tmpdir()): number {
  if (swept.has(dir)) return 0;
  swept.add(dir);
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match || Number(match[1]) === process.pid || processAlive(Number(match[1]))) continue;
    try {
      const stat = lstatSync(join(dir, name));
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed++;
    } catch {
      // another process's sweep got there first, or it is not ours to remove
    }
  }
  return removed;
}
