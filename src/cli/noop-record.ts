import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findConfig } from "../config/find-config.js";
import { NOOP_DIR, STATE_DIR } from "../config/project-paths.js";
import { INTER_BUILD } from "../core/version.js";
import { compareText } from "../core/text-order.js";

/**
 * What an `inter build` that changed nothing saw, so the next identical build can answer from it alone. Written by
 * the build command (cli/noop-writer.ts), read by the fast path (cli/noop-fast-path.ts) before the command framework
 * and task graph load. Every field is something whose change could change the answer; anything the record cannot
 * vouch for (a lock held, a file changed within the clock's resolution) sends the build down the normal path.
 */
export interface NoopRecord {
  schema: 1;
  inter: string;
  node: string;
  json: boolean;
  cwd: string;
  config: string;
  createdAt: number;
  /** sha256 over the environment (see envDigest): a config may read any variable. */
  env: string;
  /** [path, size, mtimeMs, ctimeMs, ino] of every file the answer rests on. */
  files: Array<[string, number, number, number, number]>;
  /** Paths that were missing and must still be. */
  absent: string[];
  /** [folder, mtimeMs] of every folder a glob listed. */
  dirs: Array<[string, number]>;
  /** What the build printed: for people, stderr with the summary line's duration left open; for --json, its data. */
  stderr?: { before: string; summary: string; after: string };
  data?: { summary: { durationMs: number } };
}

/** Shell bookkeeping that changes between identical commands and that no build reads. */
const VOLATILE_ENV = new Set(["_", "OLDPWD", "SHLVL"]);

export function envDigest(env: NodeJS.ProcessEnv = process.env): string {
  const entries = Object.entries(env)
    .filter(([name, value]) => value !== undefined && !VOLATILE_ENV.has(name))
    .sort(([a], [b]) => compareText(a, b));
  return createHash("sha256").update(JSON.stringify(entries)).digest("hex");
}

/** Where a project's record for one output mode lives. */
export const noopRecordFile = (root: string, json: boolean) =>
  join(root, NOOP_DIR, json ? "build-json.json" : "build.json");

/** The saved record, when it still holds: same inter, Node, mode, config, environment and every file and folder. */
export function readValidRecord(cwd: string, json: boolean): NoopRecord | undefined {
  const config = findConfig(cwd);
  if (!config) return undefined;
  const root = dirname(config);
  let record: NoopRecord;
  try {
    record = JSON.parse(readFileSync(noopRecordFile(root, json), "utf8")) as NoopRecord;
  } catch {
    return undefined;
  }
  if (
    record.schema !== 1 ||
    record.inter !== INTER_BUILD ||
    record.node !== process.version ||
    record.json !== json ||
    record.cwd !== cwd ||
    record.config !== config
  )
    return undefined;
  // Another inter at work in the project may be about to change what the record vouches for.
  if (existsSync(join(root, STATE_DIR, "lock"))) return undefined;
  if (record.env !== envDigest()) return undefined;
  for (const [path, size, mtimeMs, ctimeMs, ino] of record.files) {
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return undefined;
    }
    if (stat.size !== size || stat.mtimeMs !== mtimeMs || stat.ctimeMs !== ctimeMs || stat.ino !== ino)
      return undefined;
  }
  for (const path of record.absent) if (existsSync(path)) return undefined;
  for (const [dir, mtimeMs] of record.dirs) {
    let now = -1;
    try {
      now = lstatSync(dir).mtimeMs;
    } catch {
      // missing, as it may have been
    }
    if (now !== mtimeMs) return undefined;
  }
  return record;
}
