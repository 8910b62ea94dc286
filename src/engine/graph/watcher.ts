import type { FSWatcher } from "chokidar";
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { expandGlobs, isGlob } from "./files.js";

/** What a build depends on, as the watcher needs it. */
export interface WatchSet {
  root: string;
  /** Absolute paths of every input known now: config sources, expanded input globs, files tasks reported reading. */
  files: Set<string>;
  /** Input globs (project-relative): a file added later that matches one is an input too. */
  globs: string[];
  /** Absolute paths the build writes; events on them are the build's own and never start a cycle. */
  produced: Set<string>;
}

const IGNORED = /(^|[/\\])(node_modules|\.git|\.intermesh)([/\\]|$)/;
/**
 * Editors save in bursts (temp file, rename, chmod); this much quiet ends a burst. It is also the floor of a watch
 * cycle's latency. chokidar drops a file's `change` within 50 ms of the last one it reported for that file (its
 * `_throttle` in `_emit`): with only its events, a build started sooner could read a file whose next save is never
 * reported (at 30 ms test/slow/watch.test.ts's rename-save after a burst was lost). Its `raw` events are not throttled,
 * and each input's raw event counts as a change when the file's size, mtime or inode moved (InputWatcher.raw), so a
 * save is seen however soon it follows the last.
 */
const QUIET_MS = 25;
/**
 * A quiet timer that fires this late was held up by a starved process (a loaded machine): events of the same burst may
 * still be on their way (chokidar stats a file before it reports it). It waits again, as long as it was held up (at most
 * MAX_QUIET_MS) — an event that arrives meanwhile extends the burst — at most LATE_RETRIES times, so a machine that stays
 * loaded still gets its rebuild.
 */
const LATE_MS = 2 * QUIET_MS;
const MAX_QUIET_MS = 1_000;
const LATE_RETRIES = 3;

/** The folder a glob's matches all live under: its static prefix. */
function globBase(root: string, glob: string): { dir: string; deep: boolean } {
  const parts = glob.split("/");
  const i = parts.findIndex(isGlob);
  return { dir: resolve(root, parts.slice(0, i).join("/")), deep: parts.slice(i).length > 1 || parts.includes("**") };
}

/**
 * Watches the folders holding a build's inputs (so atomic rename-saves and newly added files are seen) and calls
 * `onChange` once per burst of relevant changes, with the changed paths. chokidar loads only in watch mode.
 */
export class InputWatcher {
  private shallow?: FSWatcher;
  private deep?: FSWatcher;
  private dirs = "";
  private set?: WatchSet;
  private changed = new Set<string>();
  private maybeAdded = false;
  private timer?: NodeJS.Timeout;
  private late = 0;
  /** Each input's size, mtime and inode when last looked at: a raw event that changes none of them is no save. */
  private seen = new Map<string, string>();

  constructor(private readonly onChange: (paths: string[]) => void) {}

  /** Points the watcher at a new set, re-creating it when the folders changed; resolves once it is watching. */
  async update(set: WatchSet): Promise<void> {
    this.set = set;
    for (const file of set.files) if (!this.seen.has(file)) this.seen.set(file, signature(file));
    const shallow = new Set([...set.files].map((f) => dirname(f)));
    const deep = new Set<string>();
    for (const g of set.globs) {
      const base = globBase(set.root, g);
      (base.deep ? deep : shallow).add(base.dir);
    }
    const key = JSON.stringify([[...shallow].sort(), [...deep].sort()]);
    if (key === this.dirs) return;
    this.dirs = key;
    await this.closeWatchers();
    const { watch } = await import("chokidar");
    const make = async (paths: string[], depth?: number) => {
      if (!paths.length) return undefined;
      const w = watch(paths, {
        ignoreInitial: true,
        atomic: true,
        ignored: (p: string) => IGNORED.test(p),
        ...(depth === undefined ? {} : { depth }),
      });
      w.on("all", (event, path) => this.event(event, resolve(path)));
      w.on("raw", (_event: string, name: unknown, details: unknown) => this.raw(name, details));
      // A folder that does not exist yet is fine: chokidar reports it when it appears.
      w.on("error", () => {});
      await new Promise<void>((r) => w.once("ready", () => r()));
      return w;
    };
    [this.shallow, this.deep] = await Promise.all([make([...shallow], 0), make([...deep])]);
  }

  private event(event: string, path: string): void {
    const set = this.set;
    if (!set || set.produced.has(path)) return;
    if (set.files.has(path)) {
      // chokidar reports a save after it has stat'ed the file; on a loaded machine that report can come after the raw
      // event of the same save was counted and its build done: a file as it was last seen is no new save.
      const now = signature(path);
      if (this.seen.get(path) === now && event === "change") return;
      this.seen.set(path, now);
      this.changed.add(path);
    } else if (event === "add" && set.globs.length) this.maybeAdded = true;
    else return;
    this.late = 0;
    this.arm();
  }

  /**
   * An unthrottled event of the file system: `name` in the folder (or file) `watchedPath`. An input whose size, mtime
   * or inode changed since it was last looked at changed, whether or not chokidar reports it; anything else (an access
   * time, a file that is not an input) is left to chokidar's own events.
   */
  private raw(name: unknown, details: unknown): void {
    const set = this.set;
    const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (!set || typeof name !== "string" || typeof watched !== "string") return;
    for (const path of [resolve(watched, name), resolve(watched)]) {
      if (!set.files.has(path) || set.produced.has(path)) continue;
      const now = signature(path);
      if (this.seen.get(path) === now) return;
      this.seen.set(path, now);
      this.changed.add(path);
      this.late = 0;
      this.arm();
      return;
    }
  }

  private arm(quietMs = QUIET_MS): void {
    clearTimeout(this.timer);
    const due = performance.now() + quietMs;
    this.timer = setTimeout(() => {
      const lateMs = performance.now() - due;
      // Held up this long, the process may be held up as long again before the burst's queued events reach it.
      if (lateMs > LATE_MS && this.late++ < LATE_RETRIES) this.arm(Math.min(lateMs, MAX_QUIET_MS));
      else void this.flush();
    }, quietMs);
  }

  private async flush(): Promise<void> {
    const set = this.set!;
    if (this.maybeAdded) {
      this.maybeAdded = false;
      const found = await expandGlobs(set.root, set.globs);
      for (const files of found.values())
        for (const f of files) {
          const abs = resolve(set.root, f);
          if (!set.files.has(abs) && !set.produced.has(abs)) this.changed.add(abs);
        }
    }
    if (!this.changed.size) return;
    const paths = [...this.changed].sort();
    this.changed.clear();
    this.onChange(paths);
  }

  private async closeWatchers(): Promise<void> {
    await Promise.all([this.shallow?.close(), this.deep?.close()]);
    this.shallow = this.deep = undefined;
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.dirs = "";
    await this.closeWatchers();
  }
}

/**
 * What tells one version of a file from the next without reading it: size, mtime and inode; "gone" when missing. The
 * file systems inputs live on keep mtime to a few milliseconds, well under QUIET_MS; on one that keeps whole seconds a
 * same-size save within chokidar's 50 ms of its last report, after the build read the file, would go unseen.
 */
function signature(file: string): string {
  try {
    const stat = statSync(file, { throwIfNoEntry: false, bigint: true });
    return stat ? `${stat.size}:${stat.mtimeNs}:${stat.ino}` : "gone";
  } catch {
    return "unreadable";
  }
}
