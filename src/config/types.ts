import type { CredentialRoles } from "../core/credential-roles.js";
/** The shape users write in intermesh.config.ts. Kept small; every field is documented in docs/config.md. */

export type Globs = string | string[];

export interface ProductConfig {
  /** Display name of the product, shown in help texts and Skills, e.g. `"Rooms"`. */
  name: string;
  /** Name of the generated CLI binary, lowercase kebab-case, e.g. `"rooms"`. */
  binary: string;
  /**
   * npm package name of the generated CLI.
   * @default `<binary>-cli`
   */
  package?: string;
  /**
   * Semver version of the generated CLI.
   * @default `"0.1.0"`
   */
  version?: string;
  /**
   * The MCP server's name in the MCP registry, `namespace/name` with a reverse-DNS namespace you can prove you own
   * (`io.github.<login>/rooms` by your GitHub login, `com.example/rooms` by your domain). When set, the package's
   * package.json names it (`mcpName`, which the registry checks) and the build writes and validates its `server.json`.
   * @default none: no server.json
   */
  mcpName?: string;
}

export interface InputsConfig {
  /** The OpenAPI 3.x or Swagger 2.0 document (YAML or JSON): a path or glob, or a list; must match at least one file. Files it `$ref`s are followed. */
  openapi: Globs;
  /**
   * The product brief (`context.md`, see docs/context.md): a path or glob, or a list; when given it must match a file. Without it no Skills are planned.
   * @default none
   */
  context?: Globs;
}

export interface ApiConfig {
  /**
   * Base URL (http or https) the generated CLI calls; users override it with `<BINARY>_BASE_URL`.
   * @default the document's first server
   */
  baseUrl?: string;
  /**
   * Name (UPPER_SNAKE) of the variable holding the credential of a CLI whose commands send one security scheme —
   * never the credential itself. For OAuth 2 it names the access-token variable; for HTTP Basic it holds
   * `<user>:<password>`.
   * @default `<BINARY>_API_KEY` (`<BINARY>_ACCESS_TOKEN` for OAuth 2)
   */
  credentialEnv?: string;
  /**
   * The variables each security scheme of the document reads, by scheme name: one name (an apiKey's or Bearer
   * scheme's value; Basic's `user:password`), or one per role — `value`; `username`, `password` (HTTP Basic);
   * `accessToken`, `clientId`, `clientSecret`, `refreshToken` (OAuth 2, OpenID Connect); `accessKeyId`,
   * `secretAccessKey`, `sessionToken` (AWS Signature Version 4, by default AWS_ACCESS_KEY_ID, …). Never a value. A name for a
   * scheme no command sends, or a role the scheme lacks, is a build warning; [Credentials](generated-cli.md#credentials)
   * says how names are made and sent.
   * @default `<BINARY>_<SCHEME>[_<ROLE>]`
   */
  credentials?: Record<string, string | CredentialNames>;
  /**
   * AWS Signature Version 4 (a scheme with `x-amazon-apigateway-authtype: awsSigv4`): the region and service requests
   * are signed for, where the API's address does not say them (an API Gateway API on a domain of its own). Users
   * override the region with `AWS_REGION` (else `AWS_DEFAULT_REGION`).
   * @default from the document's server (`<service>.<region>.amazonaws.com`, its `{region}` variable's default)
   */
  aws?: {
    /**
     * The region requests are signed for, e.g. `us-east-1`; a regional server URL (`{region}`) takes it too.
     * @default the server's `{region}` default, else the region its host names
     */
    region?: string;
    /**
     * The service name requests are signed for, as AWS spells it (`execute-api` for API Gateway, `ec2`, …).
     * @default the document's `info.x-aws-signingName`, else the service its host names, else `execute-api`
     */
    service?: string;
  };
}

/** The roles of a scheme's variables (docs/generated-cli.md, "Credentials"). */
export type CredentialNames = CredentialRoles;

export interface ServiceConfig {
  /** The argv that starts the service, in its own process group; `{port}` becomes a free port. */
  command: string[];
  /**
   * Extra environment for the service; `{port}` is filled in here too.
   * @default none
   */
  env?: Record<string, string>;
  /**
   * A URL polled until it answers 2xx (its origin becomes the base URL the CLI is pointed at), or a port waited for.
   * @default none (started is ready)
   */
  ready?: string | number;
  /**
   * How long to wait for `ready`, in milliseconds.
   * @default `15000`
   */
  timeoutMs?: number;
}

/** An agent preset's name, one the config's validation found among the presets' (src/evaluation/sandbox/presets.ts). */
export type AgentPreset = string;

/** A real coding agent with extra arguments (a model, say) and environment, which never holds the API's credential. */
export interface AgentPresetConfig {
  preset: AgentPreset;
  args?: string[];
  env?: Record<string, string>;
}

/** Any program as an argv template: `{prompt}`, `{prompt_file}`, `{workspace}`, `{outputs}`, `{attempt}`. */
export interface AgentCommandConfig {
  command: string[];
  env?: Record<string, string>;
}

export type AgentConfig = "reference" | AgentPreset | AgentPresetConfig | AgentCommandConfig;

export interface TargetsConfig {
  /** The generated CLI. */
  cli?: {
    /**
     * Where capabilities.json, the package, `cli.tgz`, the receipt and evaluation results are written.
     * @default `"dist"`
     */
    outDir?: string;
    /**
     * The last published candidate (a cli.tgz or an unpacked package folder, relative to the project): the build
     * compares the new one with it, writes CHANGELOG.md from the changes, and warns VERSION_NOT_BUMPED when
     * `product.version` does not follow the semver verdict (docs/diff.md).
     */
    baseline?: string;
  };
  /** The evaluation run by `inter run eval` (docs/evaluation.md). */
  eval?: {
    /** The evaluation plan, `eval-plan.json` (docs/eval-plan.md); `eval-plan.reference.json` beside it feeds the reference agent. */
    plan: string;
    /**
     * The execution agent: the reference solutions, a real coding agent (`"claude-code"`, `"codex"`, `"opencode"`, or `{ preset, args?, env? }`), or any program as an argv template (`{ command, env? }`; `{prompt}`, `{prompt_file}`, `{workspace}`, `{outputs}`, `{attempt}` are filled in).
     * @default `"reference"`
     */
    agent?: AgentConfig;
    /**
     * How the agent uses the candidate: `"cli"`, its commands in a shell; `"mcp"`, its MCP server (`<binary>-mcp`) as the agent's tools, each tool call recorded as the command it runs.
     * @default `"cli"`
     */
    interface?: "cli" | "mcp";
    /**
     * Services started for the inspection probes and the evaluation, and stopped afterwards.
     * @default none
     */
    services?: Record<string, ServiceConfig>;
    /** The CI gate of `inter run eval`; `--min-pass-rate` and `--allow-incomplete` override it. */
    gate?: {
      /**
       * Each scenario's pass rate must reach this (0..1).
       * @default `1`
       */
      minPassRate?: number;
      /**
       * Leave incomplete attempts out of the rate instead of counting them as not passed.
       * @default `false`
       */
      allowIncomplete?: boolean;
      /**
       * Fail the gate when the attempts ran unsealed (bubblewrap missing): their evidence could have been forged.
       * @default `false`
       */
      requireSealed?: boolean;
      /**
       * Fail an attempt (and the gate) on a mutating call no observation of its scenario matches: a change the plan never looks at.
       * @default `false`
       */
      forbidSideEffects?: boolean;
    };
  };
}

export interface UserTaskConfig {
  /** A shell command line, or an argv array run without a shell, in the project folder. */
  command: string | string[];
  /**
   * Task ids (built-in or yours) that must finish first.
   * @default none
   */
  deps?: string[];
  /**
   * Globs of files whose contents key the cache.
   * @default none
   */
  inputs?: string[];
  /**
   * Globs of files the task writes; the cache stores and restores them.
   * @default none
   */
  outputs?: string[];
  /**
   * Names of environment variables whose values key the cache (hashed, never stored).
   * @default none
   */
  env?: string[];
}

export interface CacheConfig {
  /**
   * The local cache folder.
   * @default `".intermesh/cache"`
   */
  dir?: string;
  /**
   * The bound `inter cache gc` trims the cache to: bytes, or a size such as `"500MB"`.
   * @default `"1GB"`
   */
  maxSize?: string | number;
  /**
   * A shared cache speaking the Turborepo remote-cache API; `INTER_REMOTE_CACHE_URL`, `_TEAM` and `_TOKEN` override it.
   * @default none (local only)
   */
  remote?: RemoteCacheConfig;
}

export interface RemoteCacheConfig {
  /** Base URL of the server, e.g. `"https://cache.example.com"` (artifacts live under `/v8/artifacts/`). */
  url?: string;
  /**
   * The team (`team_…` is sent as teamId, anything else as slug).
   * @default none
   */
  team?: string;
  /**
   * The bearer token. Read it from the environment (`process.env.X`), never write it into the config.
   * @default none
   */
  token?: string;
  /**
   * Sign artifacts with `INTER_REMOTE_CACHE_SIGNATURE_KEY` (x-artifact-tag) and refuse unsigned or wrongly signed ones.
   * @default `true` when the key is set
   */
  signature?: boolean;
  /**
   * `"unsigned"` uses artifacts nobody signed. Anyone who can write to the cache can then put code in your builds (a
   * planted cli.tgz is installed and run by the inspection), so without a signature key inter only uploads unless this
   * says so. `INTER_REMOTE_CACHE_TRUST=unsigned` sets it too.
   * @default `"signed"`
   */
  trust?: "signed" | "unsigned";
  /**
   * Each request's time limit, in milliseconds; a slow remote is then treated as down.
   * @default `10000`
   */
  timeoutMs?: number;
}

export interface InterConfig {
  /** What the generated CLI is called. */
  product: ProductConfig;
  /** The files the CLI is designed from. */
  inputs: InputsConfig;
  /** How the generated CLI reaches the API. */
  api?: ApiConfig;
  /** What `inter build` and `inter run <target>` produce. */
  targets?: TargetsConfig;
  /** The design overlay, and the model that suggests it. */
  design?: DesignConfig;
  /**
   * Your own cached command tasks, by id (lowercase kebab-case).
   * @default none
   */
  tasks?: Record<string, UserTaskConfig>;
  /** The local cache. */
  cache?: CacheConfig;
}

/** A model that suggests names, descriptions and Skill text (docs/overlay.md); its answers go to the overlay file. */
export interface DesignModelConfig {
  /** `openai-compatible` (OpenAI, DeepSeek, local servers: Chat Completions) or `anthropic` (Messages). */
  provider: "openai-compatible" | "anthropic";
  /** The model's name at the provider, e.g. `"deepseek-chat"`. */
  model: string;
  /** The API's base URL, e.g. `"https://api.deepseek.com/v1"` or `"https://api.anthropic.com"`. */
  baseUrl: string;
  /** Name (UPPER_SNAKE) of the environment variable holding the key — never the key itself. Omit it for a server that takes no key (a local one). */
  keyEnv?: string;
  /**
   * Questions asked at once.
   * @default `4`
   */
  concurrency?: number;
  /**
   * Retries of a request that met a 429, a 5xx or a network failure (with backoff, honouring `retry-after`).
   * @default `4`
   */
  retries?: number;
  /**
   * Stop cleanly (MODEL_BUDGET_EXCEEDED) once a run has used this many tokens, input and output together.
   * @default `2000000`
   */
  maxTokens?: number;
  /**
   * Stop cleanly once a run's estimated cost reaches this many US dollars (only for models with a known price).
   * @default none
   */
  maxCostUsd?: number;
  /**
   * Deadline for one request, in milliseconds.
   * @default `120000`
   */
  timeoutMs?: number;
  /**
   * Deadline for the whole run, in milliseconds.
   * @default `900000`
   */
  deadlineMs?: number;
}

export interface DesignConfig {
  /**
   * The overlay file the build applies (and `inter design suggest` writes): reviewed names, descriptions and Skill text.
   * @default `"intermesh.overlay.json"`
   */
  overlay?: string;
  /**
   * The model that suggests; without it the rules design alone (the overlay still applies where present).
   * @default none
   */
  model?: DesignModelConfig;
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
