/**
 * JSON whose numbers keep their digits. JSON.parse turns 9007199254740993 into 9007199254740992, so two different
 * ids compare equal; here every number that a double cannot hold exactly stays a LosslessNumber, compared by value.
 */
export class LosslessNumber {
  constructor(readonly text: string) {}
  /** Results keep a number when it is exact, else its digits as a string. */
  toJSON(): number | string {
    return exact(this.text) ? Number(this.text) : this.text;
  }
}

const exact = (text: string) => {
  const n = Number(text);
  if (!Number.isFinite(n)) return false;
  if (/^-?\d+$/.test(text)) return Number.isSafeInteger(n) || BigInt(text) === BigInt(n);
  return true;
};

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parses JSON like JSON.parse (same errors), keeping inexact integers as LosslessNumber. */
export function parseLossless(text: string): unknown {
  // Find number tokens outside strings; wrap the inexact ones in a marker string the reviver turns back.
  const marker = `\u0000n${Math.random().toString(36).slice(2)}:`;
  let out = "";
  let last = 0;
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) continue;
      const token = m[0];
      if (/^-?\d+$/.test(token) && !exact(token)) {
        // The marker's NUL is written escaped: a raw control character is not allowed in a JSON string.
        out += `${text.slice(last, i)}"\\u0000${marker.slice(1)}${token}"`;
        last = i + token.length;
        changed = true;
      }
      i += token.length - 1;
    }
  }
  if (!changed) return JSON.parse(text);
  out += text.slice(last);
  return JSON.parse(out, (_key, value) =>
    typeof value === "string" && value.startsWith(marker) ? new LosslessNumber(value.slice(marker.length)) : value,
  );
}

/** Numeric equality without coercion from strings: 1 equals 1.0, a LosslessNumber equals the same integer. */
export function numbersEqual(a: unknown, b: unknown): boolean | undefined {
  const num = (v: unknown) => (v instanceof LosslessNumber ? v.text : typeof v === "number" ? v : undefined);
  const x = num(a);
  const y = num(b);
  if (x === undefined || y === undefined) return undefined;
  if (typeof x === "number" && typeof y === "number") return x === y;
  const big = (v: string | number) =>
    typeof v === "number" ? (Number.isInteger(v) ? BigInt(v) : undefined) : BigInt(v);
  const bx = big(x);
  const by = big(y);
  return bx !== undefined && by !== undefined && bx === by;
}
