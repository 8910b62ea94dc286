import { signalGroup, stopGroup } from "../../core/process.js";
import type { SandboxedCommand } from "./agent-run.js";

/**
 * The one way a run starts a process of the agent's side (the agent, a reference step, the candidate's MCP server):
 * in its own process group, its hidden arguments written to file descriptor 3, its environment exactly `env`.
 * `stop()` is core/process.ts' stopGroup (SIGTERM, a grace period, then SIGKILL), however often it is called;
 * `finished()` waits for the exit and then kills whatever the process left behind in its group.
 */
export async function startInGroup(
  command: SandboxedCommand,
  options: { env: Record<string, string>; stdin: "ignore" | "pipe"; buffer: boolean },
) {
  const { execa } = await import("execa");
  const hidden = command.hiddenArgs;
  const child = execa(command.file, hidden ? ["--args", "3", ...command.args] : command.args, {
    cwd: command.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    stdio: hidden ? [options.stdin, "pipe", "pipe", "pipe"] : [options.stdin, "pipe", "pipe"],
    // Unbuffered, the caller reads stdout and stderr itself: no interleaved copy is made for nobody.
    all: options.buffer,
    reject: false,
    buffer: options.buffer,
  });
  if (hidden) (child.stdio[3] as NodeJS.WritableStream).end(hidden.map((a) => `${a}\0`).join(""));
  // Listened for at once: the event may come before the caller's next step.
  const spawned = new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  spawned.catch(() => {});
  let stopping: Promise<void> | undefined;
  return {
    child,
    /** Settles once the program runs, or rejects when it could not be started. */
    spawned,
    stop: (): Promise<void> => (stopping ??= stopGroup(child.pid, child)),
    async finished() {
      const result = await child;
      signalGroup(child.pid, "SIGKILL");
      return result;
    },
  };
}
