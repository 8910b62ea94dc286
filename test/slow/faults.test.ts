import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BUILTIN_TASKS,
  startTime,
  stillRunning,
  waitForPid,
  config,
  inter,
  INTER_BIN,
  makeProject,
  nodeCommand,
  read,
  spawnInter,
  statuses,
  until,
  tempDir,
  type InterResult,
} from "../helpers.js";

const inputs = { "inputs/openapi.yaml": "openapi: 3.1.0\n" };
const base = `product: { name: "R", binary: "r" }, inputs: { openapi: "inputs/openapi.yaml" }`;

// Each task appends to runs.log, writes its output in two steps (so a kill can land between them), then finishes.
const slowWriter = (name: string, ms: number) =>
  nodeCommand(
    `const fs = require("fs"); fs.appendFileSync("runs.log", "${name}\\n"); fs.mkdirSync("out", { recursive: true }); fs.writeFileSync("out/${name}.txt", "partial"); setTimeout(() => fs.writeFileSync("out/${name}.txt", "${name} done"), ${ms});`,
  );

function slowProject(ms: number): string {
  return makeProject({
    ...inputs,
    "intermesh.config.ts": config(`{ ${base}, tasks: {
      one: { command: ${slowWriter("one", ms)}, outputs: ["out/one.txt"] },
      two: { command: ${slowWriter("two", ms)}, deps: ["one"], outputs: ["out/two.txt"] },
      three: { command: ${slowWriter("three", ms)}, deps: ["two"], outputs: ["out/three.txt"] },
    } }`),
  });
}

const expectComplete = (dir: string) => {
  for (const name of ["one", "two", "three"]) expect(read(dir, `out/${name}.txt`)).toBe(`${name} done`);
};

describe("parallelism", () => {
  it("runs independent tasks at the same time, up to --concurrency", async () => {
    // Each task waits for the other's marker: only parallel execution can finish.
    const rendezvous = (me: string, other: string) =>
      nodeCommand(
        `const fs = require("fs"); fs.writeFileSync("${me}.started", ""); const end = Date.now() + 15000; (function poll() { if (fs.existsSync("${other}.started")) return; if (Date.now() > end) process.exit(9); setTimeout(poll, 10); })();`,
      );
    const dir = makeProject({
      ...inputs,
      "intermesh.config.ts": config(
        `{ ${base}, tasks: { left: { command: ${rendezvous("left", "right")} }, right: { command: ${rendezvous("right", "left")} } } }`,
      ),
    });
    const result = await inter(dir, ["build", "--json", "--concurrency", "3"]);
    expect(result.exitCode).toBe(0);
    expect(statuses(result)).toMatchObject({ left: "ran", right: "ran" });
  });

  it("never overlaps tasks with --concurrency 1", async () => {
    const span = (name: string) =>
      nodeCommand(
        `const fs = require("fs"); fs.appendFileSync("spans.log", "start ${name}\\n"); setTimeout(() => fs.appendFileSync("spans.log", "end ${name}\\n"), 150);`,
      );
    const dir = makeProject({
      ...inputs,
      "intermesh.config.ts": config(
        `{ ${base}, tasks: { a: { command: ${span("a")} }, b: { command: ${span("b")} }, c: { command: ${span("c")} } } }`,
      ),
    });
    const result = await inter(dir, ["build", "--json", "--concurrency", "1"]);
    expect(result.exitCode).toBe(0);
    const lines = read(dir, "spans.log").trim().split("\n");
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i]!.replace("start", "end")).toBe(lines[i + 1]);
    }
  });
});

describe("concurrent runs and faults", () => {
  it("two builds at once in one project both succeed, run each command once and leave a healthy cache", async () => {
    const dir = slowProject(200);
    const [a, b] = await Promise.all([spawnInter(dir, ["build", "--json"]), spawnInter(dir, ["build", "--json"])]);
    expect(a.exitCode).toBe(0);
    expect(b.exitCode).toBe(0);
    const ran = [a, b].map((r) => JSON.parse(r.stdout as string).data.summary.ran);
    expect(ran.sort((x, y) => x - y)).toEqual([0, BUILTIN_TASKS.length + 3]);
    expect(read(dir, "runs.log").trim().split("\n").sort()).toEqual(["one", "three", "two"]);
    expectComplete(dir);
    const verify = await inter(dir, ["cache", "verify", "--json"]);
    expect(verify.json.data.healthy).toBe(true);
  });

  it("a build killed with SIGKILL at any point leaves a cache the next build uses correctly", async () => {
    const dir = slowProject(120);
    for (const delay of [0, 60, 150, 250, 400, 600]) {
      const child = spawnInter(dir, ["build", "--json", "--force"]);
      await new Promise((r) => setTimeout(r, delay));
      child.kill("SIGKILL");
      await child;
      const next = await inter(dir, ["build", "--json"]);
      expect(next.exitCode, `after a kill at ${delay} ms: ${next.stdout}`).toBe(0);
      expectComplete(dir);
      const again = await inter(dir, ["build", "--json"]);
      expect(again.json.data.summary.ran).toBe(0);
    }
    const verify = await inter(dir, ["cache", "verify", "--json"]);
    expect(verify.json.data).toMatchObject({ healthy: true });
  });

  it("Ctrl-C stops the running task's whole process group, keeps finished work and exits 130", async () => {
    // "slow" starts a grandchild that would outlive a naive kill, records its pid, and hangs.
    const hang = nodeCommand(
      `const fs = require("fs"); const { spawn } = require("child_process"); const g = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); fs.writeFileSync("grandchild.pid", String(g.pid)); setInterval(() => {}, 1000);`,
    );
    const dir = makeProject({
      ...inputs,
      "intermesh.config.ts": config(`{ ${base}, tasks: {
        quick: { command: ${nodeCommand('require("fs").writeFileSync("quick.txt", "q")')}, outputs: ["quick.txt"] },
        slow: { command: ${hang}, deps: ["quick"] },
      } }`),
    });
    const child = spawnInter(dir, ["build", "--json"]);
    const grandchild = await waitForPid(join(dir, "grandchild.pid"), "grandchild.pid holding its pid");
    const born = startTime(grandchild);
    expect(stillRunning(grandchild, born)).toBe(true);
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(130);
    const doc = JSON.parse(result.stdout as string);
    expect(doc.error.code).toBe("INTERRUPTED");
    // statuses reads only the document, here the one a spawned run printed.
    expect(statuses({ json: doc } as InterResult)).toMatchObject({ quick: "ran", slow: "interrupted" });
    // Stopped, not failed: no error of its own, and how long it had run before the Ctrl-C.
    const stopped = doc.error.details.tasks.find((t: { id: string }) => t.id === "slow");
    expect(stopped).not.toHaveProperty("error");
    expect(stopped.durationMs).toBeGreaterThan(0);
    // Killed with the task's process group; on a loaded machine it may take a moment to be reaped.
    await until(() => !stillRunning(grandchild, born), 60_000, "the grandchild to be gone");
    expect(existsSync(join(dir, ".intermesh/lock"))).toBe(false);

    const explain = await inter(dir, ["explain", "quick", "--json"]);
    expect(explain.json.data.status).toBe("up-to-date");
    const slow = await inter(dir, ["explain", "slow", "--json"]);
    expect(slow.json.data.status).toBe("will-run");
  });
});

describe("no orphans", () => {
  it("a build killed with SIGKILL during inspection leaves no service running", async () => {
    const { exampleProject } = await import("../e2e/example-api.js");
    const { execa } = await import("execa");
    const { writeFileSync } = await import("node:fs");
    const dir = exampleProject({ warm: true });
    // A service that holds on quietly (no output, no port), with a marker only it carries on its command line.
    const marker = `orphan-marker-${process.pid}-${Date.now()}`;
    const file = join(dir, "intermesh.config.ts");
    const original = readFileSync(file, "utf8");
    const text = original
      .replace(
        '["node", "examples/rooms/server.mjs", "--port", "{port}"]',
        `["node", "-e", "setInterval(() => {}, 1000)", "${marker}"]`,
      )
      .replace('ready: "http://127.0.0.1:{port}/health",', "");
    expect(text).toContain(marker);
    writeFileSync(file, text);
    const running = async () =>
      (await execa("pgrep", ["-f", "--", marker], { reject: false })).stdout.trim().split("\n").filter(Boolean);
    // A temporary folder of its own: any other inter started meanwhile (other test files run in parallel) would sweep a
    // killed inter's folders from a shared one before this test looks.
    const scratch = tempDir("inter-faults-tmp-");
    const child = spawnInter(dir, ["run", "inspect", "--force"], { ROOMS_API_KEY: "rooms-demo-key", TMPDIR: scratch });
    const { readdirSync } = await import("node:fs");
    const leftovers = () =>
      readdirSync(scratch).filter((name) => name.startsWith("inter-owned-") && name.includes(`-p${child.pid}-`));
    let started = false;
    await until(
      () => {
        void running().then((pids) => (started ||= pids.length > 0));
        return started && leftovers().length > 0;
      },
      60_000,
      "the inspection's service starting and its temporary folders made",
    );
    child.kill("SIGKILL");
    await child;
    let gone = false;
    await until(
      () => {
        void running().then((pids) => (gone = pids.length === 0));
        return gone;
      },
      60_000,
      "the service stopping after inter was killed",
    );

    // Its temporary folders (the install prefix, the probes' homes) are left behind; the next inspection sweeps them.
    expect(leftovers().length).toBeGreaterThan(0);
    writeFileSync(file, original);
    const again = await spawnInter(dir, ["run", "inspect", "--force"], {
      ROOMS_API_KEY: "rooms-demo-key",
      TMPDIR: scratch,
    });
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(leftovers()).toEqual([]);
  });
});

describe("exit", () => {
  it("a run that started a service exits promptly after printing its result (no timer keeps it open)", async () => {
    const { exampleProject } = await import("../e2e/example-api.js");
    const { spawn } = await import("node:child_process");
    const dir = exampleProject({ warm: true });
    const child = spawn("node", [INTER_BIN, "run", "inspect", "--force", "--json"], {
      cwd: dir,
      env: { ...process.env, CI: "true", ROOMS_API_KEY: "rooms-demo-key" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let text = "";
    let printedAt: number | undefined;
    child.stdout.on("data", (chunk) => {
      text += chunk;
      try {
        JSON.parse(text);
        printedAt ??= performance.now();
      } catch {
        // not the whole document yet
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    const exitedAt = performance.now();
    expect(code).toBe(0);
    expect(printedAt).toBeDefined();
    // The result is the last thing a run does; a pending timer (a service's stop grace period) once added 3 s here.
    expect(exitedAt - printedAt!).toBeLessThan(1000);
  });
});
