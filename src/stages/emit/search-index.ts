import { Worker } from "node:worker_threads";
import { shippedFile } from "../../core/shipped-files.js";
import { indexCommands } from "../../runtime/command-search.js";
import { relatedWords } from "./related-words.js";
import type { Command } from "../../runtime/manifest.js";

type Group = { name: string; description: string };

/** What the worker is given: the package's group files (compact JSON texts) and the commands' order across them. */
export interface IndexInput {
  /**
   * The group files' texts (`{ name, commands }` each), one after another in UTF-8, shared with the worker rather than
   * copied to it: a large CLI's are tens of megabytes, which a structured copy wrote twice more (serialized, then read
   * into the worker's own strings) before the worker had parsed one.
   */
  groupBytes: SharedArrayBuffer;
  /** Where each group file's text ends in groupBytes. */
  groupEnds: number[];
  /** Each command's group, in the package's command order (the index numbers documents in the order they are added). */
  order: string[];
  groups: Group[];
  /** Whether the worker yields the CPU to the build's other threads (begun in the background). */
  yieldCpu: boolean;
  /** Where the worker counts the commands it has indexed (an Int32Array's first element), for the one who claims it. */
  progress?: SharedArrayBuffer;
}

/**
 * When the index is made in a worker: for many commands (indexing them is then a large part of the build), or for many
 * group files, each a file emit creates while the worker indexes. Creating a file is costly on a virtual machine's
 * disk (more just after many were deleted), so a CLI of a command or two per group (EC2's) spends about as long
 * writing its package as indexing it, and the worker lets the two overlap. Below both, a worker's start (a second V8
 * isolate loading the search module) costs about what it saves.
 */
export const WORKER_AT = { commands: 2000, groupFiles: 200 };

/**
 * The serialized search index (SEARCH_INDEX_FILE) of the commands, in their order, with each command's related words
 * (stages/emit/related-words.ts: WordNet's synonyms of its name's and summary's words).
 */
export const searchIndexText = (
  commands: readonly Command[],
  groups: readonly Group[],
  onIndexed?: (done: number) => void,
): string => `${JSON.stringify(indexCommands(commands, groups, onIndexed, relatedWords))}\n`;

/** The texts laid out one after another in UTF-8 in memory the worker shares, and where each ends. */
function sharedTexts(texts: readonly string[]): Pick<IndexInput, "groupBytes" | "groupEnds"> {
  let size = 0;
  for (const text of texts) size += Buffer.byteLength(text);
  const groupBytes = new SharedArrayBuffer(size);
  const bytes = Buffer.from(groupBytes);
  const groupEnds: number[] = [];
  let at = 0;
  for (const text of texts) groupEnds.push((at += bytes.write(text, at)));
  return { groupBytes, groupEnds };
}

/** The commands back from the worker's input, in their order. */
export function commandsOf({ groupBytes, groupEnds, order }: IndexInput): Command[] {
  const bytes = Buffer.from(groupBytes);
  const byGroup = new Map<string, Command[]>();
  let start = 0;
  for (const end of groupEnds) {
    const group = JSON.parse(bytes.toString("utf8", start, end)) as { name: string; commands: Command[] };
    byGroup.set(group.name, group.commands);
    start = end;
  }
  const taken = new Map<string, number>();
  return order.map((name) => {
    const at = taken.get(name) ?? 0;
    taken.set(name, at + 1);
    return byGroup.get(name)![at]!;
  });
}

/** Whether the index of this many commands in this many group files is made in a worker (WORKER_AT). */
export const indexInWorker = (commands: number, groupFiles: number): boolean =>
  commands >= WORKER_AT.commands || groupFiles >= WORKER_AT.groupFiles;

/**
 * The search index being made; `claim` is its text (made once, however often it is claimed: a watch cycle's emit claims
 * the last cycle's again), and keeps the process alive until the text is there; `drop` stops a job nobody will claim.
 */
export interface IndexJob {
  claim(): Promise<string>;
  drop(): void;
}

/** A worker making the index: its text, or undefined when it failed; and the worker, while it runs. */
interface Indexing {
  made: Promise<string | undefined>;
  worker?: Worker;
}

function startWorker(input: IndexInput, background: boolean): Indexing {
  const indexing: Indexing = { made: Promise.resolve(undefined) };
  try {
    const worker = new Worker(shippedFile("lib/search-index-worker.js"), {
      workerData: input,
      // The index's terms are short-lived objects by the hundred thousand: a larger young generation collects them
      // in fewer scavenges.
      resourceLimits: { maxYoungGenerationSizeMb: 64 },
    });
    indexing.worker = worker;
    indexing.made = new Promise<string | undefined>((resolve) => {
      worker.once("message", (text: string) => resolve(text));
      worker.once("error", () => resolve(undefined));
      worker.once("exit", () => resolve(undefined));
    }).finally(() => (indexing.worker = undefined));
    // After the listeners: adding a "message" listener refs the worker's port again.
    if (background) worker.unref();
  } catch {
    // no worker: made on the spot when claimed
  }
  return indexing;
}

/** The first text of those being made, or undefined when every one failed. */
function firstMade(all: Indexing[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    let failed = 0;
    for (const { made } of all)
      void made.then((text) => (text !== undefined ? resolve(text) : ++failed === all.length && resolve(undefined)));
  });
}

/**
 * The same text, made beside the main thread for a large CLI: indexing its commands is one of the build's longest
 * steps, time the main thread meanwhile spends on other work. The worker is given the group files' texts in memory it
 * shares (a structured copy of the commands' objects would cost the main thread what it saves). A job begun in the
 * background (`background`: by the commands task, stages/emit/package-files.ts says why) yields the CPU to the build's
 * other threads and does not keep the process alive until it is claimed: a run that never reaches emit exits without
 * it. Claimed before it has indexed half the commands, it is raced by a second worker at the process's priority: on a
 * loaded machine the first may hardly have run. Should the workers fail to start or end, the index is made here when
 * claimed: the same text either way.
 */
export function searchIndexLater(
  commands: readonly Command[],
  groups: readonly Group[],
  groupTexts: string[],
  background = false,
): IndexJob {
  const onSpot = () => searchIndexText(commands, groups);
  let claimed: Promise<string> | undefined;
  if (!indexInWorker(commands.length, groupTexts.length))
    return { claim: () => (claimed ??= Promise.resolve().then(onSpot)), drop: () => {} };
  const progress = new SharedArrayBuffer(4);
  const input: IndexInput = {
    ...sharedTexts(groupTexts),
    order: commands.map((c) => c.path[0]!),
    groups: groups.map((g) => ({ name: g.name, description: g.description })),
    yieldCpu: background,
    progress,
  };
  const visible = commands.filter((c) => !c.hidden).length;
  const first = startWorker(input, background);
  const running: Indexing[] = [first];
  const drop = () => {
    for (const { worker } of running) void worker?.terminate();
  };
  return {
    claim: () =>
      (claimed ??= (() => {
        first.worker?.ref();
        // A worker that has indexed half the commands has had the CPU and finishes sooner than a new one could: a
        // race then only takes a core from the build.
        const indexed = Atomics.load(new Int32Array(progress), 0);
        if (background && first.worker && indexed < visible / 2)
          running.push(startWorker({ ...input, yieldCpu: false, progress: undefined }, false));
        return firstMade(running).then((text) => {
          drop();
          return text ?? onSpot();
        });
      })()),
    drop,
  };
}
