/** The shape users write in intermesh.config.ts. Kept small; every field is documented in docs/config.md. */

export type Globs = string | string[];

export interface ProductConfig {
  /** Product name shown in help texts and Skills, e.g. "Rooms". */
  name: string;
  /** Name of the generated binary, lowercase kebab-case, e.g. "rooms". */
  binary: string;
  /** npm package name of the generated CLI; defaults to `<binary>-cli`. */
  package?: string;
  /** Semver of the generated CLI; defaults to "0.1.0". */
  version?: string;
}

export interface InputsConfig {
  /** The OpenAPI (or Swagger 2.0) document: a path or glob relative to the config file. */
  openapi: Globs;
  /** The product brief: a path or glob. Optional: without it Skills cannot be planned. */
  context?: Globs;
}

export interface ApiConfig {
  /** Base URL the generated CLI calls; defaults to the document's first server. */
  baseUrl?: string;
  /** Environment variable holding the credential; defaults to `<BINARY>_API_KEY`. */
  credentialEnv?: string;
}

export interface ServiceConfig {
  command: string[];
  env?: Record<string, string>;
  /** A URL polled until it answers 2xx, or a port waited for. */
  ready?: string | number;
  timeoutMs?: number;
}

export type AgentConfig = "reference" | "claude-code" | "codex" | "opencode" | { command: string[] };

export interface TargetsConfig {
  cli?: { outDir?: string };
  eval?: {
    plan: string;
    agent?: AgentConfig;
    services?: Record<string, ServiceConfig>;
    /** The CI gate of `inter run eval`: each scenario's pass rate must reach minPassRate (default 1). */
    gate?: { minPassRate?: number; allowIncomplete?: boolean };
  };
}

export interface UserTaskConfig {
  /** A shell command line, or an argv array run without a shell. */
  command: string | string[];
  /** Task ids (built-in or user) that must finish first. */
  deps?: string[];
  /** Globs whose contents key the cache. */
  inputs?: string[];
  /** Globs of files the task writes; they are stored and restored by the cache. */
  outputs?: string[];
  /** Names of environment variables whose values key the cache (values are hashed, never stored). */
  env?: string[];
}

export interface CacheConfig {
  /** Cache folder; defaults to `.intermesh/cache`. */
  dir?: string;
  /** Upper bound kept by `inter cache gc`, in bytes or with a unit ("500MB"); defaults to "1GB". */
  maxSize?: string | number;
}

export interface InterConfig {
  product: ProductConfig;
  inputs: InputsConfig;
  api?: ApiConfig;
  targets?: TargetsConfig;
  tasks?: Record<string, UserTaskConfig>;
  cache?: CacheConfig;
}

/** The loaded config together with where it came from. */
export interface LoadedConfig {
  config: InterConfig;
  /** Absolute path of the config file. */
  file: string;
  /** The folder holding the config: every relative path resolves against it. */
  root: string;
  /** Absolute paths of the files the config was compiled from (it and its local imports). */
  sources: string[];
}
