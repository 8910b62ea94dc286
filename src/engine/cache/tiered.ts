import type { Cache, Hit, KeyStep, LocalCache } from "./cache.js";
import { insideProject, safeReads } from "./safe-paths.js";
import type { RemoteCache } from "./remote.js";
import type { TaskRecord } from "./store.js";

/** The artifact id under which the files a task read (beyond its declared inputs) are shared. */
const readsId = (base: string) => `${base}-reads`;

/**
 * The local cache first, then the shared remote one (when configured and reachable); runs are kept in both. A remote
 * artifact is unpacked into the local store and restored like a local record, so it passes the same checks.
 */
export class TieredCache implements Cache {
  /**
   * @param withReads the task's key with the hashes of the files a list names (engine/graph/key.ts computes keys; a tier
   * only learns which files).
   */
  constructor(
    private readonly local: LocalCache,
    private readonly remote: RemoteCache | undefined,
    private readonly options: { remoteOnly: boolean; withReads(step: KeyStep, reads: string[]): KeyStep },
  ) {}

  async lookup(taskId: string, step: KeyStep): Promise<Hit | undefined> {
    if (!this.options.remoteOnly) {
      const hit = await this.local.lookup(taskId, step);
      if (hit) return hit;
    }
    return this.remote?.available ? this.fromRemote(this.remote, taskId, step) : undefined;
  }

  /**
   * A task that reads files beyond its inputs ($ref'd documents) is keyed by their hashes too, so a machine that has
   * never run it first fetches the list of those files, then the record keyed by them.
   */
  private async fromRemote(remote: RemoteCache, taskId: string, step: KeyStep): Promise<Hit | undefined> {
    let current = step;
    let body = await remote.get(current.fingerprint);
    if (!body && !current.key.reads) {
      const list = await remote.get(readsId(step.base));
      let reads: unknown;
      try {
        reads = list && JSON.parse(list.toString("utf8"));
      } catch {
        // an unreadable list is a miss like any other
      }
      if (reads !== undefined && !safeReads(this.local.root, reads, false))
        remote.reject(
          `a list of read files from it names paths outside the project or files that are not regular (${JSON.stringify(reads).slice(0, 120)}); it was not used`,
        );
      else if (Array.isArray(reads) && reads.length) {
        this.local.store.writeReads(taskId, step.base, reads);
        current = this.options.withReads(step, reads);
        body = await remote.get(current.fingerprint);
      }
    }
    const unpacked = body && remote.unpack(body, { task: taskId, fingerprint: current.fingerprint }, this.local.store);
    const outside = unpacked ? unpacked.outputs.find((o) => !insideProject(this.local.root, o.path)) : undefined;
    if (outside)
      remote.reject(
        `an artifact from it would write ${JSON.stringify(outside.path)}, outside the project; it was not used`,
      );
    const record = outside ? undefined : unpacked;
    const usable = record && this.local.restore(record) ? record : undefined;
    remote.counted(Boolean(usable));
    return usable ? { ...current, record: usable, source: "remote" } : undefined;
  }

  readsOf(taskId: string, base: string): string[] | undefined {
    return this.local.readsOf(taskId, base);
  }

  save(record: TaskRecord, base: string, reads: string[] | undefined, share = true): void {
    this.local.save(record, base, reads);
    if (!this.remote || !share) return;
    if (reads) this.remote.put(readsId(base), Buffer.from(JSON.stringify(reads)), 0);
    const artifact = this.remote.pack(record, this.local.store);
    if (artifact) this.remote.put(record.fingerprint, artifact, record.durationMs);
  }

  keep(file: string): { sha256: string; size: number } {
    return this.local.keep(file);
  }

  latest(taskId: string): TaskRecord | undefined {
    return this.local.latest(taskId);
  }

  markLatest(taskId: string, fingerprint: string): void {
    this.local.markLatest(taskId, fingerprint);
  }
}
