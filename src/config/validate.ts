import { MCP_NAME } from "../core/mcp-name.js";
import * as t from "typanion";
import { InterError } from "../core/errors.js";
import type { InterConfig } from "./types.js";

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const TASK_ID = /^[a-z][a-z0-9-]*(:[a-z0-9-]+)?$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

const nonEmpty = t.cascade(t.isString(), [t.hasMinLength(1)]);
const isGlobs = t.isOneOf([nonEmpty, t.cascade(t.isArray(nonEmpty), [t.hasMinLength(1)])]);
const envName = t.cascade(t.isString(), [t.matchesRegExp(ENV_NAME)]);
const isCredentialNames = t.isObject({
  value: t.isOptional(envName),
  username: t.isOptional(envName),
  password: t.isOptional(envName),
  accessToken: t.isOptional(envName),
  clientId: t.isOptional(envName),
  clientSecret: t.isOptional(envName),
  refreshToken: t.isOptional(envName),
  accessKeyId: t.isOptional(envName),
  secretAccessKey: t.isOptional(envName),
  sessionToken: t.isOptional(envName),
});
const isArgv = t.cascade(t.isArray(t.isString()), [t.hasMinLength(1)]);

const isService = t.isObject({
  command: isArgv,
  env: t.isOptional(t.isRecord(t.isString())),
  ready: t.isOptional(t.isOneOf([nonEmpty, t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 65535)])])),
  timeoutMs: t.isOptional(t.cascade(t.isNumber(), [t.isInteger(), t.isPositive()])),
});

const isUserTask = t.isObject({
  command: t.isOneOf([nonEmpty, isArgv]),
  deps: t.isOptional(t.isArray(nonEmpty)),
  inputs: t.isOptional(t.isArray(nonEmpty)),
  outputs: t.isOptional(t.isArray(nonEmpty)),
  env: t.isOptional(t.isArray(t.cascade(t.isString(), [t.matchesRegExp(ENV_NAME)]))),
});

/**
 * The config's schema, given the agent presets inter has: their list is the evaluation layer's
 * (src/evaluation/sandbox/presets.ts), which this layer may not import, so the caller passes the names in.
 */
const configSchema = (presets: readonly string[]) =>
  t.isObject({
    product: t.isObject({
      name: nonEmpty,
      binary: t.cascade(t.isString(), [t.matchesRegExp(KEBAB)]),
      // An npm package name: it becomes a folder name in installs, so no "..", slashes (but a scope's) or spaces.
      package: t.isOptional(
        t.cascade(t.isString(), [t.matchesRegExp(/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/)]),
      ),
      version: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(SEMVER)])),
      mcpName: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(MCP_NAME), t.hasMaxLength(200)])),
    }),
    inputs: t.isObject({ openapi: isGlobs, context: t.isOptional(isGlobs) }),
    api: t.isOptional(
      t.isObject({
        baseUrl: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(/^https?:\/\/\S+$/)])),
        credentialEnv: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(ENV_NAME)])),
        credentials: t.isOptional(t.isRecord(t.isOneOf([envName, isCredentialNames], { exclusive: false }))),
        aws: t.isOptional(
          t.isObject({
            region: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(/^[a-z]{2}(-[a-z]+)+-\d+$/)])),
            service: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(/^[a-z0-9][a-z0-9.-]*$/)])),
          }),
        ),
      }),
    ),
    targets: t.isOptional(
      t.isObject({
        cli: t.isOptional(t.isObject({ outDir: t.isOptional(nonEmpty), baseline: t.isOptional(nonEmpty) })),
        eval: t.isOptional(
          t.isObject({
            plan: nonEmpty,
            agent: t.isOptional(
              t.isOneOf([
                t.isEnum(["reference", ...presets]),
                t.isObject({
                  preset: t.isEnum(presets),
                  args: t.isOptional(t.isArray(t.isString())),
                  env: t.isOptional(t.isRecord(t.isString())),
                }),
                t.isObject({ command: isArgv, env: t.isOptional(t.isRecord(t.isString())) }),
              ]),
            ),
            interface: t.isOptional(t.isEnum(["cli", "mcp"])),
            services: t.isOptional(t.isRecord(isService)),
            gate: t.isOptional(
              t.isObject({
                minPassRate: t.isOptional(t.cascade(t.isNumber(), [t.isInInclusiveRange(0, 1)])),
                allowIncomplete: t.isOptional(t.isBoolean()),
                requireSealed: t.isOptional(t.isBoolean()),
                forbidSideEffects: t.isOptional(t.isBoolean()),
              }),
            ),
          }),
        ),
      }),
    ),
    design: t.isOptional(
      t.isObject({
        overlay: t.isOptional(nonEmpty),
        model: t.isOptional(
          t.isObject({
            provider: t.isEnum(["openai-compatible", "anthropic"]),
            model: nonEmpty,
            baseUrl: t.cascade(t.isString(), [t.matchesRegExp(/^https?:\/\/[^\s@]+$/)]),
            keyEnv: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(ENV_NAME)])),
            concurrency: t.isOptional(t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 32)])),
            retries: t.isOptional(t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(0, 10)])),
            maxTokens: t.isOptional(t.cascade(t.isNumber(), [t.isInteger(), t.isPositive()])),
            maxCostUsd: t.isOptional(t.cascade(t.isNumber(), [t.isPositive()])),
            timeoutMs: t.isOptional(t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1000, 3_600_000)])),
            deadlineMs: t.isOptional(t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1000, 86_400_000)])),
          }),
        ),
      }),
    ),
    tasks: t.isOptional(t.isRecord(isUserTask, { keys: t.cascade(t.isString(), [t.matchesRegExp(TASK_ID)]) })),
    cache: t.isOptional(
      t.isObject({
        dir: t.isOptional(nonEmpty),
        maxSize: t.isOptional(
          t.isOneOf([
            t.cascade(t.isNumber(), [t.isPositive()]),
            t.cascade(t.isString(), [t.matchesRegExp(/^\d+(\.\d+)?\s*(B|KB|MB|GB)?$/i)]),
          ]),
        ),
        remote: t.isOptional(
          t.isObject({
            url: t.isOptional(t.cascade(t.isString(), [t.matchesRegExp(/^https?:\/\/\S+$/)])),
            team: t.isOptional(nonEmpty),
            token: t.isOptional(t.isString()),
            signature: t.isOptional(t.isBoolean()),
            trust: t.isOptional(t.isEnum(["signed", "unsigned"])),
            timeoutMs: t.isOptional(t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(100, 600_000)])),
          }),
        ),
      }),
    ),
  });

/** How to fix a field, keyed by its path with record keys replaced by `*`. */
const FIXES: Record<string, string> = {
  "": "Default-export defineConfig({ product, inputs }) from the config file.",
  product: 'Add product: { name: "Rooms", binary: "rooms" }.',
  "product.name": 'Set product.name to the product\'s display name, e.g. "Rooms".',
  "product.binary": 'Use a lowercase kebab-case binary name, e.g. "rooms" or "rooms-cli".',
  "product.version": 'Use a semver version such as "0.1.0".',
  "product.mcpName":
    'Name the server in a namespace you own, reverse DNS then a name: "io.github.<your-login>/rooms" (proved by GitHub login) or "com.example/rooms" (proved by your domain).',
  "product.package":
    'Use an npm package name, e.g. "rooms-cli" or "@acme/rooms-cli" (lowercase; no "..", spaces or extra slashes).',
  inputs: 'Add inputs: { openapi: "inputs/openapi.yaml", context: "inputs/context.md" }.',
  "inputs.openapi": 'Point inputs.openapi at the OpenAPI document, e.g. "inputs/openapi.yaml" (a path or glob).',
  "inputs.context": 'Point inputs.context at the product brief, e.g. "inputs/context.md", or remove the field.',
  "api.baseUrl": 'Use an absolute http(s) URL such as "http://127.0.0.1:4010".',
  "api.credentials":
    'Map a security scheme of the document to its variable, e.g. credentials: { api_token: "TRELLO_TOKEN" }, or to one per role: { oauth: { clientId: "ACME_CLIENT_ID", clientSecret: "ACME_CLIENT_SECRET" } } (roles: value, username, password, accessToken, clientId, clientSecret, refreshToken, accessKeyId, secretAccessKey, sessionToken).',
  "api.aws.region": 'Name an AWS region such as "us-east-1" (users override it with AWS_REGION).',
  "api.aws.service": 'Name the service requests are signed for, as AWS spells it, e.g. "execute-api" or "ec2".',
  "api.credentialEnv":
    'Name an environment variable in UPPER_SNAKE case, e.g. "ROOMS_API_KEY" — never the credential itself.',
  "targets.eval.gate.minPassRate": "Use a pass rate between 0 and 1, e.g. 0.8 for four attempts in five.",
  "design.overlay": 'Give the overlay file\'s path relative to the project, e.g. "intermesh.overlay.json".',
  "design.model":
    'Set design.model: { provider: "openai-compatible", model: "deepseek-chat", baseUrl: "https://api.deepseek.com/v1", keyEnv: "DEEPSEEK_API_KEY" }, or remove it.',
  "design.model.provider": 'Use "openai-compatible" (OpenAI, DeepSeek, local servers) or "anthropic".',
  "design.model.baseUrl":
    'Use the provider\'s http(s) base URL without credentials, e.g. "https://api.deepseek.com/v1".',
  "design.model.keyEnv":
    'Name the environment variable that holds the key, in UPPER_SNAKE case, e.g. "DEEPSEEK_API_KEY" — never the key itself.',
  "tasks.*": "Task ids are lowercase kebab-case (optionally with one `:` part).",
  "tasks.*.command": 'Give a shell command line ("npm run lint") or an argv array (["node", "script.mjs"]).',
  "tasks.*.env": "List environment variable names in UPPER_SNAKE case; their values are hashed, never stored.",
  "cache.maxSize": 'Use a byte count or a size such as "500MB" or "2GB".',
  "cache.remote.url": 'Use the server\'s http(s) base URL, e.g. "https://cache.example.com".',
};

function fixFor(path: string, reason: string, presets: readonly string[]): string {
  if (reason.startsWith("Extraneous property")) {
    return `Remove the unknown field "${path}" or correct its spelling; docs/config.md lists every field.`;
  }
  const generic = path
    .replace(/#\d+/g, "")
    .replace(/^tasks\.[^.]+/, "tasks.*")
    .replace(/^api\.credentials\..*/, "api.credentials")
    .replace(/^targets\.eval\.services\.[^.]+/, "targets.eval.services.*");
  for (let p = generic; ; p = p.slice(0, Math.max(0, p.lastIndexOf(".")))) {
    if (p === "targets.eval.agent")
      return `Use ${["reference", ...presets].map((name) => `"${name}"`).join(", ")} or { command: ["my-agent", "{prompt_file}"] }.`;
    const fix = FIXES[p];
    if (fix) return fix;
    if (!p) break;
  }
  return "See docs/config.md for every field and its allowed values.";
}

/** Turns typanion's `.a.b["c"]: Expected …` into a path `a.b.c` and the reason. */
function parseTypanionError(line: string): { path: string; reason: string } {
  const match = /^(\.[^:]*|)\s*:\s*(.*)$/s.exec(line);
  if (!match) return { path: "", reason: line };
  const path = match[1]!
    .replace(/\["([^"]*)"\]/g, ".$1")
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^\./, "");
  return { path, reason: match[2]! };
}

const schemas = new Map<readonly string[], ReturnType<typeof configSchema>>();

/** The config as typed, or CONFIG_INVALID naming the first field that is wrong; `presets` are the agents' names. */
export function validateConfig(value: unknown, file: string, presets: readonly string[]): InterConfig {
  const errors: string[] = [];
  let isConfig = schemas.get(presets);
  if (!isConfig) schemas.set(presets, (isConfig = configSchema(presets)));
  if (isConfig(value, { errors })) return value as InterConfig;
  const issues = errors.map(parseTypanionError).map((e) => ({ ...e, fix: fixFor(e.path, e.reason, presets) }));
  const first = issues[0]!;
  throw new InterError(
    "CONFIG_INVALID",
    `${file}: ${first.path || "the default export"}: ${first.reason}` +
      (issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : ""),
    first.fix,
    { file, issues },
  );
}
