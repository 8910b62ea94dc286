import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { whichProgram } from "./sandbox.js";
import { parseClaudeCode, parseCodex, parseOpencode, type Transcript } from "./transcript.js";

/**
 * The real coding agents, as inter runs them: non-interactive, stdin closed (or carrying the prompt), their own
 * sandbox and permission prompts off because the attempt is already sealed by inter (sandbox.ts). Known good with the
 * versions pinned in package.json's devDependencies, which the end-to-end tests run offline against a scripted model.
 */
export interface Preset {
  name: "claude-code" | "codex" | "opencode";
  program: string;
  /** The npm package that installs `program`, with the version the tests run. */
  install: string;
  /** Arguments after the program; `{prompt}` is the task. */
  args: string[];
  /** Where the prompt goes: an argument, or stdin (opencode wraps an argument in literal quotes). */
  promptVia: "arg" | "stdin";
  /** Set unless your environment already sets them. */
  defaults: Record<string, string>;
  /** Always set: what inter's own seal makes true. */
  forced: Record<string, string>;
  /** The variables (or prefixes, ending in `_`) that carry the agent's own configuration; documented and checked. */
  configEnv: string[];
  /**
   * The variables that choose the agent's model and endpoint: part of the agent's identity (hashed), so a result,
   * a cached trigger run or a resumed evaluation is never reused under another model.
   */
  modelEnv: string[];
  /** How a user gives the agent a model and a login, for `inter status` when neither a file nor a variable is there. */
  configureHint: string;
  /**
   * The agent's configuration and login files as you keep them, and where the attempt's HOME shows them (read-only).
   * `env` is where the agent is told to look, when you moved them with a variable.
   */
  configFiles(env: NodeJS.ProcessEnv): { files: Array<{ host: string; home: string }>; env: Record<string, string> };
  /**
   * Files the agent keeps in its own HOME, written into the attempt's fresh HOME before it starts (a path ending in
   * `/` is a folder): state it would otherwise rebuild, from the network, in every attempt. Never your own files.
   */
  homeFiles?: Record<string, string>;
  parse(stdout: string): Transcript;
  /** How the agent is given the candidate's MCP server for an attempt through MCP: arguments and environment. */
  mcp(server: { name: string; command: string; args: string[] }): { args: string[]; env: Record<string, string> };
  /**
   * Reads the agent's output as it comes, line by line (a fresh reader per attempt), and names a failure of its
   * model or login that it would otherwise retry until the attempt's timeout.
   */
  fatal?: () => (line: string) => string | undefined;
}

/** A reader that gives up after `times` matching lines without a sign of progress between them. */
function repeated(
  times: number,
  failure: RegExp,
  progress: RegExp,
  describe: (line: string) => string,
): () => (line: string) => string | undefined {
  return () => {
    let count = 0;
    return (line) => {
      if (progress.test(line)) count = 0;
      else if (failure.test(line) && ++count >= times) return describe(line);
      return undefined;
    };
  };
}

const exists = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
const userHome = (env: NodeJS.ProcessEnv) => env.HOME || homedir();
const present = (files: Array<{ host: string; home: string }>) => files.filter((f) => exists(f.host));

export const PRESETS: Record<Preset["name"], Preset> = {
  "claude-code": {
    name: "claude-code",
    program: "claude",
    install: "@anthropic-ai/claude-code@2.1.328",
    args: ["-p", "{prompt}", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"],
    promptVia: "arg",
    // As root (CI containers) Claude Code refuses to skip permissions unless told it is sandboxed, which a sealed
    // attempt is; a dead model endpoint is retried for minutes unless the retries are bounded.
    defaults: { CLAUDE_CODE_MAX_RETRIES: "2", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1" },
    forced: { IS_SANDBOX: "1" },
    configEnv: ["ANTHROPIC_", "CLAUDE_CODE_USE_", "CLAUDE_CONFIG_DIR"],
    modelEnv: [
      "ANTHROPIC_MODEL",
      "ANTHROPIC_BASE_URL",
      "ANTHROPIC_SMALL_FAST_MODEL",
      "ANTHROPIC_DEFAULT_OPUS_MODEL",
      "ANTHROPIC_DEFAULT_SONNET_MODEL",
      "ANTHROPIC_DEFAULT_HAIKU_MODEL",
      "CLAUDE_CODE_SUBAGENT_MODEL",
      "CLAUDE_CODE_USE_BEDROCK",
      "CLAUDE_CODE_USE_VERTEX",
      "ANTHROPIC_BEDROCK_BASE_URL",
      "ANTHROPIC_VERTEX_BASE_URL",
      "ANTHROPIC_VERTEX_PROJECT_ID",
      "CLOUD_ML_REGION",
      "AWS_REGION",
      "CLAUDE_CONFIG_DIR",
    ],
    configureHint: "export ANTHROPIC_API_KEY=…  # or log in once with `claude` (~/.claude/.credentials.json)",
    configFiles(env) {
      const dir = env.CLAUDE_CONFIG_DIR || join(userHome(env), ".claude");
      return {
        files: present(
          [".credentials.json", "settings.json"].map((f) => ({ host: join(dir, f), home: `.claude/${f}` })),
        ),
        env: env.CLAUDE_CONFIG_DIR ? { CLAUDE_CONFIG_DIR: "{home}/.claude" } : ({} as Record<string, string>),
      };
    },
    parse: parseClaudeCode,
    // Only this server: the user's own MCP servers stay out of the attempt. Its tools are given to the model up front,
    // as the CLI's help is, rather than found through Claude Code's tool search — unless you set ENABLE_TOOL_SEARCH.
    mcp: (server) => ({
      args: [
        "--mcp-config",
        JSON.stringify({
          mcpServers: { [server.name]: { type: "stdio", command: server.command, args: server.args } },
        }),
        "--strict-mcp-config",
      ],
      env:
        process.env.ENABLE_TOOL_SEARCH === undefined ? { ENABLE_TOOL_SEARCH: "false" } : ({} as Record<string, string>),
    }),
  },
  codex: {
    name: "codex",
    program: "codex",
    install: "@openai/codex@0.169.0",
    // --full-auto is gone from current releases; its own sandbox has no network (the CLI must reach the API) and
    // cannot write outside cwd, and a login shell resets PATH (the CLI would not be found).
    args: [
      "exec",
      "--skip-git-repo-check",
      "--json",
      "--dangerously-bypass-approvals-and-sandbox",
      "-c",
      "allow_login_shell=false",
      "-c",
      "analytics.enabled=false",
      "--disable",
      "plugins",
      "{prompt}",
    ],
    promptVia: "arg",
    defaults: {},
    forced: {},
    configEnv: ["CODEX_HOME", "OPENAI_API_KEY", "CODEX_API_KEY"],
    modelEnv: ["OPENAI_BASE_URL", "OPENAI_API_BASE", "CODEX_HOME", "CODEX_OSS_BASE_URL", "CODEX_OSS_PORT"],
    configureHint: "export OPENAI_API_KEY=…  # or `codex login`, or a model provider in ~/.codex/config.toml",
    configFiles(env) {
      const dir = env.CODEX_HOME || join(userHome(env), ".codex");
      // CODEX_HOME is also where Codex writes its sessions: it gets a writable one in the attempt's HOME, with your
      // config and login shown inside it.
      return {
        files: present(["config.toml", "auth.json"].map((f) => ({ host: join(dir, f), home: `.codex/${f}` }))),
        env: { CODEX_HOME: "{home}/.codex" },
      };
    },
    parse: parseCodex,
    // -c values are TOML; a JSON string and a JSON array of strings are TOML too.
    mcp: (server) => ({
      args: [
        "-c",
        `mcp_servers.${server.name}.command=${JSON.stringify(server.command)}`,
        "-c",
        `mcp_servers.${server.name}.args=${JSON.stringify(server.args)}`,
      ],
      env: {},
    }),
    // Codex waits for the network without end ("Reconnecting... waiting for network", 3 s then 8 s apart); two in a row
    // with no progress between them is a dead model.
    fatal: repeated(
      2,
      /"type":"error".*Reconnecting/,
      /"type":"(item|turn)\.(completed|started)"/,
      (line) => `Codex cannot reach its model: ${/"message":"([^"]*)"/.exec(line)?.[1] ?? "reconnecting"}`,
    ),
  },
  opencode: {
    name: "opencode",
    program: "opencode",
    install: "opencode-ai@1.18.33",
    // Without --auto a permission "ask" is rejected and the run still exits 0; --pure skips the background install
    // of external plugins that it tries on every run; its error log (stderr) shows failing model calls as they happen.
    args: ["run", "--format", "json", "--auto", "--pure", "--print-logs", "--log-level", "ERROR"],
    promptVia: "stdin",
    defaults: { OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" },
    // A session is uploaded to opncd.ai when your config says `share: "auto"` (or OPENCODE_AUTO_SHARE): never an attempt.
    forced: { OPENCODE_DISABLE_SHARE: "1" },
    configEnv: ["OPENCODE_CONFIG", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"],
    modelEnv: ["OPENCODE_CONFIG", "OPENCODE_CONFIG_CONTENT", "OPENCODE_MODEL", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"],
    configureHint: "`opencode auth login`, or a provider in ~/.config/opencode/opencode.json (or OPENCODE_CONFIG)",
    configFiles(env) {
      const home = userHome(env);
      const files = present([
        ...["opencode.json", "opencode.jsonc", "config.json"].map((f) => ({
          host: join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode", f),
          home: `.config/opencode/${f}`,
        })),
        {
          host: join(env.XDG_DATA_HOME || join(home, ".local", "share"), "opencode", "auth.json"),
          home: ".local/share/opencode/auth.json",
        },
      ]);
      const custom =
        env.OPENCODE_CONFIG && exists(env.OPENCODE_CONFIG)
          ? [
              {
                host: env.OPENCODE_CONFIG,
                home: `.config/opencode/inter-opencode-config${env.OPENCODE_CONFIG.endsWith(".jsonc") ? ".jsonc" : ".json"}`,
              },
            ]
          : [];
      return {
        files: [...files, ...custom],
        env: custom.length ? { OPENCODE_CONFIG: `{home}/${custom[0]!.home}` } : ({} as Record<string, string>),
      };
    },
    // On every run opencode installs @opencode-ai/plugin (what custom tools import) into each config folder that lacks
    // it — ~/.config/opencode included — from the npm registry, in the background: in a fresh HOME, a registry call and
    // npm's installer loaded in every attempt. Its manifest there says the package is in place, so it is left alone
    // (the attempt shows no custom tools or plugins, and --pure loads none).
    homeFiles: {
      ".config/opencode/package.json": `${JSON.stringify({ dependencies: { "@opencode-ai/plugin": "*" } })}\n`,
      ".config/opencode/package-lock.json": `${JSON.stringify({ lockfileVersion: 3, requires: true, packages: { "": { dependencies: { "@opencode-ai/plugin": "*" } } } })}\n`,
      ".config/opencode/node_modules/": "",
    },
    parse: parseOpencode,
    // Its config given inline (merged over the user's): one local MCP server.
    mcp: (server) => ({
      args: [],
      env: {
        OPENCODE_CONFIG_CONTENT: JSON.stringify({
          mcp: { [server.name]: { type: "local", command: [server.command, ...server.args], enabled: true } },
        }),
      },
    }),
    // Its error log says when a model call failed; it retries with backoff for over a minute before giving up.
    fatal: repeated(
      2,
      /message="stream error"/,
      /"type":"step_finish"/,
      (line) =>
        `opencode cannot reach its model: ${/error\.error="([^"]*)"/.exec(line)?.[1]?.slice(0, 300) ?? "stream error"}`,
    ),
  },
};

/** The program on PATH, else in the project's own node_modules/.bin (agents pinned as devDependencies). */
export function findProgram(program: string, path: string | undefined, root: string | undefined): string | undefined {
  return whichProgram(
    program,
    [path, root ? join(root, "node_modules", ".bin") : undefined].filter(Boolean).join(delimiter),
  );
}

/** Whether a preset can run here: its program found, and some configuration of its own (a file or a variable). */
export function presetReadiness(
  preset: Preset,
  env: NodeJS.ProcessEnv,
  root: string | undefined,
): { program: string | null; configuredBy: string[] } {
  const configuredBy = [
    ...preset.configFiles(env).files.map((f) => f.host),
    ...Object.keys(env).filter(
      (name) => env[name] && preset.configEnv.some((c) => (c.endsWith("_") ? name.startsWith(c) : name === c)),
    ),
  ];
  return { program: findProgram(preset.program, env.PATH, root) ?? null, configuredBy };
}

/** Login files hold who the agent is, not which model answers; a refreshed login must not look like another model. */
const LOGIN_FILES = /(^|\/)(\.credentials\.json|auth\.json)$/;

/**
 * What chooses an agent's model, as configured: its model variables, the content of the configuration files an attempt
 * is shown (logins aside), and the extra arguments and environment of the config — as one hash, with no value in it,
 * and the model's name where one of them says it (`ANTHROPIC_MODEL`, `--model`, `model = "…"` in config.toml, …).
 */
export function modelConfiguration(
  preset: Preset,
  env: NodeJS.ProcessEnv,
  extra: { args?: string[]; env?: Record<string, string> } = {},
): { hash: string; name: string | null } {
  const vars = Object.fromEntries(
    preset.modelEnv.filter((name) => env[name] !== undefined).map((name) => [name, env[name]!]),
  );
  const files = Object.fromEntries(
    preset
      .configFiles(env)
      .files.filter((f) => !LOGIN_FILES.test(f.home))
      .map((f) => [f.home, readText(f.host)]),
  );
  const basis = JSON.stringify({
    vars,
    files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, createHash("sha256").update(v).digest("hex")])),
    args: extra.args ?? [],
    env: extra.env ?? {},
  });
  return { hash: createHash("sha256").update(basis).digest("hex"), name: modelName(vars, Object.values(files), extra) };
}

const readText = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** The model's name as the configuration states it, first found: a `--model`/`-m` argument, a *_MODEL variable, a config file. */
function modelName(
  vars: Record<string, string>,
  files: string[],
  extra: { args?: string[]; env?: Record<string, string> },
): string | null {
  const args = extra.args ?? [];
  const flag = args.findIndex((a) => a === "--model" || a === "-m");
  if (flag >= 0 && args[flag + 1]) return args[flag + 1]!;
  const inline = args.find((a) => a.startsWith("--model="));
  if (inline) return inline.slice("--model=".length);
  const named = Object.entries({ ...vars, ...(extra.env ?? {}) }).find(([k]) => /(^|_)MODEL$/.test(k));
  if (named) return named[1];
  for (const text of files) {
    const found = /^\s*model\s*=\s*"([^"]+)"/m.exec(text) ?? /"model"\s*:\s*"([^"]+)"/.exec(text);
    if (found) return found[1]!;
  }
  return null;
}
