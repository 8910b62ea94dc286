import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { TMP_MARKER } from "./atomic.js";
import { processAlive } from "./lock.js";
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
}

export function verifyStore(store: Store): VerifyReport {
  const corruptObjects: string[] = [];
  const objects = store.listObjects();
  for (const object of objects) {
    if (!store.readObject(object.hash)) corruptObjects.push(object.hash);
  }
  const unreadableRecords: string[] = [];
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
      if (!record.outputs.every((o) => store.hasObject(o.sha256))) incompleteRecords.push({ task: record.task, fingerprint: record.fingerprint });
    }
  }
  return { objects: objects.length, records, corruptObjects, unreadableRecords, incompleteRecords };
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
  const entries = store
    .listRecords()
    .map((e) => ({ ...e, latest: store.readLatest(e.record.task)?.fingerprint === e.record.fingerprint }))
    // Each task's newest record first, then the rest newest first.
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
  const removedTemp = sweepTemp(store.dir);
  return { keptRecords, keptBytes, removedRecords, removedObjects, freedBytes, removedTemp };
}
