/**
 * The generated manifest the runtime interprets, written by the emit task: `manifest.json` (the CLI: product, base
 * URL, auth, rules, Skills and an index of command groups) and one `commands/<group>.json` per first command word,
 * so one call reads only the group it runs — a CLI of 20,000 operations answers as fast as one of ten.
 */

import type { CredentialRoles } from "../core/credential-roles.js";
import type { BodyEncoding, ResponseKind } from "./media.js";
import type { Style } from "./serialize.js";

export type ValueType = "string" | "integer" | "number" | "boolean" | "array" | "object";

export interface Limits {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}

export interface Flag extends Limits {
  flag: string;
  in: "path" | "query" | "header" | "cookie" | "body";
  wire: string;
  type: ValueType;
  items?: ValueType;
  required: boolean;
  enum?: Array<string | number | boolean | null>;
  default?: unknown;
  format?: string;
  nullable?: boolean;
  /**
   * A union's scalar types (`type` is string, or number): the value is sent as the first its text reads as. Its
   * `enum` holds no number where only its strings are listed: a number or boolean then passes by its type.
   */
  anyOf?: ValueType[];
  /** The keys a JSON object value (or each object of an array value) must have. */
  requires?: string[];
  /** Help's line: plain text within 200 characters. */
  description?: string;
  /** The whole description when `description` leaves some out: --describe prints it, help points to it. */
  details?: string;
  /** Requests a user might make for it, in users' words (the design overlay's): search indexes them. */
  phrasings?: string[];
  /** How a path, query, header or cookie value is serialized; absent when it is the location's OpenAPI default. */
  style?: Style;
  /** Absent when it is the style's default (true for form, false otherwise). */
  explode?: boolean;
  /**
   * A path or query value sent with RFC 3986's reserved characters as they are (`/`, `?`, `:`): OpenAPI's
   * `allowReserved`, Azure's `x-ms-skip-url-encoding` (a `{scope}` of `subscriptions/…/resourceGroups/…`).
   */
  allowReserved?: true;
  /** A path, query, header or cookie value sent as one JSON text (`?q={"page":0}`): the parameter's `content` is JSON. */
  json?: true;
  /** The value is a local file's path, or `-` for stdin, whose bytes are sent: a multipart part, or (wire "") the body. */
  file?: true;
  /** A required field of an optional body: required whenever a body is sent (any body flag, or --json-input). */
  requiredWithBody?: true;
  /**
   * The document allows this parameter one value (`default`, its enum's only one): the CLI sends it when the flag is
   * not given, so the flag is not required (AWS's query protocol names every call by `Action` and `Version` so).
   */
  sentIfAbsent?: true;
}

/** How one field of a form or multipart body is encoded, where the document says (OpenAPI's Encoding Object). */
export interface PartEncoding {
  contentType?: string;
  style?: Style;
  explode?: boolean;
}

/** How a command's request body is sent. */
export interface Body {
  /** The Content-Type sent. */
  mediaType: string;
  encoding: BodyEncoding;
  /** The operation needs a body: its required fields are required flags even when no other body flag is given. */
  required: boolean;
  parts?: Record<string, PartEncoding>;
  /** A JSON body that is not an object: a list, or any value; given whole with --json-input. Absent: an object. */
  shape?: "array" | "value";
}

/** What a command asks for and what its success answer is (runtime/media.ts). */
export interface Response {
  accept: string;
  kind: ResponseKind;
}

/** The environment variables a scheme reads, by role (core/credential-roles.ts): names, never values. */
export type CredentialVariables = CredentialRoles;

/**
 * An HTTP scheme's name as the CLI reads it, lower case, "bearer" when the manifest names none (the document's reader
 * already lowered it; a manifest made by hand or by an older inter may not have).
 */
export const httpSchemeOf = (scheme: Pick<AuthScheme, "scheme">): string => (scheme.scheme ?? "bearer").toLowerCase();

/** A security scheme as the CLI sends it (its description is the document's, as plain text). */
export interface AuthScheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  bearerFormat?: string;
  description?: string;
  /** The variables it reads. */
  env: CredentialVariables;
  /** OAuth 2: the token endpoint of the client credentials grant, when the document declares that flow. */
  tokenUrl?: string;
  /** OAuth 2: the token endpoint a refresh token is exchanged at. */
  refreshUrl?: string;
  /** OpenID Connect: the discovery document naming the token endpoint. */
  openIdConnectUrl?: string;
  /**
   * A scheme whose value is a signature of each request: `aws-sigv4` is computed by the CLI (sigv4.ts) from the
   * variables `accessKeyId`, `secretAccessKey` and `sessionToken`; any other kind it cannot compute, and says so.
   */
  signature?: { kind: string; title: string; by: string };
  /** AWS Signature Version 4: what requests are signed for. */
  aws?: AwsSigning;
}

/**
 * Where AWS Signature Version 4 signs for: the service, the region (AWS_REGION, else AWS_DEFAULT_REGION, else the
 * region of an AWS host the request goes to, else this), and the endpoint with `{region}` when the base URL comes from
 * a regional server of the document (the region chosen at run time picks the host too).
 */
export interface AwsSigning {
  service: string;
  region?: string;
  endpoint?: string;
}

/**
 * One alternative of a command's security: every scheme it names is sent, each with the OAuth 2 scopes it asks for
 * (OpenAPI's Security Requirement Object).
 */
export type Requirement = Record<string, string[]>;

export interface Pagination {
  style: "cursor" | "page" | "offset" | "link" | "url";
  param?: string;
  sizeParam?: string;
  /** Response field (dot path) with the next cursor, or the next page's URL for style "url". */
  nextField?: string;
  /** Response field (dot path) with the total number of items. */
  totalField?: string;
  /** Response field (dot path) that says whether more pages follow. */
  hasMoreField?: string;
  /** Response header with the total number of items. */
  totalHeader?: string;
}

export interface Command {
  path: string[];
  name: string;
  /** Help's line: plain text within 300 characters. */
  description: string;
  /** The whole description when `description` leaves some out: --describe prints it, help points to it. */
  details?: string;
  /** Requests a user might make for it, in users' words (the design overlay's): search indexes them. */
  phrasings?: string[];
  /** `operationId` and `pointer` (the operation in the OpenAPI document) are absent from candidates built before they were added. */
  operation: { method: string; path: string; operationId?: string; pointer?: string };
  flags: Flag[];
  jsonInput: boolean;
  /** Absent when the command sends no body (and in candidates built before it was recorded: a JSON body then). */
  body?: Body;
  /** Absent in candidates built before it was recorded: JSON then. */
  response?: Response;
  /** `accept` and `content-type` as the operation's own header parameters give them: sent as the document says. */
  headers?: Record<string, string>;
  destructive: boolean;
  permission: "read" | "write" | "delete";
  pagination?: Pagination;
  output: {
    shape: string;
    listField?: string;
    fields?: string[];
    types?: Record<string, { type: string; enum?: unknown[] }>;
  };
  /** The alternatives the command may authenticate with, in the document's order; empty when it needs none. */
  auth: Requirement[];
  /** The operation also works without a credential: it is sent when set, never demanded. */
  authOptional?: boolean;
  hidden: boolean;
  /** The document marks the operation deprecated (absent otherwise, and in candidates built before it was recorded). */
  deprecated?: boolean;
  /** HTTP statuses the document declares for the operation (what errors it can answer with). */
  statuses?: string[];
  /**
   * How a 429 or 503 may be retried beyond the method's own idempotence (retry.ts): the header the document declares
   * for an idempotency key, sent with a value generated once per call unless given. Absent in older candidates.
   */
  retry?: RetryHints;
}

/** What the design found that makes a command safe to send again. */
export interface RetryHints {
  /** The idempotency key header as the document names it (`Idempotency-Key`). */
  idempotencyHeader: string;
}

export interface Group {
  name: string;
  description: string;
  /** How many visible commands the group has (their names are in its file). */
  count: number;
}

export interface Manifest {
  product: { name: string; binary: string; version: string; description: string };
  /** `path`: the API's base path, which a bare origin lacks (inspection and evaluation add it to a service's origin). */
  baseUrl: { default: string | null; env: string; path?: string };
  auth: { schemes: Record<string, AuthScheme> };
  rules: string[];
  /** The rules as the MCP server states them (tools and arguments for commands and flags); absent in older packages. */
  mcpRules?: string[];
  /** Each Skill and the commands it links (an answer names the Skills of its command: runtime/output.ts). */
  skills: Array<{ name: string; description: string; commands?: string[] }>;
  groups: Group[];
  /** Whether root --help lists every command in full ("full") or only the groups ("groups"), decided by size at emit. */
  help: "full" | "groups";
}

export interface GroupFile {
  name: string;
  commands: Command[];
}

/** The file of a group inside the package. Group names are kebab-case words (capabilities.schema.json). */
export const groupFile = (name: string) => `commands/${name}.json`;
