import { Worker } from "node:worker_threads";
import { shippedFile } from "../../core/shipped-files.js";
import { indexCommands } from "../../runtime/command-search.js";
import type { Command } from "../../runtime/manifest.js";

type Group = { name: string; description: string };

/** What the worker is given: the package's group files (compact JSON texts) and the commands' order across them. */
export interface IndexInput {
  /** Each group file's text: `{ name, commands }`. */
  groupTexts: string[];
  /** Each command's group, in the package's command order (the index numbers documents in the order they are added). */
  order: string[];
  groups: Group[];
}

/**
 * Below this many commands the index is made on the spot: a worker's start (a second V8 isolate loading the search
 * module) costs about what indexing a thousand commands does.
 */
export const WORKER_AT = 2000;

/** The serialized search index (SEARCH_INDEX_FILE) of the commands, in their order. */
export const searchIndexText = (commands: readonly Command[], groups: readonly Group[]): string =>
  `${JSON.stringify(indexCommands(commands, groups))}\n`;

/** The commands back from the worker's input, in their order. */
export function commandsOf({ groupTexts, order }: IndexInput): Command[] {
  const byGroup = new Map<string, Command[]>();
  for (const text of groupTexts) {
    const group = JSON.parse(text) as { name: string; commands: Command[] };
    byGroup.set(group.name, group.commands);
  }
  const taken = new Map<string, number>();
  return order.map((name) => {
    const at = taken.get(name) ?? 0;
    taken.set(name, at + 1);
    return byGroup.get(name)![at]!;
  });
}

/**
 * The same text, made beside the main thread for a large CLI: indexing Graph beta's 22k commands is ~2 s of emit's
 * ~3.5 s, and the main thread meanwhile writes the package's other files. The worker is given the group files' texts,
 * strings copied at once (a structured copy of the commands' objects would cost the main thread what it saves).
 * Should it fail to start or end, the index is made here instead: the same text either way.
 */
export function searchIndexLater(
  commands: readonly Command[],
  groups: readonly Group[],
  groupTexts: string[],
): Promise<string> {
  const onSpot = () => searchIndexText(commands, groups);
  if (commands.length < WORKER_AT) return Promise.resolve().then(onSpot);
  const input: IndexInput = {
    groupTexts,
    order: commands.map((c) => c.path[0]!),
    groups: groups.map((g) => ({ name: g.name, description: g.description })),
  };
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const settle = (make: () => string) => {
      if (settled) return;
      settled = true;
      try {
        resolve(make());
      } catch (error) {
        reject(error);
      }
    };
    let worker: Worker;
    try {
      worker = new Worker(shippedFile("lib/search-index-worker.js"), {
        workerData: input,
        // The index's terms are short-lived objects by the hundred thousand: a larger young generation collects them
        // in fewer scavenges.
        resourceLimits: { maxYoungGenerationSizeMb: 64 },
      });
    } catch {
      settle(onSpot);
      return;
    }
    worker.once("message", (text: string) => settle(() => text));
    worker.once("error", () => settle(onSpot));
    worker.once("exit", () => settle(onSpot));
  });
}
