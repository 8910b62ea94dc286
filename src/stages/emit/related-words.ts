/**
 * Words of the same meaning as a command's own, for its search index (runtime/command-search.ts, the `related` field):
 * the other words of the WordNet synsets of each of its words, in their most frequent senses as a noun and as a verb
 * ("purge" → clear, remove; "parcel" → package, bundle), read from WordNet (../wordnet.ts). The generated CLI ships the
 * words in its index, never WordNet.
 */
import { readSync } from "node:fs";
import { indexLine, wordnetFiles, type Pos } from "../wordnet.js";

const POS: readonly Pos[] = ["noun", "verb"];

/** The senses of a word taken, most frequent first: rarer ones bring words a user would not mean ("issue" → "issuing"). */
const SENSES = 1;
/** Words shorter than this are left alone: "set", "get", "run" have dozens of senses and relate to everything. */
const MIN_LENGTH = 4;

/** Words too common, or too empty, to be given synonyms. */
const SKIP = new Set(
  "with from into that this your their list create update delete that have more than only also each when what which".split(
    " ",
  ),
);

/** The synset offsets of a lemma's most frequent senses (the index line lists them most frequent first). */
function senses(pos: Pos, lemma: string): number[] {
  const files = wordnetFiles(pos);
  const line = files && indexLine(files.index, lemma);
  if (!line) return [];
  const fields = line.trim().split(" ");
  const synsets = Number(fields[2]);
  const pointers = Number(fields[3]);
  // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
  return fields
    .slice(4 + pointers + 2, 4 + pointers + 2 + synsets)
    .slice(0, SENSES)
    .map(Number);
}

/** Enough of a synset's line for its words: they come first, before its pointers and gloss. */
const chunk = Buffer.alloc(512);
const synsets = new Map<string, string[]>();

/** The single-word lemmas of a synset, lower-cased: `offset lex_filenum ss_type w_cnt word lex_id …`. */
function synsetWords(pos: Pos, offset: number): string[] {
  const key = `${pos}${offset}`;
  const known = synsets.get(key);
  if (known) return known;
  const read = readSync(wordnetFiles(pos)!.data, chunk, 0, chunk.length, offset);
  const fields = chunk.toString("latin1", 0, read).split(" ");
  const count = Math.min(parseInt(fields[3]!, 16), (fields.length - 5) >> 1);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    const word = fields[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, "");
    if (/^[a-z]+$/.test(word)) words.push(word);
  }
  synsets.set(key, words);
  return words;
}

/** The forms of a word WordNet may list it under: itself, and without a plural or tense ending. */
function lemmas(word: string): string[] {
  const forms = [word];
  if (word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  else if (word.endsWith("es")) forms.push(word.slice(0, -2), word.slice(0, -1));
  else if (word.endsWith("s") && !word.endsWith("ss")) forms.push(word.slice(0, -1));
  if (word.endsWith("ing")) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.endsWith("ed")) forms.push(word.slice(0, -2), word.slice(0, -1));
  return forms;
}

const known = new Map<string, readonly string[]>();

/** The words of the same meaning as one word (not the word itself), memoized for the process. */
function synonymsOf(word: string): readonly string[] {
  let found = known.get(word);
  if (found) return found;
  const out = new Set<string>();
  if (word.length >= MIN_LENGTH && !SKIP.has(word))
    for (const pos of POS)
      for (const lemma of lemmas(word)) {
        const offsets = senses(pos, lemma);
        if (!offsets.length) continue;
        for (const offset of offsets) for (const w of synsetWords(pos, offset)) out.add(w);
        break;
      }
  for (const form of lemmas(word)) out.delete(form);
  found = [...out];
  known.set(word, found);
  return found;
}

/** The related words of a text's words, as one space-separated text for the index's `related` field. */
export function relatedWords(text: string): string {
  const words = new Set(
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z]+/),
  );
  const out = new Set<string>();
  for (const word of words) for (const w of synonymsOf(word)) if (!words.has(w)) out.add(w);
  return [...out].join(" ");
}
