import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The config file names inter looks for, in order, in each folder from the working directory up. */
export const CONFIG_NAMES = [
  "intermesh.config.ts",
  "intermesh.config.mts",
  "intermesh.config.js",
  "intermesh.config.mjs",
];

/**
 * Finds the config by walking up from `cwd`, the way git finds its repository. Kept in this small module so the no-op
 * fast path (cli/noop-fast-path.ts) makes the same walk without loading the config loader.
 */
export function findConfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_NAMES) {
      const file = join(dir, name);
      if (existsSync(file)) return file;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
