import { wordTable } from "../../core/word-table.js";
import { memoized } from "../../core/memo.js";

/**
 * Descriptions as plain text. Public OpenAPI documents write descriptions in HTML (`<p>`, `<br/>`, `<code>`, entities)
 * and Markdown (links, emphasis, lists, headings, fences); an agent reads the generated CLI's help as JSON, where
 * markup is noise. `plainText` keeps the words, paragraphs and list items and drops the markup; it runs in linear time
 * on any input (no pattern here can backtrack over more than the text up to the next delimiter), so a hostile
 * document cannot stall a build.
 */

/** Paragraph break, hard line break and one list indentation level, kept apart from the text until the end. */
const PARA = "\uE000";
const HARD = "\uE001";
const INDENT = "\uE002";
/** Backslash-escaped punctuation waits as one private-use character (ESCAPED + its code) so no rule reads it. */
const ESCAPED = 0xe100;
const PRIVATE = /[\uE000-\uE1FF]/g;
/** Deeper list levels are shown at this one: the output stays linear in the input. */
const MAX_LEVEL = 6;

/** HTML elements whose tags are markup; anything else in angle brackets (`<id>`, `a < b`) is text. */
const INLINE_TAGS = new Set(
  "a abbr acronym b bdi bdo big cite del dfn em font i img input ins label mark q s small span strike strong sub sup time u var wbr button".split(
    " ",
  ),
);
const BLOCK_TAGS = new Set(
  "address article aside blockquote body caption center details div dl figcaption figure footer form h1 h2 h3 h4 h5 h6 head header hr html main nav note important p pre section summary table tbody tfoot thead title".split(
    " ",
  ),
);
const CODE_TAGS = new Set(["code", "tt", "kbd", "samp"]);
const OTHER_TAGS = new Set([
  "br",
  "ul",
  "ol",
  "li",
  "dt",
  "dd",
  "tr",
  "td",
  "th",
  "script",
  "style",
  "meta",
  "link",
  "iframe",
  "object",
  "embed",
  "colgroup",
  "col",
]);
const isTag = (name: string) =>
  INLINE_TAGS.has(name) || BLOCK_TAGS.has(name) || CODE_TAGS.has(name) || OTHER_TAGS.has(name);

const ENTITIES: Record<string, string> = wordTable({
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  shy: "",
  zwj: "",
  zwnj: "",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  lsaquo: "‹",
  rsaquo: "›",
  bull: "•",
  middot: "·",
  deg: "°",
  plusmn: "±",
  times: "×",
  divide: "÷",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  dagger: "†",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  harr: "↔",
  le: "≤",
  ge: "≥",
  ne: "≠",
  asymp: "≈",
  infin: "∞",
  minus: "−",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  sup2: "²",
  sup3: "³",
  micro: "µ",
  iexcl: "¡",
  iquest: "¿",
  acute: "´",
  grave: "`",
  lowbar: "_",
  ast: "*",
  lsqb: "[",
  rsqb: "]",
  lpar: "(",
  rpar: ")",
  verbar: "|",
  num: "#",
  excl: "!",
});

/** A forward-only index of where `needle` next occurs: every lookup starts at or after the last, so the scans add up to one pass. */
function nextOf(text: string, needle: string): (from: number) => number {
  let searchedFrom = -1;
  let found = -1;
  return (from) => {
    if (searchedFrom >= 0 && from >= searchedFrom && (found === -1 || found >= from)) return found;
    searchedFrom = from;
    found = text.indexOf(needle, from);
    return found;
  };
}

const isNameChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/** HTML tags become breaks, list markers and backticks; the text between them is kept as it is (entities later). */
function fromHtml(s: string): string {
  const out: string[] = [];
  const nextGt = nextOf(s, ">");
  const nextLt = nextOf(s, "<");
  const nextCommentEnd = nextOf(s, "-->");
  const lists: Array<{ ordered: boolean; n: number }> = [];
  let pre = 0;
  let cell = 0;
  let text = 0;
  // Inside a Markdown code span (`<img>`) angle brackets are text: a forward scan keeps whether one is open.
  let scanned = 0;
  let inCode = false;
  const codeAt = (to: number) => {
    for (; scanned < to; scanned++) {
      const c = s.charCodeAt(scanned);
      if (c === 96)
        inCode = !inCode; // "`"
      else if (c === 10 && inCode && s.charCodeAt(scanned + 1) === 10) inCode = false; // a span ends with its paragraph
    }
    return inCode;
  };
  let i = s.indexOf("<");
  while (i >= 0) {
    let end = -1;
    let emit = "";
    if (codeAt(i)) {
      // text: fall through with end = -1
    } else if (s.startsWith("<!--", i)) {
      const close = nextCommentEnd(i + 4);
      if (close >= 0) end = close + 3;
    } else {
      let j = i + 1;
      const closing = s.charCodeAt(j) === 47; // "/"
      if (closing) j++;
      const start = j;
      while (j < s.length && isNameChar(s.charCodeAt(j))) j++;
      const name = s.slice(start, j).toLowerCase();
      const gt = nextGt(j);
      const lt = nextLt(i + 1);
      const closed = gt >= 0 && (lt === -1 || gt < lt);
      if (
        closed &&
        !closing &&
        /^(https?|mailto|ftp)$/.test(name) &&
        s.charCodeAt(j) === 58 &&
        !/\s/.test(s.slice(j, gt))
      ) {
        // A Markdown autolink <https://…>: the address is the text.
        end = gt + 1;
        emit = s.slice(start, gt);
      } else if (closed && name && isTag(name)) {
        end = gt + 1;
        const tag = name;
        if (tag === "br") emit = HARD;
        else if (tag === "ul" || tag === "ol") {
          if (closing) lists.pop();
          else lists.push({ ordered: tag === "ol", n: 0 });
          emit = HARD;
        } else if (tag === "li") {
          if (!closing) {
            const list = lists[lists.length - 1];
            emit = `${HARD}${INDENT.repeat(Math.min(MAX_LEVEL, Math.max(0, lists.length - 1)))}${list?.ordered ? `${++list.n}. ` : "- "}`;
          }
        } else if (tag === "dt" || tag === "dd") emit = closing ? "" : `${HARD}${tag === "dd" ? INDENT : ""}`;
        else if (tag === "tr") {
          cell = 0;
          emit = HARD;
        } else if (tag === "td" || tag === "th") emit = closing ? "" : cell++ > 0 ? " | " : "";
        else if (CODE_TAGS.has(tag)) emit = pre ? "" : "`";
        else if (BLOCK_TAGS.has(tag)) {
          if (tag === "pre") pre = Math.max(0, pre + (closing ? -1 : 1));
          // A paragraph inside a list item (<li><p>…</p></li>) stays on the item's line.
          emit = lists.length && (tag === "p" || tag === "div") ? " " : PARA;
        }
      }
    }
    if (end < 0) {
      i = s.indexOf("<", i + 1);
      continue;
    }
    const between = s.slice(text, i);
    out.push(pre ? between.replace(/\n/g, HARD) : between, emit);
    text = end;
    i = s.indexOf("<", end);
  }
  out.push(s.slice(text));
  return out.join("");
}

const decodeEntities = (s: string) =>
  s.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g, (whole, name: string) => {
    if (name[0] !== "#") return ENTITIES[name] ?? ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
    if (code >= 0xe000 && code <= 0xe1ff) return "";
    return String.fromCodePoint(code);
  });

/** Emphasis outside code spans: `**strong**`, `__strong__`, `*em*`, `_em_` (not inside words: `snake_case`), `~~del~~`. */
const emphasis = (s: string) =>
  s
    .replace(/\*\*(?=[^\s*])([^*\n]*?[^\s*])\*\*/g, "$1")
    .replace(/(?<![\w_])__(?=[^\s_])([^_\n]*?[^\s_])__(?![\w_])/g, "$1")
    .replace(/(?<![\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, "$1")
    .replace(/(?<![\w_])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\w_])/g, "$1")
    .replace(/~~(?=\S)([^~\n]*?\S)~~/g, "$1");

/** A code span's place while emphasis is read around it. */
const CODE_SPAN = "\uE003";

/**
 * A paragraph's inline Markdown: code spans wait aside (kept with their backticks and content), then images and links
 * become their text (which may be a code span: [`id`](url)), reference links too, and emphasis loses its marks (also
 * around code spans: **the `id` field**).
 */
function inline(text: string): string {
  const spans: string[] = [];
  const marked = text
    .replace(/`[^`\n]+`/g, (span) => {
      spans.push(span);
      return CODE_SPAN;
    })
    .replace(/!\[([^[\]\n]*)\]\(<?(?:[^()\s<>[\]]|\([^()\s]*\))*>?(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?\)/g, "$1")
    .replace(/\[([^[\]\n]+)\]\(<?(?:[^()\s<>[\]]|\([^()\s]*\))*>?(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?\)/g, "$1")
    .replace(/\[([^[\]\n]+)\]\[[^[\]\n]*\]/g, "$1");
  let k = 0;
  return emphasis(marked).replace(/\uE003/g, () => spans[k++] ?? "");
}

const HEADING = /^ {0,3}#{1,6}(?:[ \t]+|$)/;
/** Tested on a trimmed line, as are the table rules. */
const RULE = /^(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,}|(?:=[ \t]*){3,})$/;
const QUOTE = /^\s*(?:>\s?)+/;
const REFERENCE = /^ {0,3}\[[^\]\n]+\]:\s*\S/;
const ITEM = /^([ \t]*)([-*+•]|\d{1,9}[.)])[ \t]+/;
const isTableRule = (trimmed: string) => trimmed.includes("---") && /^[|:\-\s]+$/.test(trimmed);
const FENCE = /^\s*(```|~~~)/;

/**
 * Markdown blocks, line by line: headings, rules, quotes, fences, list items and table rows become breaks; the lines
 * of a paragraph (or of a list item) join with spaces before their inline markup is read, so a link may wrap.
 */
function fromMarkdown(s: string): string {
  const out: string[] = [];
  const indents: number[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length) out.push(inline(pending.join(" ")));
    pending = [];
  };
  let fence = "";
  for (const raw of s.split("\n")) {
    const fenced = FENCE.exec(raw);
    if (fence) {
      if (fenced && fenced[1] === fence) {
        fence = "";
        out.push(PARA);
      } else out.push(HARD, raw);
      continue;
    }
    if (fenced) {
      flush();
      fence = fenced[1]!;
      out.push(PARA);
      continue;
    }
    const line = raw.replace(QUOTE, "");
    const trimmed = line.trim();
    if (!trimmed) {
      flush();
      out.push(PARA);
      indents.length = 0;
      continue;
    }
    if (isTableRule(trimmed)) continue;
    if (RULE.test(trimmed) || REFERENCE.test(line)) {
      flush();
      out.push(PARA);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      let title = line.slice(heading[0].length).trimEnd();
      while (title.endsWith("#")) title = title.slice(0, -1);
      out.push(PARA, inline(title), PARA);
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      flush();
      const indent = item[1]!.replace(/\t/g, "    ").length;
      while (indents.length && indent < indents[indents.length - 1]!) indents.pop();
      if (!indents.length || indent > indents[indents.length - 1]!) indents.push(indent);
      const marker = /\d/.test(item[2]!) ? `${item[2]!.replace(")", ".")} ` : "- ";
      out.push(HARD, INDENT.repeat(Math.min(MAX_LEVEL, indents.length - 1)), marker);
      pending.push(line.slice(item[0].length));
      continue;
    }
    if (trimmed.startsWith("|")) {
      flush();
      out.push(HARD, inline(line));
      continue;
    }
    pending.push(line);
  }
  flush();
  return out.join("");
}

/**
 * A description as plain text: HTML tags removed (block tags become line breaks or paragraphs, list items `- `,
 * `<code>` backticks), entities decoded, Markdown links and images replaced by their text, emphasis and heading marks
 * dropped, inline code kept in backticks; paragraphs are separated by one blank line, list items start their own
 * line, everything else is collapsed to single spaces.
 */
export function plainText(input: string | undefined | null): string {
  return input ? plainOf(String(input)) : "";
}

const plainOf = memoized((input: string): string => {
  let s = input
    .replace(PRIVATE, "")
    .replace(/\r\n?/g, "\n")
    .replace(/\\([\\`*_{}[\]()#+\-.!|~])/g, (_, c: string) => String.fromCharCode(ESCAPED + c.charCodeAt(0)));
  s = fromMarkdown(fromHtml(s));
  s = decodeEntities(s)
    .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B\uFEFF]/g, "")
    .replace(/[\uE100-\uE17F]/g, (c) => String.fromCharCode(c.charCodeAt(0) - ESCAPED));
  const paragraphs: string[] = [];
  const indents = new RegExp(INDENT, "g");
  for (const paragraph of s.split(PARA)) {
    const lines: string[] = [];
    for (const line of paragraph.split(HARD)) {
      const level = /^[\s\uE002]*/.exec(line)![0].split(INDENT).length - 1;
      const words = line.replace(indents, " ").replace(/\s+/g, " ").trim();
      if (words) lines.push(`${"  ".repeat(level)}${words}`);
    }
    if (lines.length) paragraphs.push(lines.join("\n"));
  }
  return paragraphs.join("\n\n").trim();
});

/** At most `max` characters, cut after a word and marked with "…" when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(1, max - 1));
  let end = cut.length;
  while (end > 0 && !/\s/.test(cut[end - 1]!)) end--;
  const kept = end >= max / 2 ? cut.slice(0, end) : cut;
  let last = kept.length;
  while (last > 0 && /[\s,;:]/.test(kept[last - 1]!)) last--;
  return `${kept.slice(0, last)}…`;
}

/**
 * The first paragraph of plain text on one line, within `max` characters: whole sentences when one fits, else cut at
 * a word with "…". `cut` says whether anything of `text` was left out.
 */
export function lead(text: string, max: number): { text: string; cut: boolean } {
  const first = (text.split("\n\n")[0] ?? "").replace(/\s+/g, " ").trim();
  if (first.length <= max) return { text: first, cut: first !== text.trim() };
  let end = -1;
  for (const m of first.slice(0, max + 1).matchAll(/[.!?](?=\s)/g)) end = m.index! + 1;
  if (end >= Math.min(40, max / 3)) return { text: first.slice(0, end), cut: true };
  return { text: clip(first, max), cut: true };
}
