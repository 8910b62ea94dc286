import { sha256 } from "../cache/hash.js";
import type { ServiceConfig } from "../config/types.js";

/**
 * Services as a task's cache key sees them: an `env` value often is a secret (the API's own key), and keys are
 * written into cache records and shared through the remote cache, so each value is keyed by its hash.
 */
export function servicesKey(services: Record<string, ServiceConfig>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(services).map(([name, s]) => [name, { ...s, ...(s.env ? { env: Object.fromEntries(Object.entries(s.env).map(([k, v]) => [k, `sha256:${sha256(v)}`])) } : {}) }]),
  );
}
