import type { UserTaskConfig } from "../config/types.js";
import { InterError } from "../core/errors.js";
import { signalGroup, stopGroup } from "../core/process.js";
import type { TaskSpec } from "../engine/graph/task.js";

/** A user task from `tasks:` in the config: a command, cached exactly like the built-in tasks. */
export function commandTask(id: string, spec: UserTaskConfig): TaskSpec {
  return {
    id,
    kind: "command",
    description: typeof spec.command === "string" ? spec.command : spec.command.join(" "),
    impl: "1",
    deps: spec.deps ?? [],
    config: { command: spec.command },
    inputs: spec.inputs ?? [],
    outputs: spec.outputs ?? [],
    env: spec.env ?? [],
    async run(ctx) {
      const { execa } = await import("execa");
      const [file, args, shell] =
        typeof spec.command === "string" ? [spec.command, [], true] : [spec.command[0]!, spec.command.slice(1), false];
      // Its own process group, so an interrupt stops everything the command started, not just the shell.
      const child = execa(file, args, {
        cwd: ctx.root,
        shell,
        detached: true,
        stdin: "ignore",
        all: true,
        reject: false,
        buffer: false,
      });
      const onAbort = () => void stopGroup(child.pid, child);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      let partial = "";
      child.all?.on("data", (chunk: Buffer) => {
        const lines = (partial + chunk.toString("utf8")).split("\n");
        partial = lines.pop()!;
        for (const line of lines) ctx.log(line);
      });
      const result = await child;
      if (partial) ctx.log(partial);
      ctx.signal.removeEventListener("abort", onAbort);
      // Leftover grandchildren must not outlive the task.
      signalGroup(child.pid, "SIGKILL");
      if (ctx.signal.aborted) return {};
      if (result.failed) {
        const how =
          result.exitCode !== undefined
            ? `exited with code ${result.exitCode}`
            : `was killed by ${result.signal ?? "a signal"}`;
        throw new InterError(
          "TASK_FAILED",
          `Task ${id} (${this.description}) ${how}.`,
          `Fix the command and run \`inter run ${id}\` again; its output is above.`,
          { task: id, exitCode: result.exitCode },
        );
      }
      return {};
    },
  };
}
