import { wordTable } from "./word-table.js";

/**
 * One spelling for words British and American English spell differently, so a request or a brief in one meets a
 * description in the other: Xero's "Organisation" and a user's "organization", a brief's "Optimise a route" and a
 * command `route-optimizations create`, "cancelled" and "canceled". Applied alike to both sides of a comparison (the
 * search index and its queries, a brief and its commands), so a word it changes that is no pair ("enterprise" →
 * enterprize) still meets itself.
 */
const WORDS: Record<string, string> = wordTable({
  programme: "program",
  programmes: "programs",
  enquiry: "inquiry",
  enquiries: "inquiries",
  enquire: "inquire",
  judgement: "judgment",
  acknowledgement: "acknowledgment",
  ageing: "aging",
  grey: "gray",
  tyre: "tire",
  tyres: "tires",
  licence: "license",
  licences: "licenses",
  defence: "defense",
  offence: "offense",
});

/** Rules of the pairs, on lower-case words: `-ise` → `-ize`, `-our` → `-or`, `-yse` → `-yze`, `-tre` → `-ter` … */
const RULES: Array<[RegExp, string]> = [
  [/^(.{3,})is(e|es|ed|ing|ation|ations|er|ers|able)$/, "$1iz$2"],
  [/^(.{2,}[^aeiou])our(s|ed|ing|ite|ites|able|er|ers)?$/, "$1or$2"],
  [/^(.{2,})ys(e|es|ed|ing)$/, "$1yz$2"],
  [/^(.{2,}[^aeiou])(t|b)re(s|d)?$/, "$1$2er$3"],
  [/^(.{3,})ogue(s)?$/, "$1og$2"],
  // The British double l of an unstressed last syllable: "cancelled", "labelling", "modelled".
  [
    /^(cancel|label|model|travel|signal|total|fuel|channel|level|tunnel|dial|marshal|counsel|equal)l(ed|ing|er|ers)$/,
    "$1$2",
  ],
];

/** A lower-case word in American spelling where British differs; any other word as it is. */
export function americanSpelling(word: string): string {
  const listed = WORDS[word];
  if (listed !== undefined) return listed;
  if (word.length < 6) return word;
  for (const [rule, to] of RULES) if (rule.test(word)) return word.replace(rule, to);
  return word;
}
