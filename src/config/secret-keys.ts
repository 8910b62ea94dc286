import { sha256 } from "../core/hash.js";
import type { AgentConfig, ServiceConfig } from "./types.js";

const hashed = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, `sha256:${sha256(v)}`]));

/**
 * Services as a task's cache key sees them: an `env` value often is a secret (the API's own key), and keys are
 * written into cache records and shared through the remote cache, so each value is keyed by its hash.
 */
export function servicesKey(services: Record<string, ServiceConfig>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(services).map(([name, s]) => [name, { ...s, ...(s.env ? { env: hashed(s.env) } : {}) }]),
  );
}

/** The agent as a cache key sees it: its `env` may hold the agent's own API key. */
export function agentKey(agent: AgentConfig): unknown {
  return typeof agent === "object" && agent.env ? { ...agent, env: hashed(agent.env) } : agent;
}
