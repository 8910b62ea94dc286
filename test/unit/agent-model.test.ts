import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { modelConfiguration, presetNamed } from "../../src/evaluation/sandbox/presets.js";
import { tempDir } from "../helpers.js";
import type { Agent } from "../../src/evaluation/sandbox/agent-run.js";

const parseClaudeCode = (stdout: string) => presetNamed("claude-code").parse(stdout);

/**
 * The model is part of an agent's identity (docs/evaluation.md): what chooses it — the preset's model variables, the
 * configuration files an attempt is shown, extra arguments — changes the hash; a login does not; no value is in it.
 */
describe("the model as configured", () => {
  const home = tempDir("inter-agent-model-");
  const env = (extra: Record<string, string> = {}) => ({ HOME: home, PATH: "/usr/bin", ...extra });

  it("another model variable, endpoint or argument is another identity; unrelated variables are not", () => {
    const claude = presetNamed("claude-code");
    const base = modelConfiguration(claude, env());
    expect(modelConfiguration(claude, env({ ANTHROPIC_MODEL: "model-a" })).hash).not.toBe(base.hash);
    expect(modelConfiguration(claude, env({ ANTHROPIC_BASE_URL: "http://127.0.0.1:1" })).hash).not.toBe(base.hash);
    expect(modelConfiguration(claude, env(), { args: ["--model", "x"] })).toMatchObject({ name: "x" });
    expect(modelConfiguration(claude, env({ ANTHROPIC_MODEL: "model-a" })).name).toBe("model-a");
    expect(modelConfiguration(claude, env({ SOMETHING_ELSE: "1" })).hash).toBe(base.hash);
  });

  it("the content of a configuration file counts, a login file does not, and no value is kept", () => {
    const codex = presetNamed("codex");
    mkdirSync(join(home, ".codex"), { recursive: true });
    writeFileSync(join(home, ".codex", "config.toml"), 'model = "gpt-a"\n');
    const first = modelConfiguration(codex, env());
    expect(first.name).toBe("gpt-a");
    writeFileSync(join(home, ".codex", "auth.json"), '{"token":"login-secret-1"}');
    expect(modelConfiguration(codex, env()).hash).toBe(first.hash);
    writeFileSync(join(home, ".codex", "config.toml"), 'model = "gpt-b"\n');
    const second = modelConfiguration(codex, env({ OPENAI_BASE_URL: "http://u:secret-pass@127.0.0.1:2/v1" }));
    expect(second.hash).not.toBe(first.hash);
    expect(JSON.stringify(second)).not.toContain("secret-pass");
  });
});

describe("the model as served", () => {
  it("only a message names a model that answered; the init event names the one asked for", () => {
    const stream = [
      JSON.stringify({ type: "system", subtype: "init", model: "claude-init-model", skills: [] }),
      JSON.stringify({
        type: "assistant",
        message: { model: "claude-fallback-model", content: [{ type: "text", text: "hi" }] },
      }),
    ].join("\n");
    expect(parseClaudeCode(stream)).toMatchObject({
      model: "claude-fallback-model",
      requestedModel: "claude-init-model",
    });
    // A connection cut before any answer: the model asked for answered nothing, and is no served model.
    const cut = parseClaudeCode(stream.split("\n")[0]!);
    expect(cut.model).toBeUndefined();
    expect(cut.requestedModel).toBe("claude-init-model");
  });

  it("a run whose one attempt was cut records one served model, the one asked for as configured: no mixed models", async () => {
    const { modelRecord } = await import("../../src/evaluation/sandbox/agents.js");
    // Only the name modelRecord reads.
    const agent = { name: "claude-code" } as Agent;
    expect(
      modelRecord(agent, ["af-served-m4", undefined, "af-served-m4"], ["claude-af-m4", "claude-af-m4", "claude-af-m4"]),
    ).toEqual({ model: { configured: "claude-af-m4", configured_hash: null, served: ["af-served-m4"] } });
  });
});
