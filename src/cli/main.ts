import { Builtins, Cli, Command } from "clipanion";
import { InterError } from "../errors.js";
import { BaseCommand, type CommandResult } from "./base.js";
import { BuildCommand } from "./commands/build.js";
import { CacheCleanCommand, CacheGcCommand, CacheLsCommand, CacheVerifyCommand } from "./commands/cache.js";
import { ExplainCommand } from "./commands/explain.js";
import { GraphCommand } from "./commands/graph.js";
import { RunCommand } from "./commands/run.js";
import { printError, printJson } from "./output.js";
import { INTER_VERSION } from "./version.js";

const COMMANDS = [BuildCommand, RunCommand, GraphCommand, ExplainCommand, CacheLsCommand, CacheVerifyCommand, CacheGcCommand, CacheCleanCommand];

/**
 * Clipanion compiles a state machine over every registered command on each start (~10 ms here). When the leading
 * words of argv name a command, only that command is registered; anything else (help, typos) gets the full set.
 */
function createCli(argv: string[]): Cli {
  const cli = new Cli({ binaryLabel: "Intermesh", binaryName: "inter", binaryVersion: INTER_VERSION, enableColors: false });
  const named = COMMANDS.filter((c) => c.paths.some((path) => path.every((word, i) => argv[i] === word)));
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  for (const command of named.length === 1 && !wantsHelp ? named : COMMANDS) cli.register(command);
  return cli;
}

/** Help as data for agents: the same facts clipanion prints, as one JSON document. */
function helpData(cli: Cli, path: string[] | undefined) {
  const definitions = cli.definitions().filter((d) => !path || d.path === `inter ${path.join(" ")}`);
  return {
    help: "inter — build an agent-first CLI from an OpenAPI document and a product brief, and prove agents can use it.",
    version: INTER_VERSION,
    commands: definitions.map((d) => ({
      command: d.path,
      usage: d.usage,
      description: d.description ?? "",
      details: d.details?.trim() || undefined,
      options: d.options.map((o) => ({ flags: o.definition, description: o.description ?? "", required: o.required })),
      examples: d.examples?.map(([description, command]) => ({ description, command })),
    })),
    exitCodes: { 0: "success", 1: "a task failed or the evaluation gate was not met", 2: "usage, config or input invalid", 130: "interrupted" },
  };
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    process.stdout.write(`${INTER_VERSION}\n`);
    return 0;
  }
  const cli = createCli(argv);
  let command: Command;
  try {
    command = cli.process(argv);
  } catch (error) {
    const message = (error as Error).message.split("\n").find((l) => l.trim()) ?? String(error);
    printError(new InterError("USAGE_ERROR", message.replace(/^(Unknown Syntax Error|Usage Error): /, ""), "Run `inter --help` (or `inter <command> --help`) to see commands and flags.", { argv }), json);
    return 2;
  }
  const wantsHelp = command instanceof Builtins.HelpCommand || (command as { help?: boolean }).help || argv.length === 0 || (argv.length === 1 && argv[0] === "--json");
  if (wantsHelp) {
    const path = command instanceof BaseCommand ? command.path : undefined;
    if (json) printJson({ ok: true, data: helpData(cli, path) });
    else process.stdout.write(path ? cli.usage(command, { detailed: true }) : cli.usage());
    return 0;
  }
  try {
    return await command.validateAndExecute();
  } catch (error) {
    const message = (error as Error).message.replace(/^Usage Error: /, "").split("\n")[0]!;
    printError(new InterError("USAGE_ERROR", message, "Run `inter <command> --help` to see the allowed values.", { argv }), json);
    return 2;
  }
}

export type { CommandResult };
