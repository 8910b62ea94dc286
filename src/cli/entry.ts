import { main } from "./main.js";

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
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
