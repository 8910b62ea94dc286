/**
 * An argv that runs `argv` under a small `sh` watchdog which stops it (SIGTERM) when the inter process `parent` is
 * gone — even after `kill -9`, which runs none of inter's own cleanup. The command's exit status is the watchdog's, and
 * it is waited for directly, so a command that ends on its own adds no delay.
 */
export function underWatchdog(name: string, argv: string[], parent = process.pid): string[] {
  return ["sh", "-c", WATCHDOG, name, String(parent), ...argv];
}

const WATCHDOG = [
  'parent=$1; shift; "$@" & child=$!',
  // The guard holds none of the command's pipes, so its last `sleep` cannot keep a reader waiting for end of output.
  '( while kill -0 "$parent" 2>/dev/null; do sleep 0.2; done; kill -TERM "$child" 2>/dev/null ) </dev/null >/dev/null 2>&1 & guard=$!',
  "trap 'kill -TERM $child 2>/dev/null' TERM INT HUP",
  // A signal interrupts `wait`; wait again for the command's own status.
  "wait $child; status=$?; while kill -0 $child 2>/dev/null; do wait $child; status=$?; done",
  "kill $guard 2>/dev/null; exit $status",
].join("\n");
