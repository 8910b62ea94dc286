import { execa } from "execa";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAndInstall, exampleProject } from "../e2e/example-api.js";

// Half a minute of waiting on a socket, which is the point: the bound the docs give for headers (docs/generated-cli.md,
// "MCP server") is 30 s, held to the second. Node checks `headersTimeout` on its own 30 s interval unless told, which
// let a client that dribbles its headers hold a connection for up to 60 s.
let prefix: string;
let server: ReturnType<typeof execa> | undefined;
beforeAll(async () => {
  ({ prefix } = await buildAndInstall(exampleProject({ warm: true })));
}, 300_000);
afterAll(() => {
  server?.kill("SIGKILL");
});

describe("rooms-mcp over HTTP: headers that never end", () => {
  it("cuts a client that dribbles its headers at 30 s, not later", async () => {
    server = execa(join(prefix, "node_modules", ".bin", "rooms-mcp"), ["--http", "127.0.0.1:0"], {
      reject: false,
      buffer: false,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ROOMS_BASE_URL: "http://127.0.0.1:9" },
    });
    const url = await new Promise<string>((resolve) => {
      let said = "";
      server!.stderr!.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        const match = /"listening":"([^"]+)"/.exec(said);
        if (match) resolve(match[1]!);
      });
    });
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.on("error", () => {});
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    const opened = performance.now();
    socket.write("POST /mcp HTTP/1.1\r\n");
    // A header line every 5 s: the connection is never idle, and its headers never end.
    const dribble = setInterval(() => socket.write(`X-Slow-${Date.now()}: 1\r\n`), 5_000);
    // Cut: the server answers 408 and ends its side, or drops the connection (read, so its end is seen).
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    await new Promise<void>((resolve) => {
      socket.on("end", () => resolve());
      socket.on("close", () => resolve());
    });
    clearInterval(dribble);
    const heldMs = performance.now() - opened;
    console.log(`headers cut after ${(heldMs / 1000).toFixed(1)} s`);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(heldMs).toBeGreaterThanOrEqual(29_500);
    // The docs promise 30 ± 2 s; a loaded machine may run the server's check late, never by half a minute.
    expect(heldMs).toBeLessThan(40_000);
  }, 120_000);
});
