import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bindFlags, outputGlobals, splitArgv, versionRequested, type Globals, type Parsed } from "./args.js";
import {
  AGENTS_ACTIONS,
  AUTH_ACTIONS,
  builtins,
  findBuiltin,
  ISSUE_ACTIONS,
  isBuiltinWord,
  searchWord,
  type BuiltinGroup,
} from "./builtins.js";
import { agentsOf, installAgents, uninstallAgents } from "./agents.js";
import { verifyProof } from "./proof.js";
import { authStatus } from "./auth-status.js";
import { credentialHow, missingCredential } from "./auth.js";
import { chooseAlternative, knownSecrets, needsOf, variablesOf, type Chosen } from "./credentials.js";
import { accessToken } from "./oauth.js";
import { MIN_SECRET_LENGTH, REDACTED } from "../core/redact.js";
import { CliError } from "./errors.js";
import { parseExact } from "./exact.js";
import { guard, MAX_JSON_DEPTH, nestedDeeper, sanitize, type Checked } from "./guard.js";
import {
  builtinHelp,
  builtinSingleHelp,
  describeBuiltins,
  describeScope,
  groupHelp,
  mcpSchema,
  rootHelp,
  singleHelp,
} from "./help.js";
import {
  buildRequest,
  errorFor,
  redactRequest,
  secretPlaces,
  send,
  type Credential,
  type Request,
  type Response,
} from "./http.js";
import { runIssue } from "./issues.js";
import { findCommand, openCli, type Cli } from "./load.js";
import type { Body, Command, Flag, Manifest } from "./manifest.js";
import type { commandFinder as CommandFinderOf } from "./command-finder.js";
import { writeError, writeResult } from "./output.js";
import { readPage, type NextRequest } from "./paging.js";
import { replayable, retryError, retrying, retryPlan, retryPolicy, withIdempotencyKey } from "./retry.js";
import { missingCommand, unknownCommand } from "./suggest.js";
import { checkOutput, closeUploads, openUpload, type OpenedFile } from "./local-file.js";
import { filesOf, previewStream, streamDigest } from "./request-body.js";
import { pushTo } from "../core/group.js";
import { regionalBaseUrl, requestSigner } from "./sigv4.js";

const STDIN_TIMEOUT_MS = Number(process.env.AGENT_CLI_STDIN_TIMEOUT_MS) || 5000;
/** Largest request body read from stdin. */
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** The body for --json-input: JSON from stdin, never waiting on a terminal or forever on a silent pipe. */
async function readJsonInput(shape: Body["shape"]): Promise<unknown> {
  if (process.stdin.isTTY)
    throw new CliError(
      "INVALID_JSON_INPUT",
      "--json-input reads JSON from stdin, but stdin is a terminal.",
      'Pipe the body in: echo \'{"name":"x"}\' | <command> --json-input',
    );
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      process.stdin.destroy();
      reject(
        new CliError(
          "INVALID_JSON_INPUT",
          `No end of input on stdin within ${STDIN_TIMEOUT_MS} ms.`,
          "Pipe a complete JSON document and close stdin.",
        ),
      );
    }, STDIN_TIMEOUT_MS);
    let size = 0;
    process.stdin.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_STDIN_BYTES) {
        clearTimeout(timer);
        process.stdin.destroy();
        reject(
          new CliError(
            "INVALID_JSON_INPUT",
            `The JSON on stdin is over ${MAX_STDIN_BYTES} bytes.`,
            "Pipe a request body, not a data set: send large data in pieces with several calls.",
            { limit: MAX_STDIN_BYTES },
          ),
        );
        return;
      }
      chunks.push(c);
    });
    process.stdin.on("end", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    process.stdin.on("error", () => {
      clearTimeout(timer);
      resolve("");
    });
  });
  if (!text.trim())
    throw new CliError(
      "INVALID_JSON_INPUT",
      "--json-input was given but stdin was empty.",
      "Pipe a JSON object: echo '{...}' | <command> --json-input",
    );
  let value: unknown;
  try {
    value = parseExact(text);
  } catch (error) {
    throw new CliError(
      "INVALID_JSON_INPUT",
      `stdin is not valid JSON: ${(error as Error).message}.`,
      "Pipe a JSON object.",
    );
  }
  if (nestedDeeper(value))
    throw new CliError(
      "INVALID_JSON_INPUT",
      `The JSON on stdin nests deeper than ${MAX_JSON_DEPTH} levels.`,
      "Pipe a request body, not arbitrary data: flatten it or send the nested part as a string.",
      { limit: MAX_JSON_DEPTH },
    );
  // Another command's output (C5): its envelope's result is the body.
  if (
    value &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    (value as { ok?: unknown }).ok === true &&
    "result" in value
  )
    value = (value as { result: unknown }).result;
  // A body the document types as a list (or any value) is taken whole; otherwise it is an object of fields.
  if (shape === "array" && !Array.isArray(value))
    throw new CliError(
      "INVALID_JSON_INPUT",
      "The body of this command is a JSON array.",
      'Pipe a JSON array such as [{"name": "a"}, {"name": "b"}].',
    );
  if (shape === undefined && (!value || typeof value !== "object" || Array.isArray(value)))
    throw new CliError(
      "INVALID_JSON_INPUT",
      "The JSON on stdin must be an object of body fields.",
      'Pipe a JSON object such as {"title": "Sync"}.',
    );
  return value;
}

/**
 * The guardrails, and a credential this CLI holds typed into an argument by mistake: refused (never echoed), so it
 * reaches neither the request nor a transcript. Values below MIN_SECRET_LENGTH would match ordinary words.
 */
function guardWithCredentials(manifest: Manifest, values: Checked[]): void {
  guard(values);
  const secrets = knownSecrets(manifest).filter((s) => s.length >= MIN_SECRET_LENGTH);
  const held = values.find((v) => secrets.some((s) => v.value.includes(s)));
  if (held)
    throw new CliError(
      "SECRET_IN_ARGUMENT",
      `${held.source} holds the value of one of this CLI's credential variables; credentials are never accepted as arguments.`,
      `Remove it: the CLI sends credentials from the environment itself (\`${manifest.product.binary} auth status\`).`,
      { source: held.source },
    );
}

/** A long opaque string of no particular shape, as keys are: a pattern that takes it says nothing of a value. */
const ANY_TOKEN = "Zq7VtK2mXw9RbN4sLc8HyJ3dPf6GaT1uEo5QiM0nBr";

/**
 * A value of the shape the document gives its flag, where that shape is specific (a pattern an arbitrary token does
 * not match, as a hash's `[A-Fa-f0-9]{64}`): the API asks for exactly this, so it is data, however opaque it looks.
 */
function documentedShape(flag: Flag | undefined, value: string): boolean {
  if (!flag) return false;
  // A commit, a digest or a checksum is hex of a hash's length, which the flag's name says it takes.
  if (hashNamed(flag.wire) && /^([0-9a-f]{40}|[0-9a-f]{64})$/i.test(value)) return true;
  if (!flag.pattern) return false;
  try {
    // A schema's pattern is unanchored (`[a-f0-9]+` finds hex inside any token): the shape is the whole value's.
    const whole = new RegExp(`^(?:${flag.pattern})$`, "u");
    return new RegExp(flag.pattern, "u").test(value) && whole.test(value) && !whole.test(ANY_TOKEN);
  } catch {
    return false;
  }
}

/** Whether a flag's name says it takes a hash: a commit, sha, digest, checksum, revision or fingerprint (or its id). */
function hashNamed(wire: string): boolean {
  const words = wire
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.at(-1) === "id") words.pop();
  return HASH_WORDS.has(words.at(-1) ?? "");
}

const HASH_WORDS = new Set("commit sha sha1 sha256 digest checksum revision rev hash fingerprint oid".split(" "));

function stringLeaves(value: unknown, path: string, out: Checked[]): Checked[] {
  if (typeof value === "string") out.push({ source: path, value, identifier: false });
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, `${path}[${i}]`, out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) stringLeaves(v, `${path}.${k}`, out);
  return out;
}

function baseUrlFor(manifest: Manifest): string {
  // A regional AWS endpoint of the document follows the region AWS_REGION chooses (sigv4.ts).
  const value = process.env[manifest.baseUrl.env] || regionalBaseUrl(manifest) || manifest.baseUrl.default;
  if (!value)
    throw new CliError(
      "BASE_URL_MISSING",
      `No base URL: ${manifest.baseUrl.env} is not set and the CLI has no default.`,
      `Set ${manifest.baseUrl.env}=https://api.example.com.`,
      { env: manifest.baseUrl.env },
    );
  if (!/^https?:\/\/[^\s]+$/.test(value))
    throw new CliError(
      "BASE_URL_MISSING",
      `${manifest.baseUrl.env} is not an http(s) URL.`,
      `Set ${manifest.baseUrl.env} to an absolute URL such as https://api.example.com.`,
      { env: manifest.baseUrl.env },
    );
  return value;
}

/** The credentials a command sends, resolved to values; `renew` obtains new OAuth tokens instead of reusing any. */
async function credentialsFor(
  manifest: Manifest,
  command: Command,
  baseUrl: string,
  dryRun: boolean,
  renew = false,
): Promise<{ credentials: Credential[]; chosen?: Chosen; renewable: boolean }> {
  if (!command.auth.length) return { credentials: [], renewable: false };
  const chosen = chooseAlternative(manifest, command);
  if (!chosen) {
    if (dryRun || command.authOptional) return { credentials: [], renewable: false };
    throw missingCredential(manifest, command);
  }
  const credentials: Credential[] = [];
  let renewable = false;
  for (const [name, source] of Object.entries(chosen.sources)) {
    const scheme = manifest.auth.schemes[name]!;
    // AWS Signature Version 4 is not placed in the request but computed over all of it (sigv4.ts, requestSigner).
    if (source.kind === "aws") continue;
    if (source.kind === "value") credentials.push({ scheme, value: source.value });
    else if (source.kind === "basic") credentials.push({ scheme, value: `${source.username}:${source.password}` });
    else if (dryRun) credentials.push({ scheme, value: source.accessToken ?? REDACTED });
    else {
      const token = await accessToken(manifest, name, source, chosen.requirement[name] ?? [], baseUrl, renew);
      renewable ||= token.renewable;
      credentials.push({ scheme, value: token.value });
    }
  }
  return { credentials, chosen, renewable };
}

/** What a dry run says about credentials: which schemes the request carries and from which variables — never a value. */
function dryRunAuth(manifest: Manifest, command: Command, chosen: Chosen | undefined) {
  if (!command.auth.length) return { needed: false };
  if (!chosen)
    return { needed: !command.authOptional, sent: [], missing: missingCredential(manifest, command).message };
  return {
    needed: !command.authOptional,
    sent: Object.keys(chosen.sources).map((name) => {
      const scheme = manifest.auth.schemes[name]!;
      const source = chosen.sources[name]!;
      const from =
        source.kind === "oauth"
          ? source.refresh
            ? [scheme.env.refreshToken!]
            : source.client
              ? [scheme.env.clientId!, scheme.env.clientSecret!]
              : [scheme.env.accessToken!]
          : variablesOf(scheme).filter((v) => process.env[v]);
      return {
        scheme: name,
        variables: from,
        how: credentialHow(name, scheme),
        ...(source.kind === "oauth" && !source.accessToken
          ? { token: "obtained from the token endpoint when the request is sent" }
          : {}),
      };
    }),
  };
}

async function callApi(
  cli: Cli,
  command: Command,
  globals: Globals,
  values: Map<Flag, unknown>,
  body: unknown,
  files: Map<string, OpenedFile[]>,
): Promise<void> {
  const { manifest } = cli;
  const baseUrl = baseUrlFor(manifest);
  let { credentials, chosen, renewable } = await credentialsFor(manifest, command, baseUrl, globals["dry-run"]);
  // An idempotency key the document declares goes in the values once, so every attempt sends the same (retry.ts).
  const keyGiven = withIdempotencyKey(command, values);
  // Signs a request for the chosen alternative's AWS Signature Version 4 schemes right before it goes (identity else):
  // every send, retry or page calls it again. A body with files is signed by its hash, read from the files first.
  const signer = requestSigner(manifest, chosen);
  const signs = Object.values(chosen?.sources ?? {}).some((s) => s.kind === "aws");
  let digest: string | undefined;
  const sign = async (r: Request) =>
    signer(r, r.stream && signs ? (digest ??= await streamDigest(r.stream)) : undefined);
  const request = buildRequest(manifest, command, baseUrl, values, body, credentials, {}, files);
  const policy = retryPolicy(command.operation.method, {
    enabled: globals.retry,
    maxWaitS: globals.maxRetryWait,
    idempotencyHeader: command.retry?.idempotencyHeader,
    replayable: replayable(request),
  });
  if (globals["dry-run"]) {
    writeResult(
      manifest,
      { ...globals, fields: undefined },
      {
        dry_run: true,
        request: redactRequest(dryRunRequest(await sign(request)), knownSecrets(manifest), secretPlaces(manifest)),
        ...(globals.output !== undefined ? { output: globals.output } : {}),
        sent: false,
        auth: dryRunAuth(manifest, command, chosen),
        retry: retryPlan(policy, command.retry?.idempotencyHeader, keyGiven),
      },
      undefined,
      {},
      command,
    );
    return;
  }
  const answer = {
    kind: command.response?.kind,
    accept: command.response?.accept,
    ...(globals.output !== undefined ? { output: globals.output } : {}),
    force: globals.force,
    ...(globals.maxOutputBytes !== undefined ? { maxOutputBytes: globals.maxOutputBytes } : {}),
  };
  let renewed = false;
  const fetchPage = async (next: NextRequest, previous: Request): Promise<{ response: Response; request: Request }> => {
    const r =
      next && "url" in next
        ? { ...previous, url: withQueryCredentials(sameApi(next.url, baseUrl), credentials) }
        : buildRequest(manifest, command, baseUrl, values, body, credentials, next?.query, files);
    // 429 and 503 are tried again within the policy's bounds (retry.ts). The request is built once, so every attempt
    // sends the same bytes (a multipart boundary, the digest signed), and is signed anew for each (a fresh date).
    const { response, retry } = await retrying(async () => send(await sign(r), answer), policy);
    // An OAuth token the API no longer takes (expired mid-session, revoked) is renewed once, unseen by the agent.
    if (response.status === 401 && chosen && Object.values(chosen.sources).some((s) => s.kind === "oauth")) {
      // A body read from stdin was sent once and cannot be sent again with the renewed token.
      if (renewed || !renewable || !replayable(r))
        throw expiredToken(manifest, chosen, errorFor(response, knownSecrets(manifest)));
      renewed = true;
      ({ credentials, renewable } = await credentialsFor(manifest, command, baseUrl, false, true));
      return fetchPage(next, previous);
    }
    if (response.status < 200 || response.status >= 300)
      throw retryError(errorFor(response, knownSecrets(manifest)), retry, policy);
    return { response, request: r };
  };
  let { response, request: sent } = await fetchPage(undefined, request);
  const uploaded = response.uploaded ? { uploaded: response.uploaded } : {};
  if (response.written) {
    // Raw bytes on stdout are the whole output; a file is reported by its path, size, sha256 and type.
    if (globals.output !== "-")
      writeResult(manifest, { ...globals, fields: undefined }, response.written, undefined, uploaded, command);
    return;
  }
  if (response.ended) {
    writeResult(
      manifest,
      globals,
      response.data,
      undefined,
      { stream: { events: (response.data as unknown[]).length, ended: response.ended }, ...uploaded },
      command,
    );
    return;
  }
  let read = readPage(command, response, values, {}, sent.url);
  if (!globals.all || !read.info) {
    writeResult(manifest, globals, read.items ?? null, read.info, uploaded, command);
    return;
  }
  // --all: follow pages, bounded by --max-pages (G7); the last page read says whether more remained.
  const all: unknown[] = [...(read.items as unknown[])];
  let pages = 1;
  let extra: Record<string, string> = {};
  while (read.next && pages < globals.maxPages) {
    if ("query" in read.next) extra = { ...extra, ...read.next.query };
    ({ response, request: sent } = await fetchPage(read.next, sent));
    read = readPage(command, response, values, extra, sent.url);
    if (!Array.isArray(read.items)) break;
    all.push(...read.items);
    pages += 1;
  }
  writeResult(
    manifest,
    globals,
    all,
    { has_more: read.next !== undefined, ...(read.info?.total !== undefined ? { total: read.info.total } : {}), pages },
    {},
    command,
  );
}

/**
 * The request as a dry run prints it: a body with files as its text with each file's bytes replaced by a placeholder
 * naming it and its size, and the files listed (`upload`); a raw body as its file alone.
 */
function dryRunRequest(request: Request) {
  const { stream, ...rest } = request;
  if (!stream) return rest;
  const preview = previewStream(stream);
  return {
    ...rest,
    ...(preview !== undefined ? { body: preview } : {}),
    upload: filesOf(stream).map((c) => ({
      flag: c.file.flag,
      path: c.file.path,
      ...(c.file.size !== undefined ? { bytes: c.file.size } : { bytes: "stdin" }),
      filename: c.filename,
      content_type: c.contentType,
    })),
  };
}

/** AUTH_EXPIRED: the API refused an OAuth token, and a renewed one (or none could be had) too. */
function expiredToken(manifest: Manifest, chosen: Chosen, refused: CliError): CliError {
  const names = Object.keys(chosen.sources).filter((n) => chosen.sources[n]!.kind === "oauth");
  const schemes = names.map((n) => manifest.auth.schemes[n]!);
  const ways = schemes.map((s) => needsOf(s)).join("; ");
  return new CliError(
    "AUTH_EXPIRED",
    `The API refused the access token of ${names.join(" and ")} (${refused.message})${renewedHint(chosen)}.`,
    `Set what renews it (${ways}); \`${manifest.product.binary} auth status\` shows what is set. If the token is valid, the client may lack a scope this command needs.`,
    { schemes: names, status: refused.details?.status },
  );
}

const renewedHint = (chosen: Chosen) =>
  Object.values(chosen.sources).some((s) => s.kind === "oauth" && (s.client || s.refresh))
    ? ", even after a new token was obtained"
    : ", and no refresh token or client credentials are set to renew it";

/** A next page's URL keeps the credentials that travel in the query (an API's `next` link rarely repeats them). */
function withQueryCredentials(url: string, credentials: Credential[]): string {
  const query = credentials.filter((c) => c.scheme.type === "apiKey" && c.scheme.in === "query" && c.scheme.name);
  if (!query.length) return url;
  const next = new URL(url);
  for (const c of query) next.searchParams.set(c.scheme.name!, c.value);
  return next.href;
}

/** A next-page URL from the API is followed only on the API's own origin: the credential never goes elsewhere. */
function sameApi(url: string, baseUrl: string): string {
  if (new URL(url).origin !== new URL(baseUrl).origin)
    throw new CliError(
      "SERVER_ERROR",
      `The API pointed the next page at another origin (${new URL(url).origin}); it was not followed.`,
      "Fetch pages one at a time without --all, or report it with the issue command.",
      { url: new URL(url).origin },
    );
  return url;
}

/** `search <request>`: the commands that best match, each with what it does and how safe it is to run. */
function searchCommand(cli: Cli, globals: Globals, values: Record<string, unknown>): void {
  const { manifest } = cli;
  const group = values.group === undefined ? undefined : String(values.group);
  if (group && !manifest.groups.some((g) => g.name === group))
    throw new CliError("NOT_FOUND", `No group "${group}".`, `Groups: run ${manifest.product.binary} --help.`, {
      group,
    });
  // The search (MiniSearch and the ranking) is its own file in the package, which no other call loads.
  const { commandFinder } = createRequire(join(cli.dir, "lib", "runtime.cjs"))("./search.cjs") as {
    commandFinder: typeof CommandFinderOf;
  };
  const found = commandFinder(cli)(String(values.query), group).slice(0, Number(values.limit ?? 10));
  writeResult(
    manifest,
    globals,
    found.map((c) => ({
      command: c.name,
      description: c.description,
      permission: c.permission,
      ...(c.destructive ? { destructive: true } : {}),
      help: `${manifest.product.binary} ${c.name} --help`,
    })),
  );
}

function skillsCommand(cli: Cli, globals: Globals, name: string | undefined): void {
  const { manifest } = cli;
  if (!name) {
    writeResult(
      manifest,
      globals,
      manifest.skills.map((s) => ({ ...s, command: `${manifest.product.binary} skills ${s.name}` })),
    );
    return;
  }
  const skill = manifest.skills.find((s) => s.name === name);
  if (!skill)
    throw new CliError(
      "NOT_FOUND",
      `No skill "${name}".`,
      `Skills: ${manifest.skills.map((s) => s.name).join(", ") || "none"}.`,
      { name },
    );
  const content = readFileSync(join(cli.dir, "agent", "skills", `${name}.md`), "utf8");
  if (globals.human) process.stdout.write(content);
  else writeResult(manifest, globals, { ...skill, content });
}

/**
 * `skills …` and `issue …`: parsed, guarded and bound like an API command (unknown flags, types, enums, required
 * flags), a bare argument standing for the flag it names; --dry-run previews what would be written.
 */
async function runBuiltin(cli: Cli, parsed: Parsed, globals: Globals): Promise<void> {
  const { manifest } = cli;
  const { binary } = manifest.product;
  const { words } = parsed;
  const command = findBuiltin(manifest, words);
  if (!command) {
    const word: BuiltinGroup = words[0] === "auth" ? "auth" : words[0] === "agents" ? "agents" : "issue";
    const actions = { auth: AUTH_ACTIONS, agents: AGENTS_ACTIONS, issue: ISSUE_ACTIONS }[word].map(
      (a) => `${word} ${a}`,
    );
    if (globals.help) return json(builtinHelp(cli, word));
    if (!words[1])
      throw new CliError(
        "MISSING_COMMAND",
        `"${binary} ${word}" needs a subcommand.`,
        `Use one of: ${actions.map((a) => `${binary} ${a}`).join(", ")}.`,
        { words, commands: actions },
      );
    throw new CliError(
      "UNKNOWN_COMMAND",
      `"${binary} ${words.join(" ")}" is not a command.`,
      `Use one of: ${actions.map((a) => `${binary} ${a}`).join(", ")}.`,
      { words, suggestions: actions },
    );
  }
  if (globals.help) return json(builtinSingleHelp(cli, command));
  const args = [...words.slice(command.path.length), ...parsed.positionals];
  // `search cancel my booking`: a request is the words after search, quoted or not.
  if (command.name === searchWord(manifest) && args.length && !parsed.raw.has("query"))
    parsed.raw.set("query", [args.splice(0).join(" ")]);
  if (args.length && command.argument && !parsed.raw.has(command.argument))
    parsed.raw.set(command.argument, [args.shift()!]);
  if (args.length)
    throw new CliError(
      "POSITIONAL_NOT_ALLOWED",
      `Unexpected argument "${args[0]}" for "${command.name}".`,
      `Run ${binary} ${command.name} --help to see its flags.`,
      { argument: args[0] },
    );
  if (globals.sanitize) for (const [k, vs] of parsed.raw) parsed.raw.set(k, vs.map(sanitize));
  // An issue's text is kept with any credential cut out (issues.ts): a report is not lost for quoting a key.
  // `proof --expect` takes a sha256, which the guardrails would refuse as an opaque token: it must be exactly one.
  const hashFlag = (k: string) => command.name === "proof" && k === "expect";
  for (const value of parsed.raw.get("expect") ?? [])
    if (command.name === "proof" && !/^(sha256:)?[0-9a-fA-F]{64}$/.test(value))
      throw new CliError(
        "INVALID_VALUE",
        "--expect takes a sha256: 64 hexadecimal digits.",
        `Give the candidate or content sha256 the publisher announced: ${binary} proof --expect <sha256>.`,
        { flag: "expect" },
      );
  guard(
    [...parsed.raw]
      .filter(([k]) => !hashFlag(k))
      .flatMap(([k, vs]) => vs.map((value) => ({ source: `--${k}`, value, identifier: k === command.argument }))),
  );
  const values = Object.fromEntries([...bindFlags(command, parsed, false)].map(([f, v]) => [f.flag, v]));
  if (command.name === "skills")
    return skillsCommand(cli, globals, values.name === undefined ? undefined : String(values.name));
  if (command.name === searchWord(manifest)) return searchCommand(cli, globals, values);
  if (command.name === "auth status")
    return writeResult(
      manifest,
      globals,
      authStatus(cli, values.command === undefined ? undefined : String(values.command)),
    );
  if (command.name === "proof")
    return writeResult(
      manifest,
      globals,
      verifyProof(cli, values.expect === undefined ? undefined : String(values.expect)),
    );
  if (command.path[0] === "agents") {
    const options = {
      agents: agentsOf(values.agent === undefined ? undefined : String(values.agent)),
      scope: values.scope === "user" ? ("user" as const) : ("project" as const),
      mcp: values.mcp === true,
      dryRun: globals["dry-run"],
      root: process.cwd(),
    };
    return writeResult(
      manifest,
      globals,
      await (command.path[1] === "install" ? installAgents(cli, options) : uninstallAgents(cli, options)),
    );
  }
  return writeResult(manifest, globals, runIssue(manifest, command.path[1]!, values, globals["dry-run"]));
}

const json = (value: unknown) => void process.stdout.write(`${JSON.stringify(value)}\n`);

/** The commands in scope of leading words: all, one group, a sub-group, or one command. */
function inScope(cli: Cli, words: string[]): Command[] {
  if (!words.length) return cli.all();
  return cli.group(words[0]!).filter((c) => words.every((w, i) => c.path[i] === w));
}

async function dispatch(
  cli: Cli,
  argv: string[],
  globalsOut: { globals?: Globals; manifest?: Manifest },
): Promise<void> {
  const { manifest } = cli;
  // --version anywhere prints the version and does nothing else (N6): no command after it runs.
  if (versionRequested(argv)) {
    globalsOut.globals = outputGlobals(argv);
    return writeResult(manifest, globalsOut.globals, { version: manifest.product.version }, undefined, {
      version: manifest.product.version,
    });
  }
  const firstFlag = argv.findIndex((a) => a.startsWith("-"));
  const leading = argv.slice(0, firstFlag >= 0 ? firstFlag : argv.length);
  const guess: Command | undefined = findCommand(cli, leading) ?? findBuiltin(manifest, leading);
  const parsed = splitArgv(
    argv,
    (name) => {
      // Before any command word, only global flags exist.
      if (!guess) return leading.length ? undefined : "unknown";
      const flag = guess.flags.find((f) => f.flag === name);
      return flag ? (flag.type === "boolean" ? "boolean" : "value") : "unknown";
    },
    guess?.flags,
    guess?.name,
  );
  const { globals, words } = parsed;
  globalsOut.globals = globals;
  const { binary } = manifest.product;
  // Words and bare arguments pass the guardrails before anything reads them, or echoes them in an error (G2).
  guard(
    [...words, ...parsed.positionals].map((value) => ({
      source: "argument",
      value: globals.sanitize ? sanitize(value) : value,
      identifier: true,
    })),
  );

  if (globals["mcp-schema"]) return json(mcpSchema(cli, inScope(cli, words)));
  if (globals.describe) {
    if (isBuiltinWord(words[0], manifest))
      return json(
        describeBuiltins(
          cli,
          builtins(manifest).filter((c) => c.path.every((w, i) => words[i] === undefined || words[i] === w)),
        ),
      );
    const scope = words.length ? inScope(cli, words) : [];
    if (words.length && !scope.some((c) => !c.hidden)) throw unknownCommand(cli, words);
    return json(describeScope(cli, words, () => (words.length ? scope : cli.all()), globals.all));
  }
  if (globals.brief) {
    const brief = readFileSync(join(cli.dir, "agent", "brief.md"), "utf8").trim();
    if (globals.human) return void process.stdout.write(`${brief}\n`);
    return writeResult(manifest, globals, { brief });
  }
  if (!words.length) {
    if (parsed.positionals.length)
      throw new CliError(
        "UNKNOWN_COMMAND",
        `"${parsed.positionals[0]}" is not a command.`,
        `Run ${binary} --help for the commands.`,
        { words: parsed.positionals.slice(0, 1) },
      );
    return json(rootHelp(cli, globals.all));
  }
  if (isBuiltinWord(words[0], manifest)) return runBuiltin(cli, parsed, globals);

  const command = findCommand(cli, words);
  if (!command) {
    const group = inScope(cli, words).filter((c) => !c.hidden);
    if (group.length && globals.help) return json(groupHelp(cli, words, group, globals.all));
    // A group named without its action: say which commands it has (MISSING_COMMAND), not that it does not exist.
    if (group.length) throw missingCommand(cli, words, group);
    throw unknownCommand(cli, words);
  }
  if (globals.help) return json(singleHelp(cli, command, globals.all));
  if (parsed.positionals.length) {
    throw new CliError(
      "POSITIONAL_NOT_ALLOWED",
      `Unexpected argument "${parsed.positionals[0]}": every input is a --flag.`,
      `Run ${binary} ${command.name} --help to see its flags.`,
      { argument: parsed.positionals[0] },
    );
  }
  if (globals.sanitize) for (const [k, vs] of parsed.raw) parsed.raw.set(k, vs.map(sanitize));
  const identifiers = new Set(
    command.flags
      .filter((f) => f.in === "path" || f.in === "header" || f.in === "cookie" || /(^|[-_])id$|Id$/.test(f.wire))
      .map((f) => f.flag),
  );
  // A file flag's value is a path, checked as one when it is opened (local-file.ts), not as text that might be a key.
  // A value the document itself lists for the flag (an enum's `AWSEC2InstanceConnectService.SendSSHPublicKey`) is
  // not a secret however opaque it looks.
  // So is a value of the exact shape the document gives the flag (a transaction hash's 64 hex digits).
  const paths = new Set(command.flags.filter((f) => f.file).map((f) => f.flag));
  const listed = new Map(command.flags.filter((f) => f.enum).map((f) => [f.flag, f.enum!.map(String)]));
  const byFlag = new Map(command.flags.map((f) => [f.flag, f]));
  guardWithCredentials(
    manifest,
    [...parsed.raw].flatMap(([k, vs]) =>
      vs
        .filter((value) => !listed.get(k)?.includes(value))
        .map((value) => ({
          source: `--${k}`,
          value,
          identifier: identifiers.has(k),
          path: paths.has(k),
          shaped: documentedShape(byFlag.get(k), value),
        })),
    ),
  );
  let body: unknown;
  if (globals["json-input"]) {
    if (!command.jsonInput)
      throw new CliError(
        "USAGE_ERROR",
        `"${command.name}" takes no request body, so --json-input does not apply.`,
        `Use its flags; see ${binary} ${command.name} --help.`,
      );
    body = await readJsonInput(command.body?.shape);
    if (isFields(body)) body = filesFromJson(command, body, parsed);
    const fields = new Map(command.flags.filter((f) => f.in === "body").map((f) => [`json-input.${f.wire}`, f]));
    guardWithCredentials(
      manifest,
      stringLeaves(body, "json-input", []).map((leaf) => ({
        ...leaf,
        shaped: documentedShape(fields.get(leaf.source), leaf.value),
      })),
    );
  }
  const values = bindFlags(command, parsed, body !== undefined);
  if (isFields(body)) requireBodyFields(command, values, body);
  if (command.destructive && !globals.yes && !globals["dry-run"]) {
    throw new CliError(
      "CONFIRMATION_REQUIRED",
      `"${command.name}" is destructive and needs confirmation.`,
      `Re-run with --yes to confirm, or --dry-run to preview the request.`,
      { command: command.name },
    );
  }
  checkAnswerTarget(command, globals);
  const files = openFiles(command, values, globals["json-input"]);
  try {
    await callApi(cli, command, globals, values, body, files);
  } finally {
    closeUploads([...files.values()].flat());
  }
}

const isFields = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * A file field in --json-input's JSON (`{"file": "./report.pdf"}`) is the file's path, as its flag's value would be
 * (MCP clients send every body field this way): it moves to the flag, unless the flag is given too, which wins.
 */
function filesFromJson(command: Command, body: Record<string, unknown>, parsed: Parsed): Record<string, unknown> {
  const rest = { ...body };
  for (const f of command.flags) {
    if (!f.file || !f.wire || !(f.wire in rest)) continue;
    const value = rest[f.wire];
    delete rest[f.wire];
    if (parsed.raw.has(f.flag)) continue;
    const paths = Array.isArray(value) ? value : [value];
    if (!paths.every((v): v is string => typeof v === "string"))
      throw new CliError(
        "INVALID_JSON_INPUT",
        `"${f.wire}" in the JSON on stdin is a file: give its path as a string${f.type === "array" ? " (or a list of them)" : ""}.`,
        `Set "${f.wire}": "./file.pdf", or give --${f.flag} ./file.pdf.`,
        { field: f.wire },
      );
    parsed.raw.set(f.flag, paths);
  }
  return rest;
}

/** With --json-input, the body's required fields may come from the JSON or from flags: one of the two must hold each. */
function requireBodyFields(command: Command, values: Map<Flag, unknown>, body: Record<string, unknown>): void {
  const missing = command.flags.filter(
    (f) => f.in === "body" && (f.required || f.requiredWithBody) && !values.has(f) && body[f.wire] === undefined,
  );
  if (missing.length)
    throw new CliError(
      "MISSING_FLAG",
      `The body of "${command.name}" needs ${missing.map((f) => `"${f.wire}"`).join(", ")}: neither the JSON on stdin nor a flag gives ${missing.length === 1 ? "it" : "them"}.`,
      `Add ${missing.map((f) => `"${f.wire}"`).join(", ")} to the JSON, or give ${missing.map((f) => `--${f.flag}`).join(" ")}.`,
      { missing: missing.map((f) => f.flag) },
    );
}

/**
 * Where the answer goes, checked before anything is sent: a command whose answer is a file needs --output (it is never
 * printed as text), and --output must name a place that may be written.
 */
function checkAnswerTarget(command: Command, globals: Globals): void {
  if (globals.output === undefined) {
    if (command.response?.kind === "binary" && !globals["dry-run"])
      throw new CliError(
        "OUTPUT_REQUIRED",
        `"${command.name}" answers with a file, which is never printed as text.`,
        "Add --output <path> to save it (--output - writes the raw bytes to stdout).",
        { command: command.name },
      );
    return;
  }
  if (globals.all)
    throw new CliError(
      "USAGE_ERROR",
      "--output writes one answer; it cannot be combined with --all.",
      "Drop --all, or drop --output to read every page as JSON.",
    );
  checkOutput(globals.output, globals.force);
}

/**
 * The files of the command's file flags, opened (checked as paths, local-file.ts), by wire name. Stdin (`-`) can be
 * read once: by one file flag, or by --json-input.
 */
function openFiles(command: Command, values: Map<Flag, unknown>, jsonInput: boolean): Map<string, OpenedFile[]> {
  const wanted = command.flags
    .filter((f) => f.file && values.has(f))
    .flatMap((f) => {
      const v = values.get(f);
      return (Array.isArray(v) ? v : [v]).map((path) => ({ flag: f, path: String(path) }));
    });
  const stdin = wanted.filter((w) => w.path === "-");
  if (stdin.length + (jsonInput ? 1 : 0) > 1)
    throw new CliError(
      "USAGE_ERROR",
      `stdin can be read once, but ${[...stdin.map((w) => `--${w.flag.flag} -`), ...(jsonInput ? ["--json-input"] : [])].join(" and ")} all read it.`,
      "Give the other files by path.",
    );
  if (stdin.length && process.stdin.isTTY)
    throw new CliError(
      "USAGE_ERROR",
      `--${stdin[0]!.flag.flag} - reads the file from stdin, but stdin is a terminal.`,
      `Pipe the file in (… | <command> --${stdin[0]!.flag.flag} -), or give its path.`,
    );
  const files = new Map<string, OpenedFile[]>();
  try {
    for (const w of wanted) pushTo(files, w.flag.wire, openUpload(w.flag.flag, w.path));
  } catch (error) {
    closeUploads([...files.values()].flat());
    throw error;
  }
  return files;
}

/** A reader that closes stdout early (`| head`) ends the call quietly with its own exit code, not a stack trace. */
let quietInstalled = false;
function quietOnClosedStdout(): void {
  if (quietInstalled) return;
  quietInstalled = true;
  const closed = (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") process.exit(process.exitCode ?? 0);
    throw error;
  };
  process.stdout.on("error", closed);
  process.stderr.on("error", closed);
}

/**
 * The package as this process opened it, by folder. A CLI call opens its package once anyway; the process that answers
 * inspection's probes (stages/inspect/probe-host.ts) runs many calls, which then read and parse each command group's
 * file once rather than once per call (as the MCP server, which opens its package once: mcp-server.ts). The runtime
 * only reads what it opened.
 */
const opened = new Map<string, Cli>();

function openedCli(dir: string): Cli {
  let cli = opened.get(dir);
  if (!cli) opened.set(dir, (cli = openCli(dir)));
  return cli;
}

/** Runs one invocation of a generated CLI; the package folder holds manifest.json, commands/ and agent/. Returns the exit code. */
export async function run(dir: string, argv: string[]): Promise<number> {
  quietOnClosedStdout();
  const holder: { globals?: Globals; manifest?: Manifest } = {};
  try {
    const cli = openedCli(dir);
    holder.manifest = cli.manifest;
    await dispatch(cli, argv, holder);
    return 0;
  } catch (error) {
    const err =
      error instanceof CliError
        ? error
        : new CliError(
            "INTERNAL_ERROR",
            `Unexpected failure: ${(error as Error).message}`,
            "Report it with the issue command.",
          );
    process.exitCode = err.exitCode;
    // An error before the flags were read (one in a global flag's value) is printed as --human/--agent asked.
    writeError(err, holder.globals ?? outputGlobals(argv), holder.manifest);
    return err.exitCode;
  }
}
