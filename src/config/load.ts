import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { InterError } from "../core/errors.js";
import type { LoadedConfig } from "./types.js";
import { compileConfig, type CompileError } from "./compile.js";
import { validateConfig } from "./validate.js";
import { CONFIG_BUILD_DIR } from "./project-paths.js";

import { CONFIG_NAMES, findConfig } from "./find-config.js";

export { CONFIG_NAMES, findConfig };

export function resolveConfigFile(cwd: string, explicit: string | undefined): string {
  if (explicit) {
    const file = resolve(cwd, explicit);
    if (!existsSync(file) || !statSync(file).isFile()) {
      throw new InterError(
        "CONFIG_NOT_FOUND",
        `Config file ${explicit} does not exist (resolved to ${file}).`,
        "Check the --config path, or omit --config to search upward from the working directory.",
        { file },
      );
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

/** Thrown in place of a `process.exit()` the config calls while it loads, which would end inter silently. */
class ConfigExit extends Error {}

/**
 * Runs `load` with `process.exit` refused: a config is trusted code, but one that exits while loading would make inter
 * end with no output and whatever status it chose, which a user (or CI) reads as success.
 */
function refusingExit<T>(load: () => T): T {
  const exit = process.exit;
  process.exit = ((code?: number | string | null) => {
    throw new ConfigExit(`the config called process.exit(${code ?? ""}) while loading`);
  }) as typeof process.exit;
  try {
    return load();
  } finally {
    process.exit = exit;
  }
}

async function importConfig(file: string, version: string): Promise<{ exported: unknown; sources: string[] }> {
  const compiled = await compileConfig(file, join(dirname(file), CONFIG_BUILD_DIR), version);
  // The module's name is a hash of its code, so require's cache never serves an edited config's old module.
  const mod = refusingExit(() => createRequire(import.meta.url)(compiled.module) as { default?: unknown });
  return { exported: mod.default, sources: compiled.sources };
}

const messageOf = (error: unknown): string =>
  error instanceof Error
    ? error.message
    : typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string"
      ? String((error as { message: string }).message)
      : String(error);

/** `agents` are the names of the agent presets a target may name (src/evaluation/sandbox/presets.ts). */
export async function loadConfig(options: {
  cwd: string;
  config?: string;
  version: string;
  agents: readonly string[];
}): Promise<LoadedConfig> {
  const file = resolveConfigFile(options.cwd, options.config);
  let exported: unknown;
  let sources: string[];
  try {
    ({ exported, sources } = await importConfig(file, options.version));
  } catch (error) {
    const compileError =
      error !== null && typeof error === "object" ? (error as { compileError?: CompileError }).compileError : undefined;
    if (compileError) {
      const where = `${compileError.file ?? file}${compileError.line ? `:${compileError.line}:${compileError.column ?? 1}` : ""}`;
      throw new InterError("CONFIG_SYNTAX", `${where}: ${compileError.message}`, `Fix the config at ${where}.`, {
        ...compileError,
      });
    }
    if (error instanceof ConfigExit)
      throw new InterError(
        "CONFIG_LOAD_FAILED",
        `${file}: ${error.message}`,
        "A config only describes the build: remove the process.exit call (throw an Error to stop with a message).",
        { file },
      );
    throw new InterError(
      "CONFIG_LOAD_FAILED",
      `${file}: the config threw while loading: ${messageOf(error).split("\n")[0]}`,
      "Fix the code the config runs or the module it imports.",
      { file },
    );
  }
  // Validation reads the exported object, whose getters (or proxy traps) are the config's code too.
  try {
    return {
      config: refusingExit(() => validateConfig(exported, file, options.agents)),
      file,
      root: dirname(file),
      sources,
    };
  } catch (error) {
    if (error instanceof InterError) throw error;
    const reason =
      error instanceof ConfigExit ? error.message : `reading its export threw: ${messageOf(error).split("\n")[0]}`;
    throw new InterError(
      "CONFIG_LOAD_FAILED",
      `${file}: ${reason}`,
      "Export a plain object from defineConfig(); compute values before exporting them rather than in getters.",
      { file },
    );
  }
}
