import { errorOf } from "./probe-output.js";
import type { Probe } from "./probe.js";

/**
 * The error codes by which a generated CLI says the API, or the way to it, refused or could not answer a call — not
 * the CLI: a credential the API does not accept, a server that fails or is not there. A probe answered so says
 * nothing of the CLI's output, and is not judged (docs/generated-cli.md, the exit-code table).
 */
const REFUSED_BY_API = new Set([
  "CREDENTIAL_MISSING",
  "AUTH_FAILED",
  "AUTH_EXPIRED",
  "PERMISSION_DENIED",
  "RATE_LIMITED",
  "SERVER_ERROR",
  "NETWORK_ERROR",
  "TIMEOUT",
]);
const BY_CREDENTIAL = new Set(["CREDENTIAL_MISSING", "AUTH_FAILED", "AUTH_EXPIRED", "PERMISSION_DENIED"]);

/** Whether an error code says the API refused or could not answer. */
export const refusedByApi = (code: string | undefined): boolean => !!code && REFUSED_BY_API.has(code);

/**
 * Why the API probes are not judged, with the next action, when the first of them that ran was refused by the API;
 * undefined when it answered (or failed in a way that is the CLI's own).
 */
export function apiRefusal(
  probes: Array<Probe | undefined>,
  credentialEnvs: readonly string[],
  baseUrl: string | undefined,
): string | undefined {
  const first = probes.find((p): p is Probe => !!p);
  const code = first && first.exitCode !== 0 ? errorOf(first)?.code : undefined;
  if (!first || !refusedByApi(code)) return undefined;
  const next = BY_CREDENTIAL.has(code!)
    ? credentialEnvs.length
      ? `set ${credentialEnvs.join(" or ")} to a credential the API accepts, then build again`
      : "give the API a credential it accepts, then build again"
    : `check that the API${baseUrl ? ` at ${baseUrl}` : ""} answers, then build again`;
  return `the API refused the probes' calls (\`${first.command}\` answered ${code}): its answers are not judged; ${next}`;
}
