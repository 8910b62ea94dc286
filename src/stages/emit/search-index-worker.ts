// The worker of stages/emit/search-index.ts: makes the search index of the commands it is given and posts its text.
import { parentPort, workerData } from "node:worker_threads";
import { commandsOf, searchIndexText, type IndexInput } from "./search-index.js";

const input = workerData as IndexInput;
parentPort!.postMessage(searchIndexText(commandsOf(input), input.groups));
