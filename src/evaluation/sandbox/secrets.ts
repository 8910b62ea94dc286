import { MIN_SECRET_LENGTH } from "../../core/redact.js";

/**
 * What a run (an evaluation attempt, a trigger run, a blind judging) must never write down: the API's credentials
 * (the variables named — a plan's `credential_env`, a candidate's manifest), the services' variables (often the API's
 * own key), and any variable of the runner whose name ends in KEY, TOKEN, SECRET or PASSWORD (an agent's own key).
 * `api` holds the first two alone: what the agent must not be given. The policy that hides them is core/redact.ts.
 */
export function runSecrets(
  credentials: string[],
  services: Record<string, { env?: Record<string, string> }>,
  env: NodeJS.ProcessEnv = process.env,
): { api: string[]; all: string[] } {
  const api = [
    ...credentials.map((name) => env[name]),
    ...Object.values(services).flatMap((s) => Object.values(s.env ?? {})),
  ].filter((v): v is string => Boolean(v));
  const agentKeys = Object.entries(env)
    .filter(
      ([key, value]) =>
        value &&
        value.length >= MIN_SECRET_LENGTH &&
        /(KEY|TOKEN|SECRET|PASSWORD)$/i.test(key) &&
        !key.startsWith("npm_"),
    )
    .map(([, value]) => value!);
  return { api, all: [...api, ...agentKeys] };
}
