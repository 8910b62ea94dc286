import { parseKeepingIntegers } from "../core/integer-literals.js";

/**
 * An integer flag beyond 2^53 kept as the digits the user typed: `Number("12345678901234567890123")` is `1.2345e+22`,
 * which an API would read as another id (or refuse). It is sent as written in paths, queries, headers and JSON bodies.
 */
export class ExactInteger {
  constructor(readonly digits: string) {}
  toString(): string {
    return this.digits;
  }
  valueOf(): number {
    return Number(this.digits);
  }
  /** Where a writer other than stringifyExact meets one (an MCP client's structured content): the nearest number. */
  toJSON(): number {
    return Number(this.digits);
  }
}

/** An integer flag's value: a plain number while it is exact, else the typed digits. */
export function integerOf(text: string): number | ExactInteger {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : new ExactInteger(text.replace(/^(-?)0+(?=\d)/, "$1"));
}

/** JSON.stringify that writes an ExactInteger as a bare number with all its digits. */
export function stringifyExact(value: unknown): string {
  const digits: string[] = [];
  // A fresh random marker per call: text in the body cannot spell it, so only the placeholders are replaced.
  const marker = `exact-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}-`;
  // The holder's own value, not `v`: JSON.stringify hands a replacer what toJSON made of it.
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const own = this[key];
    if (own instanceof ExactInteger) {
      digits.push(own.digits);
      return `${marker}${digits.length - 1}`;
    }
    return v;
  });
  return digits.length
    ? text.replace(new RegExp(`"${marker}(\\d+)"`, "g"), (_m, i: string) => digits[Number(i)]!)
    : text;
}

/**
 * JSON.parse that keeps an integer beyond 2^53 as the digits written (an ExactInteger), which stringifyExact writes
 * back whole: `{"id": 12345678901234567890}` piped to `--json-input` was sent as `12345678901234567000`, another id.
 * Text without a run of 16 digits (most answers) is read by JSON.parse alone.
 */
export function parseExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return parseKeepingIntegers(text, (digits) =>
    Number.isSafeInteger(Number(digits)) ? undefined : new ExactInteger(digits),
  );
}
