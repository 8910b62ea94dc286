import { join } from "node:path";
import type { Fingerprint, FingerprintKey } from "./fingerprint.js";
import { insideProject } from "./safe-paths.js";
import type { StatIndex } from "./stat-index.js";
import type { Store, TaskRecord } from "./store.js";

/**
 * What the scheduler knows of caching (engine/graph/scheduler.ts): ask for a hit, keep a run, keep output bytes. The local
 * store, the remote cache and the two in tiers each implement it; the scheduler sees nothing else.
 */
export interface Cache {
  /**
   * A hit for the task's key, its outputs already restored into the project; undefined on a miss. A tier may refine
   * the key (a remote's list of files the task read joins it), so the key and fingerprint that hit come back too.
   */
  lookup(taskId: string, step: KeyStep): Promise<Hit | undefined>;
  /** Files a run reported reading, filed under the fingerprint of its declared key (`base`). */
  readsOf(taskId: string, base: string): string[] | undefined;
  /** Keeps a run: the files it read beyond its inputs (when it reported any) and its record; `share` false keeps it local. */
  save(record: TaskRecord, base: string, reads: string[] | undefined, share?: boolean): void;
  /**
   * Keeps an output's bytes, read from `file` (which the cache may link to, so nothing may change it in place); returns
   * their sha256 (what records name them by) and size.
   */
  keep(file: string): { sha256: string; size: number };
  /** The task's newest record (what "why did it run" compares with). */
  latest(taskId: string): TaskRecord | undefined;
  /** Marks a hit on an older record as the task's newest. */
  markLatest(taskId: string, fingerprint: string): void;
}

export interface KeyStep {
  /** Fingerprint of the declared key alone. */
  base: Fingerprint;
  key: FingerprintKey;
  fingerprint: Fingerprint;
}

export interface Hit extends KeyStep {
  record: TaskRecord;
  source: "local" | "remote";
}

/**
 * Whether a record can serve as a hit: every output lands inside the project and every output's bytes are in the
 * store. Hits are restored only then, and `inter explain` calls a task up to date only then — one rule for both.
 */
export function usableRecord(record: TaskRecord, root: string, store: Store): boolean {
  return record.outputs.every((entry) => insideProject(root, entry.path) && store.hasObject(entry.sha256));
}

/** This machine's cache: records and objects in `.intermesh/cache/`, restored into the project on a hit. */
export class LocalCache implements Cache {
  constructor(
    readonly store: Store,
    readonly root: string,
    private readonly statIndex: StatIndex,
  ) {}

  async lookup(taskId: string, step: KeyStep): Promise<Hit | undefined> {
    const record = this.store.readRecord(taskId, step.fingerprint);
    return record && this.restore(record) ? { ...step, record, source: "local" } : undefined;
  }

  /** Writes a usable record's outputs into the project where they differ; false when it cannot serve as a hit. */
  restore(record: TaskRecord): boolean {
    // A record that would write outside the project (../, absolute, through a link) is no hit, wherever it came from.
    if (!usableRecord(record, this.root, this.store)) return false;
    for (const entry of record.outputs) {
      const abs = join(this.root, entry.path);
      if (this.statIndex.hash(abs, "sha256") === entry.sha256) continue;
      if (!this.store.restore(this.root, entry)) return false;
      this.statIndex.forget(abs);
    }
    return true;
  }

  readsOf(taskId: string, base: string): string[] | undefined {
    return this.store.readReads(taskId, base);
  }

  save(record: TaskRecord, base: string, reads: string[] | undefined): void {
    if (reads) this.store.writeReads(record.task, base, reads);
    this.store.writeRecord(record);
  }

  keep(file: string): { sha256: string; size: number } {
    return this.store.putFile(file);
  }

  latest(taskId: string): TaskRecord | undefined {
    return this.store.latestRecord(taskId);
  }

  markLatest(taskId: string, fingerprint: string): void {
    this.store.touchLatest(taskId, fingerprint);
  }
}
