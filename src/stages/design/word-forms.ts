import { camelParts } from "../../core/camel-words.js";
import { memoized } from "../../core/memo.js";

/**
 * Kebab-case for command and flag names: ASCII letters, digits and single hyphens; accents are folded. Naming asks for
 * the same tags, path segments and parameter names again and again, each answer nine regular-expression passes.
 */
export const kebab = memoized(kebabCase);

function kebabCase(text: string): string {
  const folded = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/['’]/g, "");
  return camelParts(folded)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function singular(word: string): string {
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  // addresses, statuses, boxes, batches, wishes drop "es"; services, usecases, releases only their "s".
  if (/(ss|us|x|ch|sh|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is") && word.length > 3)
    return word.slice(0, -1);
  return word;
}
