import { ExactInteger, stringifyExact } from "./exact.js";

/**
 * Parameter serialization as the OpenAPI document says it (OpenAPI 3.1.1 §4.8.12.4, "Style Examples"), with Swagger
 * 2.0's `collectionFormat` mapped onto the same styles (`tsv` is `tabDelimited`, the one style OpenAPI 3 lacks).
 * Values are percent-encoded as RFC 3986 requires (only unreserved characters stay); the delimiters of `form`,
 * `simple`, `label` and `matrix` (`,` `;` `.` `=` `&`) stay literal, those of `spaceDelimited`, `pipeDelimited`,
 * `tabDelimited` and `deepObject` (space, `|`, tab, `[` `]`) are percent-encoded, as the tables show. Header values
 * are not percent-encoded (Appendix D).
 */

export type Style =
  "form" | "spaceDelimited" | "pipeDelimited" | "tabDelimited" | "deepObject" | "simple" | "label" | "matrix";
export type Location = "path" | "query" | "header" | "cookie";

/** OpenAPI's default style for a location: `form` in query and cookie, `simple` in path and header. */
export const defaultStyle = (at: Location): Style => (at === "query" || at === "cookie" ? "form" : "simple");
/** OpenAPI's default `explode`: true for `form`, false for every other style. */
export const defaultExplode = (style: Style): boolean => style === "form";

/** The style and explode a parameter is sent with: its own where given, else the defaults of its location. */
export function wireStyle(param: { in: Location; style?: Style; explode?: boolean }): {
  style: Style;
  explode: boolean;
} {
  const style = param.style ?? defaultStyle(param.in);
  return { style, explode: param.explode ?? defaultExplode(style) };
}

/** RFC 3986 percent-encoding: everything but the unreserved characters `A-Z a-z 0-9 - . _ ~`. */
export function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Percent-encoding that leaves RFC 3986's reserved characters as they are, for a value the document says carries them
 * (OpenAPI's `allowReserved`, Azure's `x-ms-skip-url-encoding`: a `{scope}` of `subscriptions/…/resourceGroups/…`, a
 * `{nextLink}`), and an escape already made (`%2F`). `#` is always encoded (a fragment never reaches the server), and so
 * is what `structural` lists (a query value's `&`, `=` and `+`, which would split or change the pairs around it).
 */
function encodeReserved(text: string, structural = ""): string {
  return text.replace(/%[0-9A-Fa-f]{2}|[^A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=]|[&=+]/gu, (c) =>
    c.length === 3 || (c.length === 1 && /[&=+]/.test(c) && !structural.includes(c)) ? c : encode(c),
  );
}

/** One value as text: strings as they are, exact integers with every digit, anything else as JSON. */
function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof ExactInteger) return value.digits;
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? stringifyExact(value) : String(value);
}

type Shape =
  | { kind: "primitive"; value: string }
  | { kind: "array"; items: string[] }
  | { kind: "object"; entries: Array<[string, string]> };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof ExactInteger);

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return { kind: "array", items: value.map(text) };
  if (isRecord(value)) return { kind: "object", entries: Object.entries(value).map(([k, v]) => [k, text(v)]) };
  return { kind: "primitive", value: text(value) };
}

const DELIMITER: Partial<Record<Style, { encoded: string; literal: string }>> = {
  spaceDelimited: { encoded: "%20", literal: " " },
  pipeDelimited: { encoded: "%7C", literal: "|" },
  tabDelimited: { encoded: "%09", literal: "\t" },
};

/** The value of a path parameter, to replace `{name}` in the path. */
export function serializePath(name: string, value: unknown, style: Style, explode: boolean, reserved = false): string {
  const v = shapeOf(value);
  const n = encode(name);
  const enc = reserved ? (t: string) => encodeReserved(t) : encode;
  const flat = (pairs: Array<[string, string]>) => pairs.flatMap(([k, x]) => [enc(k), enc(x)]);
  switch (style) {
    case "label": {
      if (v.kind === "primitive") return `.${enc(v.value)}`;
      if (v.kind === "array") return v.items.length ? `.${v.items.map(enc).join(explode ? "." : ",")}` : ".";
      if (explode) return v.entries.length ? `.${v.entries.map(([k, x]) => `${enc(k)}=${enc(x)}`).join(".")}` : ".";
      return `.${flat(v.entries).join(",")}`;
    }
    case "matrix": {
      if (v.kind === "primitive") return `;${n}=${enc(v.value)}`;
      if (v.kind === "array") {
        if (!v.items.length) return `;${n}`;
        return explode ? v.items.map((x) => `;${n}=${enc(x)}`).join("") : `;${n}=${v.items.map(enc).join(",")}`;
      }
      if (!v.entries.length) return `;${n}`;
      return explode
        ? v.entries.map(([k, x]) => `;${enc(k)}=${enc(x)}`).join("")
        : `;${n}=${flat(v.entries).join(",")}`;
    }
    default: {
      const delimiter = DELIMITER[style]?.encoded ?? ",";
      if (v.kind === "primitive") return enc(v.value);
      if (v.kind === "array") return v.items.map(enc).join(delimiter);
      return explode && style === "simple"
        ? v.entries.map(([k, x]) => `${enc(k)}=${enc(x)}`).join(",")
        : flat(v.entries).join(delimiter);
    }
  }
}

/** `deepObject` pairs: `name[key]=value`, nested objects one bracket deeper, arrays as `name[]=a&name[]=b`. */
function deepPairs(prefix: string, value: unknown, out: string[]): string[] {
  if (Array.isArray(value)) for (const item of value) deepPairs(`${prefix}%5B%5D`, item, out);
  else if (isRecord(value))
    for (const [k, v] of Object.entries(value)) deepPairs(`${prefix}%5B${encode(k)}%5D`, v, out);
  else out.push(`${prefix}=${encode(text(value))}`);
  return out;
}

/** The `name=value` pairs of a query parameter, percent-encoded, to be joined with `&`. */
export function serializeQuery(
  name: string,
  value: unknown,
  style: Style,
  explode: boolean,
  reserved = false,
): string[] {
  const n = encode(name);
  const enc = reserved ? (t: string) => encodeReserved(t, "&=+") : encode;
  const v = shapeOf(value);
  if (style === "deepObject" && v.kind !== "primitive") return deepPairs(n, value, []);
  const delimiter = DELIMITER[style];
  if (delimiter && v.kind !== "primitive") {
    // Exploded, these styles are undefined in OpenAPI: sent like form with explode, one pair per value.
    if (explode)
      return v.kind === "array"
        ? v.items.map((x) => `${n}=${enc(x)}`)
        : v.entries.map(([k, x]) => `${enc(k)}=${enc(x)}`);
    const parts = v.kind === "array" ? v.items.map(enc) : v.entries.flatMap(([k, x]) => [enc(k), enc(x)]);
    return parts.length ? [`${n}=${parts.join(delimiter.encoded)}`] : [];
  }
  // form, and every style where the document's combination is undefined (a primitive with spaceDelimited, …).
  if (v.kind === "primitive") return [`${n}=${enc(v.value)}`];
  if (v.kind === "array") {
    if (!v.items.length) return [`${n}=`];
    return explode ? v.items.map((x) => `${n}=${enc(x)}`) : [`${n}=${v.items.map(enc).join(",")}`];
  }
  if (explode) return v.entries.map(([k, x]) => `${enc(k)}=${enc(x)}`);
  return [`${n}=${v.entries.flatMap(([k, x]) => [enc(k), enc(x)]).join(",")}`];
}

/** A header's value (`simple`): arrays and objects comma-joined, not percent-encoded. */
export function serializeHeader(value: unknown, style: Style, explode: boolean): string {
  const v = shapeOf(value);
  const delimiter = DELIMITER[style]?.literal ?? ",";
  if (v.kind === "primitive") return v.value;
  if (v.kind === "array") return v.items.join(delimiter);
  return explode ? v.entries.map(([k, x]) => `${k}=${x}`).join(",") : v.entries.flat().join(delimiter);
}

/**
 * The `name=value` pairs of a cookie (`form`), to be joined with `; `. Exploded arrays and objects become one cookie
 * per value (`name=a; name=b`, `R=100; G=200`): `&` does not separate cookies (Appendix D).
 */
export function serializeCookie(name: string, value: unknown, style: Style, explode: boolean): string[] {
  return serializeQuery(name, value, style === "deepObject" ? "form" : style, explode);
}

/**
 * How a flag's value travels, for help: the request text for sample values (`?type=a,b`, `.a.b in the path`,
 * `X-Tags: a,b`); undefined for a plain value sent as itself.
 */
/** What help needs of a flag to say how its value travels. */
interface WireParam {
  in: Location | "body";
  wire: string;
  type: string;
  style?: Style;
  explode?: boolean;
  json?: true;
}

function sentAs(param: WireParam): string | undefined {
  if (param.in === "body") return undefined;
  const { style, explode } = wireStyle({ in: param.in, style: param.style, explode: param.explode });
  const sample = param.type === "array" ? ["a", "b"] : param.type === "object" ? { k: "v", n: "1" } : undefined;
  if (sample === undefined && (param.in !== "path" || style === "simple")) return undefined;
  if (param.json && sample) return jsonSentAs(param.in, param.wire, JSON.stringify(sample));
  const value = sample ?? "x";
  switch (param.in) {
    case "path":
      return `${serializePath(param.wire, value, style, explode)} in the path`;
    case "query":
      return `?${serializeQuery(param.wire, value, style, explode).join("&")}`;
    case "header":
      return `${param.wire}: ${serializeHeader(value, style, explode)}`;
    case "cookie":
      return `Cookie: ${serializeCookie(param.wire, value, style, explode).join("; ")}`;
  }
}

/** For help: a JSON-content parameter's JSON text where it goes, shown unescaped (it is sent percent-encoded). */
function jsonSentAs(at: Location, wire: string, json: string): string {
  const where = {
    path: `${json} in the path`,
    query: `?${wire}=${json}`,
    header: `${wire}: ${json}`,
    cookie: `Cookie: ${wire}=${json}`,
  };
  return `${where[at]} (JSON text)`;
}

/**
 * For help: how to give an array or object flag and how it is sent ("repeat --type or give a comma list; sent as
 * ?type=a,b"); for a path value in label or matrix style, how it is sent. Undefined for a plain value.
 */
export function flagUsage(flag: WireParam & { flag: string; items?: string }): string | undefined {
  const wire = sentAs(flag);
  const sent = wire
    ? `sent as ${wire}`
    : flag.in === "body"
      ? `sent in the request body as ${flag.type === "array" ? "an array" : "an object"}`
      : undefined;
  if (flag.type === "array" && flag.items === "array")
    return `repeat --${flag.flag} with one JSON list each, or give a JSON list of lists (--${flag.flag} '[["a","b"],["c"]]'); ${sent}`;
  if (flag.type === "array" && flag.items === "object")
    return `repeat --${flag.flag} with one JSON value each, or give a JSON list (--${flag.flag} '[{"k":"v"},{"k":"w"}]'); ${sent}`;
  if (flag.type === "array")
    return `repeat --${flag.flag} or give a comma list (--${flag.flag} a --${flag.flag} b, or --${flag.flag} a,b); ${sent}`;
  if (flag.type === "object") return `give JSON (--${flag.flag} '{"k":"v","n":"1"}'); ${sent}`;
  return wire ? `sent as ${wire}` : undefined;
}
