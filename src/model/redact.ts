/** Keeps the API key out of every text the client hands on: error messages, details, echoed server text. */

export const REDACTED = "[redacted]";

/**
 * A function replacing the key wherever it appears. Keys of 8 characters or more are replaced anywhere; shorter
 * ones (placeholders for local servers) only as whole words, so "ok" does not blank out "token".
 */
export function redactorFor(key: string): (text: string) => string {
  if (!key) return (text) => text;
  if (key.length >= 8) return (text) => text.split(key).join(REDACTED);
  const word = new RegExp(`(?<![\\w-])${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`, "g");
  return (text) => text.replace(word, REDACTED);
}

/** A deep copy of plain JSON-like data with every string redacted (keys of objects too). */
export function redactDeep<T>(value: T, redact: (text: string) => string, depth = 0): T {
  if (typeof value === "string") return redact(value) as T;
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact, depth + 1)])) as T;
}
