import { memoized } from "./memo.js";

/** Names that are one word though spelled in camel case: protocols, products, platforms. */
const COMPOUNDS = [
  "OAuth",
  "OpenID",
  "OpenAPI",
  "GraphQL",
  "PostgreSQL",
  "MySQL",
  "NoSQL",
  "DynamoDB",
  "MongoDB",
  "CosmosDB",
  "GitHub",
  "GitLab",
  "BitBucket",
  "YouTube",
  "LinkedIn",
  "PayPal",
  "WordPress",
  "JavaScript",
  "TypeScript",
  "WhatsApp",
  "HubSpot",
  "MailChimp",
  "SendGrid",
  "QuickBooks",
  "PagerDuty",
  "SharePoint",
  "OneDrive",
  "OneNote",
  "PowerShell",
  "DevOps",
  "WiFi",
  "iOS",
  "macOS",
  "iPhone",
  "iPad",
  "eBay",
];
/**
 * One of them where a word of an identifier may begin: after a lower-case letter (`CreateOpenIDConnectProvider`) for a
 * name that opens with a capital, only after no letter for one that does not (`iOSApps`, not `getiOSApps`); and ending
 * where a word does.
 */
const COMPOUND = new RegExp(
  COMPOUNDS.map((name) => `${/^[A-Z]/.test(name) ? "(?<![A-Z])" : "(?<![A-Za-z])"}${name}(?![a-rt-z]|s[a-z])`).join(
    "|",
  ),
  "g",
);

/**
 * Where an identifier's words part (`createdAt`, `VPCs`, `IoTSpaces`): the one reading the designer names by (path
 * words in stages/design/word-forms.ts, operationId words in stages/design/verbs.ts) and inspection judges names by
 * (stages/inspect/misleading-names.ts), so a word the designer took from an identifier is one the judge finds there.
 */
export const camelParts = memoized(splitCamel);

function splitCamel(text: string): string {
  return (
    text
      // An acronym is one word, in the plural too: `VPCs` → vpcs (not vp-cs), `OAuth` → oauth (not o-auth); so is a
      // name spelled in camel case (`OpenIDConnectProvider` → openid-connect-provider, not open-id-…: "id" is no word).
      .replace(COMPOUND, (name) => `${name[0]}${name.slice(1).toLowerCase()}`)
      .replace(/([A-Z]{2,})s(?![a-z])/g, (_, acronym: string) => `${acronym[0]}${acronym.slice(1).toLowerCase()}s`)
      // A piece of one or two letters and one capital before a new word is one word: `IoTSpaces` → iot-spaces,
      // `miRSeq` → mir-seq (not io-t, mi-r).
      .replace(
        /(^|[^A-Za-z])([A-Z]?[a-z]{1,2})([A-Z])(?=[A-Z][a-z])/g,
        (_, before: string, piece: string, capital: string) => `${before}${piece}${capital.toLowerCase()}`,
      )
      .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
  );
}
