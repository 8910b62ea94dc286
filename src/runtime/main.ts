import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bindFlags, findCommand, splitArgv, type Globals } from "./args.js";
import { CliError } from "./errors.js";
import { guard, sanitize, type Checked } from "./guard.js";
import { commandHelp, helpDocument, mcpSchema } from "./help.js";
import { buildRequest, errorFor, redactRequest, send, type Response } from "./http.js";
import { runIssue } from "./issues.js";
import type { Command, Flag, Manifest } from "./manifest.js";
import { writeError, writeResult, type Page } from "./output.js";

const STDIN_TIMEOUT_MS = Number(process.env.AGENT_CLI_STDIN_TIMEOUT_MS) || 5000;

/** The body for --json-input: JSON from stdin, never waiting on a terminal or forever on a silent pipe. */
async function readJsonInput(): Promise<Record<string, unknown>> {
  if (process.stdin.isTTY) throw new CliError("INVALID_JSON_INPUT", "--json-input reads JSON from stdin, but stdin is a terminal.", "Pipe the body in: echo '{\"name\":\"x\"}' | <command> --json-input");
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      process.stdin.destroy();
      reject(new CliError("INVALID_JSON_INPUT", `No end of input on stdin within ${STDIN_TIMEOUT_MS} ms.`, "Pipe a complete JSON document and close stdin."));
    }, STDIN_TIMEOUT_MS);
    process.stdin.on("data", (c: Buffer) => chunks.push(c));
    process.stdin.on("end", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    process.stdin.on("error", () => {
      clearTimeout(timer);
      resolve("");
    });
  });
  if (!text.trim()) throw new CliError("INVALID_JSON_INPUT", "--json-input was given but stdin was empty.", "Pipe a JSON object: echo '{...}' | <command> --json-input");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError("INVALID_JSON_INPUT", `stdin is not valid JSON: ${(error as Error).message}.`, "Pipe a JSON object.");
  }
  // Another command's output (C5): its envelope's data is the body.
  if (value && typeof value === "object" && !Array.isArray(value) && (value as { ok?: unknown }).ok === true && "data" in value) value = (value as { data: unknown }).data;
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new CliError("INVALID_JSON_INPUT", "The JSON on stdin must be an object of body fields.", "Pipe a JSON object such as {\"title\": \"Sync\"}.");
  return value as Record<string, unknown>;
}

function stringLeaves(value: unknown, path: string, out: Checked[]): Checked[] {
  if (typeof value === "string") out.push({ source: path, value, identifier: false });
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, `${path}[${i}]`, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) stringLeaves(v, `${path}.${k}`, out);
  return out;
}

function credentialFor(manifest: Manifest, command: Command, dryRun: boolean): string | undefined {
  if (!command.auth.length) return undefined;
  const value = process.env[manifest.auth.env];
  if (value) return value;
  if (dryRun) return undefined;
  throw new CliError("CREDENTIAL_MISSING", `"${command.name}" needs a credential, and ${manifest.auth.env} is not set.`, `Set ${manifest.auth.env} in the environment (never pass it as an argument).`, { env: manifest.auth.env });
}

function baseUrlFor(manifest: Manifest): string {
  const value = process.env[manifest.baseUrl.env] || manifest.baseUrl.default;
  if (!value) throw new CliError("BASE_URL_MISSING", `No base URL: ${manifest.baseUrl.env} is not set and the CLI has no default.`, `Set ${manifest.baseUrl.env}=https://api.example.com.`, { env: manifest.baseUrl.env });
  if (!/^https?:\/\/[^\s]+$/.test(value)) throw new CliError("BASE_URL_MISSING", `${manifest.baseUrl.env} is not an http(s) URL.`, `Set ${manifest.baseUrl.env} to an absolute URL such as https://api.example.com.`, { env: manifest.baseUrl.env });
  return value;
}

function nextLink(response: Response): string | undefined {
  const link = response.headers.link;
  const text = Array.isArray(link) ? link.join(",") : link;
  return text ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(text)?.[1] : undefined;
}

/** Splits a list response into its items and what it says about the next page. */
function unwrap(command: Command, data: unknown): { items: unknown; next?: string | null } {
  const field = command.output.listField;
  if (field && data && typeof data === "object" && !Array.isArray(data) && Array.isArray((data as Record<string, unknown>)[field])) {
    const next = command.pagination?.nextField ? ((data as Record<string, unknown>)[command.pagination.nextField] as string | null | undefined) : undefined;
    return { items: (data as Record<string, unknown>)[field], ...(next !== undefined ? { next } : {}) };
  }
  return { items: data };
}

async function callApi(manifest: Manifest, command: Command, globals: Globals, values: Map<Flag, unknown>, body: Record<string, unknown> | undefined): Promise<void> {
  const credential = credentialFor(manifest, command, globals["dry-run"]);
  const baseUrl = baseUrlFor(manifest);
  const request = buildRequest(manifest, command, baseUrl, values, body, credential);
  if (globals["dry-run"]) {
    writeResult(manifest, { ...globals, fields: undefined }, { dry_run: true, request: redactRequest(request, credential), sent: false });
    return;
  }
  let response = await send(request);
  if (response.status < 200 || response.status >= 300) throw errorFor(response, credential);
  let { items, next } = unwrap(command, response.data);
  const pagination = command.pagination;
  if (!globals.all || !pagination || !Array.isArray(items)) {
    const link = pagination?.style === "link" ? nextLink(response) : undefined;
    const page: Page | undefined = pagination && Array.isArray(items) ? { has_more: Boolean(next || link), ...(next !== undefined ? { next_cursor: next } : {}) } : undefined;
    writeResult(manifest, globals, items ?? null, page);
    return;
  }
  // --all: follow pages, bounded by --max-pages (G7), and say whether more remained.
  const all: unknown[] = [...items];
  let pages = 1;
  let pageNumber = Number(values.get(command.flags.find((f) => f.wire === pagination.param)!) ?? 1);
  let offset = all.length;
  for (;;) {
    let extra: Record<string, string> | undefined;
    let url: string | undefined;
    if (pagination.style === "cursor" && next) extra = { [pagination.param!]: next };
    else if (pagination.style === "page" && (items as unknown[]).length) extra = { [pagination.param!]: String(++pageNumber) };
    else if (pagination.style === "offset" && (items as unknown[]).length) extra = { [pagination.param!]: String(offset) };
    else if (pagination.style === "link") url = nextLink(response);
    if ((!extra && !url) || pages >= globals.maxPages) {
      writeResult(manifest, globals, all, { has_more: Boolean(extra || url), pages });
      return;
    }
    const nextRequest = url ? { ...request, url } : buildRequest(manifest, command, baseUrl, values, body, credential, extra);
    response = await send(nextRequest);
    if (response.status < 200 || response.status >= 300) throw errorFor(response, credential);
    ({ items, next } = unwrap(command, response.data));
    if (!Array.isArray(items)) break;
    all.push(...items);
    offset += items.length;
    pages += 1;
  }
  writeResult(manifest, globals, all, { has_more: false, pages });
}

function skillsCommand(dir: string, manifest: Manifest, globals: Globals, name: string | undefined): void {
  if (!name) {
    writeResult(manifest, globals, manifest.skills.map((s) => ({ ...s, command: `${manifest.product.binary} skills ${s.name}` })));
    return;
  }
  const skill = manifest.skills.find((s) => s.name === name);
  if (!skill) throw new CliError("NOT_FOUND", `No skill "${name}".`, `Skills: ${manifest.skills.map((s) => s.name).join(", ") || "none"}.`, { name });
  const content = readFileSync(join(dir, "agent", "skills", `${name}.md`), "utf8");
  if (globals.human) process.stdout.write(content);
  else writeResult(manifest, globals, { ...skill, content });
}

async function dispatch(dir: string, manifest: Manifest, argv: string[], globalsOut: { globals?: Globals }): Promise<void> {
  const leading = argv.slice(0, argv.findIndex((a) => a.startsWith("-")) >= 0 ? argv.findIndex((a) => a.startsWith("-")) : argv.length);
  const guess = findCommand(manifest, leading);
  const parsed = splitArgv(argv, (name) => {
    // Before any command word, only global flags exist.
    if (!guess) return leading.length ? undefined : "unknown";
    const flag = guess.flags.find((f) => f.flag === name);
    return flag ? (flag.type === "boolean" ? "boolean" : "value") : "unknown";
  });
  const { globals, words } = parsed;
  globalsOut.globals = globals;
  const { binary } = manifest.product;

  if (globals["mcp-schema"]) return void process.stdout.write(`${JSON.stringify(mcpSchema(manifest))}\n`);
  if (globals.version && !words.length) return writeResult(manifest, globals, { version: manifest.product.version });
  if (globals.brief) {
    const brief = readFileSync(join(dir, "agent", "brief.md"), "utf8").trim();
    if (globals.human) return void process.stdout.write(`${brief}\n`);
    return writeResult(manifest, globals, { brief });
  }
  if (!words.length) {
    if (parsed.positionals.length) throw new CliError("UNKNOWN_COMMAND", `"${parsed.positionals[0]}" is not a command.`, `Run ${binary} --help for the commands.`);
    return void process.stdout.write(`${JSON.stringify(helpDocument(manifest, manifest.commands))}\n`);
  }
  if (words[0] === "skills") {
    if (globals.help) return void process.stdout.write(`${JSON.stringify(helpDocument(manifest, [], "skills"))}\n`);
    return skillsCommand(dir, manifest, globals, words[1] ?? parsed.positionals[0]);
  }
  if (words[0] === "issue") {
    if (globals.help) return void process.stdout.write(`${JSON.stringify(helpDocument(manifest, [], "issue"))}\n`);
    const values: Checked[] = [...[...parsed.raw].flatMap(([k, vs]) => vs.map((value) => ({ source: `--${k}`, value: globals.sanitize ? sanitize(value) : value, identifier: k === "id" }))), ...parsed.positionals.map((value) => ({ source: "argument", value, identifier: true }))];
    guard(values);
    return writeResult(manifest, globals, runIssue(manifest, words[1], parsed));
  }

  const command = findCommand(manifest, words);
  if (!command) {
    const group = manifest.commands.filter((c) => words.every((w, i) => c.path[i] === w));
    if (group.length && globals.help) return void process.stdout.write(`${JSON.stringify(helpDocument(manifest, group, words.join(" ")))}\n`);
    const near = group.length ? group : manifest.commands.filter((c) => c.path[0] === words[0]);
    throw new CliError("UNKNOWN_COMMAND", `"${binary} ${words.join(" ")}" is not a command.`, near.length ? `Did you mean: ${near.slice(0, 5).map((c) => `${binary} ${c.name}`).join(", ")}?` : `Run ${binary} --help for the commands.`, { words });
  }
  if (globals.help) return void process.stdout.write(`${JSON.stringify({ ...helpDocument(manifest, [command], command.name), command: commandHelp(manifest, command) })}\n`);
  if (parsed.positionals.length) {
    throw new CliError("POSITIONAL_NOT_ALLOWED", `Unexpected argument "${parsed.positionals[0]}": every input is a --flag.`, `Run ${binary} ${command.name} --help to see its flags.`, { argument: parsed.positionals[0] });
  }
  if (globals.sanitize) for (const [k, vs] of parsed.raw) parsed.raw.set(k, vs.map(sanitize));
  const identifiers = new Set(command.flags.filter((f) => f.in === "path" || f.in === "header" || f.in === "cookie" || /(^|[-_])id$|Id$/.test(f.wire)).map((f) => f.flag));
  guard([...parsed.raw].flatMap(([k, vs]) => vs.map((value) => ({ source: `--${k}`, value, identifier: identifiers.has(k) }))));
  let body: Record<string, unknown> | undefined;
  if (globals["json-input"]) {
    if (!command.jsonInput) throw new CliError("USAGE_ERROR", `"${command.name}" takes no request body, so --json-input does not apply.`, `Use its flags; see ${binary} ${command.name} --help.`);
    body = await readJsonInput();
    guard(stringLeaves(body, "json-input", []));
  }
  const values = bindFlags(command, parsed, body !== undefined);
  if (command.destructive && !globals.yes && !globals["dry-run"]) {
    throw new CliError("CONFIRMATION_REQUIRED", `"${command.name}" is destructive and needs confirmation.`, `Re-run with --yes to confirm, or --dry-run to preview the request.`, { command: command.name });
  }
  await callApi(manifest, command, globals, values, body);
}

/** Runs one invocation of a generated CLI; the package folder holds manifest.json and agent/. Returns the exit code. */
export async function run(dir: string, argv: string[]): Promise<number> {
  const holder: { globals?: Globals } = {};
  try {
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
    await dispatch(dir, manifest, argv, holder);
    return 0;
  } catch (error) {
    const err = error instanceof CliError ? error : new CliError("INTERNAL_ERROR", `Unexpected failure: ${(error as Error).message}`, "Report it with the issue command.");
    writeError(err, holder.globals ?? { human: false, agent: false });
    return err.exitCode;
  }
}
