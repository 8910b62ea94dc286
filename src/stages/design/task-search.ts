/**
 * What the command search ranks first for a task's title: the ranking `<binary> search` and MCP's `search_commands`
 * give agents (runtime/command-search.ts), which knows how people phrase what they want (phrasal verbs, words of
 * related meaning, what a question asks for) where Skill linking reads the brief's words against the commands' own.
 * Skill linking adds this command where it linked another (stages/design/skills.ts), ranking its own best candidates
 * for the task: on briefs written blind the two together link the task's action far more often than either alone.
 */
import { indexCommands, searchIndex, type Indexable } from "../../runtime/command-search.js";
import type { CommandSpec } from "./types.js";

/**
 * What of a command the index reads here: its words, summary, operation and phrasings, without the long description,
 * flags and answer's fields, which weigh least and are most of the text. Without WordNet's words (emit's `related`
 * field) too: they cost its loading and moved no task's command.
 */
const named = (command: CommandSpec): Indexable => ({ ...command, details: undefined, flags: [], output: undefined });

/**
 * The name of the command the search ranks first for `request` among the visible `commands`, if any matches; `groups`
 * are the plan's, whose descriptions (the document's tags) the index holds as emit's does.
 */
export function searchFirst(
  commands: readonly CommandSpec[],
  request: string,
  groups: ReadonlyArray<{ name: string; description: string }> = [],
): string | undefined {
  return searchIndex(indexCommands(commands.map(named), groups), request)[0];
}
