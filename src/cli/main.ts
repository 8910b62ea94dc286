import { Cli, type Command } from "clipanion";
import { InterError } from "../core/errors.js";
import { AgentsInstallCommand, AgentsUninstallCommand } from "./commands/agents.js";
import { BuildCommand } from "./commands/build.js";
import { CacheCleanCommand, CacheGcCommand, CacheLsCommand, CacheVerifyCommand } from "./commands/cache.js";
import { EvalCompareCommand } from "./commands/eval/compare.js";
import { EvalDiffCommand } from "./commands/eval/diff.js";
import { EvalMergeCommand } from "./commands/eval/merge.js";
import { EvalNewCommand } from "./commands/eval/new.js";
import { EvalReportCommand } from "./commands/eval/report.js";
import { EvalRunCommand } from "./commands/eval/run.js";
import { EvalReviewTriggersCommand, EvalTriggersCommand } from "./commands/eval/triggers.js";
import { EvalValidateCommand } from "./commands/eval/validate.js";
import { DesignSuggestCommand } from "./commands/design.js";
import { DiffCommand } from "./commands/diff.js";
import { ExplainCommand } from "./commands/explain.js";
import { GraphCommand } from "./commands/graph.js";
import { InitCommand, SetupCommand } from "./commands/init.js";
import { InspectCommand } from "./commands/inspect.js";
import { PublishCommand } from "./commands/publish.js";
import { RunCommand } from "./commands/run.js";
import { StatusCommand } from "./commands/status.js";
import { UpdateCommand } from "./commands/update.js";
import { closest } from "../core/edit-distance.js";
import { commandHelpText, groupHelpText, namedFlag, rootHelpText } from "./help.js";
import { printError, printJson } from "./output.js";
import { INTER_VERSION } from "../core/version.js";

const COMMANDS = [
  InitCommand,
  SetupCommand,
  StatusCommand,
  BuildCommand,
  RunCommand,
  DesignSuggestCommand,
  GraphCommand,
  ExplainCommand,
  InspectCommand,
  EvalValidateCommand,
  EvalNewCommand,
  EvalRunCommand,
  EvalReportCommand,
  EvalDiffCommand,
  EvalMergeCommand,
  EvalCompareCommand,
  EvalTriggersCommand,
  EvalReviewTriggersCommand,
  DiffCommand,
  PublishCommand,
  AgentsInstallCommand,
  AgentsUninstallCommand,
  CacheLsCommand,
  CacheVerifyCommand,
  CacheGcCommand,
  CacheCleanCommand,
  UpdateCommand,
];

/**
 * Clipanion compiles a state machine over every registered command on each start, a cost that grows with the commands
 * registered. When the leading words of argv name a command, only that command is registered; anything else (help,
 * typos) gets the full set.
 */
function createCli(argv: string[]): Cli {
  const cli = new Cli({
    binaryLabel: "Intermesh",
    binaryName: "inter",
    binaryVersion: INTER_VERSION,
    enableColors: false,
  });
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
      options: d.options.map((o) => ({
        flags: namedFlag(o.definition),
        description: o.description ?? "",
        required: o.required,
      })),
      examples: d.examples?.map(([description, command]) => ({ description, command })),
    })),
    exitCodes: {
      0: "success",
      1: "a task failed, or the evaluation missed its gate or could not be judged (EVAL_NOT_JUDGED: every attempt was a harness error)",
      2: "usage, config or input invalid",
      130: "interrupted",
    },
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
    if (json)
      printJson({
        ok: true,
        data: {
          ...helpData(cli, undefined),
          commands: helpData(cli, undefined).commands.filter((c) =>
            group.some((g) => c.command === `inter ${g.paths[0]!.join(" ")}`),
          ),
        },
      });
    else
      process.stdout.write(
        groupHelpText(
          cli,
          group.map((g) => ({ path: `inter ${g.paths[0]!.join(" ")}`, command: g as unknown as new () => object })),
        ),
      );
    return 0;
  }
  if (json) printJson({ ok: true, data: helpData(cli, target?.paths[0]) });
  else if (target)
    process.stdout.write(
      commandHelpText(cli, `inter ${target.paths[0]!.join(" ")}`, target as unknown as new () => object),
    );
  else
    process.stdout.write(
      rootHelpText(
        cli,
        `inter ${INTER_VERSION} — build an agent-first CLI from an OpenAPI document and a product brief, and prove agents can use it.`,
      ),
    );
  return 0;
}

/** Flags of every command that take a value (the next token). */
const GLOBAL_VALUES = new Set(["--config", "--cwd", "--concurrency"]);

/**
 * The argv clipanion parses: `--project-dir` (Intermesh 0.1's name) is `--cwd`, and global flags given before the
 * command (`inter --json status`, as 0.1's Skills write it) move behind its words.
 */
function normalizeArgv(argv: string[]): string[] {
  const renamed = argv.map((a) =>
    a === "--project-dir" ? "--cwd" : a.startsWith("--project-dir=") ? `--cwd=${a.slice("--project-dir=".length)}` : a,
  );
  const leading: string[] = [];
  let i = 0;
  while (i < renamed.length && renamed[i]!.startsWith("-") && renamed[i] !== "--") {
    const flag = renamed[i]!;
    leading.push(flag);
    if (GLOBAL_VALUES.has(flag) && i + 1 < renamed.length) leading.push(renamed[++i]!);
    i++;
  }
  if (!leading.length || i >= renamed.length) return renamed;
  const rest = renamed.slice(i);
  const path = COMMANDS.flatMap((c) => c.paths)
    .filter((p) => p.every((w, k) => rest[k] === w))
    .sort((a, b) => b.length - a.length)[0];
  const words = path
    ? path.length
    : rest.findIndex((t) => t.startsWith("-")) < 0
      ? rest.length
      : rest.findIndex((t) => t.startsWith("-"));
  return [...rest.slice(0, words), ...leading, ...rest.slice(words)];
}

/** A clipanion parse error as inter's USAGE_ERROR: the unknown command or flag with "did you mean", or the missing argument named. */
function usageError(argv: string[], error: Error): InterError {
  const target = commandFor(argv);
  const group = groupOf(argv);
  const words = argv.filter((a) => !a.startsWith("-"));
  const names = COMMANDS.map((c) => c.paths[0]!.join(" "));
  if (!target && /^Command not found/.test(error.message)) {
    if (group.length)
      return new InterError(
        "USAGE_ERROR",
        `"inter ${words.join(" ")}" needs a subcommand: ${group.map((g) => g.paths[0]!.join(" ")).join(", ")}.`,
        `Run \`inter ${group[0]!.paths[0]![0]} --help\` to see them.`,
        { argv, suggestions: group.map((g) => g.paths[0]!.join(" ")) },
      );
    const typed = words.slice(0, 2).join(" ");
    const suggestions = [
      ...new Set([
        ...closest(typed, names),
        ...closest(
          words[0] ?? "",
          names.map((n) => n.split(" ")[0]!),
        ),
      ]),
    ].slice(0, 5);
    return new InterError(
      "USAGE_ERROR",
      `No command "${words.join(" ")}".${suggestions.length ? ` Did you mean: ${suggestions.map((s) => `inter ${s}`).join(", ")}?` : ""}`,
      suggestions.length
        ? `Run \`inter ${suggestions[0]} --help\`.`
        : `Commands: ${names.join(", ")}. Run \`inter --help\` for details.`,
      { argv, ...(suggestions.length ? { suggestions } : {}) },
    );
  }
  const command = target ? `inter ${target.paths[0]!.join(" ")}` : "inter";
  const definition = target
    ? createCli(target.paths[0]!)
        .definitions()
        .find((d) => d.path === command)
    : undefined;
  const unknownFlag = /Unsupported option name \("([^"]+)"\)/.exec(error.message)?.[1];
  if (unknownFlag && definition) {
    const flags = definition.options.flatMap((o) => o.definition.split(/[ ,]/).filter((f) => f.startsWith("-")));
    const suggestions = closest(unknownFlag, [...flags, "--project-dir"]);
    return new InterError(
      "USAGE_ERROR",
      `Unknown flag ${unknownFlag} for "${command}".${suggestions.length ? ` Did you mean ${suggestions.join(" or ")}?` : ""}`,
      `Run \`${command} --help\` to see its flags.`,
      { argv, flag: unknownFlag, ...(suggestions.length ? { suggestions } : {}) },
    );
  }
  if (/Not enough positional arguments/.test(error.message) && definition) {
    const positionals = definition.usage.slice(definition.path.length).trim();
    return new InterError(
      "USAGE_ERROR",
      `"${command}" needs ${positionals || "an argument"}.`,
      `Usage: ${definition.usage}. Run \`${command} --help\` for examples.`,
      { argv, missing: positionals },
    );
  }
  return new InterError(
    "USAGE_ERROR",
    oneLine(error.message),
    target
      ? `Run \`${command} --help\` to see its flags.`
      : `Commands: ${names.join(", ")}. Run \`inter --help\` for details.`,
    { argv },
  );
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

export async function main(raw: string[]): Promise<number> {
  const argv = normalizeArgv(raw);
  const options = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  const json = options.includes("--json");
  if (options.length === 1 && (options[0] === "--version" || options[0] === "-v")) {
    process.stdout.write(`${INTER_VERSION}\n`);
    return 0;
  }
  if (options.includes("--help") || options.includes("-h") || options.every((a) => a === "--json"))
    return showHelp(options, json);
  const cli = createCli(argv);
  let command: Command;
  try {
    command = cli.process(argv);
  } catch (error) {
    printError(usageError(argv, error as Error), json);
    return 2;
  }
  try {
    return await command.validateAndExecute();
  } catch (error) {
    printError(
      new InterError(
        "USAGE_ERROR",
        oneLine((error as Error).message),
        "Run `inter <command> --help` to see the allowed values.",
        { argv },
      ),
      json,
    );
    return 2;
  }
}
