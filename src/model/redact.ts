/** Keeps the API key out of every text the client hands on: error messages, details, echoed server text. */
import { REDACTED, redactor } from "../core/redact.js";

/**
 * A function replacing the key wherever it appears, in every form core/redact.ts knows (as is, base64, URL-encoded).
 * Keys of 8 characters or more are replaced anywhere; shorter ones (placeholders for local servers) only as whole
 * words, so "ok" does not blank out "token".
 */
export function redactorFor(key: string): (text: string) => string {
  if (!key) return (text) => text;
  if (key.length >= 8) return redactor([key]);
  const word = new RegExp(`(?<![\\w-])${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g");
  return (text) => text.replace(word, REDACTED);
}
