/**
 * Success answers that are not JSON: bytes written to `--output` exactly as they arrive (streamed through a hash into
 * a temporary file beside the target, renamed into place only when complete, so nothing half-written is ever left),
 * text as a string, and server-sent events collected into a bounded list.
 */
import { nodeCrypto } from "../core/node-crypto.js";
import { createWriteStream, linkSync, renameSync, rmSync, unlinkSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { basename, dirname, join } from "node:path";
import { CliError } from "./errors.js";
import { parseExact } from "./exact.js";

/** What the envelope says of a written answer: where, how many bytes, their sha256 and the type the API gave. */
export interface Written {
  path: string;
  bytes: number;
  sha256: string;
  content_type: string;
}

/** Largest answer written to a file or stdout (`--max-output-bytes`); the in-memory limit is http.ts's own. */
export const DEFAULT_MAX_OUTPUT_BYTES = 2 * 1024 * 1024 * 1024;
/** Server-sent events: at most this many are collected, for at most this long (AGENT_CLI_MAX_EVENTS, AGENT_CLI_STREAM_MS). */
export const EVENT_BOUNDS = {
  events: Number(process.env.AGENT_CLI_MAX_EVENTS) || 100,
  ms: Number(process.env.AGENT_CLI_STREAM_MS) || 10_000,
};

const tooLarge = (limit: number) =>
  new CliError(
    "RESPONSE_TOO_LARGE",
    `The answer is over ${limit} bytes (--max-output-bytes); nothing was kept.`,
    "Raise --max-output-bytes if the file is expected to be this large.",
    { limit },
  );

/**
 * Streams a response to `path` (or stdout for `-`), byte for byte. A file is written beside its target and renamed in:
 * with `force` over an existing file, otherwise linked so that a file that appeared meanwhile is not replaced.
 * Everything is removed on failure. `abort` is how the caller's deadline cuts it short.
 */
export function writeAnswer(
  res: IncomingMessage,
  path: string,
  force: boolean,
  limit: number,
  onFail: (error: CliError) => void,
): Promise<Written> {
  const contentType = String(res.headers["content-type"] ?? "application/octet-stream");
  const hash = nodeCrypto().createHash("sha256");
  let bytes = 0;
  const toStdout = path === "-";
  const temp = toStdout
    ? ""
    : join(dirname(path), `.${basename(path)}.${nodeCrypto().randomBytes(6).toString("hex")}.part`);
  const out = toStdout ? process.stdout : createWriteStream(temp, { flags: "wx", mode: 0o644 });
  // The temporary file goes once its stream has closed: removed earlier, a stream still opening would create it again.
  const cleanup = () => {
    if (toStdout) return;
    const stream = out as ReturnType<typeof createWriteStream>;
    if (stream.closed) rmSync(temp, { force: true });
    else {
      stream.once("close", () => rmSync(temp, { force: true }));
      stream.destroy();
    }
  };
  // Interrupted (Ctrl-C, a supervisor's SIGTERM), the temporary file goes before the process does.
  const interrupted = (signal: NodeJS.Signals) => {
    if (!toStdout) rmSync(temp, { force: true });
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  if (!toStdout) for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, interrupted);
  const settled = () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, interrupted);
  };
  return new Promise<Written>((resolve, reject) => {
    let failed = false;
    const fail = (error: CliError) => {
      if (failed) return;
      failed = true;
      res.unpipe();
      cleanup();
      settled();
      onFail(error);
      reject(error);
    };
    res.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) return fail(tooLarge(limit));
      hash.update(chunk);
      if (!out.write(chunk)) {
        res.pause();
        out.once("drain", () => res.resume());
      }
    });
    res.on("error", (error) =>
      fail(
        error instanceof CliError
          ? error
          : new CliError("NETWORK_ERROR", `The answer was cut off after ${bytes} bytes.`, "Retry the command.", {
              bytes,
            }),
      ),
    );
    res.on("aborted", () =>
      fail(
        new CliError("NETWORK_ERROR", `The answer was cut off after ${bytes} bytes.`, "Retry the command.", { bytes }),
      ),
    );
    out.on("error", (error: NodeJS.ErrnoException) =>
      fail(
        new CliError(
          "OUTPUT_FAILED",
          `--output: writing ${path} failed (${error.code ?? error.message}).`,
          "Check the disk has room and the folder is writable.",
          { path },
        ),
      ),
    );
    res.on("end", () => {
      if (failed) return;
      const expected = Number(res.headers["content-length"]);
      if (Number.isFinite(expected) && res.headers["content-length"] !== undefined && expected !== bytes)
        return fail(
          new CliError("NETWORK_ERROR", `The answer ended after ${bytes} of ${expected} bytes.`, "Retry the command.", {
            bytes,
            expected,
          }),
        );
      const done = () => {
        if (failed) return;
        try {
          if (!toStdout) {
            if (force) renameSync(temp, path);
            else {
              // link fails if the target appeared since it was checked: never replaced without --force.
              linkSync(temp, path);
              unlinkSync(temp);
            }
          }
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          return fail(
            code === "EEXIST"
              ? new CliError(
                  "OUTPUT_EXISTS",
                  `--output: ${path} appeared while the answer was written; it was not overwritten.`,
                  "Give another path, or add --force to replace it.",
                  { path },
                )
              : new CliError(
                  "OUTPUT_FAILED",
                  `--output: ${path} could not be written (${code ?? "error"}).`,
                  "Check the folder is writable.",
                  { path },
                ),
          );
        }
        settled();
        resolve({ path, bytes, sha256: hash.digest("hex"), content_type: contentType });
      };
      if (toStdout) done();
      else out.end(done);
    });
  });
}

/** Reads a text answer as a string, in the charset its Content-Type names (UTF-8 by default). */
export function decodeText(bytes: Buffer, contentType: string): string {
  const charset = /;\s*charset="?([\w.:-]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

/** One server-sent event (HTML Living Standard, "Server-sent events"); data parsed as JSON when it is JSON. */
export interface ServerEvent {
  event: string;
  data: unknown;
  id?: string;
}

/** Why collecting events stopped. */
export type StreamEnd = "end" | "max-events" | "time";

/**
 * Collects events until the stream ends, `maxEvents` are read or `ms` pass; the connection is then closed. A stream
 * that sends no line breaks is bounded by `maxBytes`.
 */
export function collectEvents(
  res: IncomingMessage,
  maxEvents: number,
  ms: number,
  maxBytes: number,
): Promise<{ events: ServerEvent[]; ended: StreamEnd }> {
  return new Promise((resolve, reject) => {
    const events: ServerEvent[] = [];
    const decoder = new TextDecoder("utf-8");
    let buffer = "";
    let size = 0;
    let data: string[] = [];
    let event = "";
    let id: string | undefined;
    let done = false;
    // Settled before the connection is closed: closing it fails the request, which must not win.
    const finish = (ended: StreamEnd) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ events, ended });
      setImmediate(() => res.destroy());
    };
    const timer = setTimeout(() => finish("time"), ms);
    const dispatch = () => {
      if (data.length) {
        const text = data.join("\n");
        let value: unknown = text;
        try {
          value = parseExact(text);
        } catch {
          // plain text data
        }
        events.push({ event: event || "message", data: value, ...(id !== undefined ? { id } : {}) });
      }
      data = [];
      event = "";
      if (events.length >= maxEvents) finish("max-events");
    };
    const line = (text: string) => {
      if (text === "") return dispatch();
      if (text.startsWith(":")) return;
      const colon = text.indexOf(":");
      const field = colon < 0 ? text : text.slice(0, colon);
      const value = colon < 0 ? "" : text.slice(colon + 1).replace(/^ /, "");
      if (field === "data") data.push(value);
      else if (field === "event") event = value;
      else if (field === "id" && !value.includes("\0")) id = value;
    };
    res.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        clearTimeout(timer);
        res.destroy();
        reject(tooLarge(maxBytes));
        return;
      }
      buffer += decoder.decode(chunk, { stream: true });
      let at: number;
      while (!done && (at = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const eol = buffer[at] === "\r" && buffer[at + 1] === "\n" ? 2 : 1;
        line(buffer.slice(0, at));
        buffer = buffer.slice(at + eol);
      }
    });
    res.on("end", () => {
      if (!done) {
        if (buffer) line(buffer);
        finish("end");
      }
    });
    res.on("error", () => finish("end"));
  });
}
