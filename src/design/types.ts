import type { OutputShape, ValueSpec } from "../openapi/model.js";

/** A flag of a generated command; `in` and `wire` say where and under which name its value goes in the request. */
export interface FlagSpec extends ValueSpec {
  flag: string;
  in: "path" | "query" | "header" | "cookie" | "body";
  wire: string;
  required: boolean;
}

export interface Pagination {
  style: "cursor" | "page" | "offset" | "link";
  /** The request parameter that selects the page (cursor, page number or offset). */
  param?: string;
  /** The request parameter that sets the page size. */
  sizeParam?: string;
  /** The response field carrying the next cursor. */
  nextField?: string;
}

export interface CommandSpec {
  /** Words after the binary: 2 or 3, noun first. */
  path: string[];
  name: string;
  description: string;
  operation: { id: string; method: string; path: string; operationId?: string; pointer: string };
  flags: FlagSpec[];
  /** Accepts a whole request body as JSON on stdin (`--json-input`). */
  jsonInput: boolean;
  bodyMediaType?: string;
  destructive: boolean;
  permission: "read" | "write" | "delete";
  pagination?: Pagination;
  output: { shape: OutputShape; listField?: string; fields?: string[] };
  /** Security schemes the command sends (the first requirement set); empty when it needs none. */
  auth: string[];
  hidden: boolean;
  deprecated: boolean;
}

export interface NamingNote {
  kind: "collision" | "renamed-flag" | "skipped-flag" | "ignored" | "renamed-resource";
  command?: string;
  operation?: string;
  message: string;
}

export interface CommandsPlan {
  product: { name: string; binary: string; package: string; version: string };
  source: { title: string; version: string; specVersion: string; description?: string; files: string[] };
  baseUrl: { default: string | null; env: string };
  auth: { env: string; schemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }> };
  commands: CommandSpec[];
  naming: NamingNote[];
}

export interface SkillPlan {
  name: string;
  title: string;
  description: string;
  situation: string;
  outcome: string;
  rules: string[];
  commands: string[];
}

export interface SkillsPlan {
  product: { name: string; description: string };
  rules: string[];
  skills: SkillPlan[];
}
