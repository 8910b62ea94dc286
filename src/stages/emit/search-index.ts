import { Worker } from "node:worker_threads";
import { shippedFile } from "../../core/shipped-files.js";
import { indexCommands } from "../../runtime/command-search.js";
import type { Command } from "../../runtime/manifest.js";

/** What the index is made of: the package's group files (compact JSON texts) and the commands' order across them. */
export interface IndexInput {
  /** Each group file's text: `{ name, commands }`. */
  groupTexts: string[];
  /** Each command's group, in the package's command order (the index numbers documents in the order they are added). */
  order: string[];
  groups: Array<{ name: string; description: string }>;
}

/**
 * Below this many commands the index is made on the spot: a worker's start (a second V8 isolate loading the search
 * module) costs about what indexing a thousand commands does.
 */
export const WORKER_AT = 2000;

/** The serialized search index (SEARCH_INDEX_FILE) of the commands, in their order. */
export function searchIndexText({ groupTexts, order, groups }: IndexInput): string {
  const byGroup = new Map<string, Command[]>();
  for (const text of groupTexts) {
    const group = JSON.parse(text) as { name: string; commands: Command[] };
    byGroup.set(group.name, group.commands);
  }
  const taken = new Map<string, number>();
  const commands = order.map((name) => {
    const at = taken.get(name) ?? 0;
    taken.set(name, at + 1);
    return byGroup.get(name)![at]!;
  });
  return `${JSON.stringify(indexCommands(commands, groups))}\n`;
}

/**
 * The same text, made beside the main thread for a large CLI: indexing Graph beta's 22k commands is ~2 s of emit's
 * ~3.5 s, and the main thread meanwhile writes the package's other files. The group texts are strings, copied to the
 * worker at once (a structured copy of the commands' objects would cost the main thread what it saves). Should the
 * worker fail to start or end, the index is made here instead: the same text either way.
 */
export function searchIndexLater(input: IndexInput): Promise<string> {
  if (input.order.length < WORKER_AT) return Promise.resolve().then(() => searchIndexText(input));
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
      settle(() => searchIndexText(input));
      return;
    }
    worker.once("message", (text: string) => settle(() => text));
    worker.once("error", () => settle(() => searchIndexText(input)));
    worker.once("exit", () => settle(() => searchIndexText(input)));
  });
}
