import { execa } from "execa";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inter, read, statuses, tempDir } from "../helpers.js";
import { variantBundle } from "../fixtures/variant-bundle.js";
import { schemaValidator } from "../schema.js";
import { API_KEY, changedCandidate, exampleProject, patchFile } from "./example-api.js";
import type { TaskOutcome } from "../../src/engine/graph/outcome.js";
import type { CredentialCheck } from "../../src/stages/inspect/credentials.js";
import type { Receipt, RuleResult } from "../../src/stages/inspect/receipt.js";
import type { SkillCheck } from "../../src/stages/inspect/skills.js";

const validate = schemaValidator("receipt.schema.json");
let project: string;
let receipt: Receipt;

beforeAll(async () => {
  project = exampleProject({ warm: "with-key" });
  const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
  if (built.exitCode !== 0) throw new Error(built.stdout);
  receipt = JSON.parse(read(project, "dist/receipt.json"));
});

const failing = (r: { rules: RuleResult[] }) =>
  r.rules
    .filter((x) => x.status === "fail")
    .map((x) => x.id)
    .sort();

describe("inspect: the example candidate", () => {
  it("certifies Agent-Native with zero failing rules, every rule judged with evidence, API probes against the started service", () => {
    expect(validate(receipt)).toEqual([]);
    expect(receipt.certification).toEqual({ level: "Agent-Native", blocking: [] });
    expect(receipt.summary.fail).toBe(0);
    expect(receipt.rules).toHaveLength(98);
    expect(receipt.api).toEqual({ probed: true, baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const byId = Object.fromEntries(receipt.rules.map((r) => [r.id, r]));
    expect(byId.X6).toMatchObject({
      status: "pass",
      evidence: [
        expect.objectContaining({ command: "rooms bookings get --booking-id inter-probe-missing-id", exitCode: 20 }),
      ],
    });
    expect(byId.O8!.status).toBe("pass");
    expect(byId.G2!.evidence![0]).toMatchObject({ exitCode: 2, stdout: "" });
    for (const rule of receipt.rules) {
      expect(rule.reason.length, rule.id).toBeGreaterThan(0);
      if (rule.status === "not applicable") expect(["I6", "I7"]).toContain(rule.id);
    }
    expect(receipt.skills.every((s) => s.valid)).toBe(true);
    expect(receipt.commands.find((c) => c.name === "bookings cancel")).toMatchObject({
      destructive: true,
      permission: "delete",
    });
    expect(receipt.candidate!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(receipt)).not.toContain(API_KEY);
  });

  it("leaves the caller's HOME as it was: the probes and the MCP server's calls keep their state in folders of their own", async () => {
    const home = tempDir("inter-inspect-home-");
    const inspected = await inter(project, ["inspect", join(project, "dist", "cli.tgz"), "--json"], { HOME: home });
    expect(inspected.exitCode, inspected.stdout).toBe(0);
    expect(readdirSync(home)).toEqual([]);
  });

  it("is reproduced from the cache when the candidate has not changed, and says why API probes did not run without a key", async () => {
    const again = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
    expect(statuses(again).inspect).toBe("cached");
    expect(JSON.parse(read(project, "dist/receipt.json"))).toEqual(receipt);

    const noKey = await inter(project, ["build", "--json"]);
    const data = noKey.json.data.tasks.find((t: TaskOutcome) => t.id === "inspect").data;
    expect(data).toMatchObject({ level: "Agent-Native", fail: 0 });
    const withoutKey: Receipt = JSON.parse(read(project, "dist/receipt.json"));
    expect(withoutKey.api).toEqual({
      probed: false,
      reason: "ROOMS_API_KEY is not set, so calls to the API cannot authenticate",
    });
    expect(withoutKey.rules.find((r) => r.id === "X6")).toMatchObject({
      status: "not applicable",
      reason: expect.stringContaining("ROOMS_API_KEY is not set"),
    });

    // A key the API refuses says nothing of the CLI: the same candidate, the same level, and why with what to do.
    const wrongKey = await inter(project, ["build", "--json"], { ROOMS_API_KEY: "not-the-key" });
    const refused = wrongKey.json.data.tasks.find((t: TaskOutcome) => t.id === "inspect").data;
    expect(refused).toMatchObject({ level: "Agent-Native", fail: 0, candidate: receipt.candidate!.sha256 });
    expect(refused.apiNotJudged).toMatch(
      /`rooms .*` answered AUTH_FAILED.*set ROOMS_API_KEY to a credential the API accepts/,
    );
    const status = await inter(project, ["status"]);
    expect(status.stdout).toContain("api         not judged: the API refused the probes' calls");
  });

  it("inter inspect works standalone on the tarball and on an installed command", async () => {
    const standalone = await inter(project, ["inspect", "dist/cli.tgz", "--json"]);
    expect(standalone.exitCode).toBe(0);
    expect(standalone.json.data.certification.level).toBe("Agent-Native");
    expect(standalone.json.data.api.reason).toContain("no API base URL");
    const human = await inter(project, ["inspect", "dist/cli.tgz"]);
    expect(human.stdout).toMatch(/^  Guardrails\s+G1✓/m);
    expect(human.stdout).toContain("certification: Agent-Native");

    const prefix = tempDir("inter-global-");
    await execa("npm", [
      "install",
      "--global",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund",
      "--prefix",
      prefix,
      join(project, "dist/cli.tgz"),
    ]);
    const bin = await inter(project, ["inspect", "--bin", "rooms", "--json"], {
      PATH: `${join(prefix, "bin")}:${process.env.PATH}`,
    });
    expect(bin.exitCode).toBe(0);
    expect(bin.json.data).toMatchObject({
      candidate: null,
      package: { name: "rooms-cli", binary: "rooms" },
      certification: { level: "Agent-Native" },
    });
  });
});

describe("inspect: no probe calls the API the CLI names by default", () => {
  it("with the service and the key exported, and with no service at all, sends nothing to the default base URL", async () => {
    // The CLI's default base URL stands for the API's production address: a server that counts what reaches it.
    const reached: string[] = [];
    const production = createServer((req, res) => {
      reached.push(`${req.method} ${req.url} ${req.headers.authorization ?? req.headers["x-api-key"] ?? ""}`);
      res.writeHead(200, { "content-type": "application/json" }).end("[]");
    });
    await new Promise<void>((resolve) => production.listen(0, "127.0.0.1", resolve));
    try {
      const project = exampleProject();
      const url = `http://127.0.0.1:${(production.address() as AddressInfo).port}`;
      patchFile(join(project, "intermesh.config.ts"), 'baseUrl: "http://127.0.0.1:4010"', `baseUrl: "${url}"`);
      // The build inspects against the started service, with the key exported: only those probes call an API.
      const built = await inter(project, ["build", "--json"], { ROOMS_API_KEY: API_KEY });
      expect(built.exitCode, built.stdout).toBe(0);
      const built_ = JSON.parse(read(project, "dist/receipt.json"));
      expect(built_.api.probed).toBe(true);
      // Standalone, with no API to call: the credential checks' real call goes to an address that refuses.
      const standalone = await inter(project, ["inspect", "dist/cli.tgz", "--json"], { ROOMS_API_KEY: API_KEY });
      expect(standalone.exitCode).toBe(0);
      expect(standalone.json.data.api.probed).toBe(false);
      expect(reached).toEqual([]);
    } finally {
      production.close();
    }
  });
});

// Independent inspections of candidates in folders of their own (the project is only read): run side by side, so one
// waiting out the bare-call probe (a CLI that waits for input) does not hold up the others.
describe.concurrent("inspect: deliberately broken candidates fail exactly the rules they break", () => {
  it("a manifest.json field of the wrong type is CANDIDATE_INVALID naming the field, never a crash", async () => {
    const tgz = await changedCandidate(project, (pkg) => {
      const manifest = JSON.parse(readFileSync(join(pkg, "manifest.json"), "utf8"));
      writeFileSync(join(pkg, "manifest.json"), JSON.stringify({ ...manifest, groups: "bookings" }));
    });
    const result = await inter(project, ["inspect", tgz, "--json"]);
    expect(result.exitCode, result.stdout).toBe(2);
    expect(result.json.error.code).toBe("CANDIDATE_INVALID");
    expect(result.json.error.message).toMatch(/manifest\.json.*groups/);
    expect(result.stdout + result.stderr).not.toMatch(/TypeError|is not iterable/);
  });

  it("errors written to stdout break the error-channel rules and certification", async () => {
    const runtime = await variantBundle("runtime", [
      {
        file: "src/runtime/output.ts",
        from: /process\.stderr\.write\(\s*`\$\{JSON\.stringify\(\{ error: true/,
        to: "process.stdout.write(`${JSON.stringify({ error: true",
      },
    ]);
    const tgz = await changedCandidate(project, (pkg) => writeFileSync(join(pkg, "lib/runtime.cjs"), runtime));
    const result = await inter(project, ["inspect", tgz, "--json"]);
    const r = result.json.data;
    // Every rule that needs the structured error on stderr; nothing about discovery, output or Skills.
    expect(failing(r)).toEqual([
      "E1",
      "E2",
      "E3",
      "E4",
      "E5",
      "E6",
      "E8",
      "F6",
      "G1",
      "G2",
      "G3",
      "G6",
      "G8",
      "G9",
      "I2",
      "I4",
      "I5",
      "I9",
      "S1",
      "S2",
      "S4",
      "S7",
      "X8",
    ]);
    expect(r.certification.level).toBe("none");
    const e1 = r.rules.find((x: RuleResult) => x.id === "E1");
    expect(e1.evidence[0]).toMatchObject({ command: "rooms --inter-probe-bogus-flag", exitCode: 2, stderr: "" });
    expect(e1.evidence[0].stdout).toContain('"code":"UNKNOWN_FLAG"');
  });

  it("a CLI that waits for input on a bare call breaks E7 and C6 only", async () => {
    const tgz = await changedCandidate(project, (pkg) =>
      patchFile(
        join(pkg, "rooms.cjs"),
        '"use strict";\n',
        '"use strict";\nif (process.argv.length === 2) { process.stderr.write("Which command? "); setInterval(() => {}, 1000); return; }\n',
      ),
    );
    const result = await inter(project, ["inspect", tgz, "--json"]);
    expect(failing(result.json.data)).toEqual(["C6", "E7"]);
    expect(result.json.data.certification.level).toBe("none");
  });

  it("a CLI that exits 0 on failure breaks the exit-code rules", async () => {
    const runtime = await variantBundle("runtime", [
      { file: "src/runtime/main.ts", from: "return err.exitCode;", to: "return 0;" },
    ]);
    const tgz = await changedCandidate(project, (pkg) => writeFileSync(join(pkg, "lib/runtime.cjs"), runtime));
    const r = (await inter(project, ["inspect", tgz, "--json"])).json.data;
    // Every rule that expects a refusal's non-zero exit; the errors themselves are still well-formed.
    expect(failing(r)).toEqual([
      "F6",
      "G1",
      "G2",
      "G3",
      "G6",
      "G8",
      "G9",
      "I2",
      "I4",
      "I5",
      "I9",
      "S1",
      "S4",
      "S7",
      "X3",
      "X4",
      "X7",
      "X8",
    ]);
    expect(r.rules.find((x: RuleResult) => x.id === "X3").reason).toBe("bogus flag exit 0");
  });

  it("a runtime that takes a bare id_rsa, runs a command given --version, writes on issue --dry-run and takes unknown flags on builtins fails G1, G3, N6 and S3", async () => {
    const runtime = await variantBundle("runtime", [
      {
        file: "src/runtime/guard.ts",
        from: "SENSITIVE_NAME.test(value.trim()) || (looksLikePath",
        to: "(false && SENSITIVE_NAME.test(value.trim())) || (looksLikePath",
      },
      {
        file: "src/runtime/main.ts",
        from: /if \(versionRequested\(argv\)\) \{([\s\S]*)const guess: Command \| undefined = findCommand\(cli, leading\) \?\? findBuiltin\(manifest, leading\);/,
        to: 'if (versionRequested(argv) && argv[0] === "--version") {$1const guess: Command | undefined = findCommand(cli, leading);',
      },
      {
        file: "src/runtime/issues.ts",
        from: "if (dryRun) return preview(issue, ",
        to: "if (false) return preview(issue, ",
      },
    ]);
    const tgz = await changedCandidate(project, (pkg) => writeFileSync(join(pkg, "lib/runtime.cjs"), runtime));
    const r = (await inter(project, ["inspect", tgz, "--json"])).json.data;
    expect(failing(r)).toEqual(["G1", "G3", "N6", "S3"]);
    const byId = Object.fromEntries(r.rules.map((x: RuleResult) => [x.id, x]));
    expect(byId.G1.reason).toContain("rooms issue list --inter-probe-bogus-flag");
    expect(byId.G3.reason).toBe("a bare id_rsa was not refused");
    expect(byId.N6.reason).toMatch(/--version after a command did something else: rooms bookings create .* --version/);
    expect(byId.S3.reason).toBe("issue create --dry-run did not answer with a preview (dry_run: true)");
  });

  it("a runtime that prints its credentials is certified nothing: A1 and A2 fail, whatever the 98 rules say", async () => {
    const runtime = await variantBundle("runtime", [
      {
        file: "src/runtime/main.ts",
        from: "request: redactRequest(dryRunRequest(await sign(request)), knownSecrets(manifest), secretPlaces(manifest))",
        to: "request: dryRunRequest(await sign(request))",
      },
      {
        file: "src/runtime/without-credentials.ts",
        from: "return secrets.length ? redactor(secrets)(text) : text;",
        to: "return text;",
      },
    ]);
    const tgz = await changedCandidate(project, (pkg) => writeFileSync(join(pkg, "lib/runtime.cjs"), runtime));
    const r = (await inter(project, ["inspect", tgz, "--json"])).json.data;
    expect(r.certification.level).toBe("none");
    expect(r.certification.blocking).toEqual(expect.arrayContaining(["A1", "A2"]));
    const checks = Object.fromEntries(r.credentials.checks.map((c: CredentialCheck) => [c.id, c]));
    expect(checks.A1.reason).toContain("not carried as declared: bookings list (apiKey, exit 0)");
    expect(checks.A2.reason).toMatch(/^a credential value was printed by rooms bookings list --dry-run/);
    expect(checks.A3.status).toBe("pass");
  });

  it("a command that takes the API key as a flag is certified nothing: A3 names it", async () => {
    const tgz = await changedCandidate(project, (pkg) => {
      const file = join(pkg, "commands/rooms.json");
      const group = JSON.parse(readFileSync(file, "utf8"));
      group.commands[0].flags.push({
        flag: "api-key",
        in: "header",
        wire: "X-API-Key",
        type: "string",
        required: true,
        description: "Your API key",
      });
      writeFileSync(file, JSON.stringify(group));
    });
    const r = (await inter(project, ["inspect", tgz, "--json"])).json.data;
    expect(r.certification).toMatchObject({ level: "none", blocking: expect.arrayContaining(["A3"]) });
    expect(r.credentials.checks.find((c: CredentialCheck) => c.id === "A3").reason).toMatch(
      /^1 flag carries a credential: rooms \S+ --api-key \(apiKey\)$/,
    );
  });

  it("a Skill whose name differs from its folder fails D18 and its Skill validation", async () => {
    const tgz = await changedCandidate(project, (pkg) =>
      renameSync(join(pkg, "skills/cancel-a-booking"), join(pkg, "skills/cancel-booking")),
    );
    const r = (await inter(project, ["inspect", tgz, "--json"])).json.data;
    expect(failing(r)).toEqual(["D18"]);
    expect(r.certification).toEqual({ level: "Agent-Ready", blocking: ["D18"] });
    expect(r.skills.find((s: SkillCheck) => !s.valid)).toEqual(
      expect.objectContaining({
        name: "cancel-a-booking",
        problems: ['name "cancel-a-booking" differs from its folder "cancel-booking"'],
      }),
    );
  });

  it("a tarball with a ../ entry is refused before anything is unpacked (TARBALL_UNSAFE, exit 2)", async () => {
    const dir = tempDir("inter-evil-");
    const victim = join(dir, "escaped.txt");
    const stage = join(dir, "stage");
    cpSync(join(project, "dist/package"), join(stage, "package"), { recursive: true });
    writeFileSync(join(dir, "escaped.txt.src"), "owned");
    await execa("tar", [
      "-czf",
      join(dir, "evil.tgz"),
      "-C",
      stage,
      "package",
      "--transform",
      "s,^package/README.md,package/../../escaped.txt,",
      "-P",
    ]);
    const listing = await execa("tar", ["-tzf", join(dir, "evil.tgz"), "-P"]);
    expect(listing.stdout).toContain("package/../../escaped.txt");
    const result = await inter(dir, ["inspect", "evil.tgz", "--json"]);
    expect(result.exitCode).toBe(2);
    expect(result.json.error.code).toBe("TARBALL_UNSAFE");
    expect(result.json.error.message).toContain("package/../../escaped.txt");
    expect(existsSync(victim)).toBe(false);
  });
});

describe("inspect: probes reused after a brief edit", () => {
  it("re-runs only the probes a brief edit can change, names the reused ones and their candidate, and certifies alike", async () => {
    // The run's build with the key (test/global-setup.ts), its cache and the probes it keeps for reuse: all cached here.
    // (That build itself reused the keyless build's probes; --force below shows a receipt that reuses nothing.)
    const dir = exampleProject({ warm: "with-key" });
    const env = { ROOMS_API_KEY: API_KEY };
    expect((await inter(dir, ["build", "--json"], env)).exitCode).toBe(0);
    const first = JSON.parse(read(dir, "dist/receipt.json"));

    // The brief's prose changes: a new candidate, but the same runtime and commands.
    const brief = join(dir, "examples/rooms/context.md");
    writeFileSync(brief, readFileSync(brief, "utf8").replace(/^Rooms is/m, "Rooms, edited, is"));
    const edited = await inter(dir, ["build", "--json"], env);
    expect(edited.exitCode).toBe(0);
    const second = JSON.parse(read(dir, "dist/receipt.json"));
    expect(second.candidate.sha256).not.toBe(first.candidate.sha256);
    expect(validate(second)).toEqual([]);
    expect(second.reused.candidate).toBe(first.candidate.sha256);
    // API command probes are reused; help, Skills, issues and version (which read the prose) ran again.
    expect(second.reused.probes).toContain("rooms bookings list");
    expect(second.reused.probes).toContain("rooms rooms list --help");
    expect(second.reused.probes.every((c: string) => !/^rooms (--help|--brief|--version|skills|issue)/.test(c))).toBe(
      true,
    );
    expect(second.certification).toEqual(first.certification);
    expect(second.summary).toEqual(first.summary);

    // A command changed (its description in the document): that group's probes run again.
    const document = join(dir, "examples/rooms/openapi.yaml");
    const text = readFileSync(document, "utf8");
    expect(text).toContain("summary: List meeting rooms");
    writeFileSync(document, text.replace("summary: List meeting rooms", "summary: List the meeting rooms"));
    expect((await inter(dir, ["build", "--json"], env)).exitCode).toBe(0);
    const third = JSON.parse(read(dir, "dist/receipt.json"));
    expect((third.reused?.probes ?? []).filter((c: string) => c.startsWith("rooms rooms "))).toEqual([]);

    // --force re-probes everything.
    expect((await inter(dir, ["run", "inspect", "--force", "--json"], env)).exitCode).toBe(0);
    expect(JSON.parse(read(dir, "dist/receipt.json")).reused).toBeUndefined();
    // What is kept for reuse holds no credential.
    expect(read(dir, ".intermesh/inspect/probes.json")).not.toContain(API_KEY);
  });
});
