/**
 * The coding agents inter can run as an evaluation's agent, by name: the one list the config's validation, the
 * commands' `--agent` and the messages read. Each is a module under src/evaluation/sandbox/presets/, registered in
 * src/evaluation/sandbox/presets.ts, whose type requires an entry for every name here.
 */
export const AGENT_PRESETS = ["claude-code", "codex", "opencode"] as const;

export type AgentPreset = (typeof AGENT_PRESETS)[number];

/** What `--agent` and a target's `agent` accept by name: the reference solutions or a preset. */
export const AGENT_CHOICES = ["reference", ...AGENT_PRESETS] as const;

/** "a, b or c", for help and messages. */
export const oneOf = (names: readonly string[]): string =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
