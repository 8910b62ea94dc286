import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGzip, gzipSync } from "node:zlib";
import { createWriteStream } from "node:fs";
import { describe, expect, it } from "vitest";
import { withoutSkills } from "../../src/evaluation/compare/uplift.js";
import { skillsOfCandidate } from "../../src/evaluation/triggers/skills.js";
import { openCandidate } from "../../src/stages/candidate/open-candidate.js";
import { checkTarball } from "../../src/stages/candidate/read-tarball.js";
import { installCandidate } from "../../src/stages/inspect/install.js";
import { starterPlan } from "../../src/stages/plan/scaffold.js";
import { tempDir } from "../helpers.js";

// The one candidate reader (#42): every command reads a cli.tgz or package folder through it, so these hostile inputs
// are refused the same way everywhere, with nothing written and nothing left running.

/** One ustar entry: a 512-byte header (the size may be a lie) and the body padded to a block. */
function tarEntry(name: string, body: Buffer | string, options: { type?: string; link?: string; size?: number } = {}) {
  const data = typeof body === "string" ? Buffer.from(body) : body;
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, "utf8");
  header.write("0000644\0", 100);
  header.write("0000000\0", 108);
  header.write("0000000\0", 116);
  header.write(`${(options.size ?? data.length).toString(8).padStart(11, "0")}\0`, 124);
  header.write("00000000000\0", 136);
  header.write("        ", 148);
  header.write(options.type ?? "0", 156);
  header.write(options.link ?? "", 157, 100, "utf8");
  header.write("ustar\0" + "00", 257);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding]);
}

const END = Buffer.alloc(1024);

const MANIFEST = JSON.stringify({
  product: { binary: "rooms", name: "Rooms", version: "1.2.0" },
  baseUrl: { default: "https://rooms.example.test", env: "ROOMS_BASE_URL" },
  auth: { env: "ROOMS_TOKEN" },
  groups: [{ name: "bookings" }],
  skills: [{ name: "book-a-room", description: "Book a room" }],
});
const COMMANDS = JSON.stringify({
  commands: [
    {
      name: "bookings create",
      path: ["bookings", "create"],
      operation: { method: "POST", path: "/bookings" },
      flags: [],
      output: { shape: "object" },
    },
  ],
});
const SKILL = `---
name: book-a-room
description: >-
  Use when the user wants to book
  a room.
---

## Commands

- \`rooms bookings create --room <id>\`
`;
const PACKAGE = {
  "package/package.json": JSON.stringify({ name: "@acme/rooms", version: "1.2.0" }),
  "package/manifest.json": MANIFEST,
  "package/commands/bookings.json": COMMANDS,
  "package/skills/book-a-room/SKILL.md": SKILL,
  "package/skills/book-a-room/references/ids.md": "Room ids look like r-123.",
  "package/agent/skills/book-a-room/SKILL.md": SKILL,
};

function tgz(dir: string, name: string, entries: Buffer[]): string {
  const file = join(dir, name);
  writeFileSync(file, gzipSync(Buffer.concat([...entries, END])));
  return file;
}

const good = (dir: string) =>
  tgz(
    dir,
    "cli.tgz",
    Object.entries(PACKAGE).map(([path, text]) => tarEntry(path, text)),
  );

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error("expected a refusal");
}

describe("openCandidate", () => {
  it("reads a cli.tgz once: the manifest and package.json typed, each Skill with its front matter and files", async () => {
    const dir = tempDir("inter-candidate-");
    const candidate = await openCandidate(good(dir), { label: "cli.tgz" });
    expect(candidate.manifest.product.binary).toBe("rooms");
    expect(candidate.manifest.baseUrl?.default).toBe("https://rooms.example.test");
    expect(candidate.packageJson).toMatchObject({ name: "@acme/rooms", version: "1.2.0" });
    expect(candidate.skills.map((s) => s.name)).toEqual(["book-a-room"]);
    const [skill] = skillsOfCandidate(candidate);
    expect(skill).toMatchObject({ name: "book-a-room", description: "Use when the user wants to book a room." });
    expect(Object.keys(skill!.files).sort()).toEqual(["SKILL.md", "references/ids.md"]);
    // The starter plan of `inter eval new` comes from the same copy.
    const plan = starterPlan(candidate, dir);
    expect(plan.target).toMatchObject({ api_url: "https://rooms.example.test", credential_env: "ROOMS_TOKEN" });
    expect(plan.scenarios[0]!.observations[0]!.command_prefix).toEqual(["rooms", "bookings", "create"]);
  });

  it("reads an unpacked package folder the same way, without following links", async () => {
    const dir = tempDir("inter-candidate-");
    for (const [path, text] of Object.entries(PACKAGE)) {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const outside = tempDir("inter-outside-");
    writeFileSync(join(outside, "secret.md"), "not the candidate's");
    symlinkSync(join(outside, "secret.md"), join(dir, "package/skills/book-a-room/references/secret.md"));
    const fromFolder = await openCandidate(dir);
    const fromTarball = await openCandidate(good(tempDir("inter-candidate-")));
    expect(fromFolder.source.kind).toBe("folder");
    expect(skillsOfCandidate(fromFolder)).toEqual(skillsOfCandidate(fromTarball).map((s) => s));
    expect([...fromFolder.files.keys()].sort()).toEqual([...fromTarball.files.keys()].sort());
  });

  it("a file that is not gzip is CANDIDATE_INVALID, naming it", async () => {
    const dir = tempDir("inter-candidate-");
    writeFileSync(join(dir, "openapi.yaml"), "openapi: 3.1.0\n");
    const result = await refusal(openCandidate(join(dir, "openapi.yaml"), { label: "openapi.yaml" }));
    expect(result).toMatchObject({ code: "CANDIDATE_INVALID" });
    expect(result.message).toContain("openapi.yaml is not a cli.tgz");
  });

  it("a ../ entry, a symlink and an oversized entry are TARBALL_UNSAFE, and nothing is written anywhere", async () => {
    const dir = tempDir("inter-candidate-");
    const cases = {
      traversal: tarEntry("package/../../escaped.txt", "owned"),
      absolute: tarEntry("/tmp/escaped.txt", "owned"),
      symlink: tarEntry("package/commands", "", { type: "2", link: "/etc" }),
      hardlink: tarEntry("package/passwd", "", { type: "1", link: "/etc/passwd" }),
      // The header claims 70 MB; the body is never read past the header.
      oversized: tarEntry("package/big.bin", "x", { size: 70 * 1024 * 1024 }),
    };
    for (const [name, entry] of Object.entries(cases)) {
      const file = tgz(dir, `${name}.tgz`, [tarEntry("package/manifest.json", MANIFEST), entry]);
      const result = await refusal(openCandidate(file, { label: `${name}.tgz` }));
      expect(result.code, name).toBe("TARBALL_UNSAFE");
      expect(result.message, name).toContain(`${name}.tgz:`);
      // Inspection and uplift check the same way before they unpack, and so does an evaluation's install.
      expect((await refusal(checkTarball(file))).code, name).toBe("TARBALL_UNSAFE");
      const prefix = join(dir, `${name}-installed`);
      expect((await refusal(installCandidate(file, prefix))).code, name).toBe("TARBALL_UNSAFE");
      expect(existsSync(prefix), name).toBe(false);
      const out = join(dir, `${name}-without-skills.tgz`);
      expect((await refusal(withoutSkills(file, out))).code, name).toBe("TARBALL_UNSAFE");
      expect(existsSync(out), name).toBe(false);
    }
    expect(existsSync(join(dir, "..", "escaped.txt"))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(
      Object.keys(cases)
        .map((n) => `${n}.tgz`)
        .sort(),
    );
  });

  it("a gzip bomb is refused at the entry that passes the limit in all, and zeros after the end are never inflated", async () => {
    const dir = tempDir("inter-candidate-");
    /** A gzip stream of the given blocks, each written `times` times: a few hundred KB for hundreds of MB. */
    async function bomb(name: string, parts: Array<[Buffer, number]>): Promise<string> {
      const file = join(dir, name);
      const gzip = createGzip({ level: 1 });
      const written = new Promise<void>((resolveWrite, rejectWrite) =>
        gzip.pipe(createWriteStream(file)).on("finish", resolveWrite).on("error", rejectWrite),
      );
      for (const [block, times] of parts)
        for (let i = 0; i < times; i++) if (!gzip.write(block)) await new Promise((r) => gzip.once("drain", r));
      gzip.end();
      await written;
      return file;
    }
    const mb = Buffer.alloc(1024 * 1024);
    // Five files of 60 MB of zeros, each under the per-file limit: 300 MB in all, refused at the fifth header.
    const entries: Array<[Buffer, number]> = [[tarEntry("package/manifest.json", MANIFEST), 1]];
    for (let i = 0; i < 5; i++)
      entries.push([tarEntry(`package/zeros${i}.bin`, "", { size: 60 * mb.length }), 1], [mb, 60]);
    const refused = await refusal(openCandidate(await bomb("bomb.tgz", entries), { label: "bomb.tgz" }));
    expect(refused.code).toBe("TARBALL_UNSAFE");
    expect(refused.message).toContain("bomb.tgz: *: over the 268435456-byte limit in all");
    // 150 MB of zeros after the end of the archive: read up to the end, the rest left compressed.
    const padded = await bomb("padded.tgz", [
      [tarEntry("package/manifest.json", MANIFEST), 1],
      [mb, 150],
    ]);
    expect((await openCandidate(padded)).manifest.product.binary).toBe("rooms");
  });

  it("too many entries is TARBALL_UNSAFE", async () => {
    const dir = tempDir("inter-candidate-");
    const entries = Array.from({ length: 20_001 }, (_, i) => tarEntry(`package/f${i}`, ""));
    const result = await refusal(openCandidate(tgz(dir, "many.tgz", entries), { label: "many.tgz" }));
    expect(result).toMatchObject({ code: "TARBALL_UNSAFE" });
    expect(result.message).toContain("over 20000 entries");
  });

  it("a manifest.json that is missing, not JSON or of the wrong shape is CANDIDATE_INVALID naming the field", async () => {
    const dir = tempDir("inter-candidate-");
    const cases: Array<[string, Buffer[], string]> = [
      ["none", [tarEntry("package/package.json", "{}")], "manifest.json is missing"],
      ["broken", [tarEntry("package/manifest.json", "{")], "manifest.json is not JSON"],
      ["shape", [tarEntry("package/manifest.json", JSON.stringify({ product: { binary: 7 } }))], "product.binary"],
    ];
    for (const [name, entries, text] of cases) {
      const result = await refusal(openCandidate(tgz(dir, `${name}.tgz`, entries), { label: `${name}.tgz` }));
      expect(result.code, name).toBe("CANDIDATE_INVALID");
      expect(result.message, name).toContain(text);
    }
  });
});

describe("withoutSkills", () => {
  it("takes the Skills out of the candidate and keeps everything else", async () => {
    const dir = tempDir("inter-candidate-");
    const out = join(dir, "without.tgz");
    await withoutSkills(good(dir), out);
    const candidate = await openCandidate(out);
    expect(candidate.skills).toEqual([]);
    expect(candidate.manifest.skills).toEqual([]);
    expect(candidate.manifest.product.binary).toBe("rooms");
    expect([...candidate.files.keys()].sort()).toEqual(["commands/bookings.json", "manifest.json", "package.json"]);
  });
});
