import type { InterConfig } from "./types.js";

/** The prefix of every credential variable the design names by default (stages/design/credentials.ts): `<BINARY>_`. */
export const credentialPrefix = (config: Pick<InterConfig, "product">) =>
  `${config.product.binary.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_`;

/** The variables an AWS Signature Version 4 scheme reads unless the config renames them (stages/design/credentials.ts). */
const AWS_DEFAULTS = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"];

/**
 * The credential variables a build may read, as task env names (engine/graph/key.ts): every `<BINARY>_*` variable,
 * each one the config names, and AWS's own — the design decides which of them a candidate reads.
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
      ...AWS_DEFAULTS,
    ]),
  ].sort();
}
