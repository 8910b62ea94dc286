import type { Limits, PartEncoding } from "../../runtime/manifest.js";

export type { PartEncoding };
import type { ResponseKind } from "../../runtime/media.js";
import type { Style } from "../../runtime/serialize.js";

/** The normalized operation model: one shape for Swagger 2.0, OpenAPI 3.0 and 3.1 (written by the openapi task). */

export type ValueType = "string" | "integer" | "number" | "boolean" | "array" | "object";

/** Limits are the document's JSON Schema bounds (exclusive bounds as numbers, as in 3.1), as the generated CLI checks them. */
export interface ValueSpec extends Limits {
  type: ValueType;
  /** Element type of an array. */
  items?: ValueType;
  enum?: Array<string | number | boolean | null>;
  default?: unknown;
  format?: string;
  nullable?: boolean;
  description?: string;
  /**
   * The scalar types of a union (`oneOf: [string, integer]`, "an id or a name"), where `type` is the one a flag takes
   * (string, or number for numbers alone): a value is sent as the first of these its text reads as.
   */
  anyOf?: ValueType[];
  /** The keys a JSON object value (or each object of an array) must have: its schema's `required`. */
  requires?: string[];
}

export interface Parameter extends ValueSpec {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  deprecated?: boolean;
  /**
   * How the value is serialized (OpenAPI 3 `style`, Swagger 2.0 `collectionFormat` mapped onto it; `tabDelimited` is
   * Swagger's `tsv`), with the defaults filled in: form in query and cookie, simple in path and header.
   */
  style: ParameterStyle;
  /** Arrays and objects: one pair per value (`a=1&a=2`) or one joined value (`a=1,2`); true by default only for form. */
  explode: boolean;
  /** Reserved characters go unencoded: OpenAPI's `allowReserved`, Azure's `x-ms-skip-url-encoding` (path, query). */
  allowReserved?: true;
  /** An object or list sent as one JSON text: the parameter's `content` is JSON (`?q={"page":0}`), not a style. */
  json?: true;
}

export type ParameterStyle = Style;

/** The multipart part a file is sent as where the body is the file itself and names no part. */
export const UNNAMED_FILE_PART = "file";

export interface BodyField extends ValueSpec {
  name: string;
  required: boolean;
  readOnly?: boolean;
  /**
   * The field is a file's bytes (`format: binary`, a 3.1 `contentMediaType`, Swagger's `type: file`; an array of them
   * for several files): the command takes a path, or `-` for stdin.
   */
  binary?: boolean;
}

export interface RequestBody {
  /** The media type the CLI sends: JSON where offered, else a form, else multipart, else the first (bodyEncodingOf). */
  mediaType: string;
  /** Every media type the document offers for the body, in its order. */
  mediaTypes: string[];
  required: boolean;
  /** Top-level fields of an object body; empty for arrays, scalars and raw bodies. */
  fields: BodyField[];
  /** The body nests objects or arrays, or is not an object at all: only `--json-input` can express all of it. */
  complex: boolean;
  /** The body is one file's bytes (an octet stream, an image, text, XML …), given as a path or `-` for stdin. */
  raw?: boolean;
  /** A JSON body that is not an object: a list, or any other value (given whole with --json-input). */
  shape?: "array" | "value";
  /** Form and multipart fields' encodings, by field name. */
  encoding?: Record<string, PartEncoding>;
  description?: string;
}

export type OutputShape = "object" | "array" | "empty" | "scalar" | "unknown";

export interface Response {
  status: string;
  description?: string;
  /** The media type the answer is read as (JSON where declared); absent when the response has no content. */
  mediaType?: string;
  /** Every media type declared for the answer, in the document's order. */
  mediaTypes?: string[];
  /** What the answer is to a command line (runtime/media.ts). */
  kind: ResponseKind;
  shape: OutputShape;
  /** For an object wrapping a list (`{ data: [...] }`): the list's field. */
  listField?: string;
  /** Top-level property names of an object response (or of the list's items). */
  properties?: string[];
  /** Their types and enums, where the document says (what a plan may expect to read there). */
  propertyTypes?: Record<string, { type: ValueType; enum?: Array<string | number | boolean | null> }>;
  /** With a listField: the wrapper object's own properties (e.g. a next-page cursor). */
  wrapperProperties?: string[];
  headers?: string[];
}

export interface Operation {
  /** operationId when present, else `<method> <path>`. */
  id: string;
  operationId?: string;
  method: "get" | "put" | "post" | "delete" | "patch" | "head" | "options" | "trace";
  path: string;
  /** JSON pointer of the operation in the root document. */
  pointer: string;
  tags: string[];
  summary?: string;
  description?: string;
  deprecated: boolean;
  cli: { name?: string; ignore?: boolean; hidden?: boolean; destructive?: boolean };
  parameters: Parameter[];
  body?: RequestBody;
  responses: Response[];
  /** Security requirements; undefined means the document's global requirement applies. */
  security?: SecurityRequirement[];
}

/**
 * One alternative of a security requirement list: every scheme it names is needed at once, each with the OAuth 2
 * scopes it asks for (empty for other schemes). `[]` of alternatives means no credential; `{}` means none is needed.
 */
export type SecurityRequirement = Record<string, string[]>;

/** An OAuth 2 flow the document declares, with the URLs a client without a person can use. */
export interface OAuthFlow {
  tokenUrl?: string;
  refreshUrl?: string;
  scopes: string[];
}

export interface SecurityScheme {
  type: "http" | "apiKey" | "oauth2" | "openIdConnect" | "mutualTLS";
  /** For http: bearer, basic, … */
  scheme?: string;
  bearerFormat?: string;
  in?: "header" | "query" | "cookie";
  /** Header, query or cookie name of an apiKey. */
  name?: string;
  /** OAuth 2 flows by OpenAPI 3 name (Swagger 2.0's `application` is clientCredentials, `accessCode` authorizationCode). */
  flows?: Partial<Record<"clientCredentials" | "authorizationCode" | "password" | "implicit", OAuthFlow>>;
  /** OpenID Connect: the discovery document's URL. */
  openIdConnectUrl?: string;
  /**
   * A scheme whose value is a signature of each request rather than a credential sent as is (normalize.ts,
   * `requestSignature`): `aws-sigv4` the CLI computes; any other kind it cannot.
   */
  signature?: RequestSignature;
  description?: string;
}

/** A request signature a security scheme declares, and what in the document says so. */
export interface RequestSignature {
  /** `aws-sigv4` (AWS Signature Version 4, computed by the CLI), `aws-sigv2`, `hmac`, … */
  kind: string;
  /** In words, e.g. "AWS Signature Version 2". */
  title: string;
  /** What in the document declares it, e.g. `x-amazon-apigateway-authtype: awsSigv4`. */
  by: string;
  /** AWS: the service name requests are signed for, where the document names it (`info.x-aws-signingName`). */
  service?: string;
}

/** A server's URL variable: its default and allowed values. */
export interface ServerVariable {
  default?: string;
  enum?: string[];
}

export interface Skipped {
  method: string;
  path: string;
  pointer: string;
  reason: string;
}

export interface OperationModel {
  source: {
    file: string;
    files: string[];
    specVersion: "2.0" | "3.0" | "3.1";
    title: string;
    version: string;
    description?: string;
  };
  /**
   * The document's servers, each URL with its variables' defaults filled in; `template` and `variables` keep the URL
   * as written where it has variables (an AWS endpoint's `{region}`).
   */
  servers: Array<{ url: string; description?: string; template?: string; variables?: Record<string, ServerVariable> }>;
  securitySchemes: Record<string, SecurityScheme>;
  security: SecurityRequirement[];
  tags: Array<{ name: string; description?: string }>;
  operations: Operation[];
  skipped: Skipped[];
}
