/**
 * The files and folders a build looked at, collected while it runs so that a build which changed nothing can leave a
 * record of them (cli/noop-record.ts) — the next identical build checks just these with `lstat` and answers without
 * loading the task graph (cli/noop-fast-path.ts). Collection is off unless a build asks for it.
 */
export interface Trail {
  /** Files read for their content (hashed), by absolute path. */
  files: Set<string>;
  /** Plain paths looked up that were missing: their appearing would change a key. */
  absent: Set<string>;
  /** Folders a glob listed: a file added or removed there changes their mtime. */
  dirs: Set<string>;
  /** Glob patterns too wide to follow by folder mtimes; their presence makes the build ineligible. */
  unbounded: boolean;
}

let active: Trail | undefined;

export function startTrail(): Trail {
  active = { files: new Set(), absent: new Set(), dirs: new Set(), unbounded: false };
  return active;
}

export function stopTrail(): void {
  active = undefined;
}

export function noteFile(absPath: string): void {
  active?.files.add(absPath);
}

export function noteAbsent(absPath: string): void {
  active?.absent.add(absPath);
}

export function noteDirs(dirs: Iterable<string>): void {
  if (active) for (const dir of dirs) active.dirs.add(dir);
}

export function noteUnbounded(): void {
  if (active) active.unbounded = true;
}

export const trailActive = (): boolean => active !== undefined;
