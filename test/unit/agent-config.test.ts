import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { contentSha256 } from "../../src/core/package-proof.js";
import { loadJsonc, readPresent, tomlBlock, withEntry, withoutEntry } from "../../src/runtime/mcp-config.js";
import { tempDir } from "../helpers.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("the content hash (docs/publishing.md)", () => {
  it("is sha256sum's listing of every file outside proof/, sorted by path, hashed", () => {
    const files = [
      { path: "b.json", sha256: sha("b"), size: 1 },
      { path: "a/x.md", sha256: sha("x"), size: 1 },
      { path: "proof/proof.json", sha256: sha("p"), size: 1 },
      { path: "B.md", sha256: sha("B"), size: 1 },
    ];
    expect(contentSha256(files)).toBe(sha(`${sha("B")}  B.md\n${sha("x")}  a/x.md\n${sha("b")}  b.json\n`));
    // proof/ never counts, and the order given does not matter.
    expect(contentSha256([...files].reverse().filter((f) => !f.path.startsWith("proof/")))).toBe(contentSha256(files));
    expect(contentSha256([{ ...files[0]!, sha256: sha("changed") }, ...files.slice(1)])).not.toBe(contentSha256(files));
  });
});

describe("an MCP entry in an agent's configuration", () => {
  beforeAll(loadJsonc);
  const toml = (text: string) => {
    const file = join(tempDir("inter-toml-"), "config.toml");
    writeFileSync(file, text);
    return { file, format: "toml" as const, key: "mcp_servers" };
  };

  it("finds the server however Codex's TOML spells it, and only our own exact table counts as ours", () => {
    const ours = tomlBlock(
      "rooms",
      { command: "node", args: ["/x/rooms-mcp.cjs"], env_vars: ["ROOMS_API_KEY"] },
      "rooms",
    );
    for (const text of [
      '[mcp_servers.rooms]\ncommand = "x"\n',
      '[mcp_servers."rooms"]\ncommand = "x"\n',
      'mcp_servers.rooms.command = "x"\n',
      '[mcp_servers]\nrooms = { command = "x" }\n',
      '[mcp_servers.rooms.env]\nA = "1"\n',
    ]) {
      expect(readPresent(toml(text), "rooms", ours), text).toEqual({ kind: "toml", found: true, ours: false });
    }
    expect(
      readPresent(
        toml('[mcp_servers.roomsx]\ncommand = "x"\n[mcp_servers]\nother = { command = "y" }\n'),
        "rooms",
        ours,
      ).kind,
    ).toBe("none");
    expect(readPresent(toml(`model = "m"\n\n${ours}`), "rooms", ours)).toEqual({
      kind: "toml",
      found: true,
      ours: true,
    });
    // Our table plus a second definition someone added: not ours to replace.
    expect(readPresent(toml(`${ours}\nmcp_servers.rooms.args = []\n`), "rooms", ours)).toMatchObject({ ours: false });
  });

  it("puts our table in and takes it out, leaving the rest of the TOML byte for byte", () => {
    const original = '# my settings\nmodel = "m"\n\n[mcp_servers.other]\ncommand = "other"\n';
    const place = toml(original);
    const ours = tomlBlock("rooms", { command: "node", args: ["/x/rooms-mcp.cjs"], env_vars: [] }, "rooms");
    const added = withEntry(place, "rooms", ours);
    expect(added.text.startsWith(original)).toBe(true);
    writeFileSync(place.file, added.text);
    expect(withoutEntry(place, "rooms", added, false)).toBe(original);
    const upgraded = tomlBlock("rooms", { command: "node", args: ["/y/rooms-mcp.cjs"], env_vars: [] }, "rooms");
    const again = withEntry(place, "rooms", upgraded, added);
    expect(again.text).toBe(added.text.replace(ours, upgraded));
    writeFileSync(place.file, again.text);
    expect(withoutEntry(place, "rooms", again, false)).toBe(original);
  });

  it("keeps a JSON file's other keys, indent and final line break", () => {
    const file = join(tempDir("inter-json-"), "opencode.json");
    const original = JSON.stringify(
      { $schema: "https://opencode.ai/config.json", mcp: { other: { type: "local", command: ["x"] } } },
      null,
      "\t",
    );
    writeFileSync(file, original);
    const place = { file, format: "json" as const, key: "mcp" };
    const entry = { type: "local", command: ["node", "/x/rooms-mcp.cjs"], enabled: true };
    const added = withEntry(place, "rooms", entry);
    expect(JSON.parse(added.text).mcp).toEqual({ other: { type: "local", command: ["x"] }, rooms: entry });
    expect(added.text).toContain('\n\t"mcp"');
    writeFileSync(file, added.text);
    expect(readPresent(place, "rooms", undefined)).toEqual({ kind: "json", entry });
    expect(withoutEntry(place, "rooms", added, false)).toBe(original);
    writeFileSync(file, "{ not json");
    expect(readPresent(place, "rooms", undefined).kind).toBe("unreadable");
    expect(readFileSync(file, "utf8")).toBe("{ not json");
  });

  it("install then uninstall gives back every file byte for byte, whatever its formatting", () => {
    const entry = { command: "node", args: ["/x/rooms-mcp.cjs"] };
    const cases: Array<[string, "json" | "toml", string]> = [
      ["one line (Claude Code's .mcp.json)", "json", '{"mcpServers":{"x":{"command":"a","args":[]}}}'],
      [
        "CRLF (opencode.json)",
        "json",
        '{\r\n  "mcp": {\r\n    "x": { "type": "local", "command": ["a"] }\r\n  }\r\n}\r\n',
      ],
      ["comments and a trailing comma (Gemini's settings.json)", "json", '{\n  // mine\n  "theme": "GitHub",\n}\n'],
      ["tabs, no final newline", "json", '{\n\t"mcpServers": {}\n}'],
      ["four spaces, the key absent", "json", '{\n    "other": 1\n}\n'],
      ["empty object on one line", "json", "{}"],
      ["TOML without a final newline", "toml", 'model = "m"'],
      ["TOML in CRLF", "toml", 'model = "m"\r\n\r\n[mcp_servers.x]\r\ncommand = "a"\r\n'],
    ];
    for (const [what, format, original] of cases) {
      const file = join(tempDir("inter-bytes-"), format === "toml" ? "config.toml" : "settings.json");
      writeFileSync(file, original);
      const place = {
        file,
        format,
        key: format === "toml" ? "mcp_servers" : what.startsWith("CRLF") ? "mcp" : "mcpServers",
      };
      const ours =
        format === "toml" ? tomlBlock("rooms", { command: "node", args: ["/x"], env_vars: [] }, "rooms") : entry;
      const added = withEntry(place, "rooms", ours);
      writeFileSync(file, added.text);
      const present = readPresent(place, "rooms", format === "toml" ? (added.entry as string) : undefined);
      expect(present.kind === "json" || (present.kind === "toml" && present.ours), what).toBe(true);
      if (original.includes("\r\n")) expect(added.text.replace(/\r\n/g, "").includes("\n"), what).toBe(false);
      expect(withoutEntry(place, "rooms", added, false), what).toBe(original);
    }
  });

  it("a file changed around our entry since: the entry alone is taken out, the other edits stay", () => {
    const file = join(tempDir("inter-changed-"), ".mcp.json");
    writeFileSync(file, '{\n  "mcpServers": {}\n}\n');
    const place = { file, format: "json" as const, key: "mcpServers" };
    const added = withEntry(place, "rooms", { command: "node", args: ["/x"] });
    // The user adds a server of their own right after ours, and edits our entry's neighbourhood.
    writeFileSync(
      file,
      added.text.replace('"args": [', '"args": [').replace(/\n  }\n}\n$/, ',\n    "mine": {"command": "m"}\n  }\n}\n'),
    );
    const left = withoutEntry(place, "rooms", added, false)!;
    expect(JSON.parse(left)).toEqual({ mcpServers: { mine: { command: "m" } } });
  });
});
