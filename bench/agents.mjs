// Wall time per attempt for each real agent on the example, sealed, against the scripted model on 127.0.0.1
// (test/fixtures/model-server.mjs): what the agent program itself costs, beside the reference agent as the baseline.
// The whole `inter run eval` is timed from outside too. Needs the agents installed (npm ci puts them in node_modules).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { scriptFrom, startModelServer } from "../test/fixtures/model-server.mjs";
import { builtExample, interBin, median } from "./lib.mjs";

const repo = resolve(import.meta.dirname, "..");
const inter = interBin(repo);
const base = {
  ...process.env,
  CI: "true",
  ROOMS_API_KEY: "rooms-demo-key",
  PATH: `${join(repo, "node_modules/.bin")}:${process.env.PATH}`,
};
const project = await builtExample(repo, base);
const read = (path) => JSON.parse(readFileSync(join(project, path), "utf8"));
const model = await startModelServer({
  script: scriptFrom(read("evals/eval-plan.json"), read("evals/eval-plan.reference.json")),
});

const home = mkdtempSync(join(tmpdir(), "inter-bench-agent-home-"));
mkdirSync(join(home, ".codex"));
writeFileSync(
  join(home, ".codex/config.toml"),
  `model = "scripted-model"\nmodel_provider = "scripted"\n[model_providers.scripted]\nname = "Scripted"\nbase_url = "${model.url}/v1"\nenv_key = "SCRIPTED_MODEL_KEY"\nwire_api = "responses"\n`,
);
mkdirSync(join(home, ".config/opencode"), { recursive: true });
writeFileSync(
  join(home, ".config/opencode/opencode.json"),
  JSON.stringify({
    model: "scripted/scripted-model",
    provider: {
      scripted: {
        npm: "@ai-sdk/openai-compatible",
        options: { baseURL: `${model.url}/v1`, apiKey: "k" },
        models: { "scripted-model": {} },
      },
    },
  }),
);
const env = {
  ...base,
  HOME: home,
  ANTHROPIC_BASE_URL: model.url,
  ANTHROPIC_API_KEY: "sk-bench",
  SCRIPTED_MODEL_KEY: "sk-bench",
};

const config = readFileSync(join(project, "intermesh.config.ts"), "utf8");
const rows = [];
for (const agent of ["reference", "claude-code", "codex", "opencode"]) {
  writeFileSync(join(project, "intermesh.config.ts"), config.replace('agent: "reference"', `agent: "${agent}"`));
  const attempts = [];
  const whole = [];
  for (let i = 0; i < 2; i++) {
    const started = process.hrtime.bigint();
    // Not spawnSync: the scripted model answers from this process's event loop.
    const run = await new Promise((done) =>
      spawn("node", [inter, "run", "eval"], { cwd: project, env, stdio: "ignore" }).on("close", (status) =>
        done({ status }),
      ),
    );
    whole.push(Number(process.hrtime.bigint() - started) / 1e6);
    const results = read("dist/eval/results.json");
    if (run.status !== 0 || results.summary.passed !== results.summary.attempts)
      throw new Error(`${agent}: ${results.summary.passed}/${results.summary.attempts} passed`);
    attempts.push(...results.attempts.map((a) => a.duration_ms));
  }
  rows.push({ agent, attempt: median(attempts), whole: median(whole) });
}
writeFileSync(join(project, "intermesh.config.ts"), config);
await model.close();

const baseline = rows[0];
console.log(
  `\nper attempt on the example (sealed, scripted model; median of 6)   attempt (median)        inter run eval (median)`,
);
for (const r of rows)
  console.log(
    `  ${r.agent.padEnd(14)} ${r.attempt.toFixed(0).padStart(7)} ms ${(r.attempt / baseline.attempt).toFixed(2).padStart(6)}×   ${r.whole.toFixed(0).padStart(7)} ms ${(r.whole / baseline.whole).toFixed(2).padStart(6)}×`,
  );
