import { chmodSync } from "node:fs";
import { join } from "node:path";
import { writeFileMakingFolders } from "../../core/atomic.js";
import type { PackageEntry } from "./read-tarball.js";

/**
 * Writes a candidate's files under `root`, each with its mode (0644 when the tarball gave none): the files the safe
 * reader kept (stages/candidate/read-tarball.ts), whose paths it checked stay inside the package.
 */
export function writeCandidateFiles(root: string, files: Iterable<readonly [string, PackageEntry]>): void {
  for (const [path, { bytes, mode }] of files) {
    const file = join(root, path);
    writeFileMakingFolders(file, bytes);
    // Exactly its mode, whatever the umask.
    chmodSync(file, mode & 0o777 || 0o644);
  }
}
