import { Cli, type Command } from "clipanion";
import { InterError } from "../errors.js";
import { BuildCommand } from "./commands/build.js";
import { CacheCleanCommand, CacheGcCommand, CacheLsCommand, CacheVerifyCommand } from "./commands/cache.js";
import { EvalCompareCommand, EvalDiffCommand, EvalMergeCommand, EvalNewCommand, EvalReportCommand, EvalRunCommand, EvalValidateCommand } from "./commands/eval.js";
import { ExplainCommand } from "./commands/explain.js";
import { GraphCommand } from "./commands/graph.js";
import { InitCommand } from "./commands/init.js";
import { InspectCommand } from "./commands/inspect.js";
import { RunCommand } from "./commands/run.js";
import { StatusCommand } from "./commands/status.js";
import { printError, printJson } from "./output.js";
import { INTER_VERSION } from "./version.js";

const COMMANDS = [InitCommand, StatusCommand, BuildCommand, RunCommand, GraphCommand, ExplainCommand, InspectCommand, EvalValidateCommand, EvalNewCommand, EvalRunCommand, EvalReportCommand, EvalDiffCommand, EvalMergeCommand, EvalCompareCommand, CacheLsCommand, CacheVerifyCommand, CacheGcCommand, CacheCleanCommand];

/**
 * Clipanion compiles a state machine over every registered command on each start (~10 ms here). When the leading
 * words of argv name a command, only that command is registered; anything else (help, typos) gets the full set.
 */
function createCli(argv: string[]): Cli {
  const cli = new Cli({ binaryLabel: "Intermesh", binaryName: "inter", binaryVersion: INTER_VERSION, enableColors: false });
  const named = COMMANDS.filter((c) => c.paths.some((path) => path.every((word, i) => argv[i] === word)));
  for (const command of named.length === 1 ? named : COMMANDS) cli.register(command);
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
      description: (d.description ?? "").trim(),
      details: d.details?.trim() || undefined,
      options: d.options.map((o) => ({ flags: o.definition, description: o.description ?? "", required: o.required })),
      examples: d.examples?.map(([description, command]) => ({ description, command })),
    })),
    exitCodes: { 0: "success", 1: "a task failed or the evaluation gate was not met", 2: "usage, config or input invalid", 130: "interrupted" },
  };
}

function commandFor(argv: string[]): (typeof COMMANDS)[number] | undefined {
  const words = argv.filter((a) => !a.startsWith("-"));
  return COMMANDS.find((c) => c.paths.some((path) => path.every((word, i) => words[i] === word)));
}

/** Commands under a group word (`inter eval`, `inter cache`). */
function groupOf(argv: string[]): (typeof COMMANDS)[number][] {
  const word = argv.find((a) => !a.startsWith("-"));
  return word ? COMMANDS.filter((c) => c.paths[0]!.length > 1 && c.paths[0]![0] === word) : [];
}

function showHelp(argv: string[], json: boolean): number {
  const target = commandFor(argv);
  const group = target ? [] : groupOf(argv);
  const cli = createCli(target ? target.paths[0]! : []);
  if (group.length) {
    if (json) printJson({ ok: true, data: { ...helpData(cli, undefined), commands: helpData(cli, undefined).commands.filter((c) => group.some((g) => c.command === `inter ${g.paths[0]!.join(" ")}`)) } });
    else process.stdout.write(`${group.map((g) => `  ${cli.usage(g).trim()}`).join("\n")}\n\nRun \`inter <command> --help\` for a command's flags.\n`);
    return 0;
  }
  if (json) {
    printJson({ ok: true, data: helpData(cli, target?.paths[0]) });
  } else if (target) {
    process.stdout.write(cli.usage(target, { detailed: true }));
  } else {
    process.stdout.write(`${cli.usage()}\nRun \`inter <command> --help\` for a command's flags; add --json for help as JSON.\n`);
  }
  return 0;
}

/** Clipanion's messages span lines (candidate lists); agents get them as one line. */
function oneLine(message: string): string {
  return message
    .replace(/^(Unknown Syntax Error|Usage Error): /, "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("$ "))
    .join(" ");
}

export async function main(argv: string[]): Promise<number> {
  const options = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  const json = options.includes("--json");
  if (options.length === 1 && (options[0] === "--version" || options[0] === "-v")) {
    process.stdout.write(`${INTER_VERSION}\n`);
    return 0;
  }
  if (options.includes("--help") || options.includes("-h") || options.every((a) => a === "--json")) return showHelp(options, json);
  const cli = createCli(argv);
  let command: Command;
  try {
    command = cli.process(argv);
  } catch (error) {
    const target = commandFor(argv);
    const unknown = !target && /^Command not found/.test((error as Error).message);
    const names = COMMANDS.map((c) => c.paths[0]!.join(" ")).join(", ");
    const group = groupOf(argv);
    const words = argv.filter((a) => !a.startsWith("-")).join(" ");
    const message = unknown ? (group.length ? `"${words}" needs a subcommand: ${group.map((g) => g.paths[0]!.join(" ")).join(", ")}.` : `No command "${words}".`) : oneLine((error as Error).message);
    const hint = target ? `Run \`inter ${target.paths[0]!.join(" ")} --help\` to see its flags.` : group.length ? `Run \`inter ${group[0]!.paths[0]![0]} --help\` to see them.` : `Commands: ${names}. Run \`inter --help\` for details.`;
    printError(new InterError("USAGE_ERROR", message, hint, { argv }), json);
    return 2;
  }
  try {
    return await command.validateAndExecute();
  } catch (error) {
    printError(new InterError("USAGE_ERROR", oneLine((error as Error).message), "Run `inter <command> --help` to see the allowed values.", { argv }), json);
    return 2;
  }
}
