import { redactor } from "../core/redact.js";
import { knownSecrets } from "./credentials.js";
import type { Manifest } from "./manifest.js";

/**
 * Text with every credential this process knows (each scheme's variables, Basic pairs, tokens obtained) cut out, in
 * every form core/redact.ts knows (as is, base64, URL-encoded). A value shorter than MIN_SECRET_LENGTH is not cut from
 * arbitrary text, which it would mangle ("x" in a host name); where it is sent, the request's redaction replaces it whole.
 */
export function withoutCredentials(text: string, manifest: Manifest): string {
  const secrets = knownSecrets(manifest);
  return secrets.length ? redactor(secrets)(text) : text;
}
