import { readFileSync } from "node:fs";
import { join } from "node:path";
import { groupFile, type Command, type GroupFile, type Manifest } from "./manifest.js";

/** The package as one call sees it: the manifest, and command groups read on first use. */
export interface Cli {
  dir: string;
  manifest: Manifest;
  group(name: string): Command[];
  /** Every command of every group: help in full mode, --describe and --mcp-schema of the whole CLI. */
  all(): Command[];
}

/**
 * The package in `dir`. `readJson` reads a command group's file (inspection's reader takes the value emit wrote the
 * same bytes from: core/parsed-json.ts); a call of the CLI parses it.
 */
export function openCli(dir: string, readJson: (file: string) => unknown = readParsed): Cli {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  const cache = new Map<string, Command[]>();
  const known = new Set(manifest.groups.map((g) => g.name));
  const group = (name: string): Command[] => {
    if (!known.has(name)) return [];
    let commands = cache.get(name);
    if (!commands) {
      commands = (readJson(join(dir, groupFile(name))) as GroupFile).commands;
      cache.set(name, commands);
    }
    return commands;
  };
  return { dir, manifest, group, all: () => manifest.groups.flatMap((g) => group(g.name)) };
}

const readParsed = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

export function findCommand(cli: Cli, words: string[]): Command | undefined {
  if (!words.length) return undefined;
  return cli.group(words[0]!).find((c) => c.path.length === words.length && c.path.every((w, i) => w === words[i]));
}
