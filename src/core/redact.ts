/**
 * Credential redaction, one set of forms for everything inter and the CLIs it generates write: evaluation records,
 * inspection receipts, the design model's errors, a generated CLI's output and issues.
 */

export const REDACTED = "[REDACTED]";

/** Below this length a value is not cut from arbitrary text: it would shred ordinary words ("x" in a host name). */
export const MIN_SECRET_LENGTH = 4;

/**
 * Every form in which a credential can leak into text: as is, base64 (Basic auth, tokens pasted into JSON), unpadded
 * base64, base64url and URL-encoded — longest first, so a longer form is cut before a shorter one inside it.
 */
function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const b64 = Buffer.from(secret).toString("base64");
  const forms = [
    secret,
    b64,
    b64.replace(/=+$/, ""),
    Buffer.from(secret).toString("base64url"),
    encodeURIComponent(secret),
  ];
  return [...new Set(forms)].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * A function replacing every form of every secret with [REDACTED] — the one policy for everything inter and its CLIs
 * write (records, receipts, model errors, remote-cache warnings). A secret shorter than MIN_SECRET_LENGTH (a
 * placeholder key for a local server, a user name in a URL) is cut only where it stands as a whole word, so "ok" does
 * not blank out "token".
 */
export function redactor(secrets: Array<string | undefined>): (text: string) => string {
  const given = [...new Set(secrets.filter((s): s is string => !!s))];
  const forms = [...new Set(given.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  const short = given.filter((s) => s.length < MIN_SECRET_LENGTH).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const words = short.length ? new RegExp(`(?<![\\w-])(?:${short.join("|")})(?![\\w-])`, "g") : undefined;
  if (!forms.length && !words) return (text) => text;
  return (text) => {
    const out = forms.reduce((acc, form) => (acc.includes(form) ? acc.split(form).join(REDACTED) : acc), text);
    return words ? out.replace(words, REDACTED) : out;
  };
}

/** A copy of JSON-like data with every string redacted, object keys included (a key can be a leaked value too). */
export function redactDeep<T>(value: T, redact: (text: string) => string, depth = 0): T {
  if (typeof value === "string") return redact(value) as T;
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactDeep(v, redact, depth + 1)])) as T;
}
