import { execa } from "execa";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { buildAndInstall, exampleProject } from "../e2e/example-api.js";

/**
 * The official MCP conformance suite against the example's generated server over Streamable HTTP: the pre-release
 * that checks revision 2026-07-28 and the stable release that checks 2025-11-25. The suite runs on Node 22, installed
 * from npm with it by scripts/test-deps.sh into test/tools/mcp-conformance (apart from the project's dependencies).
 *
 * Most of the suite's server scenarios call tools, prompts and resources only its own reference server has
 * (`test_simple_text`, `test://static-text`, …): no generated server has them. Every scenario that needs none must
 * pass whole, and in `server-stateless` the only failures may be the checks that say they could not test for want of
 * such a tool.
 */
const TOOLS = join(import.meta.dirname, "..", "tools", "mcp-conformance", "node_modules");
const NODE22 = join(TOOLS, ".bin", "node");
const SUITES = {
  "2026-07-28": join(TOOLS, "@modelcontextprotocol", "conformance", "dist", "index.js"),
  "2025-11-25": join(TOOLS, "conformance-stable", "dist", "index.js"),
};

/** The scenarios a server without the suite's fixtures can meet, per revision. */
const MEETABLE = {
  "2026-07-28": [
    "completion-complete",
    "tools-list",
    "resources-list",
    "prompts-list",
    "server-sse-multiple-streams",
    "sep-2164-resource-not-found",
    "dns-rebinding-protection",
    "caching",
    "input-required-result-unsupported-methods",
    "http-header-validation",
  ],
  "2025-11-25": [
    "server-initialize",
    "logging-set-level",
    "ping",
    "completion-complete",
    "tools-list",
    "server-sse-multiple-streams",
    "resources-list",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "dns-rebinding-protection",
  ],
};
/** Checks of `server-stateless` that need one of the suite's diagnostic tools, and say so ("Not testable: …"). */
const STATELESS_FIXTURE_CHECKS = [
  "sep-2575-server-rejects-undeclared-capability",
  "sep-2575-missing-capability-http-400",
  "sep-2575-http-server-no-independent-requests-on-stream",
  "sep-2575-server-no-log-without-loglevel",
];

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let prefix: string;
let server: ReturnType<typeof execa> | undefined;
let url: string;

beforeAll(async () => {
  if (!existsSync(NODE22) || !Object.values(SUITES).every((suite) => existsSync(suite)))
    throw new Error(`The MCP conformance suite is not installed in ${TOOLS}: run scripts/test-deps.sh.`);
  ({ prefix } = await buildAndInstall(exampleProject({ warm: true })));
  server = execa(join(prefix, "node_modules", ".bin", "rooms-mcp"), ["--http", "127.0.0.1:0"], {
    reject: false,
    buffer: false,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ROOMS_BASE_URL: "http://127.0.0.1:9", ROOMS_API_KEY: "conformance-key" },
  });
  url = await new Promise<string>((resolve, reject) => {
    let said = "";
    server!.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      const match = /"listening":"([^"]+)"/.exec(said);
      if (match) resolve(match[1]!);
    });
    void server!.then(() => reject(new Error(`rooms-mcp ended: ${said}`)));
  });
}, 300_000);
afterAll(() => {
  server?.kill("SIGKILL");
});

/** Runs the suite's server scenarios; each scenario's checks, by scenario name. */
async function run(revision: keyof typeof SUITES): Promise<Map<string, Check[]>> {
  const out = tempDir("inter-mcp-conformance-");
  const args = [SUITES[revision], "server", "--url", url, "-o", out];
  if (revision === "2026-07-28") args.push("--requirements", revision);
  // The suite exits 1 whenever a scenario fails, as those needing its fixtures do: the checks say what failed.
  const ran = await execa(NODE22, args, { reject: false, all: true, env: { NO_COLOR: "1" } });
  const scenarios = new Map<string, Check[]>();
  for (const folder of readdirSync(out)) {
    const name = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(folder)?.[1];
    const file = join(out, folder, "checks.json");
    if (name && existsSync(file)) scenarios.set(name, JSON.parse(readFileSync(file, "utf8")) as Check[]);
  }
  if (!scenarios.size) throw new Error(`the suite wrote no results:\n${ran.all}`);
  return scenarios;
}

const failures = (checks: Check[]) =>
  checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`);

describe("the official MCP conformance suite, over Streamable HTTP", () => {
  it("revision 2026-07-28 (0.2.0-alpha.12): every scenario that needs none of the suite's fixtures passes", async () => {
    const scenarios = await run("2026-07-28");
    for (const name of MEETABLE["2026-07-28"]) {
      expect(scenarios.has(name), name).toBe(true);
      expect(failures(scenarios.get(name)!), name).toEqual([]);
    }
    const stateless = scenarios.get("server-stateless")!;
    expect(stateless.filter((c) => c.status === "SUCCESS").length).toBeGreaterThan(15);
    const unmet = stateless.filter((c) => c.status === "FAILURE");
    for (const check of unmet) {
      expect(STATELESS_FIXTURE_CHECKS, `${check.id}: ${check.errorMessage}`).toContain(check.id);
      expect(check.errorMessage).toMatch(/^Not testable/);
    }
  }, 300_000);

  it("revision 2025-11-25 (0.1.16): every scenario that needs none of the suite's fixtures passes", async () => {
    const scenarios = await run("2025-11-25");
    for (const name of MEETABLE["2025-11-25"]) {
      expect(scenarios.has(name), name).toBe(true);
      expect(failures(scenarios.get(name)!), name).toEqual([]);
    }
  }, 300_000);
});
