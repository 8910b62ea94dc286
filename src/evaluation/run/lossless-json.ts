import { parseKeepingIntegers } from "../../core/integer-literals.js";

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

/** Parses JSON like JSON.parse (same errors), keeping inexact integers as LosslessNumber. */
export const parseLossless = (text: string): unknown =>
  parseKeepingIntegers(text, (digits) => (exact(digits) ? undefined : new LosslessNumber(digits)));

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
