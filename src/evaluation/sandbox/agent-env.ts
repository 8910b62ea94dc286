import { MIN_SECRET_LENGTH } from "../../core/redact.js";

/**
 * The agent's environment: the runner's own (an agent's login and settings live there), minus everything that would
 * let it bypass the candidate — the credential under any name, the API's base URL variable, the services' variables,
 * inter's own settings (remote-cache tokens) — with the attempt's PATH, HOME and temp folder on top.
 */
export function agentEnvironment(options: {
  base: NodeJS.ProcessEnv;
  /** Variable names never passed (the credential's, the base URL's, the services'). */
  blocked: string[];
  /** Values never passed, whatever the variable is called. */
  secrets: string[];
  /** Set last: PATH, HOME, TMPDIR and the like. */
  fixed: Record<string, string>;
}): Record<string, string> {
  const blocked = new Set(options.blocked);
  const secrets = options.secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.base)) {
    if (value === undefined || blocked.has(name) || name.startsWith("INTER_")) continue;
    if (secrets.some((s) => value.includes(s))) continue;
    env[name] = value;
  }
  return { ...env, ...options.fixed };
}
