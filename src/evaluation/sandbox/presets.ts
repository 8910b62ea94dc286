import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { whichProgram } from "./sandbox.js";
import { claudeCode } from "./presets/claude-code.js";
import { codex } from "./presets/codex.js";
import { opencode } from "./presets/opencode.js";
import type { Preset } from "./presets/preset.js";

export type { Preset } from "./presets/preset.js";

/**
 * The real coding agents inter runs, one module each under presets/: how the program is found and run headless, what
 * it needs in its fresh HOME, and how its event stream becomes the common transcript. This list is the one
 * registration: the config's validation, `--agent`, `inter status` and the messages read the names from it.
 */
const REGISTERED: readonly Preset[] = [claudeCode, codex, opencode];

export const PRESETS: Readonly<Record<string, Preset>> = Object.fromEntries(REGISTERED.map((p) => [p.name, p]));

/** The presets' names, in the order they are listed. */
export const PRESET_NAMES: readonly string[] = REGISTERED.map((p) => p.name);

/** What `--agent` and a target's `agent` accept by name: the reference solutions or a preset. */
export const AGENT_CHOICES: readonly string[] = ["reference", ...PRESET_NAMES];

/** The preset of a name the config's validation or an option's has accepted. */
export function presetNamed(name: string): Preset {
  const preset = PRESETS[name];
  if (!preset) throw new Error(`no agent preset "${name}" (known: ${PRESET_NAMES.join(", ")})`);
  return preset;
}

/** Writes a preset's files (`homeFiles`, `skillFolderFiles`) under a fresh folder, none over a file already there. */
export function seedFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    if (path.endsWith("/")) mkdirSync(target, { recursive: true });
    else if (!existsSync(target)) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  }
}

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
