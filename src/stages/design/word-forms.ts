import { memoized } from "../../core/memo.js";

/**
 * Kebab-case for command and flag names: ASCII letters, digits and single hyphens; accents are folded. Naming asks for
 * the same tags, path segments and parameter names again and again, each answer nine regular-expression passes.
 */
export const kebab = memoized(kebabCase);

function kebabCase(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/['’]/g, "")
      // An acronym is one word, in the plural too: `VPCs` → vpcs (not vp-cs), `OAuth` → oauth (not o-auth).
      .replace(/OAuth/g, "Oauth")
      .replace(/([A-Z]{2,})s(?![a-z])/g, (_, acronym: string) => `${acronym[0]}${acronym.slice(1).toLowerCase()}s`)
      // A piece of one or two letters and one capital before a new word is one word: `IoTSpaces` → iot-spaces,
      // `miRSeq` → mir-seq (not io-t, mi-r).
      .replace(
        /(^|[^A-Za-z])([A-Z]?[a-z]{1,2})([A-Z])(?=[A-Z][a-z])/g,
        (_, before: string, piece: string, capital: string) => `${before}${piece}${capital.toLowerCase()}`,
      )
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
  );
}

export function singular(word: string): string {
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  // addresses, statuses, boxes, batches, wishes drop "es"; services, usecases, releases only their "s".
  if (/(ss|us|x|ch|sh|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is") && word.length > 3)
    return word.slice(0, -1);
  return word;
}
