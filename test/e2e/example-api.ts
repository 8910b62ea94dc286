import { execa, type ResultPromise } from "execa";
import { copyFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, inject } from "vitest";
import { inter, makeProject, REPO, tempDir } from "../helpers.js";
import { EXAMPLE_API_KEY } from "../global-setup.js";
import { schemaValidator } from "../schema.js";
import type { AttemptResult } from "../../src/evaluation/run/attempt.js";

const validateResults = schemaValidator("results.schema.json");

export const API_KEY = EXAMPLE_API_KEY;

/** Starts the example Rooms API on a free loopback port; resolves once it listens. */
export async function startExampleApi(port = 0): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ResultPromise = execa("node", [join(REPO, "examples/rooms/server.mjs"), "--port", String(port)], {
    env: { ROOMS_SERVER_KEY: API_KEY },
    reject: false,
    buffer: false,
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("example API did not start within 60 s")), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child;
    },
  };
}

/**
 * A copy of the repository's example project in a temporary folder. `warm`: with the build the run made once
 * (test/global-setup.ts) — its cache and dist/ — so a build there is all cache hits; tests of what a cold build does
 * leave it out. `"with-key"`: the copy that was also built with ROOMS_API_KEY=API_KEY, so a build with that key is all
 * cache hits too (dist/ is that build's; a build without the key restores the keyless inspection from the cache).
 */
export function exampleProject(options: { warm?: boolean | "with-key" } = {}): string {
  const dir = makeProject({});
  const from =
    options.warm === "with-key" ? inject("exampleTemplateWithKey") : options.warm ? inject("exampleTemplate") : REPO;
  for (const path of ["examples", "evals", "intermesh.config.ts", ...(options.warm ? [".intermesh", "dist"] : [])])
    cpSync(join(from, path), join(dir, path), { recursive: true });
  return dir;
}

/**
 * A test's own copy of a built project (its cache, dist/ and evaluation too), to change as it likes: tests that share
 * one built project never see each other's edits, so each passes alone and in any order.
 */
export function copyProject(project: string): string {
  const dir = tempDir("inter-project-copy-");
  cpSync(project, dir, { recursive: true });
  return dir;
}

/**
 * The results.json an evaluation of the example wrote in `project`, which must pass: valid against its schema, each of
 * the three golden scenarios passed.
 */
export function goldenResults(project: string) {
  const results = JSON.parse(readFileSync(join(project, "dist/eval/results.json"), "utf8"));
  expect(validateResults(results)).toEqual([]);
  expect(results.attempts.map((a: AttemptResult) => `${a.scenario}: ${a.status} ${a.harness_error ?? ""}`)).toEqual([
    "book-a-room: pass ",
    "cancel-a-booking: pass ",
    "report-room-day: pass ",
  ]);
  return results;
}

/** Builds the example and installs its cli.tgz with npm into a fresh prefix, as a user would. */
export async function buildAndInstall(dir: string): Promise<{ bin: string; candidate: string; prefix: string }> {
  const built = await inter(dir, ["build", "--json"]);
  if (built.exitCode !== 0) throw new Error(`inter build failed: ${built.stdout}${built.stderr}`);
  const bundle = built.json.data.tasks.find((t: { id: string }) => t.id === "bundle");
  const prefix = tempDir("inter-install-");
  await execa("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--prefix",
    prefix,
    join(dir, bundle.data.file),
  ]);
  return { bin: join(prefix, "node_modules", ".bin", "rooms"), candidate: bundle.data.candidate, prefix };
}

export const SCRIPTED_AGENT = join(REPO, "test/fixtures/scripted-agent.mjs");

/** `--agent-command` for the scripted agent in the given modes (see test/fixtures/scripted-agent.mjs). */
export const scripted = (modes: string) => [
  "--agent-command",
  JSON.stringify(["node", SCRIPTED_AGENT, modes, "{prompt_file}", "{attempt}"]),
];

/**
 * A bare evaluation folder (cli.tgz, receipt, plan, reference) from a built example project, whose plan points at a
 * freshly started example API (seed data).
 */
export async function evaluationFolder(
  project: string,
  options: { repetitions?: number; port?: number } = {},
): Promise<{ dir: string; url: string; stop(): Promise<void> }> {
  const api = await startExampleApi(options.port);
  const dir = tempDir("inter-eval-run-");
  for (const f of ["dist/cli.tgz", "dist/receipt.json"]) copyFileSync(join(project, f), join(dir, f.split("/").pop()!));
  copyFileSync(join(project, "evals/eval-plan.reference.json"), join(dir, "eval-plan.reference.json"));
  const plan = JSON.parse(readFileSync(join(project, "evals/eval-plan.json"), "utf8"));
  plan.target.api_url = api.url;
  if (options.repetitions) plan.settings.repetitions = options.repetitions;
  writeFileSync(join(dir, "eval-plan.json"), JSON.stringify(plan, null, 2));
  return { dir, url: api.url, stop: api.stop };
}

/** The built project's package tree with `change` applied, packed as npm would: a candidate broken on purpose. */
export async function changedCandidate(project: string, change: (pkg: string) => void): Promise<string> {
  const dir = tempDir("inter-changed-");
  cpSync(join(project, "dist/package"), join(dir, "package"), { recursive: true });
  change(join(dir, "package"));
  await execa("tar", ["-czf", join(dir, "cli.tgz"), "-C", dir, "package"]);
  return join(dir, "cli.tgz");
}

/** Replaces text in a file, failing loudly when the text is not there (the change would test nothing). */
export function patchFile(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, "utf8");
  const found = typeof from === "string" ? text.includes(from) : new RegExp(from.source).test(text);
  if (!found) throw new Error(`${String(from)} not found in ${file}`);
  writeFileSync(
    file,
    typeof from === "string" ? text.split(from).join(to) : text.replace(new RegExp(from.source, "g"), to),
  );
}
