import { createHash } from "node:crypto";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startBroker } from "../../src/evaluation/sandbox/broker.js";
import { frame, frameReader } from "../../src/evaluation/sandbox/broker-protocol.js";
import { tempDir } from "../helpers.js";

// The broker's socket is reachable by the agent under evaluation: whatever it sends, the evaluator keeps running and
// every call it does make is recorded.

const launchEcho = () => (args: string[], _cwd: string) => ({
  file: process.execPath,
  args: ["-e", "process.stdout.write(JSON.stringify(process.argv.slice(1)))", "--", ...args],
  env: { PATH: "/usr/bin:/bin" },
  cwd: "/",
});

async function call(socketPath: string, frames: Buffer[]): Promise<{ out: string; exit: unknown; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let out = "";
    let exit: unknown;
    socket.on(
      "data",
      frameReader(
        (type, body) => {
          if (type === "O") out += body.toString();
          if (type === "X") exit = JSON.parse(body.toString());
        },
        () => {},
      ),
    );
    socket.on("close", () => resolve({ out, exit, closed: true }));
    socket.on("error", () => {});
    for (const f of frames) socket.write(f);
  });
}

describe("the broker against a hostile client", () => {
  it("runs and records a well-formed call, and shrugs off malformed ones without a record or a crash", async () => {
    const broker = await startBroker({
      socket: join(tempDir("inter-broker-test-"), "s"),
      binary: "rooms",
      launch: launchEcho(),
    });
    const good = await call(broker.socket, [
      frame("Q", JSON.stringify({ argv: ["bookings", "list"], cwd: "/attempt/outputs" })),
      frame("D", ""),
    ]);
    expect(good.exit).toEqual({ code: 0, signal: null });
    expect(JSON.parse(good.out)).toEqual(["bookings", "list"]);
    for (const bad of [
      frame("Q", "{not json"),
      frame("Q", JSON.stringify({ argv: ["a\u0000b"], cwd: "/" })),
      frame("Q", JSON.stringify({ argv: "bookings", cwd: "/" })),
      frame("Q", JSON.stringify({ argv: [], cwd: "relative" })),
      Buffer.concat([Buffer.from("Q"), Buffer.from([0xff, 0xff, 0xff, 0xff])]),
    ]) {
      const r = await call(broker.socket, [bad]);
      expect(r.closed).toBe(true);
      expect(r.exit).toBeUndefined();
    }
    const records = await broker.close();
    expect(records.map((r) => r.argv)).toEqual([["rooms", "bookings", "list"]]);
  });

  it("records a call that printed bytes (a download to stdout) by their size and sha256, never as mangled text", async () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256));
    const broker = await startBroker({
      socket: join(tempDir("inter-broker-test-"), "s"),
      binary: "files",
      launch: () => ({
        file: process.execPath,
        args: ["-e", `process.stdout.write(Buffer.from(${JSON.stringify([...bytes])}))`],
        env: {},
        cwd: "/",
      }),
    });
    const r = await call(broker.socket, [
      frame("Q", JSON.stringify({ argv: ["documents", "download", "--output", "-"], cwd: "/" })),
      frame("D", ""),
    ]);
    expect(r.exit).toEqual({ code: 0, signal: null });
    const [record] = await broker.close();
    expect(record!.stdout).toBe("");
    expect(record!.stdout_bytes).toEqual({
      bytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  });

  it("a call still running at close is killed and recorded as truncated", async () => {
    // The broker asks for the call's process when the request arrives: closing once it has, the call is under way.
    let launched!: () => void;
    const asked = new Promise<void>((resolve) => (launched = resolve));
    const broker = await startBroker({
      socket: join(tempDir("inter-broker-test-"), "s"),
      binary: "rooms",
      launch: () => {
        launched();
        return { file: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], env: {}, cwd: "/" };
      },
    });
    const socket = connect(broker.socket);
    socket.on("error", () => {});
    socket.write(frame("Q", JSON.stringify({ argv: ["bookings", "create"], cwd: "/" })));
    await asked;
    const [record] = await broker.close();
    expect(record).toMatchObject({
      argv: ["rooms", "bookings", "create"],
      truncated: true,
      exit_code: null,
      signal: "SIGKILL",
    });
  });
});
