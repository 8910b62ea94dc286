/** The generated manifest the runtime interprets (written by the emit task as manifest.json). */

export type ValueType = "string" | "integer" | "number" | "boolean" | "array" | "object";

export interface Flag {
  flag: string;
  in: "path" | "query" | "header" | "cookie" | "body";
  wire: string;
  type: ValueType;
  items?: ValueType;
  required: boolean;
  enum?: Array<string | number | boolean | null>;
  default?: unknown;
  description?: string;
}

export interface Command {
  path: string[];
  name: string;
  description: string;
  operation: { method: string; path: string };
  flags: Flag[];
  jsonInput: boolean;
  bodyMediaType?: string;
  destructive: boolean;
  permission: "read" | "write" | "delete";
  pagination?: { style: "cursor" | "page" | "offset" | "link"; param?: string; sizeParam?: string; nextField?: string };
  output: { shape: string; listField?: string; fields?: string[] };
  auth: string[];
  hidden: boolean;
}

export interface Manifest {
  product: { name: string; binary: string; version: string; description: string };
  baseUrl: { default: string | null; env: string };
  auth: { env: string; schemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }> };
  rules: string[];
  skills: Array<{ name: string; description: string }>;
  commands: Command[];
}
