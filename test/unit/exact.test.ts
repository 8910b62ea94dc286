import { describe, expect, it } from "vitest";
import { ExactInteger, parseExact, stringifyExact } from "../../src/runtime/exact.js";
import { structured } from "../../src/runtime/mcp-call.js";

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

  it("an MCP result's text keeps the digits; its structured content is plain JSON, as a client reads it", () => {
    const result = structured({ ok: true, result: parseExact('{"id":12345678901234567890}') });
    expect(result.content[0]).toEqual({ type: "text", text: '{"ok":true,"result":{"id":12345678901234567890}}' });
    expect(result.structuredContent).toEqual({ ok: true, result: { id: 12345678901234567000 } });
    // Any other writer gets the nearest number, never the object that holds the digits.
    expect(JSON.stringify({ id: new ExactInteger("12345678901234567890") })).toBe('{"id":12345678901234567000}');
  });
});
