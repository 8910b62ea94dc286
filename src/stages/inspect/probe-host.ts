import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { cliShim } from "../emit/cli-shim.js";
import type { Probe } from "./probe.js";
import { parseOutput } from "./probe-output.js";
import { longestRun, progressDeadline } from "../../core/progress-deadline.js";

/**
 * One process answering many probes (issue #46). A probe run as its own process costs a Node start and, from inter's
 * own large heap, a fork; an inspection runs dozens. When the installed executable is inter's own shim —
 * `run(<package folder>, argv)` from the package's lib/runtime.cjs and nothing else — a host process loads that runtime
 * once and answers each probe by the very call the shim makes, one at a time, with the probe's argv, environment and
 * working folder, capturing what it writes and the code it returns. Stdin is /dev/null there as for a probe run with
 * stdin ignored.
 *
 * Only probes whose meaning does not depend on a process of their own come here (see `hostable`): never one that reads
 * stdin, pipes to it, or runs the bare executable (those run the installed executable itself). Any doubt ends in a
 * process: a call that throws past the runtime, outlives its timeout or prints more than its buffer ends the host, and
 * that probe and every later one run as processes, as they always did.
 */

const HOST = String.raw`
"use strict";
// Started before the package is installed (ProbeHost.warm): it learns the runtime to load from its first message.
let run, root;
function load(request) {
  try {
    root = request.root;
    ({ run } = require(request.runtime));
  } catch (error) {
    process.send({ ready: false, reason: String(error && error.message) });
    process.exit(0);
  }
  process.send({ ready: true });
}
const out = process.stdout.write;
const err = process.stderr.write;
let current;
process.on("uncaughtException", (error) => {
  if (current) current.crashed = String(error && error.stack);
  process.send({ id: current ? current.id : -1, crashed: true }, () => process.exit(70));
});
process.on("unhandledRejection", (error) => { throw error; });
const { spawn } = require("node:child_process");
const children = new Set();
const killers = new Map();
process.on("disconnect", () => {
  for (const child of children) child.kill("SIGKILL");
  process.exit(0);
});
// A probe that needs a process of its own is started here, from a small process, not from inter's large one.
function spawnProbe({ id, spawn: s }) {
  const started = performance.now();
  let replied = false;
  const reply = (message) => {
    if (replied) return;
    replied = true;
    process.send({ id, ...message });
  };
  let child;
  try {
    child = spawn(s.file, s.args, { env: s.env, stdio: [s.input !== undefined || s.pipeOpen ? "pipe" : "ignore", "pipe", "pipe"] });
  } catch {
    return reply({ fallback: true });
  }
  children.add(child);
  killers.set(id, () => { timedOut = true; child.kill("SIGKILL"); });
  process.send({ id, started: child.pid });
  const out = [], err = [];
  let size = 0, over = false, timedOut = false;
  const collect = (list) => (chunk) => {
    size += chunk.length;
    if (size > s.maxBuffer) { over = true; child.kill("SIGKILL"); return; }
    list.push(chunk);
  };
  child.stdout.on("data", collect(out));
  child.stderr.on("data", collect(err));
  if (child.stdin) {
    child.stdin.on("error", () => {});
    if (s.input !== undefined) child.stdin.end(s.input);
  }
  // inter times the probe by the child's progress and says when to stop it; this bound only outlasts inter's.
  const timer = setTimeout(() => { timedOut = true; child.kill("SIGKILL"); }, s.longestMs);
  child.on("error", () => { clearTimeout(timer); children.delete(child); killers.delete(id); reply({ fallback: true }); });
  child.on("close", (code, signal) => {
    clearTimeout(timer);
    children.delete(child);
    killers.delete(id);
    if (over) return reply({ fallback: true });
    reply({ exitCode: signal ? null : code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), durationMs: Math.round(performance.now() - started), timedOut });
  });
}
const capture = (key) => function (chunk, encoding, callback) {
  current[key] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof encoding === "string" ? encoding : "utf8");
  const done = typeof encoding === "function" ? encoding : callback;
  if (done) process.nextTick(done);
  return true;
};
let queue = Promise.resolve();
process.on("message", (request) => {
  if (request.load) return load(request.load);
  if (request.spawn) return spawnProbe(request);
  if (request.kill !== undefined) return killers.get(request.kill)?.();
  queue = queue.then(async () => {
    // inter times a call from here, not from when it was asked: the calls asked before it are not its own run.
    process.send({ id: request.id, began: true });
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
`;

/** A host process started ahead (ProbeHost.warm), with the environment it was started in, until a start takes it. */
let spare: { child: ChildProcess; env: string } | undefined;

/** The host's process: Node running HOST, with the probes' minimal environment, waiting for the package to load. */
function spawnHost(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ["-e", HOST], {
    env,
    stdio: ["ignore", "ignore", "ignore", "ipc"],
    // Replies carry whole outputs (`--describe --all` of a large CLI is tens of megabytes): the structured clone passes
    // a string as it is, where JSON escapes it into the message and parses it back.
    serialization: "advanced",
  });
}

/** The spare host when it was started in this environment and still runs, else a new one. */
function hostProcess(env: Record<string, string>): ChildProcess {
  const taken = spare;
  spare = undefined;
  if (taken && taken.env === JSON.stringify(env) && taken.child.exitCode === null && taken.child.connected) {
    taken.child.ref();
    (taken.child.channel as { ref?: () => void } | undefined)?.ref?.();
    return taken.child;
  }
  taken?.child.kill("SIGKILL");
  return spawnHost(env);
}

export interface HostRequest {
  args: string[];
  env: Record<string, string>;
  timeoutMs: number;
  maxBuffer: number;
}

/** How long past a probe's longest run the host may take to stop it and reply. */
const HOST_GRACE_MS = 5_000;

/** How long the host waits, after a call returns, for what the call left running to end. */
const SETTLE_MS = 2_000;

export interface SpawnRequest {
  args: string[];
  env: Record<string, string>;
  input?: string;
  pipeOpen?: boolean;
  timeoutMs: number;
  maxBuffer: number;
}

type Reply =
  | { id: number; started: number }
  | { id: number; began: true }
  | { id: number; exitCode: number | null; stdout: string; stderr: string; durationMs: number; timedOut?: boolean }
  | { id: number; crashed: true }
  | { id: number; fallback: true };

/**
 * Whether a probe may be answered by the host: it neither reads nor holds stdin. The bare call with stdin ignored is
 * one (the host's stdin is /dev/null as that probe's is); the bare call that pipes a line to it is not, and runs the
 * installed executable itself as a process, through its own `#!` line (stages/inspect/probes.ts).
 */
export function hostable(args: string[], options: { input?: string; pipeOpen?: boolean }): boolean {
  return options.input === undefined && !options.pipeOpen && !args.includes("--json-input");
}

/** A call sent to the host and not yet answered. */
interface Waiting {
  resolve(reply: Reply | undefined): void;
  /** Starts the call's timeout: the host began it. */
  begin(): void;
  /** Stops its timeout. */
  clear(): void;
}

export class ProbeHost {
  private next = 0;
  private readonly pending = new Map<number, Waiting>();
  private alive = true;
  /** The pid of each probe process the host started, by call: its progress decides when it has hung. */
  private readonly spawned = new Map<number, number>();
  /** How many probes the host answered. */
  answered = 0;
  private constructor(private readonly child: ChildProcess) {
    child.on("message", (reply: Reply) => {
      if ("started" in reply) {
        this.spawned.set(reply.id, reply.started);
        return;
      }
      if ("began" in reply) {
        this.pending.get(reply.id)?.begin();
        return;
      }
      const waiting = this.pending.get(reply.id);
      if ("crashed" in reply) this.stop();
      if (!waiting) return;
      this.pending.delete(reply.id);
      waiting.clear();
      waiting.resolve("crashed" in reply || "fallback" in reply ? undefined : reply);
    });
    child.on("exit", () => this.stop());
  }

  /**
   * Starts a host process before the package it will answer for is installed: its Node start then overlaps the install
   * instead of delaying the first probe. One at a time; one no start takes keeps nothing alive, and ends with this
   * process (its channel closes).
   */
  static warm(env: Record<string, string>): void {
    if (spare) return;
    try {
      const child = spawnHost(env);
      child.on("error", () => {});
      child.unref();
      (child.channel as { unref?: () => void } | undefined)?.unref?.();
      spare = { child, env: JSON.stringify(env) };
      child.once("exit", () => {
        if (spare?.child === child) spare = undefined;
      });
    } catch {
      // no spare: start spawns its own
    }
  }

  /** Ends the spare host, for a package no host answers for. */
  private static dropSpare(): undefined {
    spare?.child.kill("SIGKILL");
    spare = undefined;
    return undefined;
  }

  /**
   * Starts a host for the package installed at `bin`, or gives undefined when its executable is not inter's shim (a CLI
   * inter did not generate is probed process by process) or the runtime will not load.
   */
  static async start(
    bin: string,
    packageRoot: string | undefined,
    env: Record<string, string>,
  ): Promise<ProbeHost | undefined> {
    let shim: string;
    try {
      shim = realpathSync(bin);
      if (
        !packageRoot ||
        dirname(shim) !== realpathSync(packageRoot) ||
        readFileSync(shim, "utf8") !== cliShim(basename(shim, ".cjs"))
      )
        return ProbeHost.dropSpare();
    } catch {
      return ProbeHost.dropSpare();
    }
    const child = hostProcess(env);
    const ready = new Promise<boolean>((resolve) => {
      child.once("message", (m: { ready?: boolean }) => resolve(m?.ready === true));
      child.once("exit", () => resolve(false));
      child.once("error", () => resolve(false));
    });
    try {
      child.send({ load: { runtime: join(dirname(shim), "lib", "runtime.cjs"), root: dirname(shim) } });
    } catch {
      child.kill("SIGKILL");
      return undefined;
    }
    if (!(await ready)) {
      child.kill("SIGKILL");
      return undefined;
    }
    return new ProbeHost(child);
  }

  /**
   * The probe answered by the host, or undefined when it must run as a process. Asked at once, however many are
   * waiting: the host runs its calls one at a time in the order asked and always has the next one at hand, instead of
   * idling while inter (busy judging what came back) gets round to sending it. Each call's timeout counts from when the
   * host began it (`from: "begun"`), not from when it was asked: timed from the asking, one of a dozen slow probes
   * asked at once of a large CLI on a loaded machine outlived its bound while it waited, ended the host, and every
   * later probe forked inter's large process.
   */
  async run(command: string, request: HostRequest): Promise<Probe | undefined> {
    // A call that does not return in time is not judged here: the host ends and the probe runs as a process.
    const reply = await this.ask(
      { args: request.args, env: request.env, settleMs: Math.min(request.timeoutMs, SETTLE_MS) },
      request.timeoutMs,
      {
        // The host runs the call itself: while it is still working, a loaded machine is slow, not the call stuck.
        pid: () => this.child.pid,
        expire: "stop",
        from: "begun",
      },
    );
    if (!reply || reply.stdout.length > request.maxBuffer || reply.stderr.length > request.maxBuffer) return undefined;
    this.answered++;
    return probeOf(command, reply);
  }

  /**
   * A probe that needs a process of its own, started by the host (a fork of a small process, not of inter's large one)
   * with the same stdin, timeout and environment; undefined when it must be started here instead.
   */
  async spawn(command: string, file: string, request: SpawnRequest): Promise<Probe | undefined> {
    const reply = await this.ask(
      { spawn: { file, ...request, longestMs: longestRun(request.timeoutMs) + HOST_GRACE_MS } },
      request.timeoutMs,
      // The probe's own process is timed by its progress; once it has hung, the host stops it and replies `timedOut`.
      // The host starts it as soon as it is asked, beside whatever call it is running.
      { pid: (id) => this.spawned.get(id), expire: "kill", from: "asked" },
    );
    return reply ? probeOf(command, reply) : undefined;
  }

  /**
   * Sends a call and waits for its reply. When the process named by `bound.pid` has hung past `timeoutMs`
   * (core/progress-deadline.ts), counted from when the call was asked or from when the host began it (`bound.from`):
   * "stop" ends the host (the call, and every later one, runs as a process), "kill" asks the host to stop the probe's
   * process, which then replies `timedOut`. A reply that never comes resolves undefined.
   */
  private ask(
    message: object,
    timeoutMs: number,
    bound: { pid: (id: number) => number | undefined; expire: "stop" | "kill"; from: "asked" | "begun" },
  ): Promise<Extract<Reply, { stdout: string }> | undefined> {
    if (!this.alive) return Promise.resolve(undefined);
    const id = this.next++;
    return new Promise((resolve) => {
      let cancelDeadline = () => {};
      let timer: NodeJS.Timeout | undefined;
      const clear = () => {
        cancelDeadline();
        clearTimeout(timer);
      };
      const giveUp = () => {
        clear();
        this.pending.delete(id);
        this.spawned.delete(id);
        resolve(undefined);
      };
      let begun = false;
      const begin = () => {
        if (begun) return;
        begun = true;
        cancelDeadline = progressDeadline(
          () => bound.pid(id),
          timeoutMs,
          bound.expire === "stop"
            ? () => {
                giveUp();
                this.stop();
              }
            : () => this.child.send({ kill: id }, () => {}),
        );
        // Past every bound the host keeps, it is not answering: the probe runs as a process instead.
        timer = setTimeout(giveUp, longestRun(timeoutMs) + 2 * HOST_GRACE_MS);
        timer.unref();
      };
      this.pending.set(id, {
        resolve: (reply) => {
          this.spawned.delete(id);
          resolve(reply && "stdout" in reply ? reply : undefined);
        },
        begin,
        clear,
      });
      if (bound.from === "asked") begin();
      this.child.send({ id, ...message }, (error) => {
        if (error) this.stop();
      });
    });
  }

  stop(): void {
    if (!this.alive) return;
    this.alive = false;
    this.child.kill("SIGKILL");
    for (const [id, waiting] of this.pending) {
      waiting.clear();
      waiting.resolve(undefined);
      this.pending.delete(id);
    }
  }
}

/** A reply as the probe runProbe would give (stages/inspect/probes.ts): output without its final newline. */
function probeOf(command: string, reply: Extract<Reply, { stdout: string }>): Probe {
  const stdout = stripFinalNewline(reply.stdout);
  const stderr = stripFinalNewline(reply.stderr);
  return {
    command,
    exitCode: reply.exitCode,
    stdout,
    stderr,
    durationMs: reply.durationMs,
    timedOut: reply.timedOut === true,
    json: parseOutput(stdout),
    error: parseOutput(stderr),
  };
}

const stripFinalNewline = (text: string) => text.replace(/\r?\n$/, "");
