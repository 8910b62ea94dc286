import { execa } from "execa";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli, tempDir } from "../helpers.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";
import type { HelpParameter } from "../../src/stages/inspect/subjects.js";

/**
 * Files up and bytes down, end to end: `inter build` designs a CLI from a description with a multipart upload, a raw
 * upload, a urlencoded form with an array, a PDF download, a text answer and an event stream; the cli.tgz is installed
 * with npm and called against a loopback API that parses every multipart part itself and compares each byte, and that
 * serves known bytes (every value 0–255) to download. The hostile cases are the API's and the file system's: a download
 * that never ends, one cut short, a file truncated or removed while it is sent, a secrets file given as the upload.
 */
const OPENAPI = `openapi: 3.0.3
info: { title: Files, version: "1.0.0" }
servers: [{ url: "http://127.0.0.1:9" }]
paths:
  /documents:
    post:
      operationId: uploadDocument
      summary: Upload a document
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file, title]
              properties:
                file: { type: string, format: binary }
                title: { type: string }
                tags: { type: array, items: { type: string } }
                meta: { type: object, properties: { lang: { type: string } } }
            encoding:
              file: { contentType: "application/pdf, image/png" }
      responses:
        "201": { description: created, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
  /documents/{id}/content:
    get:
      operationId: downloadDocument
      summary: Download a document's content
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: the file, content: { application/pdf: { schema: { type: string, format: binary } } } }
        "404": { description: missing, content: { application/json: { schema: { type: object, properties: { message: { type: string } } } } } }
  /documents/{id}/text:
    get:
      operationId: getDocumentText
      summary: Get a document's text
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: ok, content: { text/plain: { schema: { type: string } } } }
  /blobs/{name}:
    put:
      operationId: putBlob
      summary: Store a blob
      parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
      requestBody:
        required: true
        content:
          application/octet-stream: { schema: { type: string, format: binary } }
      responses:
        "200": { description: stored, content: { application/json: { schema: { type: object, properties: { bytes: { type: integer } } } } } }
  /subscriptions:
    post:
      operationId: subscribe
      summary: Subscribe to topics
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [topic]
              properties:
                topic: { type: array, items: { type: string } }
                callback: { type: string }
      responses:
        "202": { description: accepted, content: { application/json: { schema: { type: object, properties: { ok: { type: boolean } } } } } }
  /imports:
    post:
      operationId: importData
      summary: Import data from a file
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [data]
              properties:
                label: { type: string }
                data: { type: string, format: binary }
      responses:
        "202": { description: accepted, content: { application/json: { schema: { type: object, properties: { ok: { type: boolean } } } } } }
  /media:
    post:
      operationId: uploadMedia
      summary: Upload a media file
      requestBody:
        required: true
        content:
          application/pdf: { schema: { type: string, format: binary } }
          image/png: { schema: { type: string, format: binary } }
          audio/*: { schema: { type: string, format: binary } }
      responses:
        "200": { description: stored, content: { application/json: { schema: { type: object, properties: { bytes: { type: integer } } } } } }
  /samples/{id}/audio:
    get:
      operationId: getSampleAudio
      summary: Get a sample's audio
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: the recording, content: { "audio/*": {} } }
  /photos/{id}:
    get:
      operationId: getPhoto
      summary: Get a profile photo, as its details or as the picture
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200":
          description: ok
          content:
            application/json: { schema: { type: object, properties: { url: { type: string } } } }
            image/jpeg: { schema: { type: string, format: binary } }
  /events:
    get:
      operationId: streamEvents
      summary: Stream events
      parameters: [{ name: endless, in: query, schema: { type: boolean } }]
      responses:
        "200": { description: ok, content: { text/event-stream: { schema: { type: string } } } }
`;

/** Every byte value, many times over: a file whose bytes no text decoding keeps. */
const BYTES = Buffer.from(Array.from({ length: 64 * 1024 }, (_, i) => i % 256));
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

/** The test's own multipart reader (RFC 7578): parts split at the boundary, each part's headers and exact bytes. */
function parts(body: Buffer, contentType: string): Part[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1]!;
  const delimiter = Buffer.from(`--${boundary}`);
  const out: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, start);
    const raw = body.subarray(start + 2, next - 2);
    const split = raw.indexOf("\r\n\r\n");
    const headers = Object.fromEntries(
      raw
        .subarray(0, split)
        .toString("utf8")
        .split("\r\n")
        .map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
    );
    out.push({ headers, body: raw.subarray(split + 4) });
    at = next;
  }
  return out;
}

describe("files up and bytes down, as the description says", () => {
  let bin: string;
  let caps: Capabilities;
  let server: Server;
  let url: string;
  let work: string;
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: Buffer }> = [];
  /** What the server does on the first chunk of the next upload (truncate or remove the file being sent). */
  let onFirstChunk: (() => void) | undefined;

  beforeAll(async () => {
    const cli = await builtCli("Files", OPENAPI, {
      context: "# Files\n\nA document store: upload documents and download them.\n",
    });
    ({ bin, caps } = cli);
    work = tempDir("inter-files-work-");
    writeFileSync(join(work, "scan.png"), BYTES);
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => {
        if (!chunks.length && onFirstChunk) {
          const act = onFirstChunk;
          onFirstChunk = undefined;
          act();
        }
        chunks.push(c);
      });
      req.on("error", () => undefined);
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        route(req.url!, body, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  function route(path: string, body: Buffer, res: ServerResponse) {
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (path === "/documents/7/content") return res.writeHead(200, { "content-type": "application/pdf" }).end(BYTES);
    if (path === "/documents/404/content") return json(404, { message: "no such document" });
    if (path === "/documents/endless/content") {
      // Never ends: a chunk every turn of the event loop until the client goes.
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const more = () => {
        if (res.destroyed) return;
        res.write(BYTES, () => setImmediate(more));
      };
      return more();
    }
    if (path === "/documents/cut/content") {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": String(BYTES.length * 4) });
      return res.write(BYTES, () => res.destroy());
    }
    if (path === "/documents/1/text")
      return res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end("Zoë's report\nline 2");
    if (path.startsWith("/events")) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (path.includes("endless=true")) {
        let n = 0;
        const tick = () => {
          if (res.destroyed) return;
          res.write(`data: {"n":${n++}}\n\n`, () => setImmediate(tick));
        };
        return tick();
      }
      return res.end('event: created\ndata: {"id":"d1"}\nid: 1\n\n: a comment\ndata: line one\ndata: line two\n\n');
    }
    if (path.startsWith("/blobs/") || path === "/media") return json(200, { bytes: body.length });
    if (path === "/samples/1/audio") return res.writeHead(200, { "content-type": "audio/mpeg" }).end(BYTES);
    if (path === "/photos/jpeg") return res.writeHead(200, { "content-type": "image/jpeg" }).end(BYTES);
    if (path === "/photos/json") return json(200, { url: "https://example.com/p.jpg" });
    // Servers label JSON as bytes; bytes no operation declares are still not printed as text.
    if (path === "/photos/mislabelled")
      return res.writeHead(200, { "content-type": "application/octet-stream" }).end('{"url":"x"}');
    if (path === "/photos/undeclared")
      return res.writeHead(200, { "content-type": "application/octet-stream" }).end(BYTES);
    return json(path === "/documents" ? 201 : 202, { id: "d1", ok: true });
  }

  const words = (operationId: string): string[] =>
    caps.commands.find((c) => c.operation.operationId === operationId)!.path;
  const files = (args: string[], options: { input?: Buffer | string; env?: Record<string, string> } = {}) =>
    execa(bin, args, {
      cwd: work,
      env: { FILES_BASE_URL: url, HOME: work, ...options.env },
      extendEnv: false,
      reject: false,
      encoding: "buffer",
      ...(options.input !== undefined ? { input: options.input } : { stdin: "ignore" }),
    });
  const text = (b: unknown) => Buffer.from(b as Uint8Array).toString("utf8");
  const result = (r: { stdout: unknown }) => JSON.parse(text(r.stdout));
  const error = (r: { stderr: unknown }) => JSON.parse(text(r.stderr));
  const leftovers = (folder: string) => readdirSync(folder).filter((f) => f.endsWith(".part"));

  it("designs a file flag for the binary field and the raw body, --output for the PDF, Accept from the answers", () => {
    const upload = caps.commands.find((c) => c.operation.operationId === "uploadDocument")!;
    expect(upload.body).toEqual({
      mediaType: "multipart/form-data",
      encoding: "multipart",
      required: true,
      parts: { file: { contentType: "application/pdf, image/png" } },
    });
    expect(upload.flags.find((f) => f.wire === "file")).toMatchObject({ file: true, required: true });
    const blob = caps.commands.find((c) => c.operation.operationId === "putBlob")!;
    expect(blob.flags.find((f) => f.in === "body")).toMatchObject({ flag: "file", wire: "", file: true });
    const download = caps.commands.find((c) => c.operation.operationId === "downloadDocument")!;
    expect(download.response).toEqual({ accept: "application/pdf", kind: "binary" });
    const subscribe = caps.commands.find((c) => c.operation.operationId === "subscribe")!;
    expect(subscribe.flags.find((f) => f.wire === "topic")).toMatchObject({
      required: false,
      requiredWithBody: true,
    });
  });

  it("sends a urlencoded form's binary field as the file's bytes, percent-encoded: every byte value arrives", async () => {
    const command = caps.commands.find((c) => c.operation.operationId === "importData")!;
    expect(command.flags.find((f) => f.wire === "data")).toMatchObject({ file: true, required: true });
    seen.length = 0;
    const r = await files([...words("importData"), "--label", "scan 1", "--data", "scan.png"]);
    expect(r.exitCode, text(r.stderr)).toBe(0);
    expect(result(r).uploaded).toEqual([
      expect.objectContaining({ path: "scan.png", bytes: BYTES.length, sha256: sha256(BYTES) }),
    ]);
    const { headers, body } = seen[0]!;
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    // Only ASCII on the wire, each field once; the test's own decoder reads each %XX back to its byte.
    expect(body.every((b) => b < 0x80)).toBe(true);
    const fields = Object.fromEntries(
      body
        .toString("latin1")
        .split("&")
        .map((pair) => {
          const [name, value] = pair.split("=") as [string, string];
          const bytes = Buffer.from(
            value.replace(/%([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
            "latin1",
          );
          return [name, bytes];
        }),
    );
    expect(fields.label!.toString("utf8")).toBe("scan 1");
    expect(fields.data!.equals(BYTES)).toBe(true);
    // The dry run shows the file as a placeholder and sends nothing.
    const dry = await files([...words("importData"), "--data", "scan.png", "--dry-run"]);
    expect(result(dry).result.request.body).toBe(`data=<file scan.png: ${BYTES.length} bytes>`);
  });

  it("uploads a multipart body: the file's exact bytes with its name and type, text, repeated and JSON parts", async () => {
    const r = await files([
      ...words("uploadDocument"),
      "--file",
      "scan.png",
      "--title",
      'Q3 "final" report',
      "--tags",
      "finance",
      "--tags",
      "q3",
      "--meta",
      '{"lang":"en"}',
    ]);
    expect(r.exitCode, text(r.stderr)).toBe(0);
    const got = seen.at(-1)!;
    expect(got.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(got.headers["content-length"])).toBe(got.body.length);
    const sent = parts(got.body, got.headers["content-type"]!);
    const byName = (name: string) => sent.filter((p) => p.headers["content-disposition"]!.includes(`name="${name}"`));
    const [file] = byName("file");
    expect(file!.headers["content-disposition"]).toBe('form-data; name="file"; filename="scan.png"');
    expect(file!.headers["content-type"]).toBe("image/png");
    expect(sha256(file!.body)).toBe(sha256(BYTES));
    expect(byName("title")[0]!.body.toString()).toBe('Q3 "final" report');
    expect(byName("tags").map((p) => p.body.toString())).toEqual(["finance", "q3"]);
    expect(byName("meta")[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(byName("meta")[0]!.body.toString())).toEqual({ lang: "en" });
    expect(result(r).uploaded).toEqual([
      { flag: "file", path: "scan.png", bytes: BYTES.length, sha256: sha256(BYTES), content_type: "image/png" },
    ]);
  });

  it("previews a multipart upload with --dry-run: the file as a placeholder, nothing sent", async () => {
    const before = seen.length;
    const r = await files([...words("uploadDocument"), "--file", "scan.png", "--title", "t", "--dry-run"]);
    expect(r.exitCode, text(r.stderr)).toBe(0);
    const { request } = result(r).result;
    expect(request.body).toContain(`<file scan.png: ${BYTES.length} bytes>`);
    expect(request.upload).toEqual([
      { flag: "file", path: "scan.png", bytes: BYTES.length, filename: "scan.png", content_type: "image/png" },
    ]);
    expect(seen.length).toBe(before);
  });

  it("takes a file field's path from --json-input, as an MCP client sends it", async () => {
    const r = await files([...words("uploadDocument"), "--json-input"], {
      input: JSON.stringify({ file: "scan.png", title: "from json" }),
    });
    expect(r.exitCode, text(r.stderr)).toBe(0);
    const sent = parts(seen.at(-1)!.body, seen.at(-1)!.headers["content-type"]!);
    expect(sha256(sent.find((p) => p.headers["content-disposition"]!.includes('name="file"'))!.body)).toBe(
      sha256(BYTES),
    );
  });

  it("asks for a required file with --json-input too: the JSON gives the title, nothing gives the file", async () => {
    const before = seen.length;
    const r = await files([...words("uploadDocument"), "--json-input"], {
      input: JSON.stringify({ title: "no file" }),
    });
    expect(r.exitCode).toBe(2);
    expect(error(r)).toMatchObject({ code: "MISSING_FLAG", details: { missing: ["file"] } });
    expect(seen.length).toBe(before);
  });

  it("streams a large upload without changing a byte, and a raw body from stdin", async () => {
    const big = Buffer.concat(Array.from({ length: 160 }, () => BYTES)); // 10 MiB
    writeFileSync(join(work, "big.bin"), big);
    const r = await files([...words("putBlob"), "--name", "big", "--file", "big.bin"]);
    expect(r.exitCode, text(r.stderr)).toBe(0);
    expect(seen.at(-1)!.headers["content-type"]).toBe("application/octet-stream");
    expect(Number(seen.at(-1)!.headers["content-length"])).toBe(big.length);
    expect(sha256(seen.at(-1)!.body)).toBe(sha256(big));
    const piped = await files([...words("putBlob"), "--name", "piped", "--file", "-"], { input: BYTES });
    expect(piped.exitCode, text(piped.stderr)).toBe(0);
    expect(seen.at(-1)!.headers["transfer-encoding"]).toBe("chunked");
    expect(sha256(seen.at(-1)!.body)).toBe(sha256(BYTES));
  });

  it("cuts an upload off when its file is truncated while it is sent; a removed file is still the file checked", async () => {
    const big = Buffer.concat(Array.from({ length: 64 }, () => BYTES));
    const path = join(work, "shrinking.bin");
    writeFileSync(path, big);
    onFirstChunk = () => truncateSync(path, 10);
    const cut = await files([...words("putBlob"), "--name", "x", "--file", "shrinking.bin"]);
    expect(cut.exitCode).toBe(1);
    expect(error(cut)).toMatchObject({ code: "UPLOAD_FAILED" });
    expect(error(cut).message).toMatch(/changed while it was sent/);
    writeFileSync(path, big);
    onFirstChunk = () => unlinkSync(path);
    const removed = await files([...words("putBlob"), "--name", "y", "--file", "shrinking.bin"]);
    expect(removed.exitCode, text(removed.stderr)).toBe(0);
    expect(sha256(seen.at(-1)!.body)).toBe(sha256(big));
  });

  it("checks a file flag's value as a path: a secrets file is refused, a long ordinary path is not a key", async () => {
    mkdirSync(join(work, ".ssh"), { recursive: true });
    writeFileSync(join(work, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    const before = seen.length;
    const key = await files([...words("uploadDocument"), "--file", join(work, ".ssh", "id_rsa"), "--title", "t"]);
    expect(key.exitCode).toBe(2);
    expect(error(key).code).toBe("SENSITIVE_PATH");
    const linked = join(work, "innocent.pdf");
    await execa("ln", ["-sf", join(work, ".ssh", "id_rsa"), linked]);
    const viaLink = await files([...words("uploadDocument"), "--file", linked, "--title", "t"]);
    expect(error(viaLink).code).toBe("SENSITIVE_PATH");
    expect(seen.length).toBe(before);
    const folder = join(work, "home", "user", "Documents", "Reports2024");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "final-v2.pdf"), BYTES);
    const ordinary = await files([...words("uploadDocument"), "--file", join(folder, "final-v2.pdf"), "--title", "t"]);
    expect(ordinary.exitCode, text(ordinary.stderr)).toBe(0);
    const missing = await files([...words("uploadDocument"), "--file", join(folder, "nope.pdf"), "--title", "t"]);
    expect(error(missing)).toMatchObject({ code: "FILE_NOT_FOUND" });
    expect(error(missing).message).toContain(join(folder, "nope.pdf"));
  });

  it("writes a binary answer byte for byte with --output, atomically, never over a file without --force", async () => {
    const out = join(work, "doc.pdf");
    const saved = await files([...words("downloadDocument"), "--id", "7", "--output", out]);
    expect(saved.exitCode, text(saved.stderr)).toBe(0);
    expect(seen.at(-1)!.headers.accept).toBe("application/pdf");
    expect(sha256(readFileSync(out))).toBe(sha256(BYTES));
    expect(result(saved).result).toEqual({
      path: out,
      bytes: BYTES.length,
      sha256: sha256(BYTES),
      content_type: "application/pdf",
    });
    writeFileSync(out, "mine");
    const refused = await files([...words("downloadDocument"), "--id", "7", "--output", out]);
    expect(error(refused).code).toBe("OUTPUT_EXISTS");
    expect(readFileSync(out, "utf8")).toBe("mine");
    const forced = await files([...words("downloadDocument"), "--id", "7", "--output", out, "--force"]);
    expect(forced.exitCode, text(forced.stderr)).toBe(0);
    expect(sha256(readFileSync(out))).toBe(sha256(BYTES));
    const raw = await files([...words("downloadDocument"), "--id", "7", "--output", "-"]);
    expect(Buffer.from(raw.stdout as Uint8Array).equals(BYTES)).toBe(true);
    expect(leftovers(work)).toEqual([]);
  });

  it("a range of media that are only bytes (audio/*), with no schema, is a file: --output writes it byte for byte", async () => {
    const audio = caps.commands.find((c) => c.operation.operationId === "getSampleAudio")!;
    // A JSON answer has no file to write: the wire check counted such a command as unable to answer (elevenlabs.io).
    expect(audio.response).toMatchObject({ kind: "binary", accept: "audio/*" });
    const out = join(work, "sample.mp3");
    const saved = await files([...words("getSampleAudio"), "--id", "1", "--output", out]);
    expect(saved.exitCode, text(saved.stderr)).toBe(0);
    expect(seen.at(-1)!.headers.accept).toBe("audio/*");
    expect(sha256(readFileSync(out))).toBe(sha256(BYTES));
    expect(result(saved).result).toMatchObject({ bytes: BYTES.length, content_type: "audio/mpeg" });
  });

  it("refuses to print a binary answer: without --output it is a coded error and nothing is sent", async () => {
    const before = seen.length;
    const r = await files([...words("downloadDocument"), "--id", "7"]);
    expect(r.exitCode).toBe(2);
    expect(error(r)).toMatchObject({ code: "OUTPUT_REQUIRED" });
    expect(error(r).suggestion).toMatch(/--output <path>/);
    expect(seen.length).toBe(before);
    const notFound = await files([...words("downloadDocument"), "--id", "404", "--output", join(work, "x.pdf")]);
    expect(error(notFound)).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("no such document") });
    expect(existsSync(join(work, "x.pdf"))).toBe(false);
  });

  it("sends a file the API takes in several types as the type the file is, the document's first where it cannot tell", async () => {
    writeFileSync(join(work, "take.mp3"), BYTES);
    writeFileSync(join(work, "unknown.bin"), BYTES);
    const typeSent = async (file: string) => {
      const r = await files([...words("uploadMedia"), "--file", join(work, file)]);
      expect(r.exitCode, text(r.stderr)).toBe(0);
      expect(sha256(seen.at(-1)!.body)).toBe(sha256(BYTES));
      return seen.at(-1)!.headers["content-type"];
    };
    expect(await typeSent("scan.png")).toBe("image/png");
    expect(await typeSent("take.mp3")).toBe("audio/mpeg");
    expect(await typeSent("unknown.bin")).toBe("application/pdf");
  });

  it("an answer that may be JSON or a file: the file is never printed as text, JSON is, --output saves the file", async () => {
    const photo = (id: string, ...more: string[]) => files([...words("getPhoto"), "--id", id, ...more]);
    const picture = await photo("jpeg");
    expect(picture.exitCode).toBe(2);
    expect(error(picture)).toMatchObject({ code: "OUTPUT_REQUIRED", details: { content_type: "image/jpeg" } });
    expect(result(await photo("json")).result).toEqual({ url: "https://example.com/p.jpg" });
    expect(result(await photo("mislabelled")).result).toEqual('{"url":"x"}');
    expect(error(await photo("undeclared")).code).toBe("OUTPUT_REQUIRED");
    const out = join(work, "photo.jpg");
    const saved = await photo("jpeg", "--output", out);
    expect(saved.exitCode, text(saved.stderr)).toBe(0);
    expect(sha256(readFileSync(out))).toBe(sha256(BYTES));
  });

  it("leaves nothing half-written when a download never ends or is cut short", async () => {
    const endless = await files([
      ...words("downloadDocument"),
      "--id",
      "endless",
      "--output",
      join(work, "endless.bin"),
      "--max-output-bytes",
      String(1024 * 1024),
    ]);
    expect(endless.exitCode).toBe(1);
    expect(error(endless).code).toBe("RESPONSE_TOO_LARGE");
    const cut = await files([...words("downloadDocument"), "--id", "cut", "--output", join(work, "cut.pdf")]);
    expect(cut.exitCode).toBe(1);
    expect(error(cut).code).toBe("NETWORK_ERROR");
    expect(existsSync(join(work, "endless.bin"))).toBe(false);
    expect(existsSync(join(work, "cut.pdf"))).toBe(false);
    expect(leftovers(work)).toEqual([]);
  });

  it("reads a text answer as a string and server-sent events as a bounded list", async () => {
    const t = await files([...words("getDocumentText"), "--id", "1"]);
    expect(result(t).result).toBe("Zoë's report\nline 2");
    expect(seen.at(-1)!.headers.accept).toBe("text/plain");
    const events = await files([...words("streamEvents")]);
    expect(result(events).result).toEqual([
      { event: "created", data: { id: "d1" }, id: "1" },
      { event: "message", data: "line one\nline two", id: "1" },
    ]);
    expect(result(events).stream).toEqual({ events: 2, ended: "end" });
    const endless = await files([...words("streamEvents"), "--endless"], {
      env: { AGENT_CLI_MAX_EVENTS: "5" },
    });
    expect(result(endless).stream).toEqual({ events: 5, ended: "max-events" });
    const lines = await files([...words("streamEvents"), "--ndjson"]);
    expect(
      text(lines.stdout)
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).event),
    ).toEqual(["created", "message"]);
  });

  it("sends a form's array as repeated keys, and asks for a required field once a body is sent", async () => {
    const r = await files([
      ...words("subscribe"),
      "--topic",
      "a b",
      "--topic",
      "c",
      "--callback",
      "https://x.test/h?k=1",
    ]);
    expect(r.exitCode, text(r.stderr)).toBe(0);
    expect(seen.at(-1)!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(seen.at(-1)!.body.toString()).toBe("topic=a%20b&topic=c&callback=https%3A%2F%2Fx.test%2Fh%3Fk%3D1");
    const partial = await files([...words("subscribe"), "--callback", "https://x.test/h"]);
    expect(partial.exitCode).toBe(2);
    expect(error(partial)).toMatchObject({ code: "MISSING_FLAG", details: { missing: ["topic"] } });
    const none = await files([...words("subscribe")]);
    expect(none.exitCode, text(none.stderr)).toBe(0);
    expect(seen.at(-1)!.body.length).toBe(0);
  });

  it("over MCP: a file flag takes a path; a file answer comes back as an embedded resource, or is written to output", async () => {
    const transport = new StdioClientTransport({
      command: `${bin}-mcp`,
      env: { FILES_BASE_URL: url, HOME: work, PATH: process.env.PATH ?? "/usr/bin:/bin" },
      cwd: work,
      stderr: "pipe",
    });
    const client = new Client({ name: "inter-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const tool = (operationId: string) => tools.find((t) => t.title === words(operationId).join(" "))!.name;
      const download = tools.find((t) => t.name === tool("downloadDocument"))!;
      expect(Object.keys(download.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["output", "force"]));
      const upload = await client.callTool({
        name: tool("uploadDocument"),
        arguments: { file: join(work, "scan.png"), title: "via MCP" },
      });
      expect(upload.isError, JSON.stringify(upload)).toBeFalsy();
      const sent = parts(seen.at(-1)!.body, seen.at(-1)!.headers["content-type"]!);
      expect(sha256(sent.find((p) => p.headers["content-disposition"]!.includes('name="file"'))!.body)).toBe(
        sha256(BYTES),
      );
      const inline = await client.callTool({ name: tool("downloadDocument"), arguments: { id: "7" } });
      expect(inline.isError, JSON.stringify(inline).slice(0, 500)).toBeFalsy();
      const blocks = inline.content as Array<{ type: string; resource?: { blob: string; mimeType: string } }>;
      const resource = blocks.find((c) => c.type === "resource")!.resource!;
      expect(resource.mimeType).toBe("application/pdf");
      expect(Buffer.from(resource.blob, "base64").equals(BYTES)).toBe(true);
      expect(inline.structuredContent).toEqual({
        ok: true,
        result: { bytes: BYTES.length, sha256: sha256(BYTES), content_type: "application/pdf" },
      });
      const out = join(work, "via-mcp.pdf");
      const written = await client.callTool({ name: tool("downloadDocument"), arguments: { id: "7", output: out } });
      expect(written.isError, JSON.stringify(written)).toBeFalsy();
      expect(sha256(readFileSync(out))).toBe(sha256(BYTES));
      expect(written.structuredContent).toMatchObject({ ok: true, result: { path: out, bytes: BYTES.length } });
    } finally {
      await client.close();
    }
  });

  it("says in help and --describe how each body is given and what each answer is", async () => {
    const help = result(await files([...words("uploadDocument"), "--help"]));
    const command = help.commands?.[0] ?? help;
    expect(command.body).toEqual({ mediaType: "multipart/form-data", given: expect.stringMatching(/path/) });
    expect(command.parameters.find((p: HelpParameter) => p.name === "--file")).toMatchObject({ file: true });
    const download = result(await files([...words("downloadDocument"), "--describe"]));
    const described = download.commands?.[0] ?? download;
    expect(described.usage).toMatch(/--output <path>/);
    expect(described.answer).toMatchObject({ kind: "binary", accept: "application/pdf" });
    const subscribe = result(await files([...words("subscribe"), "--help"]));
    const topic = (subscribe.commands?.[0] ?? subscribe).parameters.find((p: HelpParameter) => p.name === "--topic");
    expect(topic.description).toMatch(/required when a body is sent/);
  });
});
