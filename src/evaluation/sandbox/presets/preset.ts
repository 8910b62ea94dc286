import { statSync } from "node:fs";
import { homedir } from "node:os";
import type { Transcript } from "../transcript.js";

/**
 * The real coding agents, as inter runs them: non-interactive, stdin closed (or carrying the prompt), their own
 * sandbox and permission prompts off because the attempt is already sealed by inter (sandbox.ts). Known good with the
 * versions pinned in package.json's devDependencies, which the end-to-end tests run offline against a scripted model.
 */
export interface Preset {
  /** Its name in a config's `agent` and in `--agent`: kebab-case, unique among the presets. */
  name: string;
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
  /**
   * Files, relative to a project, written beside the Skills where a trigger run installs them in the project (a path
   * ending in `/` is a folder): what keeps the agent from treating that folder as one to set up.
   */
  skillFolderFiles?: Record<string, string>;
  parse(stdout: string): Transcript;
  /**
   * Where it reads Skills from, in a project or a HOME: a trigger run refuses a Skill there that would compete, and
   * installs the candidate's Skills in the first.
   */
  skillFolders: string[];
  /** What, in its settings files, brings Skills from elsewhere (plugins, extra Skill paths). */
  skillSettings: RegExp;
  /** How the agent is given the candidate's MCP server for an attempt through MCP: arguments and environment. */
  mcp(server: { name: string; command: string; args: string[] }): { args: string[]; env: Record<string, string> };
  /**
   * Reads the agent's output as it comes, line by line (a fresh reader per attempt), and names a failure of its
   * model or login that it would otherwise retry until the attempt's timeout.
   */
  fatal?: () => (line: string) => string | undefined;
}

/** A reader that gives up after `times` matching lines without a sign of progress between them. */
export function repeated(
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

export const exists = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
export const userHome = (env: NodeJS.ProcessEnv) => env.HOME || homedir();
export const present = (files: Array<{ host: string; home: string }>) => files.filter((f) => exists(f.host));
