import { loadConfig } from "../config/load.js";
import type { LoadedConfig } from "../config/types.js";
import { INTER_BUILD } from "../core/version.js";
import { PRESET_NAMES } from "../evaluation/sandbox/presets.js";

/** The project's config, validated against this inter's build and the agent presets it has. */
export const loadProjectConfig = (cwd: string, config?: string): Promise<LoadedConfig> =>
  loadConfig({ cwd, config, version: INTER_BUILD, agents: PRESET_NAMES });
