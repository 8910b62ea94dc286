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
 * The recording shim: a few lines of bash first on PATH under the binary's name. Each call writes its own files
 * (named by the start time and the shim's pid, so concurrent calls never interleave), runs the real binary with stdin
 * passed through, then replays its stdout and stderr and exits with its code. Only bash builtins run besides the
 * real binary and two `cat`s: agents make hundreds of calls. Output is replayed after the call ends: generated CLIs
 * answer, they do not stream.
 */
export function writeShim(binDir: string, binary: string, realBin: string, callsDir: string): string {
  mkdirSync(binDir, { recursive: true });
  mkdirSync(callsDir, { recursive: true });
  const path = join(binDir, binary);
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  writeFileSync(
    path,
    [
      "#!/bin/bash",
      `p=${q(callsDir)}/call.$EPOCHREALTIME.$$`,
      `printf '%s\\0' ${q(binary)} "$@" > "$p.argv"`,
      'printf \'%s\\n\' "$PWD" > "$p.cwd"',
      "start=$EPOCHREALTIME",
      `${q(realBin)} "$@" > "$p.out" 2> "$p.err"`,
      "code=$?",
      'printf \'%s %s %s\\n\' "$start" "$EPOCHREALTIME" "$code" > "$p.meta"',
      'cat "$p.out"',
      'cat "$p.err" >&2',
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
    names = [...new Set(readdirSync(callsDir).filter((n) => n.startsWith("call.")).map((n) => n.replace(/\.(argv|cwd|out|err|meta)$/, "")))];
  } catch {
    return [];
  }
  return names
    .map((name) => {
      // $EPOCHREALTIME uses the locale's decimal separator.
      const [started, ended, exit] = (read(callsDir, `${name}.meta`)?.trim() ?? "").replace(/,/g, ".").split(" ");
      const startSeconds = Number(started || name.replace(/,/g, ".").split(".").slice(1, 3).join("."));
      return {
        start: startSeconds,
        invocation: {
          argv: (read(callsDir, `${name}.argv`) ?? "").split("\0").slice(0, -1).map(scrub),
          cwd: (read(callsDir, `${name}.cwd`) ?? "").trim(),
          exit_code: exit === undefined || exit === "" ? null : Number(exit),
          stdout: scrub(read(callsDir, `${name}.out`) ?? ""),
          stderr: scrub(read(callsDir, `${name}.err`) ?? ""),
          started_at: new Date(Math.round(startSeconds * 1000)).toISOString(),
          duration_ms: ended ? Math.round((Number(ended) - startSeconds) * 1000) : -1,
        } satisfies Invocation,
      };
    })
    .sort((a, b) => a.start - b.start)
    .map((x) => x.invocation);
}
