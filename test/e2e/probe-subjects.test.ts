import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { config, inter, makeProject, read } from "../helpers.js";
import { schemaValidator } from "../schema.js";
import type { Receipt } from "../../src/stages/inspect/receipt.js";

/**
 * Inspection probes the command that has what a rule probes (stages/inspect/subjects.ts), whatever it is called (issue #28:
 * Spotify lost Agent-Native because the body probe took the first `* create`, which takes no body).
 */
const validate = schemaValidator("receipt.schema.json");

const SECURITY = `components:
  securitySchemes:
    key: { type: apiKey, in: header, name: X-Api-Key }
security: [{ key: [] }]
`;

/** The first POST with a required flag takes no body; the one command that takes a body is a PUT that saves. */
const JUKEBOX = `openapi: 3.0.3
info: { title: Jukebox, version: 1.0.0 }
servers: [{ url: "https://jukebox.example.com/v1" }]
${SECURITY}paths:
  /player/queue:
    post:
      operationId: addToQueue
      summary: Add an item to the playback queue
      parameters:
        - { name: uri, in: query, required: true, schema: { type: string } }
      responses: { "204": { description: queued } }
  /tracks:
    get:
      operationId: listTracks
      summary: List tracks
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
  /tracks/{trackId}:
    get:
      operationId: getTrack
      summary: Get a track
      parameters:
        - { name: trackId, in: path, required: true, schema: { type: string } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
  /me/tracks:
    put:
      operationId: saveTracks
      summary: Save tracks for the current user
      parameters:
        - { name: market, in: query, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [ids], properties: { ids: { type: array, items: { type: string } } } }
      responses: { "200": { description: saved } }
`;

/** Reads and a delete: nothing takes a body. */
const NOTES = `openapi: 3.0.3
info: { title: Notes, version: 1.0.0 }
servers: [{ url: "https://notes.example.com" }]
${SECURITY}paths:
  /notes:
    get:
      operationId: listNotes
      summary: List notes
      responses: { "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } } }
  /notes/{noteId}:
    get:
      operationId: getNote
      summary: Get a note
      parameters:
        - { name: noteId, in: path, required: true, schema: { type: string } }
      responses: { "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } } }
    delete:
      operationId: deleteNote
      summary: Delete a note
      parameters:
        - { name: noteId, in: path, required: true, schema: { type: string } }
      responses: { "204": { description: deleted } }
`;

const project = (name: string, binary: string, openapi: string, task: string) =>
  makeProject({
    "intermesh.config.ts": config(
      `{ product: { name: "${name}", binary: "${binary}" }, inputs: { openapi: "openapi.yaml", context: "context.md" } }`,
    ),
    "openapi.yaml": openapi,
    "context.md": `# ${name}\n\n${name} for tests.\n\n## Tasks and scenarios\n\n### ${task}\n\nA user asks to ${task.toLowerCase()}.\n\nExpected outcome: done.\n`,
  });

/** The generated commands (from the package's manifest) that take a request body. */
function bodyCommands(dir: string): string[] {
  const groups = join(dir, "dist/package/commands");
  return readdirSync(groups).flatMap((f) =>
    (JSON.parse(read(groups, f)).commands as Array<{ name: string; jsonInput: boolean }>)
      .filter((c) => c.jsonInput)
      .map((c) => c.name),
  );
}

const rule = (receipt: Receipt, id: string) => receipt.rules.find((r) => r.id === id)!;

describe("inspect: each probe runs on a command that has what it probes", () => {
  const receipts: Record<string, Receipt> = {};
  const dirs: Record<string, string> = {};

  beforeAll(async () => {
    dirs.jukebox = project("Jukebox", "jukebox", JUKEBOX, "Save a track");
    dirs.notes = project("Notes", "notes", NOTES, "Read a note");
    await Promise.all(
      Object.entries(dirs).map(async ([name, dir]) => {
        const built = await inter(dir, ["build", "--json"]);
        if (built.exitCode !== 0) throw new Error(`${name}: ${built.stdout}`);
        receipts[name] = JSON.parse(read(dir, "dist/receipt.json"));
      }),
    );
  });

  it("the body probe takes the one command that takes a body, not the first write with a required flag", () => {
    const receipt = receipts.jukebox!;
    expect(validate(receipt)).toEqual([]);
    const [withBody] = bodyCommands(dirs.jukebox!);
    expect(bodyCommands(dirs.jukebox!)).toHaveLength(1);
    expect(withBody).not.toMatch(/create$/);
    for (const id of ["I3", "C5"]) {
      expect(rule(receipt, id), id).toMatchObject({
        status: "pass",
        evidence: [{ command: `jukebox ${withBody} --market inter-probe --json-input --dry-run`, exitCode: 0 }],
      });
    }
    // The piped body is what the request it would send carries, under the body's own field names (stages/inspect/rules/input.ts).
    expect(rule(receipt, "I3").reason).toBe(
      `${withBody} (it takes a body whose required fields are simple values): a body piped to --json-input (ids) is the request's body`,
    );
    expect(receipt.certification.blocking).not.toContain("I3");
    expect(receipt.summary.fail).toBe(0);
  });

  it("with no command that takes a body, I3 and C5 are not applicable and say why", () => {
    const receipt = receipts.notes!;
    expect(validate(receipt)).toEqual([]);
    expect(bodyCommands(dirs.notes!)).toEqual([]);
    for (const id of ["I3", "C5"])
      expect(rule(receipt, id), id).toEqual(
        expect.objectContaining({ status: "not applicable", reason: "no command takes a request body" }),
      );
    // The rules that have a subject still run on one: the delete refuses without --yes, the read of one note is found.
    expect(rule(receipt, "S1")).toMatchObject({
      status: "pass",
      evidence: [{ command: expect.stringMatching(/^notes notes \S+ --note-id inter-probe$/) }],
    });
    expect(rule(receipt, "X6").reason).toContain("needs the API");
    expect(receipt.summary.fail).toBe(0);
  });
});
