/**
 * The request validator the wire check (stages/inspect/wire-check.ts) holds dry-run requests to: Stoplight Prism's
 * input validation (`@stoplight/prism-http`, the validator of `prism mock --errors`), on operations read from the
 * source description by `@stoplight/http-spec` — the same code an API's own Prism mock server runs, not ours. It
 * deserializes every parameter style (form and its explode, deep objects, pipe and space delimited, label and matrix
 * paths, headers) and parses urlencoded and multipart bodies. Loaded on first use: only an inspection with a
 * description to hold requests to pays for it.
 */
import { createRequire } from "node:module";
import { requestPathOf } from "../../core/path-key.js";
import { deref } from "../openapi/pointer.js";
import { UNNAMED_FILE_PART } from "../openapi/model.js";
import { binarySchema } from "../openapi/file-schema.js";

/** What the receipt names as the validator. */
const VALIDATOR = "@stoplight/prism-http 5.16.0 (Prism's request validation)";

/** A request as Prism's validator takes it (IHttpRequest): the path and query apart, headers in lower case. */
export interface WireRequest {
  method: string;
  url: { path: string; query: Record<string, string | string[]> };
  headers: Record<string, string>;
  body?: unknown;
}

type Diagnostic = { path?: Array<string | number>; message: string; code?: string | number };
type Either = { _tag: "Left"; left: Diagnostic[] } | { _tag: "Right"; right: unknown };
interface Libraries {
  validateInput(input: { resource: unknown; element: unknown }): Either;
  oas3(input: { document: unknown; name: string; method: string; config: unknown }): Record<string, unknown>;
  oas2(input: { document: unknown; name: string; method: string; config: unknown }): Record<string, unknown>;
  config: unknown;
  bundleTarget(input: { document: unknown; path: string; cloneDocument: boolean }): Record<string, unknown>;
}

let loaded: Libraries | undefined;

/**
 * Prism's validator and http-spec's operation readers, required once from node_modules. They stay out of the bundle
 * (scripts/build.mjs): jsonc-parser, under them, is a UMD module whose own require()s a bundler cannot follow.
 */
async function load(): Promise<Libraries> {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const validator = require("@stoplight/prism-http/dist/validator") as Pick<Libraries, "validateInput">;
  const oas3 = require("@stoplight/http-spec/oas3/operation") as { transformOas3Operation: Libraries["oas3"] };
  const oas2 = require("@stoplight/http-spec/oas2/operation") as { transformOas2Operation: Libraries["oas2"] };
  const oas = require("@stoplight/http-spec/oas") as { OPERATION_CONFIG: unknown };
  const json = require("@stoplight/json") as Pick<Libraries, "bundleTarget">;
  loaded = {
    validateInput: validator.validateInput,
    oas3: oas3.transformOas3Operation,
    oas2: oas2.transformOas2Operation,
    config: oas.OPERATION_CONFIG,
    bundleTarget: json.bundleTarget,
  };
  return loaded;
}

function libraries(): Libraries {
  if (!loaded) throw new Error("the request validator is used before it is loaded");
  return loaded;
}

/** The validator, loaded (while probes run, so the first validation does not wait), or why it could not be. Never throws. */
export async function loadWireValidator(): Promise<typeof wireValidator | { problem: string }> {
  try {
    await load();
    return wireValidator;
  } catch (error) {
    return { problem: `the request validator could not be loaded: ${(error as Error).message}` };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Marks the encoding withDefaultFormEncodings gives an urlencoded body's object the CLI sends as JSON text. */
const JSON_FIELD = "x-inter-json";

/**
 * A body content's schema properties and the encodings they are read under, that list set on the content: the
 * with…Encodings steps below add what the document leaves implicit to it.
 */
function encodedProperties(content: Record<string, unknown>): {
  properties: Record<string, unknown>;
  encodings: Array<Record<string, unknown>>;
} {
  const schema = isObject(content.schema) ? content.schema : undefined;
  const encodings = Array.isArray(content.encodings) ? (content.encodings as Array<Record<string, unknown>>) : [];
  content.encodings = encodings;
  return { properties: isObject(schema?.properties) ? schema.properties : {}, encodings };
}

/**
 * OpenAPI's default encoding of an urlencoded body's array properties (style form, explode true: repeated keys),
 * written out where the document leaves it implicit: Prism deserializes a property only under an encoding it is given,
 * so `topic=a&topic=b` would otherwise be read as the string "b" and refused as "must be array". An object property
 * without a style goes as JSON text (runtime/request-body.ts jsonField), which Prism has no deserializer for: it is
 * read as a deep object, into which validateRequest rewrites the JSON (formJsonAsDeepObject).
 */
function withDefaultFormEncodings(operation: Record<string, unknown>): void {
  for (const content of formContents(operation)) {
    const { properties, encodings } = encodedProperties(content);
    for (const [name, property] of Object.entries(properties)) {
      if (!isObject(property) || !["array", "object"].includes(String(property.type))) continue;
      if (encodings.some((e) => e.property === name && e.style)) continue;
      encodings.push(
        property.type === "object"
          ? { property: name, style: "deepObject", explode: true, allowReserved: true, headers: [], [JSON_FIELD]: true }
          : { property: name, style: "form", explode: true, allowReserved: true, headers: [] },
      );
    }
  }
}

/** An operation's urlencoded request bodies (http-spec's contents). */
function formContents(operation: Record<string, unknown>): Array<Record<string, unknown>> {
  const request = isObject(operation.request) ? operation.request : undefined;
  const body = isObject(request?.body) ? request.body : undefined;
  return (Array.isArray(body?.contents) ? body.contents : []).filter(
    (c): c is Record<string, unknown> =>
      isObject(c) && /^application\/x-www-form-urlencoded\b/i.test(String(c.mediaType)),
  );
}

/** `name[key]` and value of each leaf of a JSON value: arrays by index, as Prism's deep-object reader takes them. */
function deepPairs(prefix: string, value: unknown, out: Array<[string, string]>): Array<[string, string]> {
  if (Array.isArray(value)) value.forEach((item, i) => deepPairs(`${prefix}[${i}]`, item, out));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) deepPairs(`${prefix}[${k}]`, v, out);
  else out.push([prefix, value === null ? "" : String(value)]);
  return out;
}

/** The properties whose encoding JSON_FIELD marks, of an operation's bodies of one kind of media type. */
function jsonFields(contents: Array<Record<string, unknown>>): Set<string> {
  return new Set(
    contents.flatMap((c) =>
      (Array.isArray(c.encodings) ? (c.encodings as Array<Record<string, unknown>>) : [])
        .filter((e) => e[JSON_FIELD])
        .map((e) => String(e.property)),
    ),
  );
}

/** A JSON text's object, or undefined when it is not one. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A urlencoded body with each JSON-text object field (JSON_FIELD) written as the deep object its encoding here reads;
 * a value that is not a JSON object stays as it is, for the validator to judge.
 */
function formJsonAsDeepObject(operation: Record<string, unknown>, body: string): string {
  const fields = jsonFields(formContents(operation));
  if (!fields.size) return body;
  return body
    .split("&")
    .flatMap((pair) => {
      const [key = "", ...rest] = pair.split("=");
      const name = decodeURIComponent(key.replace(/\+/g, " "));
      let object: Record<string, unknown> | undefined;
      try {
        object = fields.has(name) ? jsonObject(decodeURIComponent(rest.join("=").replace(/\+/g, " "))) : undefined;
      } catch {
        object = undefined;
      }
      return object
        ? deepPairs(name, object, []).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        : [pair];
    })
    .join("&");
}

/** An operation's multipart request bodies (http-spec's contents). */
const multipartContents = (operation: Record<string, unknown>) =>
  bodyContents(operation).filter((c) => /^multipart\//i.test(String(c.mediaType)));

/**
 * A multipart body's object parts, as the CLI sends them: one part of JSON text (runtime/request-body.ts), which Prism
 * reads as a string and refuses as "must be object" — a required one kept every such CLI from certifying. Marked
 * (JSON_FIELD) and read as a deep object, into which validateRequest rewrites the part (multipartJsonAsDeepObject), so
 * the JSON's own fields are still judged. An encoding that names a style or a type other than JSON keeps its own.
 */
function withMultipartJsonEncodings(operation: Record<string, unknown>): void {
  for (const content of multipartContents(operation)) {
    const { properties, encodings } = encodedProperties(content);
    for (const [name, property] of Object.entries(properties)) {
      if (!isObject(property) || property.type !== "object") continue;
      const encoding = encodings.find((e) => e.property === name);
      if (encoding?.style || (encoding?.contentType && !/json/i.test(String(encoding.contentType)))) continue;
      const deep = { style: "deepObject", explode: true, allowReserved: true, [JSON_FIELD]: true };
      if (encoding) Object.assign(encoding, deep);
      else encodings.push({ property: name, headers: [], ...deep });
    }
  }
}

/**
 * A multipart body with each JSON part of a JSON_FIELD property written as the parts of a deep object (`meta[name]`),
 * which its encoding here reads; a part that is not a JSON object stays as it is, for the validator to judge.
 */
function multipartJsonAsDeepObject(operation: Record<string, unknown>, body: string, boundary: string): string {
  const fields = jsonFields(multipartContents(operation));
  if (!fields.size) return body;
  const delimiter = `--${boundary}`;
  const pieces = body.split(delimiter);
  return pieces
    .map((piece, i) => {
      // The preamble before the first delimiter and the `--` closing the last are no parts.
      if (i === 0 || i === pieces.length - 1) return piece;
      const split = piece.indexOf("\r\n\r\n");
      const head = split < 0 ? "" : piece.slice(0, split);
      const name = /;\s*name="([^"]*)"/i.exec(head)?.[1];
      const object = name !== undefined && fields.has(name) ? jsonObject(piece.slice(split + 4, -2)) : undefined;
      if (!object) return piece;
      return deepPairs(name!, object, [])
        .map(([k, v]) => `\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join(delimiter);
    })
    .join(delimiter);
}

/**
 * A multipart body's encodings without what only an urlencoded body reads: `style` and `allowReserved` are ignored for
 * any other type (OpenAPI), but Prism holds a multipart part to them, so a file whose bytes hold a `:` or `/` was
 * "reserved characters used in request body" (facecheck.id's `encoding: {images: {style: form}}`).
 */
function withMultipartEncodingsReserved(operation: Record<string, unknown>): void {
  const request = isObject(operation.request) ? operation.request : undefined;
  const body = isObject(request?.body) ? request.body : undefined;
  for (const content of Array.isArray(body?.contents) ? body.contents : []) {
    if (!isObject(content) || !/^multipart\//i.test(String(content.mediaType)) || !Array.isArray(content.encodings))
      continue;
    for (const encoding of content.encodings) if (isObject(encoding)) encoding.allowReserved = true;
  }
}

/**
 * OpenAPI's default for a multipart body's list (repeated parts, runtime/request-body.ts), written out where the
 * document leaves it implicit: Prism reads each part as text and makes a list of it only under an encoding with a
 * style, so one file given to `file: {type: array, items: {format: binary}}` was refused as "must be array". Under
 * `style: form` it is read as a list of the part (of repeated parts, the last): each item still judged. An encoding
 * naming `explode: false` keeps it (the CLI then sends one comma-joined part, which form reads back as the list).
 */
function withMultipartArrayEncodings(operation: Record<string, unknown>): void {
  for (const content of multipartContents(operation)) {
    const { properties, encodings } = encodedProperties(content);
    for (const [name, property] of Object.entries(properties)) {
      if (!isObject(property) || property.type !== "array") continue;
      const encoding = encodings.find((e) => e.property === name);
      if (encoding?.style) continue;
      if (encoding) Object.assign(encoding, { style: "form", explode: encoding.explode ?? true });
      else encodings.push({ property: name, style: "form", explode: true, allowReserved: true, headers: [] });
    }
  }
}

/** An operation's request body contents (http-spec's), of every media type. */
function bodyContents(operation: Record<string, unknown>): Array<Record<string, unknown>> {
  const request = isObject(operation.request) ? operation.request : undefined;
  const body = isObject(request?.body) ? request.body : undefined;
  return (Array.isArray(body?.contents) ? body.contents : []).filter(isObject);
}

/**
 * A multipart body that is itself a file (`{type: string, format: binary}`), as the CLI sends it: one part named
 * UNNAMED_FILE_PART (stages/openapi/normalize.ts). Prism reads every multipart body as an object of its parts, so
 * against the description's own schema no request at all could be valid; the part's value is still judged by it.
 */
function withNamedFilePart(operation: Record<string, unknown>): void {
  const request = isObject(operation.request) ? operation.request : undefined;
  const body = isObject(request?.body) ? request.body : undefined;
  for (const content of Array.isArray(body?.contents) ? body.contents : []) {
    if (!isObject(content) || !/^multipart\//i.test(String(content.mediaType))) continue;
    const schema = isObject(content.schema) ? content.schema : undefined;
    if (!schema || schema.type === "object" || isObject(schema.properties) || !binarySchema({}, schema)) continue;
    content.schema = { type: "object", properties: { [UNNAMED_FILE_PART]: schema }, required: [UNNAMED_FILE_PART] };
  }
}

/**
 * A parameter's schema without `null` among its types (OpenAPI 3.0's `nullable` on an array, read as `type: [array,
 * null]`): a path, query, header or cookie value is text and never null, and Prism deserializes a form-style list only
 * where the type is `array` alone, so `?metadata=a` was refused as "must be array,null".
 */
function withoutNullParameterTypes(operation: Record<string, unknown>): void {
  const request = isObject(operation.request) ? operation.request : undefined;
  for (const where of ["path", "query", "headers", "cookie"]) {
    for (const param of Array.isArray(request?.[where]) ? (request[where] as unknown[]) : []) {
      const schema = isObject(param) && isObject(param.schema) ? param.schema : undefined;
      if (!schema || !Array.isArray(schema.type)) continue;
      const types = (schema.type as unknown[]).filter((t) => t !== "null");
      if (types.length === 1) schema.type = types[0];
    }
  }
}

const composed = new WeakMap<object, Record<string, unknown>>();

/**
 * Each `allOf` composition of a document read as its document means it: one object. JSON Schema closes an object
 * by `additionalProperties: false` over its own `properties` alone, so in Azure's `{allOf: [ResourceDefinition],
 * additionalProperties: false, properties: {properties}}` every field the part gives (`etag`, `location`) is
 * "additional" to the outer object and its own `properties` to the closed part — every request refused. Here a
 * composition's parts are open and its own object knows their fields (names only: the parts still judge their
 * values). In the document's copy (prepared).
 */
function openCompositions(copy: Record<string, unknown>): void {
  const resolve = (node: unknown) => deref(copy, node);
  const namesOf = (part: unknown, seen: Set<unknown>): string[] => {
    const schema = resolve(part);
    if (!isObject(schema) || seen.has(schema)) return [];
    seen.add(schema);
    return [
      ...Object.keys(isObject(schema.properties) ? schema.properties : {}),
      ...(Array.isArray(schema.allOf) ? schema.allOf.flatMap((p) => namesOf(p, seen)) : []),
    ];
  };
  const visited = new WeakSet<object>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== "object" || visited.has(node)) return;
    visited.add(node);
    if (Array.isArray(node)) return node.forEach(visit);
    const schema = node as Record<string, unknown>;
    if (Array.isArray(schema.allOf)) {
      const names = schema.allOf.flatMap((p) => namesOf(p, new Set()));
      // Each part opened where it was closed: a copy, so the part stays closed wherever it stands alone.
      schema.allOf = schema.allOf.map((part) => {
        const resolved = resolve(part);
        return isObject(resolved) && resolved.additionalProperties === false
          ? { ...resolved, additionalProperties: true }
          : part;
      });
      if (schema.additionalProperties === false) {
        const own = isObject(schema.properties) ? schema.properties : (schema.properties = {});
        for (const name of names) if (!(name in own)) (own as Record<string, unknown>)[name] = {};
      }
    }
    Object.values(schema).forEach(visit);
  };
  visit(copy);
}

/**
 * The document as Prism should read it, once per document: compositions opened (openCompositions), and a property
 * that is read-only through its `$ref` said to be read-only where it stands. Prism leaves read-only properties out of
 * what a request must send, but reads `readOnly` on the property itself, so an object that requires its `$ref`'d
 * read-only `id` (apideck's `id: {$ref: Id}`, `Id: {readOnly: true}`) refused every request that, rightly, has none.
 * Most documents need neither: they are read as they are, without a copy.
 */
function prepared(document: Record<string, unknown>): Record<string, unknown> {
  const cached = composed.get(document);
  if (cached) return cached;
  const found = misread(document);
  const copy = found.closes || found.hidden.length ? structuredClone(document) : document;
  composed.set(document, copy);
  if (copy === document) return copy;
  if (found.closes) openCompositions(copy);
  // Marked in the copy: the same places, found again there (once each: an opened part shares its properties).
  for (const [properties, name] of misread(copy).hidden)
    if (!(properties[name] as { readOnly?: boolean }).readOnly)
      properties[name] = { allOf: [properties[name]], readOnly: true };
  return copy;
}

/**
 * What of a document Prism would misread, in one walk: some `allOf` composition closed, or closing a part
 * (openCompositions opens them), and the properties a `$ref` makes read-only without saying so where they stand.
 */
function misread(document: Record<string, unknown>): {
  closes: boolean;
  hidden: Array<[Record<string, unknown>, string]>;
} {
  let closes = false;
  const hidden: Array<[Record<string, unknown>, string]> = [];
  const stack: unknown[] = [document];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const schema = node as Record<string, unknown>;
    if (
      !closes &&
      Array.isArray(schema.allOf) &&
      (schema.additionalProperties === false ||
        schema.allOf.some((part) => {
          const resolved = deref(document, part);
          return isObject(resolved) && resolved.additionalProperties === false;
        }))
    )
      closes = true;
    if (isObject(schema.properties))
      for (const [name, property] of Object.entries(schema.properties))
        if (isObject(property) && typeof property.$ref === "string" && property.readOnly !== true) {
          const target = deref(document, property);
          if (isObject(target) && target.readOnly === true) hidden.push([schema.properties, name]);
        }
    for (const value of Object.values(schema)) if (value && typeof value === "object") stack.push(value);
  }
  return { closes, hidden };
}

/** Marks a query parameter withTabsAsPipes reads as pipe-delimited (validateRequest turns its tabs to pipes). */
const TABS = "x-inter-tabs";

/**
 * A query list in Swagger 2.0's `tsv` (http-spec's `tabDelimited`, runtime/serialize.ts): Prism has no reader for
 * that style, so every request sending one was "must have required property". Read here as pipe-delimited, the
 * request's tabs made pipes (tabsAsPipes): the items are judged as they were sent.
 */
function withTabsAsPipes(operation: Record<string, unknown>): void {
  const request = isObject(operation.request) ? operation.request : undefined;
  for (const param of Array.isArray(request?.query) ? (request.query as unknown[]) : [])
    if (isObject(param) && param.style === "tabDelimited")
      Object.assign(param, { style: "pipeDelimited", [TABS]: true });
}

/** The request with the values of the parameters withTabsAsPipes marked split at pipes instead of tabs. */
function tabsAsPipes(operation: Record<string, unknown>, request: WireRequest): WireRequest {
  const req = isObject(operation.request) ? operation.request : undefined;
  const names = (Array.isArray(req?.query) ? (req.query as unknown[]) : [])
    .filter((q): q is Record<string, unknown> => isObject(q) && q[TABS] === true)
    .map((q) => String(q.name));
  if (!names.some((n) => n in request.url.query)) return request;
  const query = { ...request.url.query };
  const piped = (v: string) => v.replace(/\t/g, "|");
  for (const name of names) {
    const value = query[name];
    if (value !== undefined) query[name] = Array.isArray(value) ? value.map(piped) : piped(value);
  }
  return { ...request, url: { ...request.url, query } };
}

/** An operation of the description as Prism validates requests to it; throws what http-spec cannot read. */
function operationOf(source: Record<string, unknown>, path: string, method: string): Record<string, unknown> {
  const libs = libraries();
  const document = prepared(source);
  const read = "swagger" in document ? libs.oas2 : libs.oas3;
  const operation = read({ document, name: path, method: method.toLowerCase(), config: libs.config });
  withDefaultFormEncodings(operation);
  withMultipartArrayEncodings(operation);
  withMultipartJsonEncodings(operation);
  withMultipartEncodingsReserved(operation);
  withoutNullParameterTypes(operation);
  withNamedFilePart(operation);
  withTabsAsPipes(operation);
  // A path key's fragment or fixed query (`/#Action=SendMessage`, `/{Bucket}?acl`) is no part of the request's path:
  // the CLI sends the path before it (runtime/http.ts), which the validator matches against the template.
  if (typeof operation.path === "string") operation.path = requestPathOf(operation.path).path || "/";
  // The schemas' `$ref`s are kept and bundled beside the operation, as Prism's own loader does.
  return libs.bundleTarget({
    document: { ...document, __target__: operation },
    path: "#/__target__",
    cloneDocument: false,
  });
}

/**
 * The optional deep-object query parameters a request does not send: Prism reads each as `{}` and judges that
 * (Stripe's `automatic_tax`, whose `enabled` is required, refused in every request that leaves it out).
 */
function unsentDeepObjects(operation: Record<string, unknown>, request: WireRequest): Set<string> {
  const req = isObject(operation.request) ? operation.request : undefined;
  const sent = Object.keys(request.url.query).map((key) => key.replace(/\[.*$/, ""));
  return new Set(
    (Array.isArray(req?.query) ? (req.query as unknown[]) : [])
      .filter(isObject)
      .filter((q) => q.style === "deepObject" && !q.required && !sent.includes(String(q.name)))
      .map((q) => String(q.name)),
  );
}

/** The validator's findings on a request: empty when it is valid. Throws what the validator cannot handle. */
function validateRequest(operation: Record<string, unknown>, request: WireRequest): Diagnostic[] {
  const type = Object.entries(request.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
  const piped = tabsAsPipes(operation, request);
  const boundary = /^multipart\/form-data\b.*;\s*boundary="?([^";]+)"?/i.exec(type)?.[1];
  const element =
    typeof piped.body !== "string"
      ? piped
      : /^application\/x-www-form-urlencoded\b/i.test(type)
        ? { ...piped, body: formJsonAsDeepObject(operation, piped.body) }
        : boundary
          ? { ...piped, body: multipartJsonAsDeepObject(operation, piped.body, boundary) }
          : piped;
  const result = libraries().validateInput({ resource: operation, element });
  if (result._tag !== "Left") return [];
  const unsent = unsentDeepObjects(operation, request);
  return result.left.filter((d) => !(d.path?.[0] === "query" && unsent.has(String(d.path[1]))));
}

/** The validator as the wire check uses it. */
export const wireValidator = { name: VALIDATOR, operationOf, validateRequest };
