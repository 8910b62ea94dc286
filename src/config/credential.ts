import type { InterConfig } from "./types.js";

/** The prefix of every credential variable the design names by default (stages/design/credentials.ts): `<BINARY>_`. */
export const credentialPrefix = (config: Pick<InterConfig, "product">) =>
  `${config.product.binary.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_`;

/**
 * The credential variables a build may read, as task env names (engine/graph/key.ts): every `<BINARY>_*` variable and
 * each one the config names — the design decides which of them a candidate reads.
 */
export function credentialEnvNames(config: Pick<InterConfig, "product" | "api">): string[] {
  const named = Object.values(config.api?.credentials ?? {}).flatMap((v) =>
    typeof v === "string" ? [v] : Object.values(v).filter((n): n is string => !!n),
  );
  return [
    ...new Set([
      `${credentialPrefix(config)}*`,
      ...(config.api?.credentialEnv ? [config.api.credentialEnv] : []),
      ...named,
    ]),
  ].sort();
}
