import type { OutputShape, ValueSpec } from "../openapi/model.js";
import type {
  AuthScheme,
  Body as ManifestBody,
  Pagination,
  Requirement,
  Response as ManifestResponse,
  RetryHints,
} from "../../runtime/manifest.js";
import type { Style } from "../../runtime/serialize.js";

export type { Pagination };

/** A flag of a generated command; `in` and `wire` say where and under which name its value goes in the request. */
export interface FlagSpec extends ValueSpec {
  flag: string;
  in: "path" | "query" | "header" | "cookie" | "body";
  wire: string;
  required: boolean;
  /** Serialization where it is not the location's OpenAPI default (runtime/serialize.ts). */
  style?: Style;
  /** Arrays and objects, where it is not the style's default (true for form only). */
  explode?: boolean;
  /** Reserved characters sent as they are (OpenAPI's `allowReserved`, Azure's `x-ms-skip-url-encoding`). */
  allowReserved?: true;
  /** An object or list sent as one JSON text (a parameter whose `content` is JSON). */
  json?: true;
  /** The whole description as plain text when `description` (help's line) leaves some out; `--describe` prints it. */
  details?: string;
  /** The value is a local file's path, or `-` for stdin: its bytes are sent (a multipart part, or the whole body). */
  file?: true;
  /** A required field of an optional body: required whenever a body is sent. */
  requiredWithBody?: true;
  /**
   * The document allows this parameter one value (`default`, its enum's only one): the CLI sends it when the flag is
   * not given, so the flag is not required (AWS's query protocol names every call by `Action` and `Version` so).
   */
  sentIfAbsent?: true;
}

/** How a command's request body is given and sent (runtime/media.ts). */
export type BodySpec = ManifestBody;
/** What a command asks for (Accept) and what its success answer is. */
export type ResponseSpec = ManifestResponse;

export interface CommandSpec {
  /** Words after the binary: 2 or 3, noun first. */
  path: string[];
  name: string;
  /** Help's line: plain text, the summary or the description's first sentences (stages/design/descriptions.ts). */
  description: string;
  /** The whole description as plain text when `description` leaves some out; `--describe` prints it. */
  /** Requests a user might make for it, in users' words (the overlay's): search indexes them. */
  phrasings?: string[];
  details?: string;
  operation: { id: string; method: string; path: string; operationId?: string; pointer: string };
  flags: FlagSpec[];
  /** Accepts a whole request body as JSON on stdin (`--json-input`). */
  jsonInput: boolean;
  body?: BodySpec;
  response: ResponseSpec;
  /** Accept and Content-Type as the operation's own header parameters give them (stages/design/commands.ts). */
  headers?: Record<string, string>;
  destructive: boolean;
  permission: "read" | "write" | "delete";
  pagination?: Pagination;
  output: {
    shape: OutputShape;
    listField?: string;
    fields?: string[];
    types?: Record<string, { type: string; enum?: Array<string | number | boolean | null> }>;
  };
  /**
   * The alternatives the command authenticates with (stages/design/wire.ts): the document's requirements, made to agree
   * with the parameters schemes supply; empty when it needs none.
   */
  auth: Requirement[];
  /** The operation also works without a credential (an empty requirement): sent when set, never demanded. */
  authOptional?: boolean;
  /** The response statuses the document declares (which errors the command can end with). */
  statuses: string[];
  /** An idempotency key header the document declares: a POST or PATCH is then retried on 429/503 (runtime/retry.ts). */
  retry?: RetryHints;
  hidden: boolean;
  deprecated: boolean;
  nameSource: NameSource;
}

/** Why a command has its name: each word and where it came from (capabilities.json, for reviewers). */
export interface NameSource {
  resource: { word: string; from: "tag" | "path" | "x-cli-name" | "overlay"; text?: string };
  sub?: { word: string; from: "path"; text?: string };
  /** `method`: the CRUD word of the HTTP method and path shape, used when the operation states no action of its own. */
  action: {
    word: string;
    from: "summary" | "operationId" | "description" | "path" | "method" | "x-cli-name" | "overlay";
    text?: string;
    reason?: string;
  };
  /** Words added to tell the command apart from others that wanted the same name. */
  qualifier?: { words: string; from: "summary" | "operationId" | "description" | "path" | "tag"; reason: string };
  /** A sub-resource of one command, folded into the action (`player devices list` → `player list-devices`). */
  collapsed?: boolean;
  /** Words of the tag or path left out: shared prefixes, versions, stop words, the product's name, action words. */
  dropped?: string[];
  /** The overlay renamed the command: the rules' name it had, and the overlay entry that renamed it. */
  renamed?: { from: string; entry: string };
}

export interface NamingNote {
  kind: "collision" | "renamed-flag" | "skipped-flag" | "ignored" | "renamed-resource";
  command?: string;
  operation?: string;
  message: string;
}

export interface CommandsPlan {
  product: { name: string; binary: string; package: string; version: string; mcpName?: string };
  source: { title: string; version: string; specVersion: string; description?: string; files: string[] };
  /** `path` is the base URL's path ("/v1"): services started for inspection and evaluation are reached under it. */
  baseUrl: { default: string | null; env: string; path: string };
  auth: { schemes: Record<string, AuthScheme> };
  /** First command words, each with what it is for (the OpenAPI tag's description, else its commands' actions). */
  groups: Array<{ name: string; description: string }>;
  commands: CommandSpec[];
  naming: NamingNote[];
}

export interface SkillLink {
  command: string;
  score: number;
  linked: boolean;
  reason: string;
}

export interface SkillPlan {
  name: string;
  title: string;
  description: string;
  situation: string;
  outcome: string;
  rules: string[];
  commands: string[];
  /** Of the commands, the reads that find the ids the task's command takes (SKILL.md lists them apart). */
  finders?: string[];
  /** Why each command was linked, and the best that were not. */
  links: SkillLink[];
  /** When not to use it (from the design overlay). */
  avoid?: string;
  /** Steps naming the real commands (from the design overlay). */
  steps?: string[];
}

export interface SkillsPlan {
  product: { name: string; description: string };
  rules: string[];
  skills: SkillPlan[];
}
