import { execa, type ResultPromise } from "execa";
import { appendFileSync, cpSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  config,
  startTime,
  stillRunning,
  describeProcess,
  waitForPid,
  inter,
  INTER_BIN,
  makeProject,
  nodeCommand,
  read,
  REPO,
  statuses,
  until,
} from "../helpers.js";
import { exampleProject } from "../e2e/example-api.js";
import type { WatchEvent } from "../../src/cli/watch.js";

type EventOf<K extends WatchEvent["event"]> = Extract<WatchEvent, { event: K }>;

/** A running `inter … --watch --json`, read as the NDJSON event stream it promises. */
class Watch {
  readonly events: WatchEvent[] = [];
  private cursor = 0;
  private listeners = new Set<() => void>();
  private stderr = "";
  readonly child: ResultPromise;

  constructor(dir: string, args: string[]) {
    this.child = execa("node", [INTER_BIN, ...args, "--watch", "--json"], {
      cwd: dir,
      env: { CI: "true" },
      stdin: "ignore",
      reject: false,
      buffer: false,
    });
    let partial = "";
    this.child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) if (line.trim()) this.events.push(JSON.parse(line));
      for (const l of this.listeners) l();
    });
    this.child.stderr!.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  /** The next event (after the ones already consumed) matching `match`, waiting at most `timeoutMs`. */
  next(match: (e: WatchEvent) => boolean, timeoutMs = 60_000): Promise<WatchEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        while (this.cursor < this.events.length) {
          const e = this.events[this.cursor++]!;
          if (match(e)) {
            this.listeners.delete(check);
            clearTimeout(timer);
            resolve(e);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(
          new Error(
            `no matching event within ${timeoutMs} ms; events so far:\n${this.events.map((e) => JSON.stringify(e)).join("\n")}\nstderr:\n${this.stderr}`,
          ),
        );
      }, timeoutMs);
      this.listeners.add(check);
      check();
    });
  }

  cycleStart(): Promise<EventOf<"cycle-start">> {
    return this.next((e) => e.event === "cycle-start") as Promise<EventOf<"cycle-start">>;
  }

  cycleEnd(): Promise<EventOf<"cycle-end">> {
    return this.next((e) => e.event === "cycle-end") as Promise<EventOf<"cycle-end">>;
  }

  /**
   * Events of the next cycle that runs to its end, start to end. On a loaded machine one save can reach the watcher as
   * two changes more than its quiet window apart (the file emptied, then written): the cycle the first began is then
   * cancelled by the second, and the one that follows is the save's. A test that expects a cancelled cycle waits for
   * it with cycleEnd().
   */
  async cycle(): Promise<{ start: EventOf<"cycle-start">; end: EventOf<"cycle-end"> }> {
    for (;;) {
      const start = await this.cycleStart();
      const end = await this.cycleEnd();
      expect(end.cycle).toBe(start.cycle);
      if (end.status !== "cancelled") return { start, end };
    }
  }

  async stop(): Promise<{ exitCode: number | undefined; last: WatchEvent | undefined }> {
    this.child.kill("SIGINT");
    const result = await this.child;
    return { exitCode: result.exitCode, last: this.events.at(-1) };
  }
}

const running: Watch[] = [];
const watch = (dir: string, args: string[]) => {
  const w = new Watch(dir, args);
  running.push(w);
  return w;
};
afterEach(async () => {
  for (const w of running.splice(0)) if (w.child.exitCode === null) await w.stop();
});

const skillsOf = (dir: string) =>
  JSON.parse(read(dir, "dist/capabilities.json")).skills.map((s: { name: string }) => s.name);
const NEW_TASK =
  "\n### Find a free room now\n\nSomeone needs any room right away for a quick call.\n\nExpected outcome: a free room is named.\n";

/** The example's OpenAPI and brief with the config's inputs, and a task that copies slow.txt after a pause long enough for a Ctrl-C to land mid-task on a loaded machine. */
function watchProject(extraTasks = ""): string {
  const dir = makeProject({
    "intermesh.config.ts": config(`{
  product: { name: "Rooms", binary: "rooms" },
  inputs: { openapi: "api/openapi.yaml", context: "brief/*.md" },
  tasks: {
    slow: { command: ${nodeCommand(`const fs = require("fs"); fs.writeFileSync("slow.started", String(process.pid)); setTimeout(() => fs.writeFileSync("slow.out", fs.readFileSync("slow.txt", "utf8")), 4000);`)}, inputs: ["slow.txt"], outputs: ["slow.out"] },
    ${extraTasks}
  },
}`),
    "slow.txt": "one\n",
  });
  cpSync(join(REPO, "examples/rooms/openapi.yaml"), join(dir, "api/openapi.yaml"));
  cpSync(join(REPO, "examples/rooms/context.md"), join(dir, "brief/context.md"));
  return dir;
}

describe("inter build --watch on the example", () => {
  it("builds, then turns a context.md edit into a new candidate, re-running only what the brief feeds", async () => {
    const dir = exampleProject();
    const w = watch(dir, ["build"]);
    const first = await w.cycle();
    expect(first.start.changed).toEqual([]);
    expect(first.end).toMatchObject({ status: "ok", failed: [], certification: "Agent-Native", error: null });
    expect(first.end.candidate).toMatch(/^[0-9a-f]{64}$/);
    expect(first.end.ran).toContain("inspect");

    appendFileSync(join(dir, "examples/rooms/context.md"), NEW_TASK);
    const second = await w.cycle();
    expect(second.start.changed).toEqual(["examples/rooms/context.md"]);
    expect(second.end.status).toBe("ok");
    expect(second.end.ran).toEqual(expect.arrayContaining(["skills", "design", "emit", "bundle", "inspect"]));
    expect(second.end.cached).toEqual(expect.arrayContaining(["openapi", "commands"]));
    expect(second.end.candidate).not.toBe(first.end.candidate);
    // The candidate is announced as soon as it is bundled, before inspection.
    const announced = w.events.find((e) => e.event === "candidate" && e.cycle === 2);
    expect(announced).toMatchObject({ sha256: second.end.candidate, file: "dist/cli.tgz" });
    expect(w.events.indexOf(announced!)).toBeLessThan(
      w.events.findIndex((e) => e.event === "task" && e.cycle === 2 && e.id === "inspect"),
    );
    expect(skillsOf(dir)).toContain("find-a-free-room-now");
    const taskEvents = w.events
      .filter((e): e is EventOf<"task"> => e.event === "task" && e.cycle === 2)
      .map((e) => e.id);
    expect(taskEvents.sort()).toEqual([...second.end.ran, ...second.end.cached].sort());

    const stopped = await w.stop();
    expect(stopped.exitCode).toBe(130);
    expect(stopped.last).toEqual({ event: "stopped", signal: "SIGINT" });
    // The cache is consistent: a plain build afterwards has nothing to do.
    const after = await inter(dir, ["build", "--json"]);
    expect(Object.values(statuses(after)).every((s) => s === "cached")).toBe(true);
  });
});

describe("inter run <target> --watch", () => {
  it("turns a burst of saves into one rebuild, and sees editors' rename-saves", async () => {
    const dir = watchProject();
    const w = watch(dir, ["run", "design"]);
    await w.cycle();
    const brief = join(dir, "brief/context.md");
    const original = readFileSync(brief, "utf8");
    for (let i = 0; i < 8; i++) writeFileSync(brief, `${original}\n<!-- save ${i} -->\n`);
    const burst = await w.cycle();
    expect(burst.start.changed).toEqual(["brief/context.md"]);
    expect(burst.end.status).toBe("ok");

    // Editors write a temporary file and rename it over the original.
    writeFileSync(`${brief}.swp`, original + NEW_TASK);
    renameSync(`${brief}.swp`, brief);
    const renamed = await w.cycle();
    // The next cycle is the rename's: the burst above caused exactly one.
    expect(renamed.start.cycle).toBe(burst.start.cycle + 1);
    expect(renamed.start.changed).toEqual(["brief/context.md"]);
    expect(renamed.end.ran).toEqual(expect.arrayContaining(["skills", "design"]));
    expect(renamed.end.cached).toContain("openapi");
    expect(skillsOf(dir)).toContain("find-a-free-room-now");
  });

  it("shows an invalid OpenAPI document and keeps watching; the next good save recovers", async () => {
    const dir = watchProject();
    const w = watch(dir, ["run", "design"]);
    await w.cycle();
    const spec = join(dir, "api/openapi.yaml");
    const good = readFileSync(spec, "utf8");
    writeFileSync(spec, `${good}\npaths: [unclosed\n`);
    const broken = await w.cycle();
    expect(broken.end).toMatchObject({ status: "failed", failed: ["openapi"], error: { code: "OPENAPI_INVALID" } });
    expect(broken.end.error!.message).toContain("openapi.yaml");
    writeFileSync(spec, good.replace("title: Rooms", "title: Rooms again"));
    const fixed = await w.cycle();
    expect(fixed.end).toMatchObject({ status: "ok", error: null });
    expect(fixed.end.ran).toContain("openapi");
  });

  it("follows the files the OpenAPI document $refs", async () => {
    const dir = watchProject();
    writeFileSync(
      join(dir, "api/openapi.yaml"),
      [
        "openapi: 3.1.0",
        "info: { title: Rooms, version: 1.0.0 }",
        "paths:",
        "  /rooms:",
        "    get:",
        "      operationId: listRooms",
        "      tags: [rooms]",
        "      responses:",
        '        "200":',
        "          description: the rooms",
        "          content:",
        "            application/json:",
        '              schema: { $ref: "./room.yaml" }',
        "",
      ].join("\n"),
    );
    writeFileSync(join(dir, "api/room.yaml"), "type: object\nproperties:\n  id: { type: string }\n");
    const w = watch(dir, ["run", "design"]);
    expect((await w.cycle()).end.status).toBe("ok");
    appendFileSync(join(dir, "api/room.yaml"), "  capacity: { type: integer }\n");
    const edited = await w.cycle();
    expect(edited.start.changed).toEqual(["api/room.yaml"]);
    expect(edited.end).toMatchObject({ status: "ok", ran: expect.arrayContaining(["openapi"]) });
  });

  it("reloads an edited config (a broken one is an error until fixed) and picks up new and deleted inputs", async () => {
    const dir = watchProject();
    const w = watch(dir, ["run", "design"]);
    await w.cycle();
    const file = join(dir, "intermesh.config.ts");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, original.replace('binary: "rooms"', 'binary: "rooms" oops'));
    const syntax = await w.cycle();
    expect(syntax.start.changed).toEqual(["intermesh.config.ts"]);
    expect(syntax.end).toMatchObject({ status: "failed", error: { code: "CONFIG_SYNTAX" } });
    writeFileSync(file, original.replace('binary: "rooms"', 'binary: "meet"'));
    const reloaded = await w.cycle();
    expect(reloaded.end.status).toBe("ok");
    expect(JSON.parse(read(dir, "dist/capabilities.json")).product.binary).toBe("meet");

    // A new file matching the context glob is an input from now on.
    writeFileSync(join(dir, "brief/more.md"), NEW_TASK);
    const added = await w.cycle();
    expect(added.start.changed).toEqual(["brief/more.md"]);
    expect(skillsOf(dir)).toContain("find-a-free-room-now");
    // A deleted input is an error until it returns.
    const spec = readFileSync(join(dir, "api/openapi.yaml"), "utf8");
    rmSync(join(dir, "api/openapi.yaml"));
    const deleted = await w.cycle();
    expect(deleted.start.changed).toEqual(["api/openapi.yaml"]);
    expect(deleted.end).toMatchObject({ status: "failed", error: { code: "INPUT_NOT_FOUND" } });
    writeFileSync(join(dir, "api/openapi.yaml"), spec);
    const back = await w.cycle();
    expect(back.end.status).toBe("ok");
  });

  it("a change during a build cancels it and builds again: the result matches the files on disk", async () => {
    const dir = watchProject();
    const w = watch(dir, ["run", "slow"]);
    await w.cycle();
    expect(read(dir, "slow.out")).toBe("one\n");
    rmSync(join(dir, "slow.started"));
    writeFileSync(join(dir, "slow.txt"), "two\n");
    const start = await w.cycleStart();
    // Wait until the task is really running, then change its input under it.
    const pid = await waitForPid(join(dir, "slow.started"), "the slow task's pid");
    const born = startTime(pid);
    writeFileSync(join(dir, "slow.txt"), "three\n");
    const cancelled = await w.cycleEnd();
    expect(cancelled).toMatchObject({ cycle: start.cycle, status: "cancelled" });
    // What must hold is the cycle that finishes (cycle() passes over one a split write of "three" cancelled in turn).
    const next = await w.cycle();
    expect(next.start.changed).toEqual(["slow.txt"]);
    expect(next.end).toMatchObject({ status: "ok", ran: ["slow"] });
    expect(read(dir, "slow.out")).toBe("three\n");
    // Killed with its process group when the cycle was cancelled; on a loaded machine it may take a moment to be reaped.
    await until(() => !stillRunning(pid, born), 60_000, "the cancelled task's process to be gone");
  });

  it("Ctrl-C mid-build stops the task's processes and exits 130 with the cache intact", async () => {
    const dir = watchProject();
    const w = watch(dir, ["run", "slow"]);
    await w.cycle();
    rmSync(join(dir, "slow.started"));
    writeFileSync(join(dir, "slow.txt"), "two\n");
    await w.cycleStart();
    const pid = await waitForPid(join(dir, "slow.started"), "the slow task's pid");
    const born = startTime(pid);
    const stopped = await w.stop();
    expect(stopped.exitCode).toBe(130);
    expect(w.events.filter((e) => e.event === "cycle-end").at(-1)!.status).toBe("cancelled");
    expect(stopped.last).toEqual({ event: "stopped", signal: "SIGINT" });
    // Killed with its process group; on a loaded machine it may take a moment to be gone.
    await until(() => !stillRunning(pid, born), 60_000, "the stopped task's process to be gone").catch((error) => {
      throw new Error(`${(error as Error).message} (${describeProcess(pid)})`);
    });
    expect(read(dir, "slow.out")).toBe("one\n");
    // Nothing half-done was recorded: the next run builds "two" and then it is a hit.
    const again = await inter(dir, ["run", "slow", "--json"]);
    expect(statuses(again).slow).toBe("ran");
    expect(read(dir, "slow.out")).toBe("two\n");
    expect(statuses(await inter(dir, ["run", "slow", "--json"])).slow).toBe("cached");
  });

  it("without a config there is nothing to watch: CONFIG_NOT_FOUND, exit 2", async () => {
    const dir = makeProject({});
    const result = await inter(dir, ["build", "--watch", "--json"]);
    expect(result.exitCode).toBe(2);
    expect(result.json).toMatchObject({ ok: false, error: { code: "CONFIG_NOT_FOUND" } });
  });

  it("prints each cycle for people on stderr, with what ran, what was cached and the next wait", async () => {
    const dir = watchProject();
    const child = execa("node", [INTER_BIN, "run", "design", "--watch"], {
      cwd: dir,
      env: { CI: "true" },
      stdin: "ignore",
      reject: false,
      buffer: false,
    });
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    await until(() => stderr.includes("for changes…"), 60_000);
    appendFileSync(join(dir, "brief/context.md"), NEW_TASK);
    await until(() => stderr.split("for changes…").length > 2, 60_000);
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(stderr).toMatch(/── brief\/context\.md changed\n/);
    expect(stderr).toMatch(
      /✔ done — ran [a-z, ]*skills, design; \d cached; \d+ ms\ninter: watching \d+ files for changes…/,
    );
  });
});
