import { readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import type { Cli } from "../../runtime/load.js";
import type { Command, Flag } from "../../runtime/manifest.js";
import { wireStyle } from "../../runtime/serialize.js";
import { BUILTIN_NAMES } from "../../runtime/builtins.js";
import { documentOf, errorOf, isObject } from "./probe-output.js";
import { REFUSING_URL, type Json, type Probe } from "./probe.js";
import { sampleOrNone, type HelpParameter } from "./subjects.js";
import { deref } from "../openapi/pointer.js";
import { binarySchema, jsonLike } from "../openapi/file-schema.js";

/**
 * The wire check (issue #70): every operation expressible, and a sample of the CLI's requests valid against the
 * description they come from. For a sample of commands that covers every body media type and every parameter
 * location, style and explode the package uses, the CLI is run with schema-valid values and `--dry-run`; the request
 * it prints is held to the operation by a real OpenAPI request validator (stages/inspect/wire-validate.ts, loaded only
 * here). Every command is also checked for what it cannot express: a required binary body field with no file flag, a
 * raw binary body with no file to give, a binary answer with no `--output` to write it to. Either keeps the candidate
 * from certification (stages/inspect/receipt.ts).
 */

export interface WireReport {
  /** The validator the requests were held to. */
  validator: string;
  /** The description the requests were held to (its files), when there was one. */
  description?: string[];
  /** Why no request was validated (no description, or it could not be read); expressibility is still judged. */
  notRun?: string;
  /** Sampled commands whose dry-run request was validated, and how many of them were valid. */
  checked: number;
  valid: number;
  /** The API commands, and how the sample was chosen (what it covers). */
  of: number;
  chosen: string;
  /** What the sample covers: body media types and parameter shapes (`query form explode array`, …). */
  covers: string[];
  invalid: Array<{ command: string; operation: string; errors: string[] }>;
  /** Operations the CLI cannot express (every command is judged); at most MAX_LISTED, `inexpressibleCount` has all. */
  inexpressible: Array<{ command: string; operation: string; reason: string }>;
  inexpressibleCount: number;
  /** Sampled commands whose request could not be validated, and why (the CLI refused, the validator failed). */
  unchecked: Array<{ command: string; reason: string }>;
}

/** A command as the package's manifest holds it; a package built before bodies were described has `bodyMediaType`. */
type WireCommand = Command & { bodyMediaType?: string };
type WireFlag = Flag;

/** One probe of the CLI (stages/inspect/probes.ts runs it, through the probe host). */
export type RunProbe = (args: string[], options: { env?: Record<string, string | undefined> }) => Promise<Probe>;

/** A description read for the check: each file's parsed root (local `$ref`s unresolved). */
export interface Description {
  files: string[];
  documents: Array<Record<string, unknown>>;
}

/** The most commands whose requests are validated: one per shape to cover, so the cost follows the shapes, not the size. */
export const WIRE_SAMPLE = 24;
const MAX_LISTED = 50;
const MAX_ERRORS = 5;
/** Where the sampled dry runs send their requests: the discard port, under a path the operation's path follows. */
const WIRE_BASE = `${REFUSING_URL}/inter-wire-check`;
const REDACTED = "[REDACTED]";

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** A schema's properties and required names, `allOf` parts merged in (bounded). */
function propertiesOf(
  root: Record<string, unknown>,
  schema: unknown,
  depth = 0,
): { properties: Record<string, unknown>; required: Set<string> } {
  const s = deref(root, schema);
  const out = { properties: {} as Record<string, unknown>, required: new Set<string>() };
  if (!isRecord(s) || depth > 8) return out;
  if (isRecord(s.properties)) Object.assign(out.properties, s.properties);
  if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === "string") out.required.add(r);
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    const inner = propertiesOf(root, part, depth + 1);
    Object.assign(out.properties, inner.properties);
    inner.required.forEach((r) => out.required.add(r));
  }
  return out;
}

/** Whether a schema is an object's (by its type or its properties), whose fields a form's parts are. */
function objectSchema(root: Record<string, unknown>, schema: unknown): boolean {
  const s = deref(root, schema);
  return isRecord(s) && (s.type === "object" || isRecord(s.properties) || Array.isArray(s.allOf));
}

/** A media type whose content is text the CLI can print (JSON, text/*, XML, CSV, YAML, event streams). */
const textLike = (mediaType: string) =>
  jsonLike(mediaType) ||
  /^text\//i.test(mediaType) ||
  /[/+](xml|csv|yaml|x-yaml|javascript|x-ndjson|graphql|problem\+json|hal\+json|ld\+json)\b/i.test(mediaType) ||
  /^\*\/\*$/.test(mediaType);
const formLike = (mediaType: string) => /^(application\/x-www-form-urlencoded|multipart\/)/i.test(mediaType);

/** The operation node of a command in the description's documents (by path and method), with its document. */
function operationNode(
  description: Description,
  command: WireCommand,
): { root: Record<string, unknown>; item: Record<string, unknown>; node: Record<string, unknown> } | undefined {
  for (const root of description.documents) {
    const paths = isRecord(root.paths) ? root.paths : undefined;
    const item = deref(root, paths?.[command.operation.path]);
    const node = isRecord(item) ? deref(root, item[command.operation.method.toLowerCase()]) : undefined;
    if (isRecord(item) && isRecord(node)) return { root, item, node };
  }
  return undefined;
}

const mediaTypeOf = (c: WireCommand) => c.body?.mediaType ?? c.bodyMediaType;
const bodyFlag = (c: WireCommand, wire: string) => c.flags.find((f) => f.in === "body" && f.wire === wire);
/** The flag that gives a raw body from a file (`in: body`, `wire: ""`). */
const rawFileFlag = (c: WireCommand) => c.flags.find((f) => f.in === "body" && f.file === true && f.wire === "");

/** What a command cannot express, judged from the description when there is one, else from its manifest alone. */
function inexpressibleReasons(command: WireCommand, description: Description | undefined): string[] {
  const reasons: string[] = [];
  const noFile = (field: string) =>
    `its required body field "${field}" is a file (binary) but --${bodyFlag(command, field)?.flag ?? field} takes no file (a path or -)`;
  const found = description && operationNode(description, command);
  if (!found) {
    for (const f of command.flags)
      if (f.in === "body" && f.required && f.format === "binary" && f.file !== true) reasons.push(noFile(f.wire));
    return reasons;
  }
  const { root, item, node } = found;
  if ("swagger" in root) {
    const params = [
      ...(Array.isArray(item.parameters) ? item.parameters : []),
      ...(Array.isArray(node.parameters) ? node.parameters : []),
    ]
      .map((p) => deref(root, p))
      .filter(isRecord);
    for (const p of params) {
      if (
        p.in === "formData" &&
        p.type === "file" &&
        p.required === true &&
        bodyFlag(command, String(p.name))?.file !== true
      )
        reasons.push(noFile(String(p.name)));
      if (p.in === "body" && p.required === true && binarySchema(root, p.schema) && !rawFileFlag(command))
        reasons.push("its body is a file (binary) but the command has no flag that takes a file for it");
      if (p.in === "body" && !binarySchema(root, p.schema)) {
        const { properties, required } = propertiesOf(root, p.schema);
        for (const name of required)
          if (binarySchema(root, properties[name]) && bodyFlag(command, name)?.file !== true)
            reasons.push(noFile(name));
      }
    }
  } else {
    const body = deref(root, node.requestBody);
    const content = isRecord(body) && isRecord(body.content) ? body.content : undefined;
    if (content && Object.keys(content).length) {
      const chosen = mediaTypeOf(command);
      const mediaType = chosen && chosen in content ? chosen : Object.keys(content)[0]!;
      const media = deref(root, content[mediaType]);
      const schema = isRecord(media) ? media.schema : undefined;
      const raw = !jsonLike(mediaType) && !formLike(mediaType) && !/^text\//i.test(mediaType);
      if (raw && (schema === undefined || binarySchema(root, schema))) {
        if (isRecord(body) && body.required === true && !rawFileFlag(command))
          reasons.push(`its body is a file (${mediaType}) but the command has no flag that takes a file for it`);
      } else if (formLike(mediaType) && binarySchema(root, schema) && !objectSchema(root, schema)) {
        // A form body that is itself a file: the command sends it as a part (stages/openapi/normalize.ts).
        if (isRecord(body) && body.required === true && !command.flags.some((f) => f.in === "body" && f.file))
          reasons.push(`its body is a file (${mediaType}) but the command has no flag that takes a file for it`);
      } else {
        const { properties, required } = propertiesOf(root, schema);
        for (const name of required)
          if (binarySchema(root, properties[name]) && bodyFlag(command, name)?.file !== true)
            reasons.push(noFile(name));
      }
    }
  }
  const binary = binaryAnswer(root, node);
  if (binary && command.response?.kind !== "binary")
    reasons.push(`it answers ${binary} (binary), and the command cannot write it to a file (--output)`);
  return reasons;
}

/** The media type of an operation's success answer when it is binary only (no JSON or text offered), else undefined. */
function binaryAnswer(root: Record<string, unknown>, node: Record<string, unknown>): string | undefined {
  const responses = isRecord(node.responses) ? node.responses : {};
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c));
  const chosen = codes.sort()[0] ?? ("default" in responses ? "default" : undefined);
  const response = chosen === undefined ? undefined : deref(root, responses[chosen]);
  if (!isRecord(response)) return undefined;
  if ("swagger" in root) {
    const schema = deref(root, response.schema);
    if (!isRecord(schema) || !(schema.type === "file" || schema.format === "binary")) return undefined;
    const produces = (
      Array.isArray(node.produces) ? node.produces : Array.isArray(root.produces) ? root.produces : []
    ).filter((m): m is string => typeof m === "string");
    return produces.find((m) => !textLike(m)) ?? "application/octet-stream";
  }
  const content = isRecord(response.content) ? Object.keys(response.content) : [];
  if (!content.length || content.some(textLike)) return undefined;
  return content[0];
}

/** The shapes a command's request takes: its body's media type, each parameter's location, style and explode. */
function shapesOf(command: WireCommand): Array<{ shape: string; flag?: WireFlag }> {
  const shapes: Array<{ shape: string; flag?: WireFlag }> = [];
  const mediaType = mediaTypeOf(command);
  if (mediaType && (command.jsonInput || command.body)) shapes.push({ shape: `body ${mediaType}` });
  for (const f of command.flags) {
    if (f.file) shapes.push({ shape: f.wire === "" ? "raw body from a file" : "file part", flag: f });
    if (f.in === "body") continue;
    const { style, explode } = wireStyle({ in: f.in, style: f.style, explode: f.explode });
    const kind = f.type === "array" || f.type === "object" ? ` ${f.type}` : "";
    shapes.push({ shape: `${f.in} ${style}${kind && explode ? " explode" : ""}${kind}`, flag: f });
  }
  return shapes;
}

const asParameter = (f: WireFlag): HelpParameter => ({ ...(f as unknown as HelpParameter), name: `--${f.flag}` });
/** A value for a flag the CLI takes and the schema allows, or undefined; a file flag is given `file`. */
const valueFor = (f: WireFlag, file: string): string | undefined => (f.file ? file : sampleOrNone(asParameter(f)));

interface Planned {
  command: WireCommand;
  args: string[];
  covers: string[];
}

/**
 * The sample: in the manifest's order, each command that covers a shape not yet covered and whose required flags can
 * all be given valid values, at most `max`. Its required flags are filled, and the optional parameters whose shapes it
 * is chosen for.
 */
export function planWireSample(
  commands: WireCommand[],
  file: string,
  max = WIRE_SAMPLE,
): { planned: Planned[]; uncovered: string[] } {
  const covered = new Set<string>();
  const planned: Planned[] = [];
  const all = new Set<string>();
  for (const command of commands) {
    const shapes = shapesOf(command);
    shapes.forEach((s) => all.add(s.shape));
    if (planned.length >= max) continue;
    const fresh = shapes.filter((s) => !covered.has(s.shape));
    if (!fresh.length && planned.length) continue;
    // A body given whole as a list or a value has no flags to fill: such a command is not sampled.
    if (command.body?.shape) continue;
    const required = command.flags.filter((f) => f.required);
    if (required.some((f) => valueFor(f, file) === undefined)) continue;
    const optional = fresh
      .map((s) => s.flag)
      .filter((f): f is WireFlag => !!f && !f.required && valueFor(f, file) !== undefined);
    // A body the operation requires carries at least one field, as a caller's would (an empty form is no body).
    const bodyField =
      command.body?.required && ![...required, ...optional].some((f) => f.in === "body")
        ? command.flags.find((f) => f.in === "body" && !f.file && valueFor(f, file) !== undefined)
        : undefined;
    const flags = [...new Set([...required, ...optional, ...(bodyField ? [bodyField] : [])])];
    const args = [
      ...command.name.split(" "),
      ...flags.flatMap((f) => [`--${f.flag}`, valueFor(f, file)!]),
      ...(command.destructive ? ["--yes"] : []),
      "--dry-run",
    ];
    // Only the shapes its request will carry: an optional flag left out covers nothing.
    const carried = shapes.filter((s) => !s.flag || flags.includes(s.flag)).map((s) => s.shape);
    const covers = [...new Set(carried.filter((s) => !covered.has(s)))];
    if (!covers.length && planned.length) continue;
    covers.forEach((s) => covered.add(s));
    planned.push({ command, args, covers });
  }
  return { planned, uncovered: [...all].filter((s) => !covered.has(s)).sort() };
}

/** The names a security scheme supplies (apiKey headers, queries, cookies): the dry run shows them redacted. */
function schemeNames(description: Description): Set<string> {
  const names = new Set<string>();
  for (const root of description.documents) {
    const components = isRecord(root.components) ? root.components : {};
    const schemes = isRecord(components.securitySchemes)
      ? components.securitySchemes
      : isRecord(root.securityDefinitions)
        ? root.securityDefinitions
        : {};
    for (const s of Object.values(schemes)) {
      const scheme = deref(root, s);
      if (isRecord(scheme) && scheme.type === "apiKey" && typeof scheme.name === "string")
        names.add(scheme.name.toLowerCase());
    }
  }
  names.add("authorization");
  return names;
}

const decode = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
};

/** The dry run's `result.request` as the validator takes it, or why it cannot be read. */
export function wireRequestOf(
  printed: Json | undefined,
): { request: import("./wire-validate.js").WireRequest } | { problem: string } {
  const request = isObject(printed) ? printed.request : undefined;
  if (!isObject(request) || typeof request.url !== "string" || typeof request.method !== "string")
    return { problem: "the dry run printed no request ({method, url, headers})" };
  if (!request.url.startsWith(WIRE_BASE))
    return { problem: `the dry run's URL is not under the base URL it was given: ${request.url.slice(0, 200)}` };
  const rest = request.url.slice(WIRE_BASE.length);
  // No HTTP client sends a fragment: what follows one (a query too) never reaches the API.
  if (rest.includes("#"))
    return { problem: `the dry run's URL carries a fragment (#…), which is never sent: ${request.url.slice(0, 200)}` };
  const at = rest.indexOf("?");
  const query: Record<string, string | string[]> = {};
  for (const pair of at < 0 ? [] : rest.slice(at + 1).split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const name = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decode(pair.slice(eq + 1));
    const held = query[name];
    query[name] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(isObject(request.headers) ? request.headers : {}))
    if (typeof v === "string") headers[k.toLowerCase()] = v;
  // The files a dry run lists (`upload`): with no body text beside them, the one file is the whole (raw) body.
  const files = Array.isArray(request.upload) ? request.upload : isObject(request.upload) ? [request.upload] : [];
  const upload = request.body === undefined && isObject(files[0]) ? files[0] : undefined;
  let body: unknown = typeof request.body === "string" ? request.body : undefined;
  if (body === undefined && request.body !== undefined && request.body !== null) body = request.body;
  if (upload) {
    body = `<file ${String(upload.path)}: ${String(upload.bytes)} bytes>`;
    headers["content-type"] ??=
      typeof upload.content_type === "string" ? upload.content_type : "application/octet-stream";
    headers["content-length"] = String(typeof upload.bytes === "number" && upload.bytes > 0 ? upload.bytes : 1);
  } else if (body !== undefined) {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    headers["content-length"] ??= String(Buffer.byteLength(text));
    if (typeof body === "string" && jsonLike(headers["content-type"] ?? "")) {
      try {
        body = JSON.parse(body);
      } catch {
        // validated as the text it is
      }
    }
  }
  return {
    request: {
      method: request.method.toLowerCase(),
      url: { path: at < 0 ? rest : rest.slice(0, at), query },
      headers,
      ...(body !== undefined ? { body } : {}),
    },
  };
}

/** Whether a request body's text names a field at all: a JSON key, a form key, a multipart part. */
function carries(body: unknown, field: string): boolean {
  if (body === undefined || body === null) return false;
  if (typeof body !== "string") return isRecord(body) ? field in body : true;
  return (
    body.includes(`"${field}"`) ||
    body.includes(`name="${field}"`) ||
    new RegExp(`(^|&)${encodeURIComponent(field).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(=|%5B|\\[)`).test(body)
  );
}

/** A JSON body as a value (a form or multipart body stays text: its fields are not masked by path). */
function parsedBody(body: unknown): unknown {
  if (typeof body !== "string") return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The value at a validator's path inside a body. */
function valueAt(value: unknown, path: Array<string | number>): unknown {
  let at = value;
  for (const key of path)
    at = isRecord(at) || Array.isArray(at) ? (at as Record<string, unknown>)[String(key)] : undefined;
  return at;
}

/**
 * The validator's findings as the receipt states them, without those the sample itself causes: about credentials and
 * secret-named body fields (the dry run redacts them), about the type of a raw body (a file's bytes are not the JSON
 * value a description may give them a schema for), and about what the sample made up inside an object (`{}`, or the
 * keys it must have with placeholder values: its sampler fills flags, not nested schemas; what a caller puts inside is
 * the caller's).
 */
function findings(
  diagnostics: Array<{ path?: Array<string | number>; message: string; code?: string | number }>,
  schemes: Set<string>,
  request: import("./wire-validate.js").WireRequest,
  sampled: { raw: boolean; madeUp: Map<string, Set<string>> },
): string[] {
  const held = (name: string) =>
    request.headers[name] === REDACTED || request.url.query[name] === REDACTED || schemes.has(name);
  const body = parsedBody(request.body);
  const variants = diagnostics.some(
    (d) => d.path?.length === 1 && d.path[0] === "body" && UNION_FAILED.test(d.message),
  );
  return (
    diagnostics
      .filter((d) => !(sampled.raw && d.path?.length === 1 && d.path[0] === "body"))
      // A body of variants (`oneOf` objects told apart by `type`): the sample fills the flags every variant requires,
      // which choose none; which variant, and its own fields, are the caller's (stages/openapi/schema.ts). The
      // validator lists each variant's missing fields and other `type` beside the union's failure: those go too.
      .filter(
        (d) =>
          !(
            variants &&
            d.path?.[0] === "body" &&
            (UNION_FAILED.test(d.message) || ["required", "enum", "const"].includes(String(d.code)))
          ),
      )
      // A body field the dry run masks (a `token`, a `password`): the sample's value is not what was shown.
      .filter((d) => !(d.path?.[0] === "body" && valueAt(body, d.path.slice(1)) === REDACTED))
      .filter((d) => {
        const keys =
          (d.path?.length ?? 0) >= 2 ? sampled.madeUp.get(`${String(d.path![0])}.${String(d.path![1])}`) : undefined;
        if (!keys) return true;
        // The key after the flag's own (or after an array item's index) is one the sample made up a value for.
        const key = String(
          typeof d.path![2] === "number" || /^\d+$/.test(String(d.path![2])) ? d.path![3] : d.path![2],
        );
        // What it holds or lacks (a required key, `minProperties`) is the caller's to fill; not being an object is not.
        return !(/required property|fewer than \d+ propert/.test(d.message) || keys.has(key));
      })
      // An object parameter the sample gave `{}` (its sampler fills flags, not what is inside them) is sent as
      // nothing in a query, header or cookie: "must have required property 'body'" is about what the caller fills.
      .filter((d) => {
        const where = String(d.path?.[0] ?? "");
        const named = /required property '([^']+)'/.exec(d.message)?.[1];
        return !(d.path?.length === 1 && named && sampled.madeUp.has(`${where}.${named}`));
      })
      .filter(
        (d) =>
          !(
            /required property/.test(d.message) &&
            (d.path?.length ?? 0) >= 2 &&
            // Prism's form and multipart deserializers give a field the request does not carry at all an empty object
            // under a deepObject encoding, and then find it lacking: a finding about nothing that was sent.
            d.path![0] === "body" &&
            !carries(request.body, String(d.path![1]))
          ),
      )
      .filter((d) => {
        const named = [String(d.path?.[1] ?? ""), /'([^']+)'/.exec(d.message)?.[1] ?? ""].map((n) => n.toLowerCase());
        const where = String(d.path?.[0] ?? "");
        return !(
          ["header", "query", "cookie"].some((w) => where === w || d.message.includes(` ${w} `)) && named.some(held)
        );
      })
      .map((d) => {
        const at = d.path?.length ? `${d.path.join(".")}: ` : "";
        return `${at}${d.message}`.slice(0, 300);
      })
  );
}

/** A request body that matches no variant of its `oneOf` or `anyOf` (Prism's message). */
const UNION_FAILED = /schema in (oneOf|anyOf)/;

/** The API commands of the package, in its manifest's order (hidden ones too: they are operations as well). */
const apiCommands = (cli: Cli): WireCommand[] =>
  (cli.all() as unknown as WireCommand[]).filter(
    (c) => isRecord(c) && isRecord(c.operation) && Array.isArray(c.flags) && !BUILTIN_NAMES.includes(c.name),
  );

/**
 * Runs the check: every command judged for expressibility, the sample's dry runs through `probe` (with the CLI's base
 * URL variable set to the discard address), each request validated. Nothing it meets throws: a validator that fails
 * on an operation leaves that command unchecked, with the reason.
 */
export async function checkWire(input: {
  cli: Cli;
  description?: Promise<Description | { problem: string }>;
  validator?: Promise<typeof import("./wire-validate.js").wireValidator | { problem: string }>;
  probe: RunProbe;
  baseUrlEnv?: string;
  tempDir: string;
}): Promise<WireReport> {
  let commands: WireCommand[];
  try {
    commands = apiCommands(input.cli);
  } catch (error) {
    commands = [];
    void error;
  }
  const read = input.description ? await input.description.catch((e: Error) => ({ problem: e.message })) : undefined;
  const description = read && "documents" in read ? read : undefined;
  const inexpressible: WireReport["inexpressible"] = [];
  let inexpressibleCount = 0;
  for (const command of commands) {
    let reasons: string[];
    try {
      reasons = inexpressibleReasons(command, description);
    } catch (error) {
      reasons = [];
      void error;
    }
    for (const reason of reasons) {
      inexpressibleCount++;
      if (inexpressible.length < MAX_LISTED)
        inexpressible.push({ command: command.name, operation: operationName(command), reason });
    }
  }
  const file = join(input.tempDir, "wire-sample.txt");
  writeFileSync(file, "inter wire check\n");
  const { planned, uncovered } = planWireSample(commands, file);
  const report: WireReport = {
    validator: "",
    ...(description ? { description: description.files } : {}),
    checked: 0,
    valid: 0,
    of: commands.length,
    chosen: `for each body media type and each parameter location, style and explode the commands use, the first command that has it and whose required flags can be given valid values (at most ${WIRE_SAMPLE})${uncovered.length ? `; not covered: ${uncovered.slice(0, 10).join(", ")}${uncovered.length > 10 ? ", …" : ""}` : ""}`,
    covers: [...new Set(planned.flatMap((p) => p.covers))].sort(),
    invalid: [],
    inexpressible,
    inexpressibleCount,
    unchecked: [],
  };
  const validator = input.validator ? await input.validator.catch((e: Error) => ({ problem: e.message })) : undefined;
  if (validator && "name" in validator) report.validator = validator.name;
  const notRun = !description
    ? read && "problem" in read
      ? `the description could not be read: ${read.problem}`
      : "no OpenAPI description was given (inter build gives the project's; inter inspect --openapi <file>)"
    : !validator || "problem" in validator
      ? ((validator as { problem?: string } | undefined)?.problem ?? "no request validator")
      : undefined;
  if (notRun || !description || !validator || !("validateRequest" in validator)) {
    report.notRun = notRun ?? "no request validator";
    return report;
  }
  const schemes = schemeNames(description);
  const env = input.baseUrlEnv ? { [input.baseUrlEnv]: WIRE_BASE } : {};
  const dryRuns = await Promise.all(planned.map((p) => input.probe(p.args, { env }).catch((e: Error) => e)));
  planned.forEach((p, i) => {
    const name = p.command.name;
    const ran = dryRuns[i]!;
    if (ran instanceof Error) return void report.unchecked.push({ command: name, reason: ran.message });
    if (ran.exitCode !== 0) {
      const error = errorOf(ran);
      return void report.unchecked.push({
        command: name,
        reason:
          `the dry run was refused (exit ${ran.exitCode}): ${error?.code ?? ""} ${error?.message ?? ran.stderr.slice(0, 200)}`.trim(),
      });
    }
    const read = wireRequestOf(documentOf(ran)?.result);
    if ("problem" in read) return void report.unchecked.push({ command: name, reason: read.problem });
    const node = operationNode(description, p.command);
    if (!node) return void report.unchecked.push({ command: name, reason: "its operation is not in the description" });
    try {
      const operation = validator.operationOf(node.root, p.command.operation.path, p.command.operation.method);
      const madeUp = new Map(
        p.command.flags
          .filter(
            (f) =>
              (f.type === "object" || f.items === "object" || f.items === "array") && p.args.includes(`--${f.flag}`),
          )
          .map((f) => [`${f.in}.${f.wire}`, new Set(f.requires ?? [])]),
      );
      // A raw body's dry run lists its file and shows no body text (wireRequestOf stands a placeholder in for it).
      const shown = documentOf(ran)?.result as { request?: { body?: unknown; upload?: unknown } } | undefined;
      const raw = shown?.request?.body === undefined && shown?.request?.upload !== undefined;
      const errors = findings(validator.validateRequest(operation, read.request), schemes, read.request, {
        raw,
        madeUp,
      });
      report.checked++;
      if (errors.length)
        report.invalid.push({
          command: name,
          operation: operationName(p.command),
          errors: errors.slice(0, MAX_ERRORS),
        });
      else report.valid++;
    } catch (error) {
      report.unchecked.push({
        command: name,
        reason: `the validator could not judge it: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
      });
    }
  });
  return report;
}

const operationName = (c: WireCommand) =>
  `${c.operation.method.toUpperCase()} ${c.operation.path}${c.operation.operationId ? ` (${c.operation.operationId})` : ""}`;

/** Whether the check keeps the candidate from certification: a request the description rejects, or one not expressible. */
export const wireBlocks = (wire: WireReport | undefined): boolean =>
  !!wire && (wire.invalid.length > 0 || wire.inexpressibleCount > 0);

/** Largest description file the check reads (as the build's reader: stages/openapi/ref-reader.ts). */
const MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024;

/**
 * The description's files read for the check: each parsed as it is (JSON, else YAML as the build reads it), its
 * `$ref`s left in place — the check follows only local ones, and the validator's reader resolves the rest itself.
 * Neither the reference parser's walk nor any other file is needed, so this costs a parse and no more.
 */
export async function readDescription(files: string[], root: string): Promise<Description> {
  const { yamlPlugin } = await import("../openapi/yaml-parser.js");
  const documents: Array<Record<string, unknown>> = [];
  for (const file of files) {
    if (statSync(file).size > MAX_DESCRIPTION_BYTES) throw new Error(`${file} is larger than 64 MB`);
    const bytes = readFileSync(file);
    const text = bytes.toString("utf8").trimStart();
    const parsed: unknown = text.startsWith("{")
      ? JSON.parse(text)
      : yamlPlugin.parse({ url: file, extension: extname(file), data: bytes } as never);
    if (!isRecord(parsed)) throw new Error(`${file} is not an OpenAPI document (not an object)`);
    documents.push(parsed);
  }
  // Named as in the project (the receipt is the same record on every machine).
  return { files: files.map((f) => relative(root, f) || f), documents };
}
