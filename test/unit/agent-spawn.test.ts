import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayViaMcp } from "../../src/evaluation/sandbox/mcp-replay.js";
import { prepareRun } from "../../src/evaluation/sandbox/prepare-run.js";
import { startInGroup } from "../../src/evaluation/sandbox/spawn.js";
import { alive, REPO, tempDir, until, waitForPid } from "../helpers.js";

// Every process of a run (the agent, a reference step, the candidate's MCP server) is started and stopped one way
// (src/evaluation/sandbox/spawn.ts): in its own group, stopped with SIGTERM and a grace period before SIGKILL, so a
// program gets to tidy up, and nothing it started outlives it.

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

/** A program that, on SIGTERM, writes `marker` and exits; it first starts a child that ignores SIGTERM. */
function stubborn(dir: string, marker: string): string {
  const file = join(dir, "stubborn.cjs");
  writeFileSync(
    file,
    `const { spawn } = require("node:child_process");
const fs = require("node:fs");
const child = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
process.on("SIGTERM", () => { fs.writeFileSync(${JSON.stringify(marker)}, "tidied"); process.exit(0); });
// Written last: once the test reads it, the SIGTERM handler is in place.
fs.writeFileSync(${JSON.stringify(join(dir, "child.pid"))}, String(child.pid));
setInterval(() => {}, 1000);
console.log("ready");
`,
  );
  return file;
}

describe("one spawn and stop for every process of a run", () => {
  it("stop() lets the program tidy up on SIGTERM, and kills what it left in its group", async () => {
    const dir = tempDir("inter-spawn-");
    const marker = join(dir, "tidied");
    const started = await startInGroup(
      { file: process.execPath, args: [stubborn(dir, marker)], cwd: dir },
      { env, stdin: "ignore", buffer: false },
    );
    await started.spawned;
    const child = await waitForPid(join(dir, "child.pid"), "the program's child");
    expect(alive(child)).toBe(true);
    await Promise.all([started.stop(), started.stop()]);
    await started.finished();
    expect(readFileSync(marker, "utf8")).toBe("tidied");
    await until(() => !alive(child), 30_000, "the child that ignored SIGTERM to be killed");
  });

  it("a program that cannot be started is reported as such, not left pending", async () => {
    const started = await startInGroup(
      { file: join(tempDir("inter-spawn-"), "no-such-program"), args: [], cwd: REPO },
      { env, stdin: "ignore", buffer: true },
    );
    await expect(started.spawned).rejects.toThrow(/ENOENT/);
    const result = await started.finished();
    expect(result.exitCode).toBeUndefined();
  });

  it("the MCP replay stops the candidate's server with the grace period, so it exits on its own terms", async () => {
    const dir = tempDir("inter-mcp-stop-");
    const marker = join(dir, "server-tidied");
    const server = join(dir, "server.mjs");
    // A server that keeps running after its stdin closes: only a signal ends it, and SIGTERM lets it write its marker.
    // Its answer is large, more than a pipe holds: read whole, unbuffered, while the server still runs.
    writeFileSync(
      server,
      `import { writeFileSync } from "node:fs";
import { McpServer } from ${JSON.stringify(join(REPO, "node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js"))};
import { StdioServerTransport } from ${JSON.stringify(join(REPO, "node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js"))};
const server = new McpServer({ name: "rooms", version: "1.0.0" });
server.registerTool("rooms_ping", { title: "ping", inputSchema: {} }, async () => ({
  content: [{ type: "text", text: "{}" }],
  structuredContent: { ok: true, rooms: "r".repeat(2_000_000) },
}));
await server.connect(new StdioServerTransport());
process.on("SIGTERM", () => { writeFileSync(${JSON.stringify(marker)}, "tidied"); process.exit(0); });
setInterval(() => {}, 1000);
`,
    );
    const prepared = prepareRun({
      workspace: join(dir, "attempt"),
      isolation: { kind: "none", reason: "a test of the replay alone" },
      home: "fresh",
    });
    const run = prepared.agentRun({
      scenarioId: "ping",
      label: "ping-1",
      prompt: "ping",
      binOnPath: false,
      blocked: [],
      secrets: [],
      hidden: [],
      timeoutMs: 60_000,
      signal: new AbortController().signal,
    });
    const saved: string[] = [];
    const outcome = await replayViaMcp(
      [{ argv: ["rooms", "ping"] }],
      run,
      { command: process.execPath, args: [server] },
      (stdout) => (saved.push(stdout), undefined),
    );
    expect(outcome).toMatchObject({ kind: "finished", exitCode: 0, timedOut: false });
    expect(saved).toEqual([JSON.stringify({ ok: true, rooms: "r".repeat(2_000_000) })]);
    expect(readFileSync(marker, "utf8")).toBe("tidied");
  });
});
