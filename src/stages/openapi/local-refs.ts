/**
 * Whether a document's bytes show that every `$ref` in it points into the document itself — without walking what was
 * parsed (a walk of a large description's values costs far more than this scan of its bytes). Only a yes is an
 * answer. Every `$ref` written in the text must be part of a longer word (Graph's paths end in `/$ref`) or a key
 * (`"$ref"`, or YAML's `'$ref'` and `$ref`) of a quoted string that starts with "#"; and the text must hold no escape
 * that could spell the key another way (JSON's `\u0024`, YAML's `\x72` and `\U00000066`, a line joined inside a
 * quoted YAML string) and no NUL byte (text in another encoding). Anything else — a value given by an alias or a block
 * scalar, a `$ref` alone in prose — is a no, and the caller walks the parsed document (stages/openapi/ref-reader.ts).
 * A `$ref` that is no key (in a description) but reads like one only makes the answer no less true.
 */
export function refsAllLocal(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (text.indexOf(0) >= 0) return false;
  // One pass over the backslashes: two in a row are one escaped backslash, stepped over whole (the "u" of
  // `domain\\user` starts no escape).
  for (let at = text.indexOf(BACKSLASH); at >= 0; at = text.indexOf(BACKSLASH, at + 1)) {
    const letter = text[at + 1];
    if (letter === BACKSLASH) at++;
    else if (letter === 0x0a || letter === 0x0d) return false;
    else if (letter !== undefined && HEX_DIGITS[letter] && mayHideRef(text, at + 2, HEX_DIGITS[letter])) return false;
  }
  for (let at = text.indexOf(REF); at >= 0; at = text.indexOf(REF, at + REF.length))
    if (!inLongerWord(text, at) && !isLocalRefKey(text, at)) return false;
  return true;
}

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const REF = Buffer.from("$ref");
const BACKSLASH = 0x5c;
/** The escapes that take a character code (JSON's and YAML's \u, YAML's \x and \U), by letter: how many hex digits follow. */
const HEX_DIGITS: Record<number, number> = { 0x75: 4, 0x78: 2, 0x55: 8 };
/** The characters of `$ref`, by code: an escape of one of them could spell the key. */
const HIDDEN = new Set([..."$ref"].map((c) => c.charCodeAt(0)));

/** Whether the escape's digits at `from` may stand for a character of `$ref`; digits that are not hex are taken so. */
function mayHideRef(text: Buffer, from: number, digits: number): boolean {
  const hex = text.toString("latin1", from, from + digits);
  return hex.length < digits || !/^[0-9a-fA-F]+$/.test(hex) || HIDDEN.has(Number.parseInt(hex, 16));
}

/** Characters that continue a word or a path: a `$ref` beside one is part of a longer string, never the key. */
const WORD = new Uint8Array(128).map((_, code) => (/[A-Za-z0-9_.$/~-]/.test(String.fromCharCode(code)) ? 1 : 0));
const isWord = (byte: number | undefined) => byte !== undefined && WORD[byte] === 1;
const inLongerWord = (text: Buffer, at: number) => isWord(text[at - 1]) || isWord(text[at + REF.length]);

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

const isQuote = (byte: number | undefined) => byte === QUOTE || byte === APOSTROPHE;

/**
 * Whether the `$ref` at `at` (beside no word character) is a key — `"$ref"`, YAML's `'$ref'` or plain `$ref` — whose
 * value is a quoted string beginning with "#" (unquoted, YAML would read `#` as a comment).
 */
function isLocalRefKey(text: Buffer, at: number): boolean {
  const before = text[at - 1];
  if (anchored(text, isQuote(before) ? at - 1 : at)) return false;
  let i = at + REF.length;
  if (isQuote(before)) {
    if (text[i] !== before) return false;
    i++;
  }
  while (isSpace(text[i])) i++;
  if (text[i++] !== 0x3a) return false;
  while (isSpace(text[i])) i++;
  return isQuote(text[i]) && text[i + 1] === 0x23;
}

/** Where a token ends, looking back: at a space, a line's start or a flow collection's punctuation. */
const isTokenEdge = (byte: number | undefined) =>
  byte === undefined || isSpace(byte) || byte === 0x7b || byte === 0x5b || byte === 0x2c;

/**
 * Whether the key starting at `start` carries a YAML anchor (`&name`, before or after a tag): an alias of it (`*name`)
 * is the same key elsewhere, with a value this scan never sees.
 */
function anchored(text: Buffer, start: number): boolean {
  let i = start - 1;
  for (let tokens = 0; tokens < 2; tokens++) {
    while (text[i] === 0x20 || text[i] === 0x09) i--;
    const end = i;
    while (!isTokenEdge(text[i])) i--;
    const first = text[i + 1];
    if (i === end || first === undefined) return false;
    if (first === 0x26) return true;
    if (first !== 0x21) return false;
  }
  return false;
}
