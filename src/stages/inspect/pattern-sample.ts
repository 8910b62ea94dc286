/**
 * A string that matches a simple regular expression, for probes that must pass a flag's `pattern` to reach the
 * behaviour they test: literals, escapes (\d \w \s), classes, groups with alternatives and quantifiers. `far` picks
 * the last character of each class and repeats more, to make an identifier that exists nowhere ("bk_99999999").
 * Anything it does not understand gives undefined, and the probe falls back to its fixed samples. `minLength`: the
 * first unbounded repetition repeats as often as it takes to reach it (`^i-[a-f0-9]+$` of at least 10: "i-aaaaaaaa").
 */
export function sampleForPattern(pattern: string, far = false, minLength = 0): string | undefined {
  const plain = generate(pattern, far, 0);
  if (plain === undefined || plain.length >= minLength) return plain;
  const longer = generate(pattern, far, minLength - plain.length);
  return longer !== undefined && longer.length >= minLength ? longer : plain;
}

function generate(pattern: string, far: boolean, stretch: number): string | undefined {
  let i = 0;
  const fail = () => {
    throw new Error("unsupported");
  };
  const classChars = (): string[] => {
    // After "[": returns candidate characters, honouring ranges; negated classes pick a safe letter.
    let negated = false;
    if (pattern[i] === "^") {
      negated = true;
      i++;
    }
    const chars: string[] = [];
    while (i < pattern.length && pattern[i] !== "]") {
      let c = pattern[i++]!;
      if (c === "\\") c = escape(pattern[i++] ?? fail())[0]!;
      if (pattern[i] === "-" && pattern[i + 1] && pattern[i + 1] !== "]") {
        let end = pattern[i + 1]!;
        i += 2;
        if (end === "\\") end = pattern[i++] ?? fail();
        for (let code = c.charCodeAt(0); code <= end.charCodeAt(0) && chars.length < 200; code++)
          chars.push(String.fromCharCode(code));
      } else chars.push(c);
    }
    if (pattern[i++] !== "]") fail();
    if (negated) return ["q", "z", "7"].filter((c) => !chars.includes(c));
    return chars;
  };
  const escape = (c: string): string[] =>
    c === "d" ? ["0", "9"] : c === "w" ? ["a", "z"] : c === "s" ? [" "] : /[A-Za-z]/.test(c) ? fail() : [c];
  const pick = (chars: string[]) => (chars.length ? (far ? chars[chars.length - 1]! : chars[0]!) : fail());

  const sequence = (): string => {
    let out = "";
    while (i < pattern.length && pattern[i] !== ")" && pattern[i] !== "|") {
      const c = pattern[i++]!;
      let atom: () => string;
      if (c === "^" || c === "$") continue;
      if (c === "(") {
        if (pattern.startsWith("?:", i)) i += 2;
        else if (pattern[i] === "?") fail();
        const alternatives = [sequence()];
        while (pattern[i] === "|") {
          i++;
          alternatives.push(sequence());
        }
        if (pattern[i++] !== ")") fail();
        const chosen = alternatives[0]!;
        atom = () => chosen;
      } else if (c === "[") {
        const chars = classChars();
        atom = () => pick(chars);
      } else if (c === "\\") {
        const chars = escape(pattern[i++] ?? fail());
        atom = () => pick(chars);
      } else if (c === ".") atom = () => (far ? "z" : "a");
      else if ("*+?{".includes(c)) return fail();
      else atom = () => c;
      let [min, max] = [1, 1];
      const q = pattern[i];
      if (q === "*") [min, max, i] = [0, Infinity, i + 1];
      else if (q === "+") [min, max, i] = [1, Infinity, i + 1];
      else if (q === "?") [min, max, i] = [0, 1, i + 1];
      else if (q === "{") {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) ?? fail();
        min = Number(m[1]);
        max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min;
        i += m[0].length;
      }
      if (pattern[i] === "?") i++;
      let count = far ? Math.min(max, Math.max(min, 8)) : Math.max(min, max === Infinity && min === 0 ? 0 : min);
      if (stretch && max === Infinity) [count, stretch] = [count + stretch, 0];
      for (let n = 0; n < count; n++) out += atom();
    }
    return out;
  };
  try {
    const out = sequence();
    if (i !== pattern.length) return undefined;
    return new RegExp(pattern, "u").test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}
