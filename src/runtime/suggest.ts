import { closest } from "../core/edit-distance.js";
import { CliError } from "./errors.js";
import type { Cli } from "./load.js";
import type { Command } from "./manifest.js";
import { count } from "../core/plural.js";

/** How many of a group's commands an error names when none is close to what was typed (all are in its --help). */
export const LISTED_COMMANDS = 20;

const listing = (binary: string, names: string[], total: number, scope: string) =>
  `${names.map((n) => `${binary} ${n}`).join(", ")}${total > names.length ? `, and ${total - names.length} more (${binary} ${scope} --help)` : ""}`;

/**
 * UNKNOWN_COMMAND for words that name no command. In a known group, every command of the group is a candidate: the
 * ones within edit distance of the typed action (`create` → `creat`) are suggested, and when none is close the
 * group's commands are listed, so the answer always holds a command that exists. An unknown group suggests groups.
 */
export function unknownCommand(cli: Cli, words: string[]): CliError {
  const { binary } = cli.manifest.product;
  const message = `"${binary} ${words.join(" ")}" is not a command.`;
  const group = cli.group(words[0]!).filter((c) => !c.hidden);
  if (!group.length) {
    const near = closest(
      words[0]!,
      cli.manifest.groups.map((g) => g.name),
    );
    return new CliError(
      "UNKNOWN_COMMAND",
      message,
      near.length
        ? `Did you mean: ${near.map((n) => `${binary} ${n}`).join(", ")}?`
        : `Run ${binary} --help for the commands.`,
      { words, ...(near.length ? { suggestions: near } : {}) },
    );
  }
  const rest = (c: Command) => c.path.slice(1).join(" ");
  const near = closest(words.slice(1).join(" "), group.map(rest)).map((r) => `${words[0]} ${r}`);
  if (near.length)
    return new CliError("UNKNOWN_COMMAND", message, `Did you mean: ${near.map((n) => `${binary} ${n}`).join(", ")}?`, {
      words,
      suggestions: near,
    });
  const listed = group.slice(0, LISTED_COMMANDS).map((c) => c.name);
  return new CliError(
    "UNKNOWN_COMMAND",
    message,
    `"${words[0]}" has ${count(group.length, "command")}: ${listing(binary, listed, group.length, words[0]!)}.`,
    { words, suggestions: listed },
  );
}

/** MISSING_COMMAND for a group (or sub-group) named without its action: its commands, to pick one. */
export function missingCommand(cli: Cli, words: string[], group: Command[]): CliError {
  const { binary } = cli.manifest.product;
  const scope = words.join(" ");
  const listed = group.slice(0, LISTED_COMMANDS).map((c) => c.name);
  return new CliError(
    "MISSING_COMMAND",
    `"${binary} ${scope}" is a group of ${count(group.length, "command")}; name one.`,
    `Use one of: ${listing(binary, listed, group.length, scope)}.`,
    { words, commands: group.slice(0, 50).map((c) => c.name), suggestions: listed },
  );
}
