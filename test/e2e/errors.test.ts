import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BUILTIN_TASKS,
  config,
  inter,
  makeProject,
  nodeCommand,
  read,
  statusesOf,
  writeFiles,
  tempDir,
} from "../helpers.js";
import { makeBaseProject } from "./fixture.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";

const inputs = { "inputs/openapi.yaml": "openapi: 3.1.0\n", "inputs/context.md": "# R\n" };
const base = `product: { name: "R", binary: "r" }, inputs: { openapi: "inputs/openapi.yaml" }`;

/** Every failure prints exactly one JSON document on stdout with --json, and the documented exit code. */
async function expectError(dir: string, args: string[], code: string, exitCode: number) {
  const result = await inter(dir, [...args, "--json"]);
  expect(result.exitCode).toBe(exitCode);
  expect(result.json.ok).toBe(false);
  expect(result.json.error.code).toBe(code);
  expect(result.json.error.message).toBeTruthy();
  expect(result.json.error.suggestion).toBeTruthy();
  const human = await inter(dir, args);
  expect(human.exitCode).toBe(exitCode);
  expect(human.stdout).toBe("");
  expect(human.stderr).toContain(`error ${code}:`);
  return result.json.error;
}

describe("error codes and exit codes", () => {
  it("CONFIG_NOT_FOUND when no config exists up the tree", async () => {
    const dir = tempDir("inter-empty-");
    const error = await expectError(dir, ["build"], "CONFIG_NOT_FOUND", 2);
    expect(error.suggestion).toContain("inter init");
    const explicit = await expectError(dir, ["build", "--config", "nope.ts"], "CONFIG_NOT_FOUND", 2);
    expect(explicit.message).toContain("nope.ts");
  });

  it("finds the config by walking up from a subfolder, and honours --cwd", async () => {
    const dir = makeProject({ "intermesh.config.ts": config(`{ ${base} }`), ...inputs, "deep/er/file.txt": "" });
    // `run discover`: finding the config is every command's first step; the rest of a build proves nothing more here.
    const fromSub = await inter(join(dir, "deep/er"), ["run", "discover", "--json"]);
    expect(fromSub.exitCode).toBe(0);
    expect(fromSub.json.data.tasks[0].data.inputs.openapi[0].path).toBe("inputs/openapi.yaml");
    const viaCwd = await inter(tmpdir(), ["graph", "--json", "--cwd", dir]);
    expect(viaCwd.json.data.tasks.map((t: TaskOutcome) => t.id)).toEqual(BUILTIN_TASKS);
  });

  it("CONFIG_INVALID names the field, the bad value and the fix", async () => {
    const dir = makeProject({
      "intermesh.config.ts": config(`{ product: { name: "R", binary: "Bad Name" }, inputs: { openapi: "x" } }`),
    });
    const error = await expectError(dir, ["build"], "CONFIG_INVALID", 2);
    expect(error.message).toContain("product.binary");
    expect(error.message).toContain('"Bad Name"');
    expect(error.suggestion).toContain("kebab-case");

    writeFiles(dir, { "intermesh.config.ts": config(`{ ${base}, targets: { cli: { outdir: "dist" } } }`) });
    const unknown = await expectError(dir, ["build"], "CONFIG_INVALID", 2);
    expect(unknown.details.issues[0].path).toBe("targets.cli.outdir");
    expect(unknown.suggestion).toContain("targets.cli.outdir");

    // A package name becomes a folder in installs: "../../x" is refused at config time.
    writeFiles(dir, {
      "intermesh.config.ts": config(
        `{ product: { name: "R", binary: "r", package: "../../x" }, inputs: { openapi: "x" } }`,
      ),
    });
    const escaping = await expectError(dir, ["build"], "CONFIG_INVALID", 2);
    expect(escaping.message).toContain("product.package");
    expect(escaping.suggestion).toContain("npm package name");
  });

  it("CONFIG_SYNTAX shows file, line and column; CONFIG_LOAD_FAILED when the config throws", async () => {
    const dir = makeProject({
      "intermesh.config.ts":
        'import { defineConfig } from "intermesh";\n\nexport default defineConfig({\n  product: { name: "R" binary: "r" },\n});\n',
    });
    const error = await expectError(dir, ["build"], "CONFIG_SYNTAX", 2);
    expect(error.details).toMatchObject({ line: 4, file: join(dir, "intermesh.config.ts") });
    expect(error.message).toContain("intermesh.config.ts:4:");

    writeFiles(dir, { "intermesh.config.ts": 'throw new Error("no secrets file");\nexport default {};\n' });
    const thrown = await expectError(dir, ["build"], "CONFIG_LOAD_FAILED", 2);
    expect(thrown.message).toContain("no secrets file");
  });

  it("CONFIG_LOAD_FAILED for a config that throws a non-Error, has a throwing getter, or calls process.exit", async () => {
    const dir = makeProject({});
    const cases: Array<[string, string]> = [
      ["throw null;\nexport default {};\n", "threw while loading: null"],
      [
        'export default { product: { name: "R", binary: "r" }, get inputs() { throw new Error("getter broke"); } };\n',
        "getter broke",
      ],
      [
        'export default Object.defineProperty({}, "product", { get() { throw 42; }, enumerable: true });\n',
        "threw: 42",
      ],
      ["process.exit(0);\nexport default {};\n", "process.exit(0)"],
    ];
    for (const [code, says] of cases) {
      writeFiles(dir, { "intermesh.config.ts": code });
      const error = await expectError(dir, ["build"], "CONFIG_LOAD_FAILED", 2);
      expect(error.message).toContain(says);
    }
  });

  it("TASK_CYCLE names the cycle; TASK_UNKNOWN_DEPENDENCY names the missing task", async () => {
    const cmd = nodeCommand("0");
    const dir = makeProject({
      ...inputs,
      "intermesh.config.ts": config(
        `{ ${base}, tasks: { a: { command: ${cmd}, deps: ["b"] }, b: { command: ${cmd}, deps: ["c"] }, c: { command: ${cmd}, deps: ["a"] } } }`,
      ),
    });
    const cycle = await expectError(dir, ["build"], "TASK_CYCLE", 2);
    expect(cycle.details.cycle).toEqual(["a", "b", "c", "a"]);
    expect(cycle.message).toContain("a → b → c → a");

    writeFiles(dir, {
      "intermesh.config.ts": config(`{ ${base}, tasks: { a: { command: ${cmd}, deps: ["nope"] } } }`),
    });
    const unknown = await expectError(dir, ["graph"], "TASK_UNKNOWN_DEPENDENCY", 2);
    expect(unknown.message).toContain('"nope"');
    expect(unknown.details).toMatchObject({ task: "a", dependency: "nope" });
  });

  it("TASK_NOT_FOUND for run and explain of an unknown name", async () => {
    const dir = makeBaseProject();
    const run = await expectError(dir, ["run", "deploy"], "TASK_NOT_FOUND", 2);
    expect(run.suggestion).toContain("gen");
    await expectError(dir, ["explain", "deploy"], "TASK_NOT_FOUND", 2);
  });

  it("USAGE_ERROR for unknown flags, bad values, unknown commands and missing arguments", async () => {
    const dir = makeBaseProject();
    expect((await expectError(dir, ["build", "--bogus"], "USAGE_ERROR", 2)).message).toContain("--bogus");
    expect((await expectError(dir, ["build", "--concurrency", "zero"], "USAGE_ERROR", 2)).message).toContain(
      "--concurrency",
    );
    await expectError(dir, ["build", "--concurrency", "0"], "USAGE_ERROR", 2);
    await expectError(dir, ["frobnicate"], "USAGE_ERROR", 2);
    await expectError(dir, ["run"], "USAGE_ERROR", 2);
    await expectError(dir, ["cache", "gc", "--max-size", "lots"], "USAGE_ERROR", 2);
    expect((await expectError(dir, ["eval"], "USAGE_ERROR", 2)).message).toBe(
      '"inter eval" needs a subcommand: eval validate, eval new, eval run, eval report, eval diff, eval merge, eval compare, eval triggers, eval review-triggers.',
    );
    const group = await inter(dir, ["eval", "--help", "--json"]);
    expect(group.json.data.commands.map((c: { command: string }) => c.command)).toEqual([
      "inter eval validate",
      "inter eval new",
      "inter eval run",
      "inter eval report",
      "inter eval diff",
      "inter eval merge",
      "inter eval compare",
      "inter eval triggers",
      "inter eval review-triggers",
    ]);
  });

  it("INPUT_NOT_FOUND (exit 2) names the glob and leaves earlier outputs and records alone", async () => {
    const dir = makeBaseProject();
    await inter(dir, ["build"]);
    writeFiles(dir, {
      "intermesh.config.ts": read(dir, "intermesh.config.ts").replace("inputs/openapi.yaml", "inputs/*.json"),
    });
    const error = await expectError(dir, ["build"], "INPUT_NOT_FOUND", 2);
    expect(error.message).toContain('"inputs/*.json"');
    expect(error.details.field).toBe("inputs.openapi");
    expect(read(dir, "out/pack.txt")).toBe("ALPHA\nBETA\n");
  });

  it("TASK_FAILED (exit 1) stops dependents only; unrelated tasks still run and the summary says so", async () => {
    const ok = nodeCommand('require("fs").writeFileSync("ok.txt", "ok")');
    const dir = makeProject({
      ...inputs,
      "intermesh.config.ts": config(`{ ${base}, tasks: {
        broken: { command: ${nodeCommand('console.log("about to fail"); process.exit(3)')} },
        after: { command: ${ok}, deps: ["broken"] },
        sibling: { command: ${ok}, outputs: ["ok.txt"] },
      } }`),
    });
    const result = await inter(dir, ["build", "--json"]);
    expect(result.exitCode).toBe(1);
    expect(result.json.error.code).toBe("TASK_FAILED");
    expect(result.json.error.message).toContain("exited with code 3");
    expect(result.json.error.details.log).toContain("about to fail");
    expect(statusesOf(result, ["discover", "broken", "after", "sibling"])).toEqual({
      discover: "ran",
      broken: "failed",
      after: "skipped",
      sibling: "ran",
    });
    expect(result.json.error.details.summary).toMatchObject({ ran: BUILTIN_TASKS.length + 1, failed: 1, skipped: 1 });
    const task = (id: string) => result.json.error.details.tasks.find((t: { id: string }) => t.id === id);
    expect(task("after")).toEqual({ id: "after", status: "skipped", durationMs: 0, blockedBy: "broken", warnings: [] });
    expect(task("broken")).toMatchObject({ status: "failed", error: { code: "TASK_FAILED" }, warnings: [] });
    // A failed task ran: its duration is how long (a node process, so never 0 ms), not the 0 of one never started.
    expect(task("broken").durationMs).toBeGreaterThan(0);
    expect(task("sibling")).toMatchObject({
      status: "ran",
      reasons: ["no earlier record of this task"],
      outputs: ["ok.txt"],
    });
    expect(read(dir, "ok.txt")).toBe("ok");

    const human = await inter(dir, ["build"]);
    expect(human.stderr).toContain("after skipped (dependency broken did not finish)");
    expect(human.stderr).toContain(
      `${BUILTIN_TASKS.length + 3} tasks: 0 ran, ${BUILTIN_TASKS.length + 1} cached, 1 failed, 1 skipped`,
    );
  });

  it("--json prints exactly one document on stdout and nothing else there, for success and failure", async () => {
    const dir = makeBaseProject();
    for (const args of [
      ["build"],
      ["graph"],
      ["explain", "gen"],
      ["cache", "ls"],
      ["cache", "verify"],
      ["--help"],
      ["build", "--help"],
      ["run", "nope"],
    ]) {
      const result = await inter(dir, [...args, "--json"]);
      const lines = result.stdout.trim();
      expect(() => JSON.parse(lines), args.join(" ")).not.toThrow();
      expect(JSON.parse(lines)).toHaveProperty("ok");
    }
  });

  it("--version prints the package's semver; --help is text, or JSON with --json", async () => {
    const dir = makeBaseProject();
    const version = await inter(dir, ["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(read(join(import.meta.dirname, "../.."), "package.json")).version);
    const help = await inter(dir, ["--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("inter build");
    const json = await inter(dir, ["build", "--help", "--json"]);
    expect(json.json.data.commands).toHaveLength(1);
    expect(json.json.data.commands[0].options.map((o: { flags: string }) => o.flags)).toEqual(
      expect.arrayContaining(["--json", "--force", "--concurrency <n>"]),
    );
  });
});
