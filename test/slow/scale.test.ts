import { execa } from "execa";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module shared with bench/scale.mjs
import { BIG_BRIEF, bigDocument } from "../products/big-openapi.mjs";
import { config, inter, makeProject, tempDir } from "../helpers.js";
import type { HelpCommand } from "../../src/stages/inspect/subjects.js";

describe("a description of 20,000 operations", () => {
  let dir: string;
  let built: Awaited<ReturnType<typeof inter>>;
  let bin: string;
  let packageRoot: string;
  beforeAll(async () => {
    dir = makeProject({
      "openapi.json": JSON.stringify(bigDocument(20_000)),
      "context.md": BIG_BRIEF,
      "intermesh.config.ts": config(
        `{ product: { name: "Big", binary: "big" }, inputs: { openapi: "openapi.json", context: "context.md" }, targets: { cli: { outDir: "dist" } } }`,
      ),
    });
    built = await inter(dir, ["build", "--json"]);
    const prefix = tempDir("inter-big-");
    await execa("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--prefix",
      prefix,
      join(dir, "dist/cli.tgz"),
    ]);
    bin = join(prefix, "node_modules/.bin/big");
    packageRoot = join(prefix, "node_modules/big-cli");
  });

  it("builds to a candidate certified Agent-Native, the inspection accepting inter's own tarball", () => {
    expect(built.exitCode, built.stdout.slice(0, 2000)).toBe(0);
    const receipt = JSON.parse(readFileSync(join(dir, "dist/receipt.json"), "utf8"));
    // On failure, say which rules blocked and why (a probe that timed out on a loaded machine reads differently from
    // a real finding).
    const failing = (receipt.rules ?? []).filter((r: { status: string }) => r.status === "fail");
    expect(
      receipt.certification.level,
      JSON.stringify({ blocking: receipt.certification.blocking, failing, credentials: receipt.credentials }).slice(
        0,
        4000,
      ),
    ).toBe("Agent-Native");
    expect(receipt.commands).toHaveLength(20_000);
  });

  it("lists groups in a root --help under 64 KiB, and opens a group and a command on request", async () => {
    const root = await execa(bin, ["--help"]);
    expect(root.stdout.length).toBeLessThanOrEqual(64 * 1024);
    const help = JSON.parse(root.stdout);
    expect(help.commands.filter((c: { group?: boolean }) => c.group)).toHaveLength(200);
    expect(help.commands[0]).toMatchObject({
      name: "area1",
      group: true,
      commands: 100,
      description: expect.stringContaining("area 1"),
    });
    expect(help.help).toContain("big <group> --help");
    // A group of 100 commands is over one answer's 64 KiB in full: it answers with its sub-groups, each of which opens.
    const groupHelp = await execa(bin, ["area7", "--help"]);
    expect(groupHelp.stdout.length).toBeLessThanOrEqual(64 * 1024);
    const group = JSON.parse(groupHelp.stdout);
    expect(group.commands).toHaveLength(20);
    expect(
      group.commands.every((c: { group?: boolean; commands?: number }) => c.group === true && c.commands === 5),
    ).toBe(true);
    const sub = JSON.parse((await execa(bin, ["area7", "part3", "--help"])).stdout);
    expect(sub.commands).toHaveLength(5);
    expect(sub.commands.every((c: HelpCommand) => Array.isArray(c.parameters))).toBe(true);
    const whole = JSON.parse((await execa(bin, ["area7", "--help", "--all"])).stdout);
    expect(whole.commands).toHaveLength(100);
    const one = JSON.parse((await execa(bin, ["area7", "part3", "delete", "--help"])).stdout);
    expect(one.command).toMatchObject({
      destructive: true,
      parameters: [expect.objectContaining({ name: "--record-id" })],
    });
  });

  it("reads only the group a call runs: with every other group's file gone, the call still works", async () => {
    const files = readdirSync(join(packageRoot, "commands"));
    expect(files).toHaveLength(200);
    for (const f of files) if (f !== "area150.json") rmSync(join(packageRoot, "commands", f));
    const call = await execa(bin, ["area150", "part20", "get", "--record-id", "rec_1", "--dry-run"], {
      env: { BIG_API_KEY: "x" },
      reject: false,
    });
    expect(call.exitCode, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout).result.request).toMatchObject({
      method: "GET",
      url: "https://big.example.com/v2/area150/part20/rec_1",
    });
  });

  it("links the brief's tasks to the right commands among 20,000", () => {
    const caps = JSON.parse(readFileSync(join(dir, "dist/capabilities.json"), "utf8"));
    expect(caps.skills[0].commands[0]).toBe("area7 part3 update");
    expect(caps.skills[1].commands[0]).toBe("area12 part1 list");
  });
});
