import type { InterConfig } from "./types.js";

/** The environment variable holding the API credential: api.credentialEnv, else `<BINARY>_API_KEY`. */
export function credentialEnv(config: Pick<InterConfig, "product" | "api">): string {
  return config.api?.credentialEnv ?? `${config.product.binary.toUpperCase().replace(/-/g, "_")}_API_KEY`;
}
