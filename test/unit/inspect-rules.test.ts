import { describe, expect, it } from "vitest";
import type { Facts } from "../../src/inspect/probes.js";
import { RULES } from "../../src/inspect/rules.js";

const judge = (id: string, facts: Partial<Facts>) => RULES.find((r) => r.id === id)!.judge({ files: {}, commands: [], probes: {}, ...facts } as unknown as Facts);

describe("S5: no self-update", () => {
  it("an API operation named upgrade (Microsoft Graph's Teams app upgrade) is not an updater", () => {
    const verdict = judge("S5", { files: { "package.json": "{}" }, commands: [{ name: "teams-installed-app upgrade", method: "POST", parameters: [] } as any] });
    expect(verdict.status).toBe("pass");
  });

  it("a local self-update command, or an install hook, fails it and is named", () => {
    expect(judge("S5", { files: { "package.json": "{}" }, commands: [{ name: "self-update", parameters: [] } as any] })).toMatchObject({ status: "fail", reason: "updater command: self-update" });
    expect(judge("S5", { files: { "package.json": JSON.stringify({ scripts: { postinstall: "node fetch.js" } }) } })).toMatchObject({ status: "fail", reason: "install hooks: postinstall" });
  });
});
