import { lstatSync, readdirSync, readFileSync, writeFileSync, type Dirent } from "node:fs";
import { join } from "node:path";

/**
 * Redacts every small regular file under a folder in place (an agent's HOME and temp folder: session logs and
 * settings where an agent may keep part of its own key). Links are not followed; a file that holds no secret is not
 * rewritten.
 */
export function redactTree(dir: string, redact: (text: string) => string, maxBytes = 5_000_000): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    try {
      if (lstatSync(file).size > maxBytes) continue;
      const text = readFileSync(file, "latin1");
      const clean = redact(text);
      if (clean !== text) writeFileSync(file, clean, "latin1");
    } catch {
      // a read-only mount point or a file the agent removed meanwhile
    }
  }
}
