/**
 * The commands a request in words asks for, best first: the package's search index (emit wrote it: SEARCH_INDEX_FILE),
 * or the commands indexed on the first search where a package has none, with the brief's tasks as the commands their
 * Skills do them with. One ranking for `<binary> search` and the MCP server's search_commands (docs/generated-cli.md,
 * "Finding a command").
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type MiniSearch from "minisearch";
import {
  indexCommands,
  indexTasks,
  loadIndex,
  SEARCH_INDEX_FILE,
  searchIndex,
  type TaskIndex,
} from "./command-search.js";
import type { Cli } from "./load.js";
import type { Command } from "./manifest.js";

export type CommandFinder = (query: string, group?: string) => Command[];

export function commandFinder(cli: Cli): CommandFinder {
  let index: MiniSearch | undefined;
  let byName: Map<string, Command> | undefined;
  let tasks: TaskIndex | undefined;
  return (query, group) => {
    if (!index) {
      const file = join(cli.dir, SEARCH_INDEX_FILE);
      index = existsSync(file) ? loadIndex(readFileSync(file, "utf8")) : indexCommands(cli.all(), cli.manifest.groups);
    }
    byName ??= new Map(cli.all().map((c) => [c.name, c]));
    tasks ??= indexTasks(cli.manifest.skills);
    return searchIndex(index as Parameters<typeof searchIndex>[0], query, tasks)
      .map((name) => byName!.get(name))
      .filter((c): c is Command => !!c && !c.hidden && (!group || c.path[0] === group));
  };
}
