import { singular } from "./word-forms.js";
import { pushTo } from "../../core/group.js";
import { BUILTIN_WORDS } from "../../runtime/builtins.js";
import type { InterConfig } from "../../config/types.js";
import type { Operation, OperationModel, Parameter, RequestBody, Response, SecurityScheme } from "../openapi/model.js";
import { acceptFor, bodyEncodingOf } from "../../runtime/media.js";
import { GLOBAL_BOOLEANS, GLOBAL_VALUES } from "../../runtime/args.js";
import { IDEMPOTENCY_HEADER } from "../../runtime/retry.js";
import { kebab } from "./word-forms.js";
import { nameOperations, successResponse } from "./naming/index.js";
import { awsRpcMethod } from "./naming/path-words.js";
import type { BodySpec, CommandSpec, CommandsPlan, FlagSpec, NamingNote, Pagination, ResponseSpec } from "./types.js";
import { authOf, flagStyle, planScheme, suppliedBy } from "./wire.js";
import { credentialVariables } from "./credentials.js";
import { awsSigning, defaultBaseUrl } from "./aws.js";
import type { AwsSigning } from "../../runtime/manifest.js";
import { commandText } from "./descriptions.js";
import { groupsOf } from "./groups.js";
import { compareText } from "../../core/text-order.js";
import { DESTRUCTIVE_WORDS } from "../../core/verbs.js";

/**
 * Flags every generated command already has (the runtime's own list), and `--json`, which agents type out of habit;
 * API parameters may not take them.
 */
export const RESERVED_FLAGS: ReadonlySet<string> = new Set([...GLOBAL_BOOLEANS, ...GLOBAL_VALUES, "json"]);
/** Top-level words the runtime owns. */
export const RESERVED_RESOURCES = new Set([...BUILTIN_WORDS, "help"]);
/** Headers the runtime sets itself; a flag for them would let a credential travel in argv. */
const RUNTIME_HEADERS = new Set(["authorization", "content-type", "accept", "content-length", "user-agent"]);
/** The verb a summary opens with, in its base form ("Voids a label", "CancelBooking" → void, cancel). */
function summaryVerb(summary: string | undefined): string | undefined {
  const first = summary
    ?.replace(/([a-z])([A-Z])/g, "$1 $2")
    .trim()
    .split(/[^A-Za-z]+/)[0]
    ?.toLowerCase();
  if (!first) return undefined;
  return DESTRUCTIVE_WORDS.has(first) ? first : first.endsWith("s") ? first.slice(0, -1) : first;
}

/**
 * Whether an operation destroys, undoes or takes back, by its method and the words of its action (DESTRUCTIVE_WORDS):
 * `labels label-void`, `credit-notes mark-void`, a summary "Void a Label", and creating one of a resource named by
 * such a word (`refunds create`: a refund takes money back).
 */
function destroys(method: string, path: readonly string[], summary: string | undefined): boolean {
  if (method === "delete") return true;
  if (method === "get" || method === "head" || method === "options") return false;
  const action = path[path.length - 1]!;
  const resource = path.length > 1 ? singular(path[path.length - 2]!.split("-").pop()!) : "";
  return (
    action.split("-").some((w) => DESTRUCTIVE_WORDS.has(w)) ||
    DESTRUCTIVE_WORDS.has(summaryVerb(summary) ?? "") ||
    (/^(create|add)\b/.test(action) && DESTRUCTIVE_WORDS.has(resource))
  );
}

function flagsFor(
  op: Operation,
  command: string,
  notes: NamingNote[],
  schemes: Record<string, SecurityScheme>,
): FlagSpec[] {
  const flags: FlagSpec[] = [];
  const used = new Set<string>();
  const add = (wanted: string, location: FlagSpec["in"], spec: Omit<FlagSpec, "flag" | "in">) => {
    let flag = kebab(wanted) || `${location}-param`;
    const original = flag;
    if (RESERVED_FLAGS.has(flag) || flag.startsWith("no-") || used.has(flag)) flag = `${location}-${flag}`;
    for (let n = 2; used.has(flag) || RESERVED_FLAGS.has(flag); n++) flag = `${location}-${original}-${n}`;
    if (flag !== original)
      notes.push({
        kind: "renamed-flag",
        command,
        operation: op.id,
        message: `${location} ${spec.wire}: --${original} is taken, so it is --${flag}`,
      });
    used.add(flag);
    flags.push({ flag, in: location, ...spec });
  };
  const fromParam = (p: Parameter) => {
    const { name, in: location, deprecated: _d, style: _s, explode: _e, ...value } = p;
    const only = p.required && p.enum?.length === 1 && p.type !== "array" ? p.enum[0] : undefined;
    return {
      wire: name,
      ...value,
      required: p.required && only === undefined,
      ...(only !== undefined && only !== null ? { default: only, sentIfAbsent: true as const } : {}),
      ...flagStyle(p),
    };
  };
  for (const location of ["path", "query", "header", "cookie"] as const) {
    for (const p of op.parameters.filter((x) => x.in === location)) {
      if (location === "header" && RUNTIME_HEADERS.has(p.name.toLowerCase())) {
        notes.push({
          kind: "skipped-flag",
          command,
          operation: op.id,
          message: `header ${p.name} is set by the CLI itself, so it has no flag`,
        });
        continue;
      }
      // A credential travels from the environment, never through argv (and never into a transcript as a flag).
      const supplier = suppliedBy(p, schemes);
      if (supplier.length) {
        notes.push({
          kind: "skipped-flag",
          command,
          operation: op.id,
          message: `${location} ${p.name} is the credential of ${supplier.join(" and ")}, read from the environment, so it has no flag`,
        });
        continue;
      }
      // The CLI generates an idempotency key when none is given (runtime/retry.ts): the flag is never required.
      const idempotency = location === "header" && p.type === "string" && IDEMPOTENCY_HEADER.test(p.name);
      add(p.name, location, idempotency ? idempotencyFlag(fromParam(p)) : fromParam(p));
    }
  }
  const body = op.body;
  for (const field of body?.fields ?? []) {
    const { name, readOnly: _r, binary, ...value } = field;
    // A required field of a body the operation needs is a required flag; of an optional body, it is required
    // whenever a body is sent (the runtime asks for it then, or for it in --json-input's JSON).
    add(name, "body", {
      wire: name,
      ...value,
      ...(binary ? { format: "binary", file: true } : {}),
      required: field.required && body!.required,
      ...(field.required && !body!.required ? { requiredWithBody: true } : {}),
    });
  }
  if (body?.raw)
    add("file", "body", {
      wire: "",
      type: "string",
      format: "binary",
      file: true,
      required: body.required,
      description: `The request body (${body.mediaType}): a file's path, or - to read it from stdin`,
    });
  return flags;
}

/** Help's line of an idempotency key's flag says the CLI makes one (within the 200 characters of a flag's line). */
const GENERATED_KEY = "Generated once per call when not given, the same on every retry.";

function idempotencyFlag<T extends { required: boolean; description?: string }>(spec: T): T {
  const said = spec.description ? `${spec.description.replace(/[.\s]*$/, ".")} ${GENERATED_KEY}` : GENERATED_KEY;
  return { ...spec, required: false, ...(said.length <= 200 ? { description: said } : {}) };
}

/**
 * The values an operation's own `Accept` or `Content-Type` header parameter gives (its default, else its first enum
 * value): the runtime sets those headers itself (they have no flag), and sends the document's value — Accept always,
 * Content-Type on a request without a body when the parameter is required (with a body, the body's type is sent). A
 * required Content-Type that names no value is the body's media type, else JSON.
 */
function declaredHeaders(op: Operation): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const p of op.parameters) {
    const name = p.name.toLowerCase();
    if (p.in !== "header" || (name !== "accept" && name !== "content-type")) continue;
    const value =
      typeof p.default === "string"
        ? p.default
        : (p.enum?.find((e): e is string => typeof e === "string") ??
          (name === "content-type" && p.required ? (op.body?.mediaType ?? "application/json") : undefined));
    if (value === undefined || (name === "content-type" && !p.required)) continue;
    out[name] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

/** How the command's body is sent: its media type, how it is encoded, and each form or multipart field's encoding. */
function bodyOf(body: RequestBody): BodySpec {
  // A file's bytes the API takes in several types (a PDF, a PNG, audio/*) go as the one the file is: the runtime picks
  // from the list by the file's extension, the chosen type first for a file it cannot tell (request-body.ts).
  const raw =
    bodyEncodingOf(body.mediaType) === "raw" ? body.mediaTypes.filter((t) => bodyEncodingOf(t) === "raw") : [];
  return {
    mediaType: [body.mediaType, ...raw.filter((t) => t !== body.mediaType)].join(", "),
    encoding: bodyEncodingOf(body.mediaType),
    required: body.required,
    ...(body.encoding ? { parts: body.encoding } : {}),
    ...(body.shape ? { shape: body.shape } : {}),
  };
}

/**
 * What the command asks for and gets back: Accept from the media types of every answer the operation declares for
 * success (of all answers when it declares none), and the kind of its success answer.
 */
function responseOf(op: Operation, success: Response | undefined): ResponseSpec {
  const ok = op.responses.filter((r) => /^2/.test(r.status) || r.status === "default");
  const declared = (ok.length ? ok : op.responses).flatMap((r) => r.mediaTypes ?? []);
  // A success answer the document gives no type (daymet's CSV download: `200: {description}`) may be anything: JSON
  // is asked for first, and anything else still taken, so a strict server does not refuse the request (406).
  const untyped = !declared.length && !!success && !/^20[45]$/.test(success.status);
  return { accept: untyped ? ANY_ANSWER : acceptFor(declared), kind: success?.kind ?? "json" };
}

const ANY_ANSWER = "application/json, */*;q=0.8";

const CURSOR = [
  "cursor",
  "after",
  "starting_after",
  "starting-after",
  "page_token",
  "pagetoken",
  "next_token",
  "nexttoken",
  "continuation_token",
  "continuation",
  "marker",
];
const PAGE = ["page", "page_number", "pagenumber", "page_no", "pageno", "pageindex", "page_index"];
const OFFSET = ["offset", "skip", "start", "start_index", "startindex"];
const SIZE = [
  "per_page",
  "perpage",
  "page_size",
  "pagesize",
  "limit",
  "size",
  "max_results",
  "maxresults",
  "count",
  "top",
  "page_limit",
  "pagelimit",
];
const NEXT_CURSOR =
  /^(next_?cursor|next_?page_?token|next_?token|cursor|next_?marker|continuation_?token|end_?cursor)$/i;
const NEXT_URL = /^(next|next_?url|next_?page_?url|next_?link|next_?href)$/i;
const TOTAL = /^(total|total_?count|total_?results|total_?items|total_?size|count)$/i;
const HAS_MORE = /^(has_?more|has_?next(_?page)?|more)$/i;
const TOTAL_HEADERS = ["x-total-count", "x-total", "total-count"];

/** The first response field (a dot path, top level first) whose last name matches. */
function fieldMatching(fields: string[], pattern: RegExp): string | undefined {
  const last = (f: string) => f.slice(f.lastIndexOf(".") + 1);
  return fields.find((f) => !f.includes(".") && pattern.test(f)) ?? fields.find((f) => pattern.test(last(f)));
}

/**
 * How a list operation pages, from its parameters and its response: cursors, page numbers, offsets, Link headers and
 * `next` URLs; with the response fields that carry the next cursor or URL, the total and a has-more flag.
 */
function paginationOf(op: Operation): Pagination | undefined {
  if (op.method !== "get") return undefined;
  const query = op.parameters.filter((p) => p.in === "query");
  const find = (names: string[]) => query.find((p) => names.includes(p.name.toLowerCase()))?.name;
  const sizeParam = find(SIZE);
  const success = successResponse(op);
  const fields = success?.wrapperProperties ?? [];
  const headers = (success?.headers ?? []).map((h) => h.toLowerCase());
  const totalField = fieldMatching(fields, TOTAL);
  const hasMoreField = fieldMatching(fields, HAS_MORE);
  const totalHeader = (success?.headers ?? []).find((h) => TOTAL_HEADERS.includes(h.toLowerCase()));
  const signals = {
    ...(sizeParam ? { sizeParam } : {}),
    ...(totalField ? { totalField } : {}),
    ...(hasMoreField ? { hasMoreField } : {}),
    ...(totalHeader ? { totalHeader } : {}),
  };
  const cursor = find(CURSOR);
  const nextCursor = fieldMatching(fields, NEXT_CURSOR);
  const nextUrl = fieldMatching(fields, NEXT_URL);
  if (cursor)
    return {
      style: "cursor",
      param: cursor,
      ...((nextCursor ?? nextUrl) ? { nextField: nextCursor ?? nextUrl } : {}),
      ...signals,
    };
  const page = find(PAGE);
  if (headers.includes("link")) return { style: "link", ...(page ? { param: page } : {}), ...signals };
  // "start" or "skip" is an offset only when it is a number (a "start" time is not).
  const offset = query.find((p) => OFFSET.includes(p.name.toLowerCase()) && p.type === "integer")?.name;
  if (nextUrl && !page && !offset) return { style: "url", nextField: nextUrl, ...signals };
  if (page) return { style: "page", param: page, ...(nextUrl ? { nextField: nextUrl } : {}), ...signals };
  if (offset) return { style: "offset", param: offset, ...(nextUrl ? { nextField: nextUrl } : {}), ...signals };
  return undefined;
}

/**
 * What makes a command safe to send again beyond its method (runtime/retry.ts): an idempotency key header the document
 * declares (`Idempotency-Key`, `X-Idempotency-Key`, `…-Token`) that is not a credential.
 */
function retryOf(flags: FlagSpec[]): { idempotencyHeader: string } | undefined {
  const header = flags.find((f) => f.in === "header" && f.type === "string" && IDEMPOTENCY_HEADER.test(f.wire));
  return header ? { idempotencyHeader: header.wire } : undefined;
}

/** The path part of the API's base URL ("/v1"), also of a relative server URL; "" at the root. */
function pathOfBase(url: string | null): string {
  if (!url) return "";
  let path = url;
  if (/^https?:\/\//.test(url)) {
    try {
      path = new URL(url).pathname;
    } catch {
      return "";
    }
  }
  return path.startsWith("/") ? path.replace(/\/+$/, "") : "";
}

/**
 * The GET forms of AWS query-protocol actions that a POST form offers too (`GET /#Action=CreateGroup` beside `POST
 * /#Action=CreateGroup`): the same call twice, whose GET form creates as much as the POST. The POST is the command;
 * a GET named `get` would say it only reads.
 */
function getTwins(ops: readonly Operation[]): Set<Operation> {
  const posted = new Set(ops.filter((op) => op.method === "post" && !op.cli.ignore).map((op) => awsRpcMethod(op.path)));
  return new Set(
    ops.filter(
      (op) => op.method === "get" && !op.cli.ignore && awsRpcMethod(op.path) && posted.has(awsRpcMethod(op.path)),
    ),
  );
}

/**
 * Operations a document states twice, under other parameter names and in the same words (`POST
 * /conversations/{conversation_id}/offer` and `POST /conversations/{id}/offer`, both "Make an offer…"): one call; each
 * maps to the first. Words must agree: where a parameter may span segments (Google's `/v1/{parent}/notes` beside
 * `/v1/{name}/notes`), the names tell different calls apart.
 */
function sameRoutes(ops: readonly Operation[]): Map<Operation, Operation> {
  const first = new Map<string, Operation>();
  const later = new Map<Operation, Operation>();
  for (const op of ops) {
    if (op.cli.ignore || !(op.summary ?? op.description)) continue;
    const key = `${op.method} ${op.path.replace(/\{[^}]*\}/g, "{}")} ${op.summary ?? ""} ${op.description ?? ""}`;
    const seen = first.get(key);
    if (seen) later.set(op, seen);
    else first.set(key, op);
  }
  return later;
}

/**
 * Operations a document states twice, once with a trailing slash (Spring's `/api/address` and `/api/address/`, each
 * with an operationId of its own): the same method, parameters and body, so one call. Each maps to the one without it.
 */
function slashTwins(ops: readonly Operation[]): Map<Operation, Operation> {
  const shape = (op: Operation) =>
    `${op.method} ${op.parameters
      .map((p) => `${p.in}:${p.name}`)
      .sort()
      .join(",")} ${op.body ? op.body.mediaType : ""}`;
  const bare = new Map<string, Operation>();
  for (const op of ops) if (!op.cli.ignore && !op.path.endsWith("/")) bare.set(`${op.path} ${shape(op)}`, op);
  const twins = new Map<Operation, Operation>();
  for (const op of ops) {
    if (op.cli.ignore || op.cli.name || op.path === "/" || !op.path.endsWith("/")) continue;
    const plain = bare.get(`${op.path.replace(/\/+$/, "")} ${shape(op)}`);
    if (plain) twins.set(op, plain);
  }
  return twins;
}

/**
 * The operations that become commands, and a note for each left out: `x-cli-ignore`, a GET twin, a route twice, a
 * path again with a trailing slash.
 */
function commandOperations(operations: readonly Operation[], notes: NamingNote[]): Operation[] {
  const twins = getTwins(operations);
  const repeated = sameRoutes(operations);
  const slashed = slashTwins(operations);
  return operations.filter((op) => {
    const same = repeated.get(op) ?? slashed.get(op);
    if (op.cli.ignore)
      notes.push({
        kind: "ignored",
        operation: op.id,
        message: `${op.method.toUpperCase()} ${op.path} has x-cli-ignore`,
      });
    else if (twins.has(op))
      notes.push({
        kind: "ignored",
        operation: op.id,
        message: `GET ${op.path} is the query protocol's GET form of POST /#Action=${awsRpcMethod(op.path)}, the same call: one command`,
      });
    else if (same)
      notes.push({
        kind: "ignored",
        operation: op.id,
        message: slashed.has(op)
          ? `${op.method.toUpperCase()} ${op.path} is ${same.method.toUpperCase()} ${same.path} with a trailing slash, the same parameters and body: one command`
          : `${op.method.toUpperCase()} ${op.path} is ${same.method.toUpperCase()} ${same.path} with its parameters named otherwise: one request matches both, so one command`,
      });
    return !op.cli.ignore && !twins.has(op) && !same;
  });
}

export function designCommands(
  model: OperationModel,
  config: Pick<InterConfig, "product" | "api">,
  sourceFiles: string[],
): { plan: CommandsPlan; warnings: string[] } {
  const notes: NamingNote[] = [];
  const warnings: string[] = [];
  const usable = commandOperations(model.operations, notes);
  const names = nameOperations(usable, model, config.product.name, RESERVED_RESOURCES, (note) => notes.push(note));

  const authNotes = new Map<string, string[]>();
  // Schemes declared, yet no requirement anywhere: the author left `security` out (stages/design/wire.ts authOf).
  const unstated =
    Object.keys(model.securitySchemes).length > 0 &&
    !model.security.some((r) => Object.keys(r).length) &&
    !usable.some((op) => op.security?.some((r) => Object.keys(r).length));
  if (unstated)
    warnings.push(
      `the document declares security schemes (${Object.keys(model.securitySchemes).sort().join(", ")}) but no operation requires one: the CLI sends a scheme whose variables are set, and demands none`,
    );
  const commands: CommandSpec[] = usable.map((op) => {
    const { path, source } = names.get(op)!;
    const name = path.join(" ");
    const destructive = op.cli.destructive ?? destroys(op.method, path, op.summary);
    const success = successResponse(op);
    const auth = authOf(op, model, unstated);
    if (auth.warning) pushTo(authNotes, auth.warning, name);
    const pagination = paginationOf(op);
    const flags = flagsFor(op, name, notes, model.securitySchemes);
    const retry = retryOf(flags);
    return {
      path,
      name,
      ...commandText(op),
      operation: {
        id: op.id,
        method: op.method.toUpperCase(),
        path: op.path,
        ...(op.operationId ? { operationId: op.operationId } : {}),
        pointer: op.pointer,
      },
      flags,
      jsonInput: !!op.body && !op.body.raw,
      ...(op.body ? { body: bodyOf(op.body) } : {}),
      response: responseOf(op, success),
      ...(declaredHeaders(op) ? { headers: declaredHeaders(op) } : {}),
      destructive,
      permission:
        op.method === "get" || op.method === "head" || op.method === "options"
          ? "read"
          : destructive
            ? "delete"
            : "write",
      ...(pagination ? { pagination } : {}),
      output: {
        shape: success?.shape ?? "unknown",
        ...(success?.listField ? { listField: success.listField } : {}),
        ...(success?.properties ? { fields: success.properties } : {}),
        ...(success?.propertyTypes ? { types: success.propertyTypes } : {}),
      },
      auth: auth.auth,
      ...(auth.optional && auth.auth.length ? { authOptional: true } : {}),
      statuses: op.responses.map((r) => r.status),
      ...(retry ? { retry } : {}),
      hidden: op.cli.hidden === true,
      deprecated: op.deprecated,
      nameSource: source,
    } satisfies CommandSpec;
  });
  commands.sort((a, b) => compareText(a.name, b.name));

  const baseUrl = defaultBaseUrl(model, config);
  const basePath = pathOfBase(baseUrl);
  if (!baseUrl || !/^https?:\/\//.test(baseUrl))
    warnings.push(
      "no absolute base URL: set api.baseUrl in the config or a `servers` entry in the document; the CLI will need its base-URL variable set",
    );
  const usedSchemes = [...new Set(commands.flatMap((c) => c.auth.flatMap((r) => Object.keys(r))))].sort();
  const credentials = credentialVariables(
    config,
    Object.fromEntries(usedSchemes.map((s) => [s, model.securitySchemes[s]!])),
  );
  warnings.push(...credentials.warnings);
  const signing: Record<string, AwsSigning> = {};
  for (const name of usedSchemes) {
    const scheme = model.securitySchemes[name]!;
    if (scheme.signature?.kind === "aws-sigv4") {
      const { aws, warning } = awsSigning(scheme, model, config);
      signing[name] = aws;
      if (warning) warnings.push(`${name} ${warning}`);
    } else if (scheme.signature)
      warnings.push(
        `${name} requires each request signed with ${scheme.signature.title} (${scheme.signature.by}), which the CLI cannot compute: its value is sent as is, and the candidate is not certified Agent-Native`,
      );
  }
  for (const [note, names] of authNotes)
    warnings.push(
      `${names.length === usable.length ? "all operations" : `${names.length} operation${names.length === 1 ? "" : "s"} (${names.slice(0, 3).join(", ")}${names.length > 3 ? ", …" : ""})`} ${names.length === 1 ? note.replace(/^(\w+)/, "$1s") : note}`,
    );
  for (const note of notes)
    if (note.kind === "collision" || note.kind === "renamed-resource") warnings.push(note.message);

  const binary = config.product.binary;
  return {
    plan: {
      groups: groupsOf(commands, model),
      product: {
        name: config.product.name,
        binary,
        package: config.product.package ?? `${binary}-cli`,
        version: config.product.version ?? "0.1.0",
        ...(config.product.mcpName ? { mcpName: config.product.mcpName } : {}),
      },
      source: {
        title: model.source.title,
        version: model.source.version,
        specVersion: model.source.specVersion,
        ...(model.source.description ? { description: model.source.description } : {}),
        files: sourceFiles,
      },
      baseUrl: {
        default: baseUrl && /^https?:\/\//.test(baseUrl) ? baseUrl : null,
        env: `${binary.toUpperCase().replace(/-/g, "_")}_BASE_URL`,
        path: basePath,
      },
      auth: {
        schemes: Object.fromEntries(
          usedSchemes.map((s) => [s, planScheme(model.securitySchemes[s]!, credentials.variables[s]!, signing[s])]),
        ),
      },
      commands,
      naming: notes,
    },
    warnings,
  };
}
