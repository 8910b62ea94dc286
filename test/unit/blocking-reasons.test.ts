import { describe, expect, it } from "vitest";
import { blockingReasons, type Receipt } from "../../src/stages/inspect/receipt.js";

describe("why a candidate is below the next level", () => {
  it("names each blocking rule with its title and reason, the naming finding's examples and the wire counts", () => {
    const receipt = {
      certification: { level: "none", blocking: ["S3", "naming", "wire"] },
      rules: [
        { id: "S3", title: "destructive commands refuse without --yes", status: "fail", reason: "files delete ran" },
      ],
      naming: {
        count: 3,
        findings: [
          { command: "labels list-number", problem: "contradicts its method", detail: "a GET of one item" },
          { command: "jobs get-2", problem: "numeric suffix", detail: '"-2" tells it apart from get' },
        ],
      },
      wire: { invalid: [{}], inexpressibleCount: 2 },
    } as unknown as Receipt;
    expect(blockingReasons(receipt)).toEqual([
      { id: "S3", why: "destructive commands refuse without --yes — failed: files delete ran" },
      {
        id: "naming",
        why: '3 misleading names, e.g. `labels list-number` contradicts its method (a GET of one item); `jobs get-2` numeric suffix ("-2" tells it apart from get)',
      },
      {
        id: "wire",
        why: "1 sampled request the description rejects, 2 operations the CLI cannot express (receipt.wire)",
      },
    ]);
  });
});
