import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One recorded invocation of the candidate, as the shim saw it. */
export interface Invocation {
  argv: string[];
  cwd: string;
  exit_code: number | null;
  stdout: string;
  stderr: string;
  started_at: string;
  duration_ms: number;
}

/**
 * The recording shim: a few lines of bash first on PATH under the binary's name. Each call gets its own folder (so
 * concurrent calls never interleave), runs the real binary with stdin passed through, then replays its stdout and
 * stderr and exits with its code. Output is replayed after the call ends: generated CLIs answer, they do not stream.
 */
export function writeShim(binDir: string, binary: string, realBin: string, callsDir: string): string {
  mkdirSync(binDir, { recursive: true });
  mkdirSync(callsDir, { recursive: true });
  const path = join(binDir, binary);
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  writeFileSync(
    path,
    [
      "#!/usr/bin/env bash",
      `d=$(mktemp -d ${q(callsDir)}/call.XXXXXXXX) || exit 70`,
      `printf '%s\\0' ${q(binary)} "$@" > "$d/argv"`,
      'pwd > "$d/cwd"',
      'date +%s%N > "$d/start"',
      `${q(realBin)} "$@" > "$d/stdout" 2> "$d/stderr"`,
      "code=$?",
      'date +%s%N > "$d/end"',
      'echo "$code" > "$d/exit"',
      'cat "$d/stdout"',
      'cat "$d/stderr" >&2',
      'exit "$code"',
      "",
    ].join("\n"),
  );
  chmodSync(path, 0o755);
  return path;
}

const read = (dir: string, name: string) => {
  try {
    return readFileSync(join(dir, name), "utf8");
  } catch {
    return undefined;
  }
};

/** The calls recorded in an attempt, in start order, each credential value replaced by [REDACTED]. */
export function readInvocations(callsDir: string, secrets: string[]): Invocation[] {
  const scrub = (s: string) => secrets.filter((x) => x.length >= 4).reduce((text, secret) => text.split(secret).join("[REDACTED]"), s);
  let names: string[] = [];
  try {
    names = readdirSync(callsDir).filter((n) => n.startsWith("call."));
  } catch {
    return [];
  }
  return names
    .map((name) => {
      const dir = join(callsDir, name);
      const start = BigInt(read(dir, "start")?.trim() || "0");
      const end = read(dir, "end")?.trim();
      const exit = read(dir, "exit")?.trim();
      return {
        start,
        invocation: {
          argv: (read(dir, "argv") ?? "").split("\0").filter((_, i, all) => i < all.length - 1).map(scrub),
          cwd: (read(dir, "cwd") ?? "").trim(),
          exit_code: exit === undefined || exit === "" ? null : Number(exit),
          stdout: scrub(read(dir, "stdout") ?? ""),
          stderr: scrub(read(dir, "stderr") ?? ""),
          started_at: new Date(Number(start / 1_000_000n)).toISOString(),
          duration_ms: end ? Number((BigInt(end) - start) / 1_000_000n) : -1,
        } satisfies Invocation,
      };
    })
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
    .map((x) => x.invocation);
}
