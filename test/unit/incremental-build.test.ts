import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { constants as zlibConstants, deflateRawSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { packTgz, type TarFile } from "../../src/core/reproducible-tgz.js";
import { capabilitiesText } from "../../src/pipeline/capabilities-text.js";
import { joinText } from "../../src/core/text-io.js";
import { syncFolder } from "../../src/stages/emit/sync-folder.js";
import { tempDir } from "../helpers.js";

// What a watch cycle reuses from the last one (issue #46) must never change what a cold build makes: the same files
// give the same cli.tgz, capabilities.json is JSON.stringify's text, and the package folder ends up holding exactly
// the files emit wants.

/** A member given by its bytes (not by a file on disk), so the tests can compare what was packed with what comes out. */
type BytesTarFile = Extract<TarFile, { bytes: Uint8Array }>;

const file = (path: string, text: string, mode = 0o644): BytesTarFile => ({ path, bytes: Buffer.from(text), mode });

const LONG = `${"nested-folder-name/".repeat(8)}${"x".repeat(90)}.json`;
const VERY_LONG = `${"y".repeat(120)}/${"z".repeat(110)}.md`;

function packageOf(brief: string): BytesTarFile[] {
  return [
    file("package.json", '{"name":"t","version":"1.0.0"}\n'),
    file("t.cjs", "#!/usr/bin/env node\n", 0o755),
    file("agent/brief.md", `${brief}\n`),
    file("commands/room.json", JSON.stringify({ commands: Array.from({ length: 300 }, (_, i) => ({ i })) })),
    file(LONG, "long path\n"),
    file(VERY_LONG, "a path no ustar header holds\n"),
    file("skills/réservation/SKILL.md", "# Book\n"),
    file("empty.txt", ""),
  ];
}

describe("packTgz: an npm tarball made of members deflated one by one", () => {
  it("gives the same bytes cold and after reusing the last pack's members, and new bytes for a changed file", async () => {
    const first = await packTgz(packageOf("Rooms is a service."));
    const edited = await packTgz(packageOf("Rooms (edit) is a service."));
    expect(edited.equals(first)).toBe(false);
    // Nothing of the edited package is left to reuse after an unrelated pack: it is compressed anew, to the same bytes.
    await packTgz([file("other.txt", "something else\n")]);
    const cold = await packTgz(packageOf("Rooms (edit) is a service."));
    expect(cold.equals(edited)).toBe(true);
    // And warm again (every member reused) still the same.
    expect((await packTgz(packageOf("Rooms (edit) is a service."))).equals(edited)).toBe(true);
    // The order files are given in does not matter.
    expect((await packTgz(packageOf("Rooms (edit) is a service.").reverse())).equals(edited)).toBe(true);
  });

  it("deflates every member exactly as a fresh deflateRaw with a sync flush would, whatever its size", async () => {
    // A few members are deflated at a time, each read when its turn comes (src/core/reproducible-tgz.ts): every one must
    // compress as it would alone, and gunzip holds the checksum, summed as they were read, to the whole tar.
    const sizes = [0, 1, 511, 512, 16_383, 16_384, 16_385, 65_537, 1 << 20];
    const files = sizes.flatMap((size, i) => [
      { path: `random-${i}.bin`, bytes: randomBytes(size), mode: 0o644 },
      {
        path: `text-${i}.txt`,
        bytes: Buffer.from("agent-first CLI ".repeat(size / 16 + 1).slice(0, size)),
        mode: 0o644,
      },
    ]);
    const tgz = await packTgz(files);
    const tar = gunzipSync(tgz);
    // Each member is its header and its data padded to a block; the sorted members, then two empty blocks.
    const members: Buffer[] = [];
    let at = 0;
    for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const length = 512 + Math.ceil(f.bytes.length / 512) * 512;
      members.push(tar.subarray(at, at + length));
      at += length;
    }
    members.push(tar.subarray(at));
    expect(tar.subarray(at).equals(Buffer.alloc(1024))).toBe(true);
    const deflated = members.map((m) => deflateRawSync(m, { level: 6, finishFlush: zlibConstants.Z_SYNC_FLUSH }));
    const body = Buffer.concat(deflated);
    expect(tgz.subarray(10, 10 + body.length).equals(body)).toBe(true);
    expect(tgz.length).toBe(10 + body.length + 2 + 8);
  });

  it("is one valid gzip stream whose tar the system's tar lists and extracts with paths, modes and contents", async () => {
    const dir = tempDir();
    const tgz = join(dir, "cli.tgz");
    const files = packageOf("Rooms is a service.");
    writeFileSync(tgz, await packTgz(files));
    // gunzip checks the CRC and the length in the trailer.
    const tar = gunzipSync(readFileSync(tgz));
    expect(tar.length % 512).toBe(0);
    // tar prints each member's time in the caller's zone and locale: UTC and C, so the date read is the one stored.
    const listed = execFileSync("tar", ["tzvf", tgz], {
      encoding: "utf8",
      env: { ...process.env, TZ: "UTC", LC_ALL: "C", LANG: "C" },
    });
    expect(listed).toContain("1985-10-26");
    expect(listed).not.toMatch(/PaxHeader/);
    const out = join(dir, "out");
    mkdirSync(out);
    execFileSync("tar", ["xzf", tgz, "-C", out]);
    for (const f of files) {
      const at = join(out, "package", f.path);
      expect(readFileSync(at).equals(Buffer.from(f.bytes)), f.path).toBe(true);
      expect(statSync(at).mode & 0o777, f.path).toBe(f.mode);
    }
  });
});

describe("capabilitiesText: capabilities.json with its commands serialized once", () => {
  const commands = [
    { name: "room get", flags: [{ flag: "id", description: 'a "quoted"\nline', nested: { empty: [], none: {} } }] },
    { name: "rooms list", flags: [], note: "ünïcödé ✓ \u2028", missing: undefined },
  ];
  const caps = (description: string, groups = [{ name: "room", description: "Rooms" }]) => ({
    schemaVersion: "1.0.0",
    product: { name: "Rooms", description },
    groups,
    commands,
    skills: [],
    naming: undefined,
    rules: ["one", "two"],
  });

  it("is byte for byte JSON.stringify(caps, null, 2) and a newline, reused or not", () => {
    for (const value of [caps("first"), caps("second"), caps("second", [])])
      expect(joinText(capabilitiesText(value).text)).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("gives the digest of the commands and groups: the same after a brief edit, new when the groups change", () => {
    const before = capabilitiesText(caps("first")).commandsDigest;
    expect(capabilitiesText(caps("edited brief")).commandsDigest).toBe(before);
    expect(capabilitiesText(caps("first", [{ name: "room", description: "Other" }])).commandsDigest).not.toBe(before);
    // Equal commands in another array (a cold build, a new plan) give the same digest: it is of their text.
    const copy = { ...caps("first"), commands: structuredClone(commands) };
    expect(capabilitiesText(copy).commandsDigest).toBe(before);
  });
});

describe("syncFolder: the package folder as emit wants it, writing only what changed", () => {
  const want = (brief: string) => [
    { path: "agent/brief.md", content: `${brief}\n` },
    { path: "t.cjs", content: "#!/usr/bin/env node\n", executable: true },
    { path: "commands/room.json", content: "{}\n" },
  ];

  it("rewrites a changed file, leaves unchanged ones alone and removes what is no longer wanted", () => {
    const dir = join(tempDir(), "package");
    expect(syncFolder(dir, [...want("one"), { path: "skills/old/SKILL.md", content: "# Old\n" }])).toEqual({
      written: 4,
      unchanged: 0,
      removed: 0,
    });
    const kept = lstatSync(join(dir, "commands/room.json")).ino;
    expect(syncFolder(dir, want("two"))).toEqual({ written: 1, unchanged: 2, removed: 1 });
    expect(readFileSync(join(dir, "agent/brief.md"), "utf8")).toBe("two\n");
    expect(lstatSync(join(dir, "commands/room.json")).ino).toBe(kept);
    expect(existsSync(join(dir, "skills"))).toBe(false);
    expect(statSync(join(dir, "t.cjs")).mode & 0o777).toBe(0o755);
  });

  it("repairs a file whose mode or bytes were changed by hand, and replaces a folder or a link where a file goes", () => {
    const root = tempDir();
    const dir = join(root, "package");
    syncFolder(dir, want("one"));
    chmodSync(join(dir, "t.cjs"), 0o644);
    writeFileSync(join(dir, "commands/room.json"), "{ }\n");
    writeFileSync(join(dir, "stray.txt"), "left by hand\n");
    expect(syncFolder(dir, want("one"))).toEqual({ written: 2, unchanged: 1, removed: 1 });
    expect(statSync(join(dir, "t.cjs")).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(dir, "commands/room.json"), "utf8")).toBe("{}\n");

    const outside = join(root, "outside.md");
    writeFileSync(outside, "not the package's\n");
    const brief = join(dir, "agent/brief.md");
    execFileSync("rm", [brief]);
    symlinkSync(outside, brief);
    mkdirSync(join(dir, "commands/room.json.d"));
    execFileSync("rm", [join(dir, "commands/room.json")]);
    mkdirSync(join(dir, "commands/room.json"));
    writeFileSync(join(dir, "commands/room.json/inner"), "x");
    syncFolder(dir, want("one"));
    expect(lstatSync(brief).isFile()).toBe(true);
    expect(readFileSync(brief, "utf8")).toBe("one\n");
    expect(readFileSync(outside, "utf8")).toBe("not the package's\n");
    expect(readFileSync(join(dir, "commands/room.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(dir, "commands/room.json.d"))).toBe(false);
    expect(() => readlinkSync(brief)).toThrow();
  });
});
