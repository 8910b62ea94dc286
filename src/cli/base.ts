import { Command, Option } from "clipanion";
import * as t from "typanion";
import { availableParallelism } from "node:os";
import { toInterError } from "../core/errors.js";
import { printError, printJson } from "./output.js";

export interface CommandResult {
  data: unknown;
  /** Text for people (stdout); omitted when the command already reported on stderr. */
  human?: string;
  /** Set by a command that reported everything itself (watch mode's event stream): exit with it, print nothing. */
  exitCode?: number;
}

/** Options every command accepts, and the one place that turns results and errors into output and exit codes. */
export abstract class BaseCommand extends Command {
  json = Option.Boolean("--json", false, {
    description: "Print exactly one JSON document on stdout: {ok, data} or {ok: false, error}",
  });
  configFile = Option.String("--config", {
    description: "Config file to use instead of searching upward for intermesh.config.*",
  });
  cwd = Option.String("--cwd", { description: "Run as if started in this folder" });
  concurrency = Option.String("--concurrency", {
    description: "Most tasks to run at once (default: available cores)",
    validator: t.cascade(t.isNumber(), [t.isInteger(), t.isInInclusiveRange(1, 256)]),
  });
  force = Option.Boolean("--force", false, { description: "Ignore cache hits and run every selected task" });

  protected get parallelism(): number {
    return (this.concurrency as unknown as number | undefined) ?? availableParallelism();
  }

  abstract run(): Promise<CommandResult>;

  async execute(): Promise<number> {
    try {
      const result = await this.run();
      if (result.exitCode !== undefined) return result.exitCode;
      if (this.json) printJson({ ok: true, data: result.data });
      else if (result.human !== undefined)
        process.stdout.write(result.human.endsWith("\n") ? result.human : `${result.human}\n`);
      return 0;
    } catch (error) {
      const err = toInterError(error);
      printError(err, this.json);
      return err.exitCode;
    }
  }
}
