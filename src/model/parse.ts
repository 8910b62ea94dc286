/** Small readers shared by the provider modules. */

/** A token count as reported, or 0 for anything that is not a non-negative number. */
export const count = (value: unknown): number =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/** The start of a text for an error's details: one line, at most `max` characters. */
export const excerptOf = (text: string, max = 200): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** JSON text, tolerating one surrounding Markdown code fence (models in JSON mode sometimes add one). */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(text);
  try {
    return { ok: true, value: JSON.parse(fenced ? fenced[1]! : text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
