import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliShim } from "../../src/stages/emit/cli-shim.js";
import { hostable, ProbeHost } from "../../src/stages/inspect/probe-host.js";
import { runProbe } from "../../src/stages/inspect/probes.js";
import { tempDir } from "../helpers.js";

/**
 * A package laid out as an install leaves it — node_modules/<name> with inter's shim as its executable and a
 * node_modules/.bin link — whose runtime is a small script: what it prints, returns and does with the environment is
 * known, so the host's answers can be held against a real process of the same executable.
 */
function installed(runtime: string, shim = cliShim("demo")): { bin: string; packageRoot: string } {
  const prefix = tempDir("inter-probe-host-");
  const packageRoot = join(prefix, "node_modules", "demo-cli");
  mkdirSync(join(packageRoot, "lib"), { recursive: true });
  writeFileSync(
    join(packageRoot, "package.json"),
    JSON.stringify({ name: "demo-cli", version: "1.0.0", bin: { demo: "demo.cjs" } }),
  );
  writeFileSync(join(packageRoot, "lib", "runtime.cjs"), runtime);
  writeFileSync(join(packageRoot, "demo.cjs"), shim);
  chmodSync(join(packageRoot, "demo.cjs"), 0o755);
  mkdirSync(join(prefix, "node_modules", ".bin"));
  symlinkSync("../demo-cli/demo.cjs", join(prefix, "node_modules", ".bin", "demo"));
  return { bin: join(prefix, "node_modules", ".bin", "demo"), packageRoot };
}

const RUNTIME = `"use strict";
exports.run = async (dir, argv) => {
  if (argv[0] === "hang") return new Promise(() => {});
  if (argv[0] === "slow") return new Promise((resolve) => setTimeout(() => resolve(0), 250));
  if (argv[0] === "sleep") return new Promise((resolve) => setTimeout(() => resolve(0), 60000));
  if (argv[0] === "stdin") { let text = ""; for await (const chunk of process.stdin) text += chunk; process.stdout.write(text.toUpperCase() + "\\n"); return 3; }
  if (argv[0] === "late-throw") setTimeout(() => { throw new Error("thrown after the call"); }, 0);
  if (argv[0] === "fail") { process.stderr.write(JSON.stringify({ error: true, code: "USAGE_ERROR", message: "no" }) + "\\n"); return 2; }
  process.stdout.write(JSON.stringify({ argv, secret: process.env.DEMO_SECRET ?? null, home: process.env.HOME ?? null, dir: require("node:path").basename(dir) }) + "\\n");
  return 0;
};
`;

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", HOME: "/nonexistent-home" };
const request = (args: string[], extra: Record<string, string> = {}) => ({
  args,
  env: { ...env, ...extra },
  timeoutMs: 20_000,
  maxBuffer: 1024 * 1024,
});
let host: ProbeHost | undefined;
afterEach(() => host?.stop());

describe("the probe host: one process answering many probes", () => {
  it("answers each probe as the installed executable does: output, exit code, environment, package folder", async () => {
    const { bin, packageRoot } = installed(RUNTIME);
    host = await ProbeHost.start(bin, packageRoot, env);
    expect(host).toBeDefined();
    for (const [args, extra] of [
      [["items", "list", "--limit", "2"], { DEMO_SECRET: "s1" }],
      [["fail"], {}],
      [["items", "get", "--id", "x;rm -rf /"], {}],
    ] as Array<[string[], Record<string, string>]>) {
      const hosted = await host!.run(`demo ${args.join(" ")}`, request(args, extra));
      const real = await runProbe({ bin, binary: "demo", env: { ...env, ...extra } }, args);
      expect(hosted, args.join(" ")).toMatchObject({
        exitCode: real.exitCode,
        stdout: real.stdout,
        stderr: real.stderr,
        json: real.json,
        error: real.error,
        timedOut: false,
      });
    }
    // Each probe brings its own environment: a variable one probe had is gone in the next.
    const without = await host!.run("demo items list", request(["items", "list"]));
    expect(without?.json).toMatchObject({ secret: null, home: "/nonexistent-home", dir: "demo-cli" });
    expect(host!.answered).toBe(4);
  });

  it("gives a probe back to run as a process when the call does not return in time, and answers no more after", async () => {
    const { bin, packageRoot } = installed(RUNTIME);
    host = await ProbeHost.start(bin, packageRoot, env);
    expect(await host!.run("demo hang", { ...request(["hang"]), timeoutMs: 300 })).toBeUndefined();
    expect(await host!.run("demo items list", request(["items", "list"]))).toBeUndefined();
  });

  it("answers probes asked all at once, each timed from its own turn: waiting in line never ends the host", async () => {
    const { bin, packageRoot } = installed(RUNTIME);
    host = await ProbeHost.start(bin, packageRoot, env);
    // Thirty calls of a quarter second each, asked together, each bounded at four seconds: the last waits for the
    // twenty-nine before it, longer than its bound, and is still answered.
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        host!.run(`demo slow ${i}`, { ...request(["slow", String(i)]), timeoutMs: 4_000 }),
      ),
    );
    expect(replies.map((r) => r?.exitCode)).toEqual(Array(30).fill(0));
    expect(host!.answered).toBe(30);
  });

  it("gives the probe back when something throws past the runtime", async () => {
    const { bin, packageRoot } = installed(RUNTIME);
    host = await ProbeHost.start(bin, packageRoot, env);
    expect(await host!.run("demo late-throw", request(["late-throw"]))).toBeUndefined();
    expect(await host!.run("demo items list", request(["items", "list"]))).toBeUndefined();
  });

  it("does not start for an executable that is not inter's shim, nor for a runtime that does not load", async () => {
    const changed = installed(
      RUNTIME,
      cliShim("demo").replace("process.argv.slice(2)", "process.argv.slice(2).concat(['--extra'])"),
    );
    expect(await ProbeHost.start(changed.bin, changed.packageRoot, env)).toBeUndefined();
    const broken = installed("throw new Error('no runtime here');");
    expect(await ProbeHost.start(broken.bin, broken.packageRoot, env)).toBeUndefined();
  });

  it("starts the probes that need a process of their own as the inspection would: stdin, exit code, timeout", async () => {
    const { bin, packageRoot } = installed(RUNTIME);
    host = await ProbeHost.start(bin, packageRoot, env);
    const limits = { timeoutMs: 20_000, maxBuffer: 1024 * 1024 };
    const piped = await host!.spawn("demo stdin", bin, { args: ["stdin"], env, input: "body\n", ...limits });
    const real = await runProbe({ bin, binary: "demo", env }, ["stdin"], { input: "body\n" });
    expect(piped).toMatchObject({ exitCode: 3, stdout: "BODY\n", stderr: real.stderr, timedOut: false });
    expect(piped?.stdout).toBe(real.stdout);
    const slow = await host!.spawn("demo sleep", bin, { args: ["sleep"], env, ...limits, timeoutMs: 500 });
    expect(slow).toMatchObject({ timedOut: true, exitCode: null });
    expect((await runProbe({ bin, binary: "demo", env }, ["sleep"], { timeoutMs: 500 })).timedOut).toBe(true);
    // A file that cannot be started is given back, and the host still answers.
    expect(
      await host!.spawn("missing", join(packageRoot, "no-such-file"), { args: [], env, ...limits }),
    ).toBeUndefined();
    expect((await host!.run("demo items list", request(["items", "list"])))?.exitCode).toBe(0);
  });

  it("takes no probe that reads or holds stdin; the bare call only with stdin ignored", () => {
    expect(hostable(["skills"], {})).toBe(true);
    expect(hostable(["--help"], {})).toBe(true);
    expect(hostable([], {})).toBe(true);
    expect(hostable([], { input: "\n" })).toBe(false);
    expect(hostable(["items", "create", "--json-input"], {})).toBe(false);
    expect(hostable(["items", "list"], { input: "\n" })).toBe(false);
    expect(hostable(["items", "list"], { pipeOpen: true })).toBe(false);
  });
});
