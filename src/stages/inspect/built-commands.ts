import { describeCommands } from "../../runtime/help.js";
import { type Cli, openCli } from "../../runtime/load.js";
import { readJsonFile } from "../../core/parsed-json.js";
import type { Json, JsonObject } from "./probe.js";

/**
 * What inter built, read from the package itself (issue #46): the commands as the package's manifest (manifest.json and
 * commands/<group>.json) says `--describe` prints them, without asking the CLI to print all of them. For a large CLI
 * that whole answer (`--describe --all`) is tens of megabytes to produce, pass back and parse, when the rules that look
 * at every command need only what the manifest holds. The CLI is still asked: a sample of its own `--describe` answers
 * (stages/inspect/command-sample.ts) must match this reading command for command, or the inspection falls back to
 * `--describe --all` (stages/inspect/probes.ts).
 */
export interface BuiltCommands {
  /** Each visible command as `<command> --describe` prints it, in the manifest's order. */
  commands: JsonObject[];
}

/**
 * The package as inter's runtime reads it: manifest.json, and each commands/<group>.json on first use, read once for
 * the whole inspection (the rules, the probe pool and the names' operations all take its commands from here).
 * Undefined without a manifest this inter reads.
 */
export function openPackage(packageRoot: string | undefined): Cli | undefined {
  if (!packageRoot) return undefined;
  try {
    const cli = openCli(packageRoot, readJsonFile);
    return Array.isArray(cli.manifest.groups) ? cli : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The package's commands as its manifest describes them, or undefined when it has no manifest this inter reads (a CLI
 * inter did not generate, or a manifest of another shape): then only the CLI's own answers are judged. Every group's
 * file is read: on a large CLI that takes a while, so it is done while the probe host answers.
 */
export function builtCommands(cli: Cli | undefined): BuiltCommands | undefined {
  if (!cli) return undefined;
  try {
    // Plain data, as the CLI would print it: compared with what it did print as JSON text (sameCommand).
    const commands = describeCommands(cli, cli.all()).commands as unknown as JsonObject[];
    return commands.length ? { commands } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The manifest's groups that have visible commands, with how many, as manifest.json counts them: no group's file is
 * read, so what depends on them alone (the --mcp-schema probe's scope) is asked before the commands are.
 */
export function visibleGroups(cli: Cli | undefined): Array<{ name: string; commands: number }> {
  return (cli?.manifest.groups ?? []).flatMap((g) =>
    typeof g?.name === "string" && Number.isSafeInteger(g.count) && g.count > 0
      ? [{ name: g.name, commands: g.count }]
      : [],
  );
}

/** Whether the CLI's own `--describe` of a command printed what the manifest says it prints. */
export const sameCommand = (built: JsonObject, printed: Json | undefined): boolean =>
  JSON.stringify(built) === JSON.stringify(printed);
