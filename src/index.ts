export type * from "./config/types.js";
import type { InterConfig } from "./config/types.js";

/** Identity at runtime; exists so that `intermesh.config.ts` is type-checked against the config shape. */
export function defineConfig(config: InterConfig): InterConfig {
  return config;
}
