/**
 * Every form in which a credential can leak into text inter writes: as is, base64 (Basic auth, tokens pasted into
 * JSON), base64url and URL-encoded. Values shorter than 4 characters are not redacted: they would shred ordinary text.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < 4) return [];
  const b64 = Buffer.from(secret).toString("base64");
  const forms = [secret, b64, b64.replace(/=+$/, ""), Buffer.from(secret).toString("base64url"), encodeURIComponent(secret)];
  return [...new Set(forms)].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
}

/** A function replacing every form of every secret with [REDACTED]. */
export function redactor(secrets: Array<string | undefined>): (text: string) => string {
  const forms = [...new Set(secrets.flatMap((s) => (s ? secretForms(s) : [])))].sort((a, b) => b.length - a.length);
  if (!forms.length) return (text) => text;
  return (text) => forms.reduce((out, form) => (out.includes(form) ? out.split(form).join("[REDACTED]") : out), text);
}

/** Redacts every string inside a JSON-like value. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)])) as T;
  return value;
}
