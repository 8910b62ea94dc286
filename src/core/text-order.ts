/**
 * Text in the order of its UTF-16 code units: the same on every machine. `localeCompare` orders by the locale of the
 * process (LANG, LC_ALL): under cs_CZ "charges" sorts after "hooks", under da_DK "aa…" after "z…", under lt_LT "y"
 * beside "i" — so the same inputs would give another capabilities.json, another package and another sha256 on another
 * developer's machine than on CI. It is also several times slower (ICU collation for every comparison).
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
