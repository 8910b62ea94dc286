import { spawn, type ChildProcess } from "node:child_process";
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { signalGroup } from "../../core/process.js";
import { frame, frameReader } from "./broker-protocol.js";

/** One call of the candidate, as the broker made and saw it. */
export interface Invocation {
  argv: string[];
  cwd: string;
  exit_code: number | null;
  /** The signal that ended the call, when one did. */
  signal?: string | null;
  stdout: string;
  /** Stdout was bytes, not UTF-8 text (a download written with `--output -`): kept as its size and sha256, never mangled. */
  stdout_bytes?: { bytes: number; sha256: string };
  stderr: string;
  started_at: string;
  duration_ms: number;
  /** Cut off when the attempt ended (timeout, interrupt): its evidence is incomplete. */
  truncated?: boolean;
}

/** How the broker starts the real candidate for one call: a program, its arguments and environment. */
export type Launch = (
  args: string[],
  cwd: string,
) => { file: string; args: string[]; env: Record<string, string>; cwd: string };

export interface Broker {
  readonly socket: string;
  /** Calls started so far. */
  calls(): number;
  /**
   * Stops accepting calls, kills the ones still running (their records say `truncated`), and returns every call in
   * start order.
   */
  close(): Promise<Invocation[]>;
}

/** Output kept per stream and call; an agent can make a CLI print without end. */
const MAX_OUTPUT = 8 * 1024 * 1024;
const SIGNALS = new Set(["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]);

/** A candidate call under way: its process, its record, and when both are done. */
interface Running {
  child: ChildProcess;
  invocation: Invocation;
  done: Promise<void>;
}

/**
 * Runs one call of the candidate through `launch`, streams its output back with `send` and records it: its output kept
 * up to MAX_OUTPUT per stream (a binary answer by its size and hash), its exit, its time.
 */
function runCandidate(
  options: { binary: string; launch: Launch },
  args: string[],
  cwd: string,
  send: (type: string, body: Buffer | string) => void,
  end: () => void,
  { records, running }: { records: Array<{ start: number; invocation: Invocation }>; running: Set<Running> },
): ChildProcess {
  const started = Date.now();
  const launch = options.launch(args, cwd);
  const child = spawn(launch.file, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const invocation: Invocation = {
    argv: [options.binary, ...args],
    cwd,
    exit_code: null,
    stdout: "",
    stderr: "",
    started_at: new Date(started).toISOString(),
    duration_ms: -1,
  };
  records.push({ start: started, invocation });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let outBytes = 0;
  let errBytes = 0;
  const outHash = createHash("sha256");
  child.stdin!.on("error", () => {});
  child.stdout!.on("data", (chunk: Buffer) => {
    outHash.update(chunk);
    if (outBytes < MAX_OUTPUT) out.push(chunk);
    outBytes += chunk.length;
    send("O", chunk);
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    if (errBytes < MAX_OUTPUT) err.push(chunk);
    errBytes += chunk.length;
    send("E", chunk);
  });
  const entry = {
    child,
    invocation,
    done: new Promise<void>((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
        invocation.exit_code = code;
        invocation.signal = signal;
        const stdout = Buffer.concat(out);
        // A text kept only in part may end inside a character: its last few bytes do not decide.
        const kept = outBytes > stdout.length ? stdout.subarray(0, Math.max(0, stdout.length - 3)) : stdout;
        if (isUtf8(kept)) invocation.stdout = stdout.toString("utf8");
        else invocation.stdout_bytes = { bytes: outBytes, sha256: outHash.digest("hex") };
        invocation.stderr =
          Buffer.concat(err).toString("utf8") +
          (error ? `\n[inter] could not run the candidate: ${error.message}` : "");
        invocation.duration_ms = Date.now() - started;
        send("X", JSON.stringify({ code: code ?? (error ? 127 : null), signal }));
        end();
        running.delete(entry);
        resolve();
      };
      child.on("error", (error) => finish(null, null, error));
      child.on("close", (code, signal) => finish(code, signal));
    }),
  };
  running.add(entry);
  return child;
}

/**
 * The evaluator's side of every candidate call: it listens on a Unix socket that only the attempt's sandbox can see,
 * runs the real candidate through `launch` (which holds the credential and base URL the agent never gets), streams
 * the output back, and keeps the record where the agent cannot reach it.
 */
export async function startBroker(options: { socket: string; binary: string; launch: Launch }): Promise<Broker> {
  const records: Array<{ start: number; invocation: Invocation }> = [];
  const running = new Set<Running>();
  const clients = new Set<Socket>();
  let closing = false;

  const serve = (socket: Socket) => {
    clients.add(socket);
    socket.on("close", () => clients.delete(socket));
    socket.on("error", () => socket.destroy());
    let child: ChildProcess | undefined;
    let stdinQueue: Array<Buffer | null> | undefined = [];
    const send = (type: string, body: Buffer | string) => {
      if (!socket.destroyed) socket.write(frame(type, body));
    };
    const toChild = (chunk: Buffer | null) => {
      if (!child) return stdinQueue?.push(chunk);
      if (!child.stdin || child.stdin.destroyed) return;
      if (chunk) child.stdin.write(chunk);
      else child.stdin.end();
    };
    const read = frameReader(
      (type, payload) => {
        if (type === "Q" && !child) {
          let request: { argv?: unknown; cwd?: unknown };
          try {
            request = JSON.parse(payload.toString("utf8"));
          } catch {
            return socket.destroy();
          }
          const args = request.argv;
          const cwd = request.cwd;
          // The request is the agent's: strings only, no NUL (spawn would throw), bounded in number.
          const clean = (v: unknown): v is string => typeof v === "string" && !v.includes("\0");
          if (
            !Array.isArray(args) ||
            args.length > 10_000 ||
            !args.every(clean) ||
            !clean(cwd) ||
            !cwd.startsWith("/") ||
            closing
          )
            return socket.destroy();
          try {
            child = runCandidate(options, args as string[], cwd, send, () => socket.end(), { records, running });
          } catch {
            return socket.destroy();
          }
          for (const chunk of stdinQueue ?? []) toChild(chunk);
          stdinQueue = undefined;
        } else if (type === "I") toChild(Buffer.from(payload));
        else if (type === "D") toChild(null);
        else if (type === "K") {
          const signal = payload.toString();
          if (child?.pid && SIGNALS.has(signal)) signalGroup(child.pid, signal as NodeJS.Signals);
        }
      },
      () => socket.destroy(),
    );
    socket.on("data", read);
  };

  const server = createServer(serve);
  rmSync(options.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.socket, () => resolve());
  });

  return {
    socket: options.socket,
    calls: () => records.length,
    async close() {
      closing = true;
      server.close();
      // Whatever still runs when the attempt ends has no trustworthy outcome: truncated evidence.
      const cut = [...running];
      for (const entry of cut) {
        entry.invocation.truncated = true;
        signalGroup(entry.child.pid, "SIGKILL");
      }
      await Promise.all(cut.map((entry) => entry.done));
      for (const client of clients) client.destroy();
      rmSync(options.socket, { force: true });
      return records.sort((a, b) => a.start - b.start).map((r) => r.invocation);
    },
  };
}
