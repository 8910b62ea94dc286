import { execFileSync } from "node:child_process";
import { accessSync, constants, lstatSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "./process.js";

// Temporary folders carry the pid of the inter process that made them, so a later run can tell the leftovers of a
// process killed with SIGKILL (which runs no cleanup) from the folders of one still working, and remove only those.
// The name is distinctive on purpose (`inter-owned-…-p<pid>-`): only folders inter made this way are ever removed,
// never another tool's (or a user's) folder that happens to start with "inter-".
const NAME = /^inter-owned-[a-z]+(?:-[a-z]+)*-p(\d+)-[A-Za-z0-9]{6}$/;

const MEMORY = "/dev/shm";
const memoryChecked = new Map<number, string | undefined>();

/**
 * The machine's memory-backed folder (/dev/shm) when it is writable, has `minFreeBytes` free, and a program placed
 * there can run (a one-line script is run to find out: a container's or a hardened host's is often mounted
 * `noexec`, and an installed CLI could not start from it); else undefined. Checked once per process for each size.
 * On a virtual machine's disk creating a file is costly, in memory far cheaper, and installing a large candidate
 * creates about a thousand files.
 */
export function memoryFolder(minFreeBytes: number): string | undefined {
  if (memoryChecked.has(minFreeBytes)) return memoryChecked.get(minFreeBytes);
  let found: string | undefined;
  let probe: string | undefined;
  try {
    accessSync(MEMORY, constants.W_OK);
    const { bavail, bsize } = statfsSync(MEMORY);
    if (bavail * bsize >= minFreeBytes) {
      probe = mkdtempSync(join(MEMORY, `inter-owned-probe-p${process.pid}-`));
      const script = join(probe, "runs");
      writeFileSync(script, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      execFileSync(script, { stdio: "ignore", timeout: 10_000 });
      found = MEMORY;
    }
  } catch {
    // no such folder, not ours to write, or no program may run from it
  } finally {
    if (probe) rmSync(probe, { recursive: true, force: true });
  }
  memoryChecked.set(minFreeBytes, found);
  return found;
}

/** A large candidate's files (256 MiB at most, stages/candidate/read-tarball.ts) and room to spare beside them. */
const MEMORY_FREE_BYTES = 2 ** 30;

/**
 * A fresh folder named `inter-owned-<purpose>-p<pid>-XXXXXX` under the system's temporary folder — or, for `inMemory`
 * (files created by the thousand and removed soon after: an installed candidate), under the memory-backed folder when
 * the user has not chosen one with TMPDIR and the machine has a usable one (memoryFolder).
 */
export function ownedTempDir(purpose: string, { inMemory = false }: { inMemory?: boolean } = {}): string {
  const root = (inMemory && !process.env.TMPDIR && memoryFolder(MEMORY_FREE_BYTES)) || tmpdir();
  sweepOrphanedTempDirs(root);
  return mkdtempSync(join(root, `inter-owned-${purpose}-p${process.pid}-`));
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
