import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A file shipped in the intermesh package (lib/runtime.cjs, schemas/…), found by walking up from this module: bundled
 * code may sit in lib/ or lib/chunks/, and source in src/.
 */
export function shippedFile(relative: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) throw new Error(`intermesh is missing ${relative}; reinstall it`);
  }
}
