// The worker of stages/emit/search-index.ts: makes the search index of the commands it is given and posts its text.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { commandsOf, searchIndexText, type IndexInput } from "./search-index.js";

const input = workerData as IndexInput;

// Begun beside the skills and design tasks, this thread alone yields to the build's main thread and its collector's
// helpers: it is meant to use what they leave of two cores, not to slow them (at the same priority, skills and design
// took longer). Linux names a thread by its own id (/proc/thread-self); elsewhere it runs at the process's priority.
if (input.yieldCpu)
  try {
    setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), 19);
  } catch {
    // no /proc, or not allowed
  }

const counted = input.progress ? new Int32Array(input.progress) : undefined;
parentPort!.postMessage(
  searchIndexText(commandsOf(input), input.groups, counted ? (done) => Atomics.store(counted, 0, done) : undefined),
);
