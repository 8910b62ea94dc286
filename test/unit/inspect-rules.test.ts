import { describe, expect, it } from "vitest";
import type { Facts } from "../../src/stages/inspect/probes.js";
import { RULES } from "../../src/stages/inspect/rules/index.js";

const judge = (id: string, facts: Partial<Facts>) =>
  RULES.find((r) => r.id === id)!.judge({ files: {}, commands: [], probes: {}, ...facts } as unknown as Facts);

describe("S5: no self-update", () => {
  it("an API operation named upgrade (Microsoft Graph's Teams app upgrade) is not an updater", () => {
    const verdict = judge("S5", {
      files: { "package.json": "{}" },
      commands: [{ name: "teams-installed-app upgrade", method: "POST", parameters: [] } as any],
    });
    expect(verdict.status).toBe("pass");
  });

  it("a local self-update command, or an install hook, fails it and is named", () => {
    expect(
      judge("S5", { files: { "package.json": "{}" }, commands: [{ name: "self-update", parameters: [] } as any] }),
    ).toMatchObject({ status: "fail", reason: "updater command: self-update" });
    expect(
      judge("S5", { files: { "package.json": JSON.stringify({ scripts: { postinstall: "node fetch.js" } }) } }),
    ).toMatchObject({ status: "fail", reason: "install hooks: postinstall" });
  });
});

describe("the receipt keeps no credential in any form", () => {
  it("a CLI that prints its key as is, base64-encoded and URL-encoded leaves [REDACTED] in each place", async () => {
    const { buildReceipt } = await import("../../src/stages/inspect/receipt.js");
    const key = "sk/live+key=42";
    const printed = `raw ${key} basic ${Buffer.from(key).toString("base64")} url ${encodeURIComponent(key)}`;
    const probe = {
      command: "demo --help",
      exitCode: 0,
      stdout: printed,
      stderr: printed,
      json: { help: printed, commands: [] },
      timedOut: false,
    };
    const receipt = buildReceipt({
      facts: { files: { "package.json": "{}" }, commands: [], probes: { help: probe }, binary: "demo" } as any,
      skills: [],
      candidate: { sha256: "x" } as any,
      tools: {} as any,
      secrets: [key],
    });
    const text = JSON.stringify(receipt);
    expect(text).not.toContain(key);
    expect(text).not.toContain(Buffer.from(key).toString("base64").replace(/=+$/, ""));
    expect(text).not.toContain(encodeURIComponent(key));
    expect(text).toContain("raw [REDACTED] basic [REDACTED] url [REDACTED]");
  });
});
