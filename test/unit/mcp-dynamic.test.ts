import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openCli } from "../../src/runtime/load.js";
import { groupFile } from "../../src/runtime/manifest.js";
import { dynamicToolset } from "../../src/runtime/mcp-dynamic.js";
import { tempDir } from "../helpers.js";

// A large CLI's MCP server offers call_read, call_write and call_destructive only for the classes its visible commands
// have, and learns them without reading every group file at start-up (Graph beta: 972 files, 40 MB).

type Kind = "read" | "write" | "destructive" | "hidden-destructive";

/** A package folder as emit writes it, reduced to what the toolset reads: manifest.json and commands/<group>.json. */
function packageOf(groups: Record<string, Kind[]>): string {
  const dir = tempDir("inter-mcp-dynamic-");
  mkdirSync(join(dir, "commands"));
  const manifest = {
    product: { name: "Acme", binary: "acme", version: "1.0.0", description: "Acme" },
    baseUrl: { default: null, env: "ACME_BASE_URL" },
    auth: { schemes: {} },
    rules: [],
    skills: [],
    groups: Object.entries(groups).map(([name, kinds]) => ({ name, description: name, count: kinds.length })),
    help: "groups",
  };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest));
  for (const [name, kinds] of Object.entries(groups)) {
    const commands = kinds.map((kind, i) => ({
      name: `${name} c${i}`,
      path: [name, `c${i}`],
      description: kind,
      permission: kind === "read" ? "read" : "write",
      destructive: kind.endsWith("destructive"),
      hidden: kind.startsWith("hidden"),
      flags: [],
      auth: [],
      operation: { method: "GET", path: `/${name}` },
      output: { shape: "object" },
    }));
    writeFileSync(join(dir, groupFile(name)), JSON.stringify({ name, commands }));
  }
  return dir;
}

function toolNames(groups: Record<string, Kind[]>) {
  const cli = openCli(packageOf(groups));
  const read: string[] = [];
  const group = cli.group;
  cli.group = (name) => (read.push(name), group(name));
  const { tools } = dynamicToolset(cli, { maxNameLength: 64 }, { rules: [], skills: [], issue: "report_issue" });
  return { tools: tools.map((t) => t.name), read };
}

describe("the dynamic toolset's call tools", () => {
  it("offers one call tool per class of visible command, and stops reading groups once it has seen all three", () => {
    const { tools, read } = toolNames({
      a: ["read", "write"],
      b: ["destructive"],
      c: ["read"],
      d: ["write"],
    });
    expect(tools).toEqual(["search_commands", "describe_command", "call_read", "call_write", "call_destructive"]);
    expect(read).toEqual(["a", "b"]);
  });

  it("offers no call_destructive when only a hidden command is destructive, having read every group to know", () => {
    const { tools, read } = toolNames({ a: ["read"], b: ["hidden-destructive", "write"], c: ["read"] });
    expect(tools).toEqual(["search_commands", "describe_command", "call_read", "call_write"]);
    expect(read).toEqual(["a", "b", "c"]);
  });
});
