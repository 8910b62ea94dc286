import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { InterError } from "../errors.js";
import type { LoadedConfig } from "./types.js";
import { compileConfig, type CompileError } from "./compile.js";
import { validateConfig } from "./validate.js";

export const CONFIG_NAMES = ["intermesh.config.ts", "intermesh.config.mts", "intermesh.config.js", "intermesh.config.mjs"];

/** Finds the config by walking up from `cwd`, the way git finds its repository. */
export function findConfig(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_NAMES) {
      const file = join(dir, name);
      if (existsSync(file)) return file;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function resolveConfigFile(cwd: string, explicit: string | undefined): string {
  if (explicit) {
    const file = resolve(cwd, explicit);
    if (!existsSync(file) || !statSync(file).isFile()) {
      throw new InterError("CONFIG_NOT_FOUND", `Config file ${explicit} does not exist (resolved to ${file}).`, "Check the --config path, or omit --config to search upward from the working directory.", { file });
    }
    return file;
  }
  const found = findConfig(cwd);
  if (!found) {
    throw new InterError(
      "CONFIG_NOT_FOUND",
      `No ${CONFIG_NAMES.join(", ")} in ${resolve(cwd)} or any parent folder.`,
      "Run `inter init` to scaffold one, or pass --config <file> / --cwd <dir>.",
      { cwd: resolve(cwd), names: CONFIG_NAMES },
    );
  }
  return found;
}

async function importConfig(file: string, version: string): Promise<{ exported: unknown; sources: string[] }> {
  const compiled = await compileConfig(file, join(dirname(file), ".intermesh", "config"), version);
  // The module's name is a hash of its code, so require's cache never serves an edited config's old module.
  const mod = createRequire(import.meta.url)(compiled.module) as { default?: unknown };
  return { exported: mod.default, sources: compiled.sources };
}

export async function loadConfig(options: { cwd: string; config?: string; version: string }): Promise<LoadedConfig> {
  const file = resolveConfigFile(options.cwd, options.config);
  let exported: unknown;
  let sources: string[];
  try {
    ({ exported, sources } = await importConfig(file, options.version));
  } catch (error) {
    const compileError = (error as { compileError?: CompileError }).compileError;
    if (compileError) {
      const where = `${compileError.file ?? file}${compileError.line ? `:${compileError.line}:${compileError.column ?? 1}` : ""}`;
      throw new InterError("CONFIG_SYNTAX", `${where}: ${compileError.message}`, `Fix the config at ${where}.`, { ...compileError });
    }
    const message = (error as Error)?.message ?? String(error);
    throw new InterError("CONFIG_LOAD_FAILED", `${file}: the config threw while loading: ${message.split("\n")[0]}`, "Fix the code the config runs or the module it imports.", { file });
  }
  return { config: validateConfig(exported, file), file, root: dirname(file), sources };
}
