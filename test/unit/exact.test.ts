import { describe, expect, it } from "vitest";
import { ExactInteger, parseExact, stringifyExact } from "../../src/runtime/exact.js";

describe("JSON read and written with every digit of a long integer", () => {
  it("keeps integers beyond 2^53 as written, and leaves strings, fractions, exponents and safe integers alone", () => {
    const text =
      '{"id":12345678901234567890,"neg":-98765432109876543210,"s":"x\\"12345678901234567890","f":1.12345678901234567890,' +
      '"e":1e-12345678901234567890,"safe":9007199254740991,"list":[18446744073709551615]}';
    const value = parseExact(text) as Record<string, unknown>;
    expect(value.id).toEqual(new ExactInteger("12345678901234567890"));
    expect(value.neg).toEqual(new ExactInteger("-98765432109876543210"));
    expect(value.s).toBe('x"12345678901234567890');
    expect(value.f).toBe(1.1234567890123457);
    expect(value.e).toBe(0);
    expect(value.safe).toBe(9007199254740991);
    expect(stringifyExact(value)).toBe(
      '{"id":12345678901234567890,"neg":-98765432109876543210,"s":"x\\"12345678901234567890","f":1.1234567890123457,' +
        '"e":0,"safe":9007199254740991,"list":[18446744073709551615]}',
    );
  });

  it("fails on invalid JSON as JSON.parse does", () => {
    expect(() => parseExact('{"id": 12345678901234567890')).toThrow(SyntaxError);
    expect(() => parseExact('"unterminated 12345678901234567890')).toThrow(SyntaxError);
  });
});
