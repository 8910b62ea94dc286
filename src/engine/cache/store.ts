import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { cacheWrite, linkOrWriteAtomic, TMP_MARKER, writeFileAtomic } from "../../core/atomic.js";
import { sha256, sha256OfFile } from "../../core/hash.js";
import type { Digest, Fingerprint, FingerprintKey } from "./fingerprint.js";

export interface OutputEntry {
  /** Path relative to the project root, with forward slashes. */
  path: string;
  sha256: string;
  size: number;
  mode: number;
}

/** One record per fingerprint: everything needed to restore a task's outputs and explain why it ran. */
export interface TaskRecord {
  schema: 1;
  task: string;
  fingerprint: Fingerprint;
  key: FingerprintKey;
  createdAt: string;
  durationMs: number;
  outputs: OutputEntry[];
  /** What the task returned (e.g. the candidate hash); dependents read it. */
  data: unknown;
  /** Warnings of the run that made this record, replayed on every hit. */
  warnings: string[];
  /** Hash over outputs and data: what dependents' fingerprints see of this task. */
  digest: Digest;
}

export interface LatestPointer {
  fingerprint: string;
  previous?: string;
}

const encode = (taskId: string) => encodeURIComponent(taskId);
const OBJECT_NAME = /^[0-9a-f]{64}$/;

/**
 * Content-addressed objects (named by sha256, verified on every read) plus one JSON record per task fingerprint.
 * Every write is atomic, so concurrent processes and kill -9 leave either nothing or a complete file.
 */
export class Store {
  /** Set by the first write the cache folder refused (read-only, full, no permission); later writes are skipped. */
  unwritable: string | undefined;

  /**
   * @param owner names the project using the store: several projects may share one `cache.dir`, and each keeps its
   * own "latest" pointers, so one project's `cache gc` keeps the others' newest records.
   */
  constructor(
    readonly dir: string,
    readonly owner?: string,
  ) {}

  /** Writes into the cache unless it has refused one already; a refusal is remembered, never thrown. */
  private write(write: () => void): void {
    if (this.unwritable) return;
    const code = cacheWrite(write);
    if (code)
      this.unwritable = `${code}: the cache folder ${this.dir} cannot be written, so this run's results are not cached (hits are still served)`;
  }

  /**
   * One folder of objects, not git's 256 folders by the first two hex digits: a cold build of a hundred outputs made
   * most of those folders, and on a virtual machine's disk making one costs about what writing a file does. A cache of
   * a few thousand objects lists fine in one folder.
   */
  objectPath(hash: string): string {
    return join(this.dir, "objects", hash);
  }

  recordPath(taskId: string, fingerprint: string): string {
    return join(this.dir, "records", encode(taskId), `${fingerprint}.json`);
  }

  /** The file holding the task's newest-record pointer for this project. */
  latestFile(taskId: string): string {
    return this.latestPath(taskId);
  }

  private latestPath(taskId: string, owner = this.owner): string {
    return owner
      ? join(this.dir, "latest", owner, `${encode(taskId)}.json`)
      : join(this.dir, "latest", `${encode(taskId)}.json`);
  }

  /** Keeps bytes as an object. */
  putObject(content: Buffer): string {
    const hash = sha256(content);
    const file = this.objectPath(hash);
    if (!existsSync(file)) this.write(() => writeFileAtomic(file, content));
    return hash;
  }

  /**
   * Keeps a file's bytes as an object, linked where it can be; the file is hashed through one buffer and read whole
   * only when it must be copied (across file systems).
   */
  putFile(from: string): { sha256: string; size: number } {
    const kept = sha256OfFile(from);
    const file = this.objectPath(kept.sha256);
    if (!existsSync(file)) this.write(() => linkOrWriteAtomic(from, file, () => readFileSync(from)));
    return kept;
  }

  hasObject(hash: string): boolean {
    return existsSync(this.objectPath(hash));
  }

  /** The object's bytes, or undefined when missing or corrupt (a corrupt object is deleted so it gets rewritten). */
  readObject(hash: string): Buffer | undefined {
    const file = this.objectPath(hash);
    let content: Buffer;
    try {
      content = readFileSync(file);
    } catch {
      return undefined;
    }
    if (sha256(content) !== hash) {
      rmSync(file, { force: true });
      return undefined;
    }
    return content;
  }

  /** Writes an output back into the project; false when its object is gone or damaged. */
  restore(root: string, entry: OutputEntry): boolean {
    const content = this.readObject(entry.sha256);
    if (!content) return false;
    const target = join(root, entry.path);
    writeFileAtomic(target, content);
    chmodSync(target, entry.mode & 0o777);
    return true;
  }

  readRecord(taskId: string, fingerprint: string): TaskRecord | undefined {
    const file = this.recordPath(taskId, fingerprint);
    try {
      const record = JSON.parse(readFileSync(file, "utf8")) as TaskRecord;
      if (
        record?.schema === 1 &&
        record.fingerprint === fingerprint &&
        Array.isArray(record.outputs) &&
        Array.isArray(record.warnings)
      )
        return record;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    }
    // Unreadable or foreign: drop it so the task runs and writes a good one.
    rmSync(file, { force: true });
    return undefined;
  }

  writeRecord(record: TaskRecord): void {
    this.write(() =>
      writeFileAtomic(this.recordPath(record.task, record.fingerprint), JSON.stringify(record, null, 1)),
    );
    const latest = this.readLatest(record.task);
    const pointer: LatestPointer =
      latest && latest.fingerprint !== record.fingerprint
        ? { fingerprint: record.fingerprint, previous: latest.fingerprint }
        : { fingerprint: record.fingerprint, previous: latest?.previous };
    this.write(() => writeFileAtomic(this.latestPath(record.task), JSON.stringify(pointer)));
  }

  /** Marks an existing record as the task's newest (a cache hit on an older fingerprint). */
  touchLatest(taskId: string, fingerprint: string): void {
    const latest = this.readLatest(taskId);
    if (latest?.fingerprint === fingerprint) return;
    this.write(() =>
      writeFileAtomic(this.latestPath(taskId), JSON.stringify({ fingerprint, previous: latest?.fingerprint })),
    );
  }

  /** Files a run reported reading, filed under the fingerprint of its declared inputs alone. */
  readReads(taskId: string, baseFingerprint: string): string[] | undefined {
    try {
      const reads = JSON.parse(
        readFileSync(join(this.dir, "reads", encode(taskId), `${baseFingerprint}.json`), "utf8"),
      ) as unknown;
      return Array.isArray(reads) && reads.every((r) => typeof r === "string") ? reads : undefined;
    } catch {
      return undefined;
    }
  }

  writeReads(taskId: string, baseFingerprint: string, reads: string[]): void {
    this.write(() =>
      writeFileAtomic(join(this.dir, "reads", encode(taskId), `${baseFingerprint}.json`), JSON.stringify(reads)),
    );
  }

  readLatest(taskId: string): LatestPointer | undefined {
    // A store written before pointers were kept per project has them at the top of latest/.
    return readPointer(this.latestPath(taskId)) ?? (this.owner ? readPointer(this.latestPath(taskId, "")) : undefined);
  }

  /** The task's newest record in this project: what "why did it run" compares with, what status reports. */
  latestRecord(taskId: string): TaskRecord | undefined {
    const pointer = this.readLatest(taskId);
    return pointer ? this.readRecord(taskId, pointer.fingerprint) : undefined;
  }

  /** `task\0fingerprint` of the newest record of every task, for every project that shares this store. */
  allLatest(): Set<string> {
    const out = new Set<string>();
    const base = join(this.dir, "latest");
    const add = (file: string, name: string) => {
      const pointer = readPointer(file);
      if (pointer) out.add(`${decodeURIComponent(name.replace(/\.json$/, ""))}\0${pointer.fingerprint}`);
    };
    for (const name of safeReaddir(base)) {
      if (name.includes(TMP_MARKER)) continue;
      if (name.endsWith(".json")) add(join(base, name), name);
      else
        for (const inner of safeReaddir(join(base, name)))
          if (inner.endsWith(".json") && !inner.includes(TMP_MARKER)) add(join(base, name, inner), inner);
    }
    return out;
  }

  /** Every record in the store, unreadable ones skipped. */
  listRecords(): Array<{ record: TaskRecord; file: string; mtimeMs: number }> {
    const out: Array<{ record: TaskRecord; file: string; mtimeMs: number }> = [];
    const base = join(this.dir, "records");
    for (const taskDir of safeReaddir(base)) {
      for (const name of safeReaddir(join(base, taskDir))) {
        if (!name.endsWith(".json") || name.includes(TMP_MARKER)) continue;
        const file = join(base, taskDir, name);
        try {
          const record = JSON.parse(readFileSync(file, "utf8")) as TaskRecord;
          out.push({ record, file, mtimeMs: statSync(file).mtimeMs });
        } catch {
          // counted by verify
        }
      }
    }
    return out;
  }

  listObjects(): Array<{ hash: string; file: string; size: number }> {
    const out: Array<{ hash: string; file: string; size: number }> = [];
    const base = join(this.dir, "objects");
    for (const name of safeReaddir(base)) {
      if (!OBJECT_NAME.test(name)) continue;
      const file = join(base, name);
      out.push({ hash: name, file, size: statSync(file).size });
    }
    return out;
  }

  /**
   * The folders objects were kept in by earlier versions (objects/<first two hex digits>/): nothing reads them now, so
   * `cache gc` removes them whole.
   */
  legacyObjectFolders(): Array<{ file: string; objects: number; size: number }> {
    const base = join(this.dir, "objects");
    return safeReaddir(base)
      .filter((name) => /^[0-9a-f]{2}$/.test(name) && statSync(join(base, name)).isDirectory())
      .map((name) => {
        const names = safeReaddir(join(base, name));
        let size = 0;
        for (const object of names) size += statSync(join(base, name, object), { throwIfNoEntry: false })?.size ?? 0;
        return { file: join(base, name), objects: names.length, size };
      });
  }
}

function readPointer(file: string): LatestPointer | undefined {
  try {
    const pointer = JSON.parse(readFileSync(file, "utf8")) as LatestPointer;
    return typeof pointer?.fingerprint === "string" ? pointer : undefined;
  } catch {
    return undefined;
  }
}

export function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
