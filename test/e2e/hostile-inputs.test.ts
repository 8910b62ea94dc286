import { execa } from "execa";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { config, INTER_BIN, makeProject, REPO, writeFiles, tempDir } from "../helpers.js";

// Inputs built to escape the project, hang the parser or exhaust memory. Each run has a hard timeout: a hang fails
// the test instead of stalling the suite.
const project = (files: Record<string, string>) =>
  makeProject({
    "intermesh.config.ts": config(
      `{ product: { name: "H", binary: "h" }, inputs: { openapi: "openapi.yaml", context: "context.md" } }`,
    ),
    "context.md": "# H\n\n## Tasks and scenarios\n\n### List the things\n\nList every thing.\n",
    ...files,
  });

async function run(dir: string, task: string) {
  const result = await execa("node", [INTER_BIN, "run", task, "--json"], {
    cwd: dir,
    env: { CI: "true" },
    stdin: "ignore",
    reject: false,
    timeout: 180_000,
  });
  return { exitCode: result.exitCode, json: JSON.parse(result.stdout as string), timedOut: result.timedOut };
}

const document = (extra: string) => `openapi: 3.1.0
info: { title: h, version: "1" }
paths:
  /things:
    get:
      operationId: listThings
${extra}
      responses:
        "200": { description: ok }
`;

describe("hostile OpenAPI documents", () => {
  it("a $ref fan-out (allOf of twelve refs, seven levels deep) is summarised once per schema, not 12^7 times", async () => {
    let schemas = "";
    for (let level = 0; level < 7; level++)
      schemas += `    L${level}:\n      allOf:\n${Array.from({ length: 12 }, () => `        - $ref: "#/components/schemas/L${level + 1}"\n`).join("")}`;
    schemas += "    L7: { type: object, properties: { name: { type: string } } }\n";
    const dir = project({
      "openapi.yaml": `${document(`      requestBody:\n        content:\n          application/json:\n            schema: { $ref: "#/components/schemas/L0" }`).replace("get:", "post:")}components:\n  schemas:\n${schemas}`,
    });
    const result = await run(dir, "openapi");
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
  });

  it("refuses $refs to files outside the project, through links that leave it, and to files that are not regular", async () => {
    const outside = tempDir("inter-secret-");
    writeFileSync(
      join(outside, "param.yaml"),
      "name: token\nin: query\nschema: { type: string, default: SECRET-TEXT }\n",
    );
    const parameter = (ref: string) => document(`      parameters:\n        - $ref: "${ref}"`);
    const cases: Array<[string, string]> = [
      [join(outside, "param.yaml"), "outside the project"],
      ["/etc/passwd", "outside the project"],
      ["/dev/zero", "outside the project"],
      ["link.yaml", "outside the project"],
      ["fifo.yaml", "not a regular file"],
      ["missing.yaml", "does not exist"],
    ];
    for (const [ref, says] of cases) {
      const dir = project({ "openapi.yaml": parameter(ref) });
      symlinkSync(join(outside, "param.yaml"), join(dir, "link.yaml"));
      await execa("mkfifo", [join(dir, "fifo.yaml")]);
      const result = await run(dir, "openapi");
      expect(result.timedOut, ref).toBe(false);
      expect(result.exitCode, ref).toBe(2);
      expect(result.json.error.code, ref).toBe("OPENAPI_INVALID");
      expect(result.json.error.message, ref).toContain(says);
      expect(JSON.stringify(result.json), ref).not.toContain("SECRET-TEXT");
    }
  });

  it("a document the config names outside the project may refer to files beside it, and to nothing beyond", async () => {
    const shared = tempDir("inter-shared-api-");
    writeFileSync(join(shared, "param.yaml"), "name: kind\nin: query\nschema: { type: string }\n");
    writeFileSync(join(shared, "openapi.yaml"), document(`      parameters:\n        - $ref: "param.yaml"`));
    const dir = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "H", binary: "h" }, inputs: { openapi: ${JSON.stringify(join(shared, "openapi.yaml"))}, context: "context.md" } }`,
      ),
      "context.md": "# H\n",
    });
    expect((await run(dir, "openapi")).exitCode).toBe(0);
    // Deep enough to reach /etc/passwd from any temporary folder.
    writeFileSync(
      join(shared, "openapi.yaml"),
      document(`      parameters:\n        - $ref: "${"../".repeat(16)}etc/passwd"`),
    );
    const beyond = await run(dir, "openapi");
    expect(beyond.exitCode).toBe(2);
    expect(beyond.json.error.message).toContain("outside the project");
  });

  it("a $ref to another file inside the project still resolves", async () => {
    const dir = project({
      "openapi.yaml": document(`      parameters:\n        - $ref: "shared/param.yaml"`),
      "shared/param.yaml": "name: kind\nin: query\nschema: { type: string }\n",
    });
    const result = await run(dir, "openapi");
    expect(result.exitCode).toBe(0);
  });
});

describe("hostile briefs", () => {
  it("INPUT_TOO_LARGE for a brief over the size limit, and for more tasks than Skills inter plans", async () => {
    const big = project({
      "openapi.yaml": document(""),
      "context.md": `# H\n\n## Tasks and scenarios\n\n${"### List the things\n\nList them.\n\n".repeat(40_000)}`,
    });
    const tooBig = await run(big, "skills");
    expect(tooBig.exitCode).toBe(2);
    expect(tooBig.json.error).toMatchObject({ code: "INPUT_TOO_LARGE", details: { file: "context.md" } });

    const many = project({
      "openapi.yaml": document(""),
      "context.md": `# H\n\n## Tasks and scenarios\n\n${Array.from({ length: 1500 }, (_, i) => `### List things of kind ${i}\n\nList them.\n`).join("\n")}`,
    });
    const tooMany = await run(many, "skills");
    expect(tooMany.exitCode).toBe(2);
    expect(tooMany.json.error).toMatchObject({ code: "INPUT_TOO_LARGE", details: { briefTasks: 1500 } });
  });

  it("a heading of thousands of spaces (a backtracking trap) is read at once", async () => {
    const dir = project({
      "openapi.yaml": document(""),
      "context.md": `# H\n\n## Tasks and scenarios\n\n### List ${" ".repeat(20_000)}things\n\nList them.\n`,
    });
    const result = await run(dir, "skills");
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.json.data.tasks[0].data.skills ?? result.json.data.tasks.at(-1).data.skills).toBe(1);
  });
});

describe("a cache folder that cannot be written", () => {
  it("serves hits from a read-only cache and builds misses uncached, with one warning", async (context) => {
    const dir = project({ "openapi.yaml": document("") });
    expect((await run(dir, "skills")).exitCode).toBe(0);
    const cache = join(dir, ".intermesh", "cache");
    mkdirSync(cache, { recursive: true });
    // A read-only bind mount is the honest test (root ignores file modes); without mount rights there is nothing to test.
    const mounted = await execa(
      "sh",
      ["-c", `mount --bind "${cache}" "${cache}" && mount -o remount,bind,ro "${cache}"`],
      { reject: false },
    );
    if (mounted.exitCode !== 0) return context.skip();
    try {
      const hit = await run(dir, "skills");
      expect(hit.exitCode).toBe(0);
      expect(hit.json.data.summary.cached).toBe(hit.json.data.summary.total);
      writeFiles(dir, { "context.md": "# H\n\n## Tasks and scenarios\n\n### Show the things\n\nShow every thing.\n" });
      const miss = await run(dir, "skills");
      expect(miss.exitCode).toBe(0);
      expect(miss.json.data.summary.ran).toBeGreaterThan(0);
      expect(miss.json.data.cache.warning).toMatch(/^EROFS: .*cannot be written/);
    } finally {
      await execa("umount", [cache], { reject: false });
    }
  });
});

describe("documents nested thousands deep", () => {
  it("a plan, a reference file and a results file nested 100,000 levels deep are refused with their codes, not a stack overflow", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const dir = makeProject({
      "evals/eval-plan.json": `{"schema_version": "3.0.0", "x": ${deep}}`,
      "results.json": deep,
    });
    const validate = await execa("node", [INTER_BIN, "eval", "validate", "evals", "--json"], {
      cwd: dir,
      env: { CI: "true" },
      stdin: "ignore",
      reject: false,
      timeout: 180_000,
    });
    expect(validate.exitCode).toBe(2);
    expect(JSON.parse(validate.stdout as string).error.code).toBe("PLAN_INVALID");
    expect(validate.stdout).toContain("nests deeper than 64 levels");
    const plan = readFileSync(join(REPO, "evals/eval-plan.json"), "utf8");
    const withReference = makeProject({
      "evals/eval-plan.json": plan,
      "evals/eval-plan.reference.json": `{"x": ${deep}}`,
    });
    const reference = await execa("node", [INTER_BIN, "eval", "validate", "evals", "--json"], {
      cwd: withReference,
      env: { CI: "true" },
      stdin: "ignore",
      reject: false,
      timeout: 180_000,
    });
    expect(reference.exitCode).toBe(2);
    expect(reference.stdout).toContain("REFERENCE_INVALID");
    const report = await execa("node", [INTER_BIN, "eval", "report", "results.json", "--json"], {
      cwd: dir,
      env: { CI: "true" },
      stdin: "ignore",
      reject: false,
      timeout: 180_000,
    });
    expect(report.exitCode).toBe(2);
    expect(JSON.parse(report.stdout as string).error.code).toBe("RESULTS_INVALID");
  });
});
