import { join } from "node:path";
import { events, type Transcript } from "../transcript.js";
import { exists, present, repeated, userHome, type Preset } from "./preset.js";

/** opencode, run with `run --format json`, the prompt on stdin. */
export const opencode: Preset = {
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
  // it — ~/.config/opencode, and a project's .opencode where a trigger run puts the Skills — from the npm registry, in
  // the background: a registry call and npm's installer loaded in every attempt. Its manifest there says the package
  // is in place, so it is left alone (the attempt shows no custom tools or plugins, and --pure loads none).
  homeFiles: pluginInPlace(".config/opencode"),
  skillFolderFiles: pluginInPlace(".opencode"),
  parse: parseOpencode,
  skillFolders: [".opencode/skills", ".opencode/skill", ".config/opencode/skills", ".config/opencode/skill"],
  skillSettings: /"skills?"\s*:\s*[{[]|"plugin"\s*:/,
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
};

/** The files that tell opencode its plugin package is installed in a config folder. */
function pluginInPlace(folder: string): Record<string, string> {
  const dependencies = { "@opencode-ai/plugin": "*" };
  return {
    [`${folder}/package.json`]: `${JSON.stringify({ dependencies })}\n`,
    [`${folder}/package-lock.json`]: `${JSON.stringify({ lockfileVersion: 3, requires: true, packages: { "": { dependencies } } })}\n`,
    [`${folder}/node_modules/`]: "",
  };
}

interface OpencodePart {
  type?: string;
  tool?: string;
  text?: string;
  state?: { input?: unknown; output?: unknown; error?: unknown; status?: string; metadata?: { exit?: unknown } };
  tokens?: { input?: number; output?: number; cache?: { read?: number } };
  cost?: unknown;
}

interface OpencodeEvent {
  type?: string;
  part?: OpencodePart;
  error?: { name?: string; message?: string; data?: { message?: string } };
}

/** opencode `run --format json`: step_start, tool_use, text, step_finish (tokens, cost), error. */
function parseOpencode(stdout: string): Transcript {
  const t: Transcript = { messages: [], tool_calls: [] };
  let steps = 0;
  const tokens = { input: 0, output: 0 };
  let cost = 0;
  let sawTokens = false;
  for (const e of events<OpencodeEvent>(stdout)) {
    const part = e.part ?? {};
    if (e.type === "tool_use" && part.type === "tool") {
      const state = part.state ?? {};
      const output =
        typeof state.output === "string" ? state.output : typeof state.error === "string" ? state.error : "";
      const exit = state.metadata?.exit;
      t.tool_calls.push({
        name: String(part.tool ?? "unknown"),
        input: state.input,
        output,
        exit_code: typeof exit === "number" ? exit : state.status === "error" ? null : undefined,
        is_error: state.status === "error",
      });
      t.messages.push({ role: "tool", text: output });
      if (state.status === "error" && /permission|rejected|denied/i.test(output))
        t.error ??= `opencode was refused permission for ${part.tool}: ${output.slice(0, 300)}`;
    } else if (e.type === "text" && part.text) {
      t.messages.push({ role: "assistant", text: part.text });
      t.final = part.text;
    } else if (e.type === "step_finish") {
      steps++;
      if (part.tokens) {
        sawTokens = true;
        tokens.input += (part.tokens.input ?? 0) + (part.tokens.cache?.read ?? 0);
        tokens.output += part.tokens.output ?? 0;
      }
      if (typeof part.cost === "number") cost += part.cost;
    } else if (e.type === "error") {
      const err = e.error ?? {};
      t.error ??= `opencode failed: ${err.data?.message ?? err.message ?? err.name ?? JSON.stringify(err).slice(0, 300)}`;
    }
  }
  t.turns = steps;
  if (sawTokens) t.tokens = tokens;
  t.cost_usd = cost;
  return t;
}
