import { InterError } from "../../core/errors.js";
import type {
  BodyField,
  PartEncoding,
  OAuthFlow,
  Operation,
  OperationModel,
  Parameter,
  ParameterStyle,
  RequestBody,
  Response,
  RequestSignature,
  SecurityRequirement,
  SecurityScheme,
  ServerVariable,
  Skipped,
} from "./model.js";
import { UNNAMED_FILE_PART } from "./model.js";
import { escapeToken, pointerOf } from "./pointer.js";
import { bodyEncodingOf, isJsonMedia, responseKindOf } from "../../runtime/media.js";
import { resolveDocument } from "./ref-reader.js";
import { DocumentProblem, isObject, Resolver } from "./resolver.js";
import { MAX_SCHEMA_VISITS, summarize, valueSpec, type SchemaSummary } from "./schema.js";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
type Method = (typeof METHODS)[number];

export interface ReadResult {
  model: OperationModel;
  warnings: string[];
}

function invalid(file: string, pointer: string, reason: string, suggestion: string): InterError {
  return new InterError("OPENAPI_INVALID", `${file}${pointer ? ` ${pointer}` : ""}: ${reason}`, suggestion, {
    file,
    pointer,
    reason,
  });
}

function specVersion(root: Record<string, unknown>, file: string): OperationModel["source"]["specVersion"] {
  if (root.swagger !== undefined) {
    if (String(root.swagger) === "2.0") return "2.0";
    throw invalid(
      file,
      "#/swagger",
      `unsupported Swagger version "${String(root.swagger)}"`,
      'Use Swagger "2.0" or OpenAPI 3.0 / 3.1.',
    );
  }
  const version = root.openapi;
  if (typeof version !== "string")
    throw invalid(
      file,
      "#/openapi",
      "missing `openapi` (or `swagger`) version field",
      'Add `openapi: 3.1.0` (or `swagger: "2.0"`) at the top of the document.',
    );
  if (/^3\.0(\.\d+)?$/.test(version)) return "3.0";
  if (/^3\.1(\.\d+)?$/.test(version)) return "3.1";
  throw invalid(
    file,
    "#/openapi",
    `unsupported OpenAPI version "${version}"`,
    "Use OpenAPI 3.0.x or 3.1.x (or Swagger 2.0).",
  );
}

function securityOf(value: unknown): SecurityRequirement[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isObject).map((req) =>
    Object.fromEntries(
      Object.keys(req)
        .sort()
        .map((name) => [
          name,
          Array.isArray(req[name]) ? (req[name] as unknown[]).filter((s): s is string => typeof s === "string") : [],
        ]),
    ),
  );
}

const FLOW_NAMES: Record<string, "clientCredentials" | "authorizationCode" | "password" | "implicit"> = {
  clientCredentials: "clientCredentials",
  authorizationCode: "authorizationCode",
  password: "password",
  implicit: "implicit",
  application: "clientCredentials",
  accessCode: "authorizationCode",
};

/** A flow's URLs and scope names; a URL that is not a string is left out (the CLI then cannot use that flow). */
function flowOf(node: Record<string, unknown>): OAuthFlow {
  const url = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  const tokenUrl = url(node.tokenUrl);
  const refreshUrl = url(node.refreshUrl);
  return {
    ...(tokenUrl ? { tokenUrl } : {}),
    ...(refreshUrl ? { refreshUrl } : {}),
    scopes: isObject(node.scopes) ? Object.keys(node.scopes) : [],
  };
}

/** OAuth 2 flows: OpenAPI 3's `flows` object, or Swagger 2.0's single `flow` with its `tokenUrl`. */
function flowsOf(s: Record<string, unknown>): SecurityScheme["flows"] {
  const flows: NonNullable<SecurityScheme["flows"]> = {};
  if (isObject(s.flows)) {
    for (const [name, node] of Object.entries(s.flows))
      if (FLOW_NAMES[name] && isObject(node)) flows[FLOW_NAMES[name]] = flowOf(node);
  } else if (typeof s.flow === "string" && FLOW_NAMES[s.flow]) flows[FLOW_NAMES[s.flow]!] = flowOf(s);
  return flows;
}

function servers(root: Record<string, unknown>, version: string): OperationModel["servers"] {
  if (version === "2.0") {
    // Without a host the base path still says where the API lives on whatever origin serves it.
    if (typeof root.host !== "string")
      return typeof root.basePath === "string" && root.basePath.startsWith("/") && root.basePath !== "/"
        ? [{ url: root.basePath.replace(/\/$/, "") }]
        : [];
    const schemes = Array.isArray(root.schemes) && root.schemes.length ? root.schemes : ["https"];
    return [
      {
        url: `${schemes[0]}://${root.host}${typeof root.basePath === "string" ? root.basePath : ""}`.replace(/\/$/, ""),
      },
    ];
  }
  if (!Array.isArray(root.servers)) return [];
  return root.servers.filter(isObject).flatMap((server) => {
    if (typeof server.url !== "string") return [];
    const vars = isObject(server.variables) ? server.variables : {};
    const written = server.url;
    const url = written.replace(/\{([^}]+)\}/g, (whole, name: string, at: number) => {
      const v = vars[name];
      if (!isObject(v) || v.default === undefined) return whole;
      // A path variable written after its slash whose value begins with one (Red Hat's `https://cloud.redhat.com/
      // {basePath}`, `/api/…`) is one slash, not an empty segment.
      const value = String(v.default);
      return written[at - 1] === "/" && value.startsWith("/") ? value.slice(1) : value;
    });
    const variables: Record<string, ServerVariable> = {};
    for (const [name, v] of Object.entries(vars))
      if (isObject(v))
        variables[name] = {
          ...(v.default !== undefined ? { default: String(v.default) } : {}),
          ...(Array.isArray(v.enum) ? { enum: v.enum.map(String) } : {}),
        };
    return [
      {
        url: url.replace(/\/$/, ""),
        ...(typeof server.description === "string" ? { description: server.description } : {}),
        ...(server.url.includes("{") ? { template: server.url.replace(/\/$/, ""), variables } : {}),
      },
    ];
  });
}

/** `x-amazon-apigateway-authtype` values that are request signatures (the others — custom, cognito_user_pools — are tokens). */
const AWS_SIGNATURES: Record<string, { kind: string; title: string }> = {
  awssigv4: { kind: "aws-sigv4", title: "AWS Signature Version 4" },
  // S3 takes Signature Version 4 in every region (regions opened since 2014 take nothing else).
  awss3: { kind: "aws-sigv4", title: "AWS Signature Version 4" },
  awssigv2: { kind: "aws-sigv2", title: "AWS Signature Version 2" },
};

/**
 * Whether a scheme's value is a signature computed over each request, read conservatively from what a document says
 * reliably: API Gateway's `x-amazon-apigateway-authtype` (a signature kind, or an unknown kind naming one), an HTTP
 * scheme named for one (`payone-hmac-sha256`), or an apiKey or non-Bearer HTTP scheme whose name or own description
 * says it signs or hashes the request ("HMAC", "request signature", "sign your requests", "the hash of the request
 * parameters"). A Bearer token obtained through a signed request is still a token.
 */
function requestSignature(s: Record<string, unknown>, root: Record<string, unknown>): RequestSignature | undefined {
  const authtype = s["x-amazon-apigateway-authtype"];
  if (typeof authtype === "string") {
    const known = AWS_SIGNATURES[authtype.toLowerCase()];
    const by = `x-amazon-apigateway-authtype: ${authtype}`;
    if (known?.kind === "aws-sigv4") {
      const info = isObject(root.info) ? root.info : {};
      const named = typeof info["x-aws-signingName"] === "string" ? info["x-aws-signingName"] : undefined;
      return {
        ...known,
        by,
        ...(authtype.toLowerCase() === "awss3" ? { service: "s3" } : named ? { service: named } : {}),
      };
    }
    if (known) return { ...known, by };
    if (/sig/i.test(authtype)) return { kind: authtype.toLowerCase(), title: `a request signature (${authtype})`, by };
    return undefined;
  }
  if (s.type === "oauth2" || s.type === "openIdConnect" || s.type === "basic") return undefined;
  if (s.type === "http" && ["bearer", "basic"].includes(String(s.scheme ?? "bearer").toLowerCase())) return undefined;
  if (s.type === "http" && /hmac|signature/i.test(String(s.scheme)))
    return { kind: "hmac", title: `a request signature (HTTP ${String(s.scheme)})`, by: `scheme: ${String(s.scheme)}` };
  const text = typeof s.description === "string" ? s.description : "";
  const said =
    /\bhmac|\brequest signature|\bsign(ing)? (your|each|every|all|the) (api )?requests?\b|\bsigned with\b|\bhash of the request\b/i.exec(
      text,
    );
  const named = typeof s.name === "string" && /(^|[^a-z])(signature|sig)([^a-z]|$)/i.test(s.name);
  if (said || (named && /sign|hash/i.test(text)))
    return {
      kind: "hmac",
      title: "a request signature",
      by: said ? `the scheme's description ("${said[0]}")` : `the scheme's name (${String(s.name)})`,
    };
  return undefined;
}

function securitySchemes(
  root: Record<string, unknown>,
  resolver: Resolver,
  base: string,
  version: string,
  warnings: string[],
): Record<string, SecurityScheme> {
  const raw =
    version === "2.0"
      ? root.securityDefinitions
      : isObject(root.components)
        ? root.components.securitySchemes
        : undefined;
  const out: Record<string, SecurityScheme> = {};
  if (!isObject(raw)) return out;
  for (const [name, node] of Object.entries(raw)) {
    const where =
      version === "2.0" ? pointerOf("securityDefinitions", name) : pointerOf("components", "securitySchemes", name);
    try {
      const s = resolver.deref<Record<string, unknown>>(node, base, where).value;
      const description = typeof s.description === "string" ? s.description : undefined;
      if (s.type === "basic") out[name] = { type: "http", scheme: "basic", description };
      else if (s.type === "http")
        out[name] = {
          type: "http",
          scheme: String(s.scheme ?? "bearer").toLowerCase(),
          ...(typeof s.bearerFormat === "string" ? { bearerFormat: s.bearerFormat } : {}),
          description,
        };
      else if (
        s.type === "apiKey" &&
        typeof s.name === "string" &&
        ["header", "query", "cookie"].includes(String(s.in))
      )
        out[name] = { type: "apiKey", in: s.in as "header", name: s.name, description };
      else if (s.type === "oauth2") out[name] = { type: "oauth2", flows: flowsOf(s), description };
      else if (s.type === "openIdConnect")
        out[name] = {
          type: "openIdConnect",
          ...(typeof s.openIdConnectUrl === "string" ? { openIdConnectUrl: s.openIdConnectUrl } : {}),
          description,
        };
      else if (s.type === "mutualTLS") out[name] = { type: s.type, description };
      else
        warnings.push(
          `${where}: security scheme "${name}" of type "${String(s.type)}" is not understood; it is ignored`,
        );
      const signature = out[name] && requestSignature(s, root);
      if (signature) out[name] = { ...out[name]!, signature };
    } catch (error) {
      warnings.push(`${where}: ${(error as Error).message}; the scheme is ignored`);
    }
  }
  return out;
}

function paramKey(p: { name: string; in: string }): string {
  return `${p.in}:${p.name}`;
}

function readParameter(
  resolver: Resolver,
  node: unknown,
  base: string,
  where: string,
  version: string,
):
  | (Parameter & { schema?: SchemaSummary })
  | { body: unknown; base: string }
  | { formField: BodyField; file: boolean; encoding?: PartEncoding } {
  const { value: p, base: pBase } = resolver.deref<Record<string, unknown>>(node, base, where);
  if (!isObject(p) || typeof p.name !== "string" || !p.name)
    throw new DocumentProblem("a parameter has no name", where);
  const location = String(p.in);
  if (version === "2.0" && location === "body") return { body: p.schema, base: pBase };
  let summary: SchemaSummary;
  const json = version !== "2.0" && p.schema === undefined ? jsonContent(resolver, p.content, pBase, where) : undefined;
  if (json) summary = json;
  else if (version === "2.0" || p.schema === undefined) {
    // Swagger 2.0 (and schema-less 3.x content parameters) describe the type inline.
    summary =
      p.content !== undefined
        ? { type: "string", complex: false }
        : summarize(resolver, { ...p, description: undefined }, pBase, where);
  } else {
    summary = summarize(resolver, p.schema, pBase, where);
  }
  const description =
    typeof p.description === "string" && p.description.trim() ? p.description.trim() : summary.description;
  if (version === "2.0" && location === "formData") {
    return {
      formField: {
        name: p.name,
        required: p.required === true,
        ...valueSpec(summary),
        ...(description ? { description } : {}),
        ...(isBinary(summary) ? { binary: true } : {}),
      },
      file: isBinary(summary),
      // An array travels as its collectionFormat says (csv by default: one comma-joined value).
      ...(summary.type === "array" ? { encoding: collectionStyle("query", p.collectionFormat) } : {}),
    };
  }
  if (!["path", "query", "header", "cookie"].includes(location))
    throw new DocumentProblem(`parameter "${p.name}" has an unknown location "${location}"`, where);
  const { style, explode } =
    version === "2.0"
      ? collectionStyle(location as Parameter["in"], p.collectionFormat)
      : styleOf(location as Parameter["in"], p.style, p.explode);
  return {
    name: p.name,
    in: location as Parameter["in"],
    required: location === "path" ? true : p.required === true,
    ...valueSpec(summary),
    ...(description ? { description } : {}),
    ...(p.deprecated === true ? { deprecated: true } : {}),
    style,
    explode,
    ...((location === "path" || location === "query") &&
    (p.allowReserved === true || p["x-ms-skip-url-encoding"] === true)
      ? { allowReserved: true as const }
      : {}),
    ...(json ? { json: true as const } : {}),
  };
}

/**
 * The schema of a parameter's `content` when it is JSON and types an object or a list: such a value goes as one JSON
 * text (`?q={"page":0}`), given as JSON, not the string flag that said nothing of it. A JSON
 * string, number or boolean stays text as given: documents wrap plain path ids in JSON content, and their servers
 * take the id, not a quoted string.
 */
function jsonContent(resolver: Resolver, content: unknown, base: string, where: string): SchemaSummary | undefined {
  if (!isObject(content)) return undefined;
  const [media, entry] = Object.entries(content)[0] ?? [];
  if (!media || !/json/i.test(media) || !isObject(entry) || entry.schema === undefined) return undefined;
  const summary = summarize(resolver, entry.schema, base, `${where}/content/${escapeToken(media)}/schema`);
  return summary.type === "object" || summary.type === "array" ? summary : undefined;
}

/** OpenAPI 3's styles per location (the "Style Values" table); a style the table does not allow there is ignored. */
const STYLES_AT: Record<Parameter["in"], ParameterStyle[]> = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};

/** `style` and `explode` of an OpenAPI 3 parameter, with the defaults: form in query and cookie, simple in path and header; explode only for form. */
function styleOf(
  location: Parameter["in"],
  style: unknown,
  explode: unknown,
): { style: ParameterStyle; explode: boolean } {
  const chosen = STYLES_AT[location].find((s) => s === style) ?? STYLES_AT[location][0]!;
  return { style: chosen, explode: typeof explode === "boolean" ? explode : chosen === "form" };
}

/**
 * Swagger 2.0's `collectionFormat` (default csv) as an OpenAPI 3 style: csv is form (query) or simple (path, header)
 * without explode, ssv spaceDelimited, pipes pipeDelimited, tsv tabDelimited (no OpenAPI 3 equivalent), multi form
 * with explode (query only; elsewhere it is csv).
 */
function collectionStyle(location: Parameter["in"], format: unknown): { style: ParameterStyle; explode: boolean } {
  const base: ParameterStyle = location === "query" || location === "cookie" ? "form" : "simple";
  switch (format) {
    case "ssv":
      return { style: "spaceDelimited", explode: false };
    case "tsv":
      return { style: "tabDelimited", explode: false };
    case "pipes":
      return { style: "pipeDelimited", explode: false };
    case "multi":
      return { style: base, explode: base === "form" };
    default:
      return { style: base, explode: false };
  }
}

/** A field whose value is a file's bytes, or several files' (an array of them). */
const isBinary = (p: SchemaSummary): boolean =>
  p.format === "binary" || (p.type === "array" && p.itemSchema?.format === "binary");

const UNNAMED_FILE_NOTE = `The file to send (as the multipart part "${UNNAMED_FILE_PART}": the description names no part)`;
/** What a required field the description gives no schema for says of itself in help. */
const UNDESCRIBED = "Required by the API's description, which says nothing else of it";

function bodyFromSchema(
  summary: SchemaSummary,
  mediaTypes: string[],
  required: boolean,
  description?: string,
  encoding?: Record<string, PartEncoding>,
): RequestBody {
  let mediaType = pickMedia(mediaTypes) ?? "application/json";
  // A form or multipart body that names no field (Swagger's `{type: object, format: file}`), or a body that is a
  // file's bytes, has nothing to put in fields: where the document offers a raw type beside it, the bytes go as that.
  const rawType = mediaTypes.find((t) => bodyEncodingOf(t) === "raw");
  const named = summary.type === "object" && Object.keys(summary.properties ?? {}).length > 0;
  if (rawType && (summary.format === "binary" || (bodyEncodingOf(mediaType) !== "json" && !named))) mediaType = rawType;
  const text = description ? { description } : {};
  if (bodyEncodingOf(mediaType) === "raw")
    return { mediaType, mediaTypes, required, fields: [], complex: false, raw: true, ...text };
  // A multipart body that is itself a file (`multipart/form-data` with `{type: string, format: binary}`) names no part
  // to carry it: the file goes as the part servers read most often, UNNAMED_FILE_PART.
  if (bodyEncodingOf(mediaType) === "multipart" && summary.type !== "object" && isBinary(summary)) {
    const field = { ...valueSpec(summary), description: summary.description ?? UNNAMED_FILE_NOTE };
    return {
      mediaType,
      mediaTypes,
      required,
      fields: [{ name: UNNAMED_FILE_PART, required: true, ...field, binary: true }],
      complex: false,
      ...text,
    };
  }
  const fields: BodyField[] = [];
  const props = summary.type === "object" ? (summary.properties ?? {}) : {};
  for (const [name, prop] of Object.entries(props)) {
    if (prop.readOnly) continue;
    fields.push({
      name,
      required: summary.required?.includes(name) ?? false,
      ...valueSpec(prop),
      // A multipart part carries a file's bytes, and a urlencoded form's value them percent-encoded; in JSON the
      // field is the text the schema says.
      ...(isBinary(prop) && bodyEncodingOf(mediaType) !== "json" ? { binary: true } : {}),
    });
  }
  // A field the object requires and does not describe (`required: [id, action]` beside `properties: {action}`) is
  // still one every request must carry: without it the command could only send bodies the API refuses.
  for (const name of summary.type === "object" ? (summary.required ?? []) : [])
    if (!Object.hasOwn(props, name)) fields.push({ name, required: true, type: "string", description: UNDESCRIBED });
  // A form's or multipart's object field is sent as one JSON value or a style's pairs: a flag expresses it whole.
  const structured = bodyEncodingOf(mediaType) !== "json";
  const complex =
    summary.type !== "object" ||
    !summary.properties ||
    (!structured && (summary.complex || Object.values(props).some((p) => p.complex || p.type === "object")));
  const encodings = encoding && Object.keys(encoding).length ? { encoding } : {};
  const shape =
    structured || summary.type === "object" ? {} : ({ shape: summary.type === "array" ? "array" : "value" } as const);
  return { mediaType, mediaTypes, required, fields, complex, ...shape, ...encodings, ...text };
}

/** The media type a body is sent in: JSON where offered, then a form, then multipart, then the document's first. */
function pickMedia(types: string[]): string | undefined {
  return (
    types.find(isJsonMedia) ??
    types.find((t) => bodyEncodingOf(t) === "form") ??
    types.find((t) => bodyEncodingOf(t) === "multipart") ??
    types[0]
  );
}

/** The media type an answer is read as: JSON where declared, else the document's first. */
const pickResponseMedia = (types: string[]): string | undefined => types.find(isJsonMedia) ?? types[0];

/** An Encoding Object map (OpenAPI 3 `encoding`): each field's content type, style and explode, where given. */
function encodingOf(node: unknown): Record<string, PartEncoding> | undefined {
  if (!isObject(node)) return undefined;
  const out: Record<string, PartEncoding> = {};
  for (const [name, e] of Object.entries(node)) {
    if (!isObject(e)) continue;
    const style = STYLES_AT.query.find((s) => s === e.style);
    out[name] = {
      ...(typeof e.contentType === "string" && e.contentType.trim() ? { contentType: e.contentType.trim() } : {}),
      ...(style ? { style } : {}),
      ...(typeof e.explode === "boolean" ? { explode: e.explode } : {}),
    };
  }
  return Object.keys(out).length ? out : undefined;
}

/** Types of response fields; a field summarised too deep to know (a bare complex object) is left out, not guessed. */
const typesOf = (props: Record<string, SchemaSummary>): NonNullable<Response["propertyTypes"]> =>
  Object.fromEntries(
    Object.entries(props)
      .filter(([, p]) => !(p.complex && p.type === "object" && !p.properties))
      .map(([name, p]) => [name, { type: p.type, ...(p.enum?.length ? { enum: p.enum } : {}) }]),
  );

function responseFrom(
  status: string,
  summary: SchemaSummary | undefined,
  mediaTypes: string[],
  mediaType: string | undefined,
  description: string | undefined,
  headers: string[],
): Response {
  const base: Response = {
    status,
    ...(description ? { description } : {}),
    ...(mediaType ? { mediaType } : {}),
    ...(mediaTypes.length ? { mediaTypes } : {}),
    kind: responseKindOf(mediaType, summary ? isBinary(summary) : false),
    shape: "empty",
    ...(headers.length ? { headers } : {}),
  };
  if (status === "204" || !summary) return base;
  if (summary.type === "array")
    return {
      ...base,
      shape: "array",
      ...(summary.itemSchema?.properties
        ? {
            properties: Object.keys(summary.itemSchema.properties),
            propertyTypes: typesOf(summary.itemSchema.properties),
          }
        : {}),
    };
  if (summary.type === "object") {
    const props = summary.properties ?? {};
    // A wrapper is an object whose one list of objects sits beside paging metadata ({ data: [...], next_cursor }).
    const lists = Object.entries(props).filter(([, p]) => p.type === "array" && p.items === "object");
    const meta =
      /^(next\w*|prev\w*|previous|cursor|has_?more|more|total\w*|count|page\w*|per_?page|limit|offset|links?|meta|pagination|paging|_links|_meta)$/i;
    const onlyMeta = Object.keys(props).every((k) => lists.some(([n]) => n === k) || meta.test(k));
    const listField =
      lists.length === 1 && onlyMeta
        ? lists[0]![0]
        : lists.find(([n]) => ["data", "items", "results", "records", "entries", "values"].includes(n))?.[0];
    const itemProps = listField ? props[listField]!.itemSchema?.properties : undefined;
    return {
      ...base,
      shape: "object",
      // Paging metadata may sit one level down ({meta: {total}}, {links: {next}}): nested names as dot paths.
      ...(listField
        ? {
            listField,
            wrapperProperties: Object.entries(props).flatMap(([k, p]) => [
              k,
              ...Object.keys(p.properties ?? {}).map((n) => `${k}.${n}`),
            ]),
          }
        : {}),
      ...(Object.keys(props).length
        ? { properties: Object.keys(itemProps ?? props), propertyTypes: typesOf(itemProps ?? props) }
        : {}),
    };
  }
  return { ...base, shape: summary.type ? "scalar" : "unknown" };
}

/**
 * An operation's responses by status, each with the schema of its answer summarised and its media type chosen: a
 * Swagger 2.0 file answer is in the operation's non-JSON type, any other schema is read as JSON.
 */
function readResponses(
  resolver: Resolver,
  op: Record<string, unknown>,
  opBase: string,
  where: string,
  version: string,
  produces: string[],
): Response[] {
  const responses: Response[] = [];
  if (!isObject(op.responses)) return responses;
  for (const status of Object.keys(op.responses).sort()) {
    const at = `${where}/responses/${status}`;
    const { value: r, base } = resolver.deref<Record<string, unknown>>(op.responses[status], opBase, at);
    if (!isObject(r)) continue;
    const headers = isObject(r.headers) ? Object.keys(r.headers) : [];
    const description = typeof r.description === "string" && r.description.trim() ? r.description.trim() : undefined;
    if (version === "2.0") {
      const summary = r.schema === undefined ? undefined : summarize(resolver, r.schema, base, `${at}/schema`);
      // A file answer is in the operation's non-JSON type; any other schema is read as JSON.
      const media = !summary
        ? undefined
        : isBinary(summary)
          ? (produces.find((t) => !isJsonMedia(t)) ?? "application/octet-stream")
          : (produces.find(isJsonMedia) ?? produces[0] ?? "application/json");
      responses.push(
        responseFrom(
          status,
          summary,
          summary ? (produces.length ? produces : [media!]) : [],
          media,
          description,
          headers,
        ),
      );
    } else {
      const content = isObject(r.content) ? r.content : {};
      const mediaTypes = Object.keys(content);
      const media = pickResponseMedia(mediaTypes);
      const entry = media ? content[media] : undefined;
      const schema = isObject(entry) ? entry.schema : undefined;
      responses.push(
        responseFrom(
          status,
          schema === undefined
            ? undefined
            : summarize(resolver, schema, base, `${at}/content/${escapeToken(media!)}/schema`),
          mediaTypes,
          media,
          description,
          headers,
        ),
      );
    }
  }
  return responses;
}

function readOperation(
  resolver: Resolver,
  method: Method,
  path: string,
  op: Record<string, unknown>,
  opBase: string,
  pathParams: unknown[],
  pathBase: string,
  version: string,
  consumes: string[],
  produces: string[],
): Operation {
  const where = pointerOf("paths", path, method);
  const params = new Map<string, Parameter>();
  let body: RequestBody | undefined;
  const formFields: BodyField[] = [];
  const formEncoding: Record<string, PartEncoding> = {};
  let formHasFile = false;
  const lists: Array<[unknown[], string, string]> = [
    [pathParams, pathBase, pointerOf("paths", path, "parameters")],
    [Array.isArray(op.parameters) ? op.parameters : [], opBase, `${where}/parameters`],
  ];
  for (const [list, base, at] of lists) {
    list.forEach((node, i) => {
      const read = readParameter(resolver, node, base, `${at}/${i}`, version);
      if ("body" in read) {
        const summary = summarize(resolver, read.body, read.base, `${at}/${i}/schema`);
        body = bodyFromSchema(summary, consumes.length ? consumes : ["application/json"], true);
      } else if ("formField" in read) {
        formFields.push(read.formField);
        if (read.encoding) formEncoding[read.formField.name] = read.encoding;
        formHasFile ||= read.file;
      } else {
        params.set(paramKey(read), read);
      }
    });
  }
  if (formFields.length) {
    // A file can only travel in multipart; otherwise the form type the operation consumes, urlencoded by default.
    const forms = consumes.filter((c) => ["form", "multipart"].includes(bodyEncodingOf(c)));
    const mediaType = formHasFile
      ? (forms.find((c) => bodyEncodingOf(c) === "multipart") ?? "multipart/form-data")
      : (forms.find((c) => bodyEncodingOf(c) === "form") ?? forms[0] ?? "application/x-www-form-urlencoded");
    body = {
      mediaType,
      mediaTypes: forms.length ? forms : [mediaType],
      required: formFields.some((f) => f.required),
      fields: formFields,
      complex: false,
      ...(Object.keys(formEncoding).length ? { encoding: formEncoding } : {}),
    };
  }
  for (const match of path.matchAll(/\{([^}]+)\}/g)) {
    if (!params.has(`path:${match[1]}`))
      throw new DocumentProblem(`path parameter "${match[1]}" is used in the path but not declared`, where);
  }

  if (version !== "2.0" && op.requestBody !== undefined) {
    const at = `${where}/requestBody`;
    const { value: rb, base } = resolver.deref<Record<string, unknown>>(op.requestBody, opBase, at);
    if (isObject(rb) && isObject(rb.content) && Object.keys(rb.content).length) {
      const mediaTypes = Object.keys(rb.content);
      const media = pickMedia(mediaTypes)!;
      const entry = rb.content[media];
      const schema = isObject(entry) ? entry.schema : undefined;
      const summary: SchemaSummary =
        schema === undefined
          ? { type: "object", complex: true }
          : summarize(resolver, schema, base, `${at}/content/${escapeToken(media)}/schema`);
      body = bodyFromSchema(
        summary,
        mediaTypes,
        rb.required === true,
        typeof rb.description === "string" ? rb.description : undefined,
        isObject(entry) ? encodingOf(entry.encoding) : undefined,
      );
    }
  }

  const responses = readResponses(resolver, op, opBase, where, version, produces);

  const operationId = typeof op.operationId === "string" && op.operationId.trim() ? op.operationId.trim() : undefined;
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);
  const cliName = text(op["x-cli-name"]);
  return {
    id: operationId ?? `${method} ${path}`,
    ...(operationId ? { operationId } : {}),
    method,
    path,
    pointer: where,
    tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [],
    ...(text(op.summary) ? { summary: text(op.summary) } : {}),
    ...(text(op.description) ? { description: text(op.description) } : {}),
    deprecated: op.deprecated === true,
    cli: {
      ...(cliName ? { name: cliName } : {}),
      ...(op["x-cli-ignore"] === true ? { ignore: true } : {}),
      ...(op["x-cli-hidden"] === true ? { hidden: true } : {}),
      ...(typeof op["x-cli-destructive"] === "boolean" ? { destructive: op["x-cli-destructive"] } : {}),
    },
    parameters: [...params.values()],
    ...(body ? { body } : {}),
    responses,
    ...(securityOf(op.security) ? { security: securityOf(op.security) } : {}),
  };
}

/** Reads an OpenAPI 3.0/3.1 or Swagger 2.0 document (YAML or JSON, local `$ref`s across files) into the model. */
export async function readOperationModel(file: string, projectRoot: string): Promise<ReadResult> {
  const { root, resolver } = await resolveDocument(file, projectRoot);
  const version = specVersion(root, file);
  const warnings: string[] = [];
  const info = isObject(root.info) ? root.info : {};
  if (root.paths !== undefined && !isObject(root.paths))
    throw invalid(
      file,
      "#/paths",
      "`paths` must be an object of path → operations",
      "Make `paths` a map such as `/rooms: { get: ... }`.",
    );
  const paths = isObject(root.paths) ? root.paths : {};
  if (!Object.keys(paths).length) warnings.push(`${file}: the document has no paths, so the CLI has no API commands`);
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((c): c is string => typeof c === "string" && c.trim() !== "") : [];
  const consumes = strings(root.consumes);
  const produces = strings(root.produces);

  const operations: Operation[] = [];
  const skipped: Skipped[] = [];
  for (const [path, itemNode] of Object.entries(paths)) {
    let item: Record<string, unknown>;
    let itemBase = file;
    try {
      const located = resolver.deref<Record<string, unknown>>(itemNode, file, pointerOf("paths", path));
      item = located.value;
      itemBase = located.base;
    } catch (error) {
      skipped.push({ method: "*", path, pointer: pointerOf("paths", path), reason: (error as Error).message });
      continue;
    }
    if (!isObject(item)) continue;
    if (!path.startsWith("/")) {
      skipped.push({ method: "*", path, pointer: pointerOf("paths", path), reason: "a path must start with /" });
      continue;
    }
    const pathParams = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      try {
        const opConsumes = Array.isArray(op.consumes) ? strings(op.consumes) : consumes;
        const opProduces = Array.isArray(op.produces) ? strings(op.produces) : produces;
        operations.push(
          readOperation(resolver, method, path, op, itemBase, pathParams, itemBase, version, opConsumes, opProduces),
        );
      } catch (error) {
        if (!(error instanceof DocumentProblem)) throw error;
        skipped.push({ method: method.toUpperCase(), path, pointer: error.pointer, reason: error.message });
      }
    }
  }
  for (const s of skipped) warnings.push(`skipped ${s.method} ${s.path}: ${s.reason} (at ${s.pointer})`);
  if (resolver.overBudget)
    warnings.push(
      `${file}: its schemas expand to more than ${MAX_SCHEMA_VISITS} nodes (a $ref fan-out); the rest were read as plain objects, so some flags are --json-input only`,
    );

  const seenIds = new Map<string, number>();
  for (const op of operations) if (op.operationId) seenIds.set(op.operationId, (seenIds.get(op.operationId) ?? 0) + 1);
  for (const [id, count] of seenIds) {
    if (count > 1)
      warnings.push(
        `operationId "${id}" is used by ${count} operation${count === 1 ? "" : "s"}; they are named from method and path instead`,
      );
  }
  for (const op of operations) {
    if (op.operationId && seenIds.get(op.operationId)! > 1) op.id = `${op.method} ${op.path}`;
  }

  const tags = Array.isArray(root.tags)
    ? root.tags
        .filter(isObject)
        .filter((t) => typeof t.name === "string")
        .map((t) => ({
          name: t.name as string,
          ...(typeof t.description === "string" ? { description: t.description } : {}),
        }))
    : [];
  return {
    model: {
      source: {
        file,
        files: [...resolver.files].sort(),
        specVersion: version,
        title: typeof info.title === "string" ? info.title : "",
        version: typeof info.version === "string" ? info.version : String(info.version ?? ""),
        ...(typeof info.description === "string" && info.description.trim()
          ? { description: info.description.trim() }
          : {}),
      },
      servers: servers(root, version),
      securitySchemes: securitySchemes(root, resolver, file, version, warnings),
      security: securityOf(root.security) ?? [],
      tags,
      operations,
      skipped,
    },
    warnings,
  };
}
