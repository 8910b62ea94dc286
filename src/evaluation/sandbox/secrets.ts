import { lstatSync, readdirSync, readFileSync, writeFileSync, type Dirent } from "node:fs";
import { planCredentialEnvs, type Plan } from "../../stages/plan/types.js";
import { join } from "node:path";
import { MIN_SECRET_LENGTH } from "../../core/redact.js";

/**
 * What an evaluation must never write down: the API's credential (the plan's `credential_env`), the services'
 * variables (often the API's own key), and — with `agentKeys` — any variable of the runner whose name ends in KEY,
 * TOKEN, SECRET or PASSWORD (an agent's own key). `api` holds the first two alone: what the agent must not be given.
 */
export function evaluationSecrets(
  plan: Plan | undefined,
  services: Record<string, { env?: Record<string, string> }>,
  env: NodeJS.ProcessEnv = process.env,
): { api: string[]; all: string[] } {
  const api = [
    ...planCredentialEnvs(plan).map((name) => env[name]),
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

/**
 * Redacts every small regular file under a folder in place (an agent's HOME and temp folder: session logs and
 * settings where an agent may keep part of its own key). Links are not followed; a file that holds no secret is not
 * rewritten.
 */
export function redactTree(dir: string, redact: (text: string) => string, maxBytes = 5_000_000): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    try {
      if (lstatSync(file).size > maxBytes) continue;
      const text = readFileSync(file, "latin1");
      const clean = redact(text);
      if (clean !== text) writeFileSync(file, clean, "latin1");
    } catch {
      // a read-only mount point or a file the agent removed meanwhile
    }
  }
}
