/**
 * JSON read with its long integer literals kept as written: JSON.parse turns 12345678901234567890 into
 * 12345678901234567000, another id. One reader for the evaluation's checks (evaluation/run/lossless-json.ts) and the
 * generated CLI's requests and answers (runtime/exact.ts), each deciding which literals to keep and as what.
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Parses JSON as JSON.parse does, except that each integer literal outside strings for which `keep` returns a value
 * (an object holding its digits) is that value. Each kept literal is read as a marker string first, which the reviver
 * turns back; a literal with a fraction or an exponent is never one.
 */
export function parseKeepingIntegers(text: string, keep: (digits: string) => object | undefined): unknown {
  const marker = `\u0000n${Math.random().toString(36).slice(2)}:`;
  const kept: object[] = [];
  let out = "";
  let last = 0;
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
      const value = /^-?\d+$/.test(token) ? keep(token) : undefined;
      if (value !== undefined) {
        kept.push(value);
        // The marker's NUL is written escaped: a raw control character is not allowed in a JSON string.
        out += `${text.slice(last, i)}"\\u0000${marker.slice(1)}${kept.length - 1}"`;
        last = i + token.length;
      }
      i += token.length - 1;
    }
  }
  if (!kept.length) return JSON.parse(text);
  out += text.slice(last);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(marker) ? kept[Number(value.slice(marker.length))] : value,
  );
}
