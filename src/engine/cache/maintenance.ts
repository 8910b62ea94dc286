import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { TMP_MARKER } from "../../core/atomic.js";
import { processAlive } from "../../core/process.js";
import { insideProject, safeReads } from "./safe-paths.js";
import { safeReaddir, type Store } from "./store.js";

const UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9 };

export function parseSize(value: string | number): number {
  if (typeof value === "number") return value;
  const match = /^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB)?$/i.exec(value.trim())!;
  return Math.round(Number(match[1]) * UNITS[(match[2] ?? "B").toUpperCase()]!);
}

export interface VerifyReport {
  objects: number;
  records: number;
  corruptObjects: string[];
  unreadableRecords: string[];
  /** Records whose outputs are gone from the store: they stay, and count as misses until rebuilt. */
  incompleteRecords: Array<{ task: string; fingerprint: string }>;
  /** Records that would write outside the project, and lists of read files naming what may not be hashed: removed. */
  unsafeRecords: Array<{ task: string; fingerprint: string; path: string }>;
  unsafeReads: string[];
}

/**
 * Re-hashes every object and checks every record against `root`: damaged objects, unreadable records, records whose
 * outputs would land outside the project and read-lists naming folders, devices or outside paths are removed (each
 * would be a miss anyway; removing them keeps `verify` and the next build agreeing).
 */
export function verifyStore(store: Store, root: string): VerifyReport {
  const corruptObjects: string[] = [];
  const objects = store.listObjects();
  for (const object of objects) {
    if (!store.readObject(object.hash)) corruptObjects.push(object.hash);
  }
  const unreadableRecords: string[] = [];
  const unsafeRecords: VerifyReport["unsafeRecords"] = [];
  const incompleteRecords: VerifyReport["incompleteRecords"] = [];
  let records = 0;
  const base = join(store.dir, "records");
  for (const taskDir of safeReaddir(base)) {
    for (const name of safeReaddir(join(base, taskDir))) {
      if (name.includes(TMP_MARKER)) continue;
      records += 1;
      const record = store.readRecord(decodeURIComponent(taskDir), name.replace(/\.json$/, ""));
      if (!record) {
        unreadableRecords.push(`${decodeURIComponent(taskDir)}/${name}`);
        continue;
      }
      const outside = record.outputs.find((o) => !insideProject(root, o.path));
      if (outside) {
        unsafeRecords.push({ task: record.task, fingerprint: record.fingerprint, path: String(outside.path) });
        rmSync(join(base, taskDir, name), { force: true });
        continue;
      }
      if (!record.outputs.every((o) => store.hasObject(o.sha256)))
        incompleteRecords.push({ task: record.task, fingerprint: record.fingerprint });
    }
  }
  const unsafeReads: string[] = [];
  const readsBase = join(store.dir, "reads");
  for (const taskDir of safeReaddir(readsBase)) {
    for (const name of safeReaddir(join(readsBase, taskDir))) {
      if (name.includes(TMP_MARKER)) continue;
      const file = join(readsBase, taskDir, name);
      let reads: unknown;
      try {
        reads = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        reads = undefined;
      }
      // Absolute paths are allowed: this machine's own runs record files outside the project that way.
      if (!safeReads(root, reads, true)) {
        unsafeReads.push(`${decodeURIComponent(taskDir)}/${name}`);
        rmSync(file, { force: true });
      }
    }
  }
  return {
    objects: objects.length,
    records,
    corruptObjects,
    unreadableRecords,
    incompleteRecords,
    unsafeRecords,
    unsafeReads,
  };
}

export interface GcReport {
  keptRecords: number;
  keptBytes: number;
  removedRecords: number;
  removedObjects: number;
  freedBytes: number;
  removedTemp: number;
}

/** Temp files of processes that no longer exist (killed mid-write); a live writer's temp file is left alone. */
function sweepTemp(dir: string): number {
  let removed = 0;
  for (const name of safeReaddir(dir)) {
    const path = join(dir, name);
    const marker = name.indexOf(TMP_MARKER);
    if (marker >= 0) {
      const pid = Number(name.slice(marker + TMP_MARKER.length).split("-")[0]);
      if (!processAlive(pid)) {
        rmSync(path, { force: true });
        removed += 1;
      }
    } else if (statSync(path).isDirectory()) {
      removed += sweepTemp(path);
    }
  }
  return removed;
}

export function collectGarbage(store: Store, maxBytes: number): GcReport {
  const sizes = new Map(store.listObjects().map((o) => [o.hash, o.size]));
  const newest = store.allLatest();
  const entries = store
    .listRecords()
    .map((e) => ({ ...e, latest: newest.has(`${e.record.task}\0${e.record.fingerprint}`) }))
    // Each task's newest record (of every project sharing the store) first, then the rest newest first.
    .sort((a, b) => Number(b.latest) - Number(a.latest) || b.mtimeMs - a.mtimeMs);
  const kept = new Set<string>();
  let keptBytes = 0;
  let keptRecords = 0;
  let removedRecords = 0;
  for (const entry of entries) {
    const fresh = entry.record.outputs.filter((o) => !kept.has(o.sha256));
    const cost = fresh.reduce((n, o) => n + (sizes.get(o.sha256) ?? 0), 0);
    if (entry.latest || keptBytes + cost <= maxBytes) {
      for (const o of fresh) kept.add(o.sha256);
      keptBytes += cost;
      keptRecords += 1;
    } else {
      rmSync(entry.file, { force: true });
      removedRecords += 1;
    }
  }
  let removedObjects = 0;
  let freedBytes = 0;
  for (const [hash, size] of sizes) {
    if (kept.has(hash)) continue;
    rmSync(store.objectPath(hash), { force: true });
    removedObjects += 1;
    freedBytes += size;
  }
  for (const legacy of store.legacyObjectFolders()) {
    rmSync(legacy.file, { recursive: true, force: true });
    removedObjects += legacy.objects;
    freedBytes += legacy.size;
  }
  const removedTemp = sweepTemp(store.dir);
  return { keptRecords, keptBytes, removedRecords, removedObjects, freedBytes, removedTemp };
}
