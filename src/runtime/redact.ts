import { MIN_SECRET_LENGTH, REDACTED, redactor } from "../core/redact.js";
import type { Manifest } from "./manifest.js";

/** The credential this CLI holds (from its environment variable), if any. */
export const credentialOf = (manifest: Manifest): string | undefined => process.env[manifest.auth.env] || undefined;

/**
 * Text with the credential cut out, in every form core/redact.ts knows (as is, base64, URL-encoded). Below
 * MIN_SECRET_LENGTH a value is too short to cut from arbitrary text without mangling it ("x" in a host name); with
 * `min: 1`, where the text is known to hold it (an error naming the value it was given), it is cut as is.
 */
export function withoutCredential(text: string, credential: string | undefined, { min = MIN_SECRET_LENGTH }: { min?: number } = {}): string {
  if (!credential || credential.length < min) return text;
  return credential.length >= MIN_SECRET_LENGTH ? redactor([credential])(text) : text.split(credential).join(REDACTED);
}
