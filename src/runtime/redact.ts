import type { Manifest } from "./manifest.js";

export const REDACTED = "[REDACTED]";

/** The credential this CLI holds (from its environment variable), if any. */
export const credentialOf = (manifest: Manifest): string | undefined => process.env[manifest.auth.env] || undefined;

/**
 * Text with the credential cut out (also URL-encoded, with `encoded`). Below `min` characters a value is too short to
 * cut from arbitrary text without mangling it ("x" in a host name); where it was placed it is replaced whole instead.
 */
export function withoutCredential(text: string, credential: string | undefined, { min = 4, encoded = false }: { min?: number; encoded?: boolean } = {}): string {
  if (!credential || credential.length < min) return text;
  const out = text.split(credential).join(REDACTED);
  return encoded ? out.split(encodeURIComponent(credential)).join(REDACTED) : out;
}
