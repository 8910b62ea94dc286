import { describe, expect, it } from "vitest";
import { ProbeReuse } from "../../src/stages/inspect/probe-reuse.js";
import type { Probe } from "../../src/stages/inspect/probes.js";
import { writeFiles, tempDir } from "../helpers.js";

function pkg(changes: Record<string, string> = {}): string {
  const dir = tempDir("inter-reuse-");
  const manifest = {
    product: { name: "R", binary: "r", version: "1.0.0", description: "Prose" },
    rules: ["Be nice"],
    skills: [{ name: "s", description: "d" }],
    groups: [{ name: "rooms", description: "Rooms", count: 1 }],
    help: "full",
  };
  writeFiles(dir, {
    "manifest.json": JSON.stringify(manifest),
    "commands/rooms.json": '{"name":"rooms","commands":[]}',
    "lib/runtime.cjs": "runtime v1",
    "r.cjs": "entry",
    "package.json": '{"name":"r","version":"1.0.0"}',
    "skills/s/SKILL.md": "skill",
    ...changes,
  });
  return dir;
}

const probe = (command: string, stdout: string): Probe => ({
  command,
  exitCode: 0,
  stdout,
  stderr: "",
  durationMs: 5,
  timedOut: false,
});
const SECRET = "secret-value-123";
const redact = (text: string) => text.split(SECRET).join("[REDACTED]");

describe("probe reuse", () => {
  it("keys only API command probes, and reuses them while runtime, structure and commands are the same", () => {
    const first = new ProbeReuse(pkg(), undefined, "inter-1", "service-a", "http://127.0.0.1:4001", { PATH: "/bin" });
    expect(first.keyOf(["--help"], {})).toBeUndefined();
    expect(first.keyOf(["skills"], {})).toBeUndefined();
    expect(first.keyOf(["issue", "list"], {})).toBeUndefined();
    const key = first.keyOf(["rooms", "list"], { env: { R_BASE_URL: "http://127.0.0.1:4001" } })!;
    expect(key).toBeDefined();
    first.remember(key, probe("r rooms list", "[]"));
    first.remember(first.keyOf(["rooms", "get"], {}), probe("r rooms get", `leaked ${SECRET}`));
    const saved = first.saved("cand-1", redact);
    expect(Object.keys(saved.results)).toHaveLength(1); // the probe that printed the credential is not kept
    expect(JSON.stringify(saved)).not.toContain(SECRET);

    // Only the prose changed, and the service now runs on another port: reused.
    const prose = new ProbeReuse(
      pkg({
        "manifest.json": JSON.stringify({
          product: { name: "R", binary: "r", version: "1.0.0", description: "Other prose" },
          rules: ["Other"],
          skills: [],
          groups: [{ name: "rooms", description: "Changed", count: 1 }],
          help: "full",
        }),
        "skills/s/SKILL.md": "changed",
      }),
      saved,
      "inter-1",
      "service-a",
      "http://127.0.0.1:4999",
      { PATH: "/bin" },
    );
    const hit = prose.lookup(prose.keyOf(["rooms", "list"], { env: { R_BASE_URL: "http://127.0.0.1:4999" } }));
    expect(hit).toMatchObject({ command: "r rooms list", reusedFrom: "cand-1" });
    expect(prose.reused).toEqual(["r rooms list"]);
    expect(prose.lookup(prose.keyOf(["rooms", "get"], {}))).toBeUndefined();

    // The runtime, the group's commands, the service or inter changed: nothing reused.
    for (const [changes, service, inter] of [
      [{ "lib/runtime.cjs": "runtime v2" }, "service-a", "inter-1"],
      [{ "commands/rooms.json": '{"name":"rooms","commands":[1]}' }, "service-a", "inter-1"],
      [{}, "service-b", "inter-1"],
      [{}, "service-a", "inter-2"],
    ] as const) {
      const other = new ProbeReuse(pkg(changes), saved, inter, service, "http://127.0.0.1:4001", { PATH: "/bin" });
      expect(
        other.lookup(other.keyOf(["rooms", "list"], { env: { R_BASE_URL: "http://127.0.0.1:4001" } })),
        JSON.stringify([changes, service, inter]),
      ).toBeUndefined();
    }
  });
});
