import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLI_SHIM } from "../emit/package-files.js";
import type { Probe } from "./probe.js";

/**
 * One process answering many probes (issue #46). A probe run as its own process costs a Node start (~70 ms of CPU)
 * and, from inter's own large heap, a fork; an inspection runs about seventy. When the installed executable is inter's
 * own shim — `run(<package folder>, argv)` from the package's lib/runtime.cjs and nothing else — a host process loads
 * that runtime once and answers each probe by the very call the shim makes, one at a time, with the probe's argv,
 * environment and working folder, capturing what it writes and the code it returns. Stdin is /dev/null there as for a
 * probe run with stdin ignored.
 *
 * Only probes whose meaning does not depend on a process of their own come here (see `hostable`): never one that reads
 * stdin, pipes to it, or runs the bare executable; the first root --help runs the installed executable itself. Any doubt ends in a
 * process: a call that throws past the runtime, outlives its timeout or prints more than its buffer ends the host, and
 * that probe and every later one run as processes, as they always did.
 */

const HOST = String.raw`
"use strict";
const [runtime, root] = process.argv.slice(1);
let run;
try {
  ({ run } = require(runtime));
} catch (error) {
  process.send({ ready: false, reason: String(error && error.message) });
  process.exit(0);
}
const out = process.stdout.write;
const err = process.stderr.write;
let current;
process.on("uncaughtException", (error) => {
  if (current) current.crashed = String(error && error.stack);
  process.send({ id: current ? current.id : -1, crashed: true }, () => process.exit(70));
});
process.on("unhandledRejection", (error) => { throw error; });
process.on("disconnect", () => process.exit(0));
const capture = (key) => function (chunk, encoding, callback) {
  current[key] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof encoding === "string" ? encoding : "utf8");
  const done = typeof encoding === "function" ? encoding : callback;
  if (done) process.nextTick(done);
  return true;
};
let queue = Promise.resolve();
process.on("message", (request) => {
  queue = queue.then(async () => {
    current = { id: request.id, stdout: "", stderr: "" };
    for (const name of Object.keys(process.env)) delete process.env[name];
    Object.assign(process.env, request.env);
    process.exitCode = undefined;
    process.stdout.write = capture("stdout");
    process.stderr.write = capture("stderr");
    const started = performance.now();
    const before = process.getActiveResourcesInfo().sort().join();
    let code;
    try {
      code = await run(root, request.args);
      // A process ends when nothing keeps it alive: wait for what the call left running (a timer, a socket) to end,
      // so what it does then (a late throw, a late write) belongs to this probe. Still running after the bound: give
      // the probe back, to run as a process.
      const bound = performance.now() + request.settleMs;
      while (process.getActiveResourcesInfo().sort().join() !== before) {
        if (performance.now() > bound) { current.unsettled = true; break; }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
    }
    if (current.unsettled) { process.send({ id: current.id, crashed: true }, () => process.exit(0)); return; }
    const reply = { id: current.id, exitCode: typeof code === "number" ? code : (process.exitCode ?? 0), stdout: current.stdout, stderr: current.stderr, durationMs: Math.round(performance.now() - started) };
    current = undefined;
    process.exitCode = undefined;
    process.send(reply);
  });
});
process.send({ ready: true });
`;

export interface HostRequest {
  args: string[];
  env: Record<string, string>;
  timeoutMs: number;
  maxBuffer: number;
}

/** How long the host waits, after a call returns, for what the call left running to end. */
const SETTLE_MS = 2_000;

type Reply = { id: number; exitCode: number; stdout: string; stderr: string; durationMs: number } | { id: number; crashed: true };

/**
 * Whether a probe may be answered by the host: it neither reads nor holds stdin, and is not the bare executable. (The
 * inspection's first call, the root --help, always runs the installed executable: stages/inspect/inspect.ts.)
 */
export function hostable(args: string[], options: { input?: string; pipeOpen?: boolean }): boolean {
  return args.length > 0 && options.input === undefined && !options.pipeOpen && !args.includes("--json-input");
}

export class ProbeHost {
  private next = 0;
  private readonly pending = new Map<number, { resolve(reply: Reply | undefined): void; timer: NodeJS.Timeout }>();
  private alive = true;
  /** How many probes the host answered. */
  answered = 0;

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if ("crashed" in reply) this.stop();
      if (!waiting) return;
      this.pending.delete(reply.id);
      clearTimeout(waiting.timer);
      waiting.resolve("crashed" in reply ? undefined : reply);
    });
    child.on("exit", () => this.stop());
  }

  /**
   * Starts a host for the package installed at `bin`, or gives undefined when its executable is not inter's shim (a CLI
   * inter did not generate is probed process by process) or the runtime will not load.
   */
  static async start(bin: string, packageRoot: string | undefined, env: Record<string, string>): Promise<ProbeHost | undefined> {
    let shim: string;
    try {
      shim = realpathSync(bin);
      if (!packageRoot || dirname(shim) !== realpathSync(packageRoot) || readFileSync(shim, "utf8") !== CLI_SHIM) return undefined;
    } catch {
      return undefined;
    }
    const child = spawn(process.execPath, ["-e", HOST, join(dirname(shim), "lib", "runtime.cjs"), dirname(shim)], { env, stdio: ["ignore", "ignore", "ignore", "ipc"], serialization: "json" });
    const ready = await new Promise<boolean>((resolve) => {
      child.once("message", (m: { ready?: boolean }) => resolve(m?.ready === true));
      child.once("exit", () => resolve(false));
      child.once("error", () => resolve(false));
    });
    if (!ready) {
      child.kill("SIGKILL");
      return undefined;
    }
    return new ProbeHost(child);
  }

  /** The probe answered by the host, or undefined when it must run as a process. */
  async run(command: string, request: HostRequest): Promise<Probe | undefined> {
    if (!this.alive) return undefined;
    const id = this.next++;
    const reply = await new Promise<Reply | undefined>((resolve) => {
      // A call that does not return in time is not judged here: the host ends and the probe runs as a process.
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stop();
        resolve(undefined);
      }, request.timeoutMs);
      this.pending.set(id, { resolve, timer });
      this.child.send({ id, args: request.args, env: request.env, settleMs: Math.min(request.timeoutMs, SETTLE_MS) }, (error) => {
        if (error) this.stop();
      });
    });
    if (!reply || "crashed" in reply || reply.stdout.length > request.maxBuffer || reply.stderr.length > request.maxBuffer) return undefined;
    this.answered++;
    // As a process's output is read (stages/inspect/probes.ts: runProbe): without its final newline.
    const stdout = stripFinalNewline(reply.stdout);
    const stderr = stripFinalNewline(reply.stderr);
    return { command, exitCode: reply.exitCode, stdout, stderr, durationMs: reply.durationMs, timedOut: false, json: parse(stdout), error: parse(stderr) };
  }

  stop(): void {
    if (!this.alive) return;
    this.alive = false;
    this.child.kill("SIGKILL");
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.resolve(undefined);
      this.pending.delete(id);
    }
  }
}

const stripFinalNewline = (text: string) => text.replace(/\r?\n$/, "");

function parse(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
