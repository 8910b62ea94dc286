import { InterError } from "../core/errors.js";
import { main } from "./main.js";
import { printError } from "./output.js";

/**
 * A reader that goes away (`inter … --json | head -c 10`, a closed terminal) must not crash inter with an EPIPE
 * stack trace, nor stop a build half-way: what was being written is dropped, the work finishes (cache records and
 * locks end cleanly), and the exit code is the command's own.
 */
function quietWhenClosed(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
    stream.write = (() => true) as typeof stream.write;
  });
}
quietWhenClosed(process.stdout);
quietWhenClosed(process.stderr);

// exitCode rather than exit(): stdout must drain fully, agents pipe it.
let settled = false;
main(process.argv.slice(2)).then((code) => {
  settled = true;
  process.exitCode = code;
});

// Node ends a process whose event loop has nothing left to wait on even while a promise is pending, with exit code 0.
// Were the command left waiting so (a request whose socket went away without settling it; core/held-open.ts is how
// inter's own requests avoid it), it would end as a success that printed nothing: said instead, as an internal error.
process.once("beforeExit", () => {
  if (settled) return;
  printError(
    new InterError(
      "INTERNAL_ERROR",
      "inter stopped waiting on work that can no longer finish, so the command has no result.",
      "Run the command again; if this recurs, report it with the command you ran and INTER_DEBUG=1's output.",
    ),
    process.argv.includes("--json"),
  );
  process.exitCode = 1;
});
