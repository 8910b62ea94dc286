/**
 * One MCP tool call as a CLI call (docs/generated-cli.md, "MCP server"): run the CLI, and turn its answer into a tool
 * result whose text block is the serialized structured result — the whole envelope, rules, Skills and the issue hint
 * included, worded for MCP — because many clients hand the model only the text.
 */
import { parseExact, stringifyExact } from "./exact.js";
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { CliError } from "./errors.js";
import { maskSecrets } from "./guard.js";
import type { Cli } from "./load.js";
import type { Command, Manifest } from "./manifest.js";
import { invocationFor } from "./mcp-tools.js";

/**
 * The longest a tool call may run: a CLI call with --all follows up to 100 pages, and a file transfer has 10 minutes
 * of its own (runtime/http.ts), which must end the call first, with its own error and nothing half-written.
 */
export const CALL_TIMEOUT_MS = 11 * 60 * 1000;
const MAX_OUTPUT = 64 * 1024 * 1024;

export interface CallResult {
  [key: string]: unknown;
  content: Array<
    { type: "text"; text: string } | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } }
  >;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What the server tells an agent about itself: the rules, Skills and issue hint as an MCP client can act on them. */
export interface McpHints {
  rules: string[];
  skills: Array<{ name: string; description: string; prompt: string; resource: string }>;
  issue: string;
}

/** The hints of a package: its MCP rules (emitted beside the CLI's), its Skills as prompts, the issue tool by name. */
export function mcpHints(manifest: Manifest, issueTool: string): McpHints {
  const binary = manifest.product.binary;
  return {
    rules: manifest.mcpRules ?? manifest.rules,
    skills: manifest.skills.map((s) => ({
      name: s.name,
      description: s.description,
      prompt: s.name,
      resource: `agent://${binary}/skills/${s.name}`,
    })),
    issue: `Report a problem or missing feature: call the ${issueTool} tool with {"type": "bug|requirement|suggestion|bad-output", "message": "what happened"}`,
  };
}

/** Structured content, and the same JSON as the text block (the MCP specification's SHOULD for structured results). */
export function structured(value: Record<string, unknown>, isError = false): CallResult {
  // The text keeps an id beyond 2^53 whole; structured content is plain JSON values, such an id the nearest number
  // (runtime/exact.ts), as the client's own JSON reading would make it.
  const text = stringifyExact(value);
  return {
    content: [{ type: "text", text }],
    structuredContent: /\d{16}/.test(text) ? (JSON.parse(text) as Record<string, unknown>) : value,
    ...(isError ? { isError: true } : {}),
  };
}

export interface CodedError {
  code: string;
  message: string;
  suggestion: string;
  details?: unknown;
}

/** A coded error as a tool result, with the issue hint; whatever an argument held, it never echoes a credential. */
function errorResult(error: CodedError, hints?: McpHints): CallResult {
  const details =
    error.details === undefined ? undefined : (JSON.parse(maskSecrets(JSON.stringify(error.details))) as unknown);
  const issue = hints ? { issue: hints.issue } : {};
  return structured(
    {
      error: true,
      code: error.code,
      message: maskSecrets(error.message),
      suggestion: maskSecrets(error.suggestion),
      ...(details ? { details } : {}),
      ...issue,
    },
    true,
  );
}

export const asError = (error: unknown, hints?: McpHints) =>
  error instanceof CliError
    ? errorResult(error, hints)
    : errorResult(
        {
          code: "INTERNAL_ERROR",
          message: `Unexpected failure: ${(error as Error).message}`,
          suggestion: "Report it with the issue tool.",
        },
        hints,
      );

/** A program that could not be started at all (ENOENT, EACCES, E2BIG …), as a coded tool result: never a protocol error. */
function notStarted(file: string, error: NodeJS.ErrnoException, hints: McpHints): CallResult {
  if (error.code === "E2BIG")
    return errorResult(
      {
        code: "INVALID_VALUE",
        message: "The arguments are too long to pass on a command line (E2BIG).",
        suggestion: "Shorten the longest argument, or give long values inside the request body.",
      },
      hints,
    );
  return errorResult(
    {
      code: "INTERNAL_ERROR",
      message: `The CLI could not be started (${basename(file)}): ${error.code ?? error.message}.`,
      suggestion:
        "Check the server's --cli program exists and is executable; if it does, report it with the issue tool.",
    },
    hints,
  );
}

/** The CLI's success envelope with the hints an MCP client can act on in place of the command-line ones. */
function forMcp(envelope: Record<string, unknown>, hints: McpHints): Record<string, unknown> {
  // The Skills the CLI named for this command (runtime/output.ts, skillRefs), as prompts and resources.
  const named = Array.isArray(envelope.skills)
    ? (envelope.skills as Array<{ name?: unknown; description?: unknown }>)
    : [];
  const skills = named.flatMap((s) => {
    const hint = hints.skills.find((h) => h.name === s.name);
    return hint ? [{ ...hint, description: typeof s.description === "string" ? s.description : hint.description }] : [];
  });
  return {
    ...envelope,
    ...("rules" in envelope ? { rules: hints.rules } : {}),
    ...("skills" in envelope ? { skills } : {}),
    ...("issue" in envelope ? { issue: hints.issue } : {}),
  };
}

export interface CallOptions {
  /** The program a tool call runs, with the command's argv; default: this package's own executable under Node. */
  cli?: string;
}

/** Runs the CLI for one call and turns its answer into a tool result: the envelope, or the coded error. */
async function runCli(
  cli: Cli,
  options: CallOptions,
  hints: McpHints,
  argv: string[],
  stdin: string | undefined,
  inlineFile?: string,
): Promise<CallResult> {
  const binary = join(cli.dir, `${cli.manifest.product.binary}.cjs`);
  const [file, args] = options.cli ? [options.cli, argv] : [process.execPath, [binary, ...argv]];
  // Loaded at the first call, not at the server's start: a client that starts the server to list its tools never
  // needs it (with node:http below, ~7 ms of every start).
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = execFile(
        file,
        args,
        // A file answer is read as bytes (the CLI writes them raw to stdout), everything else as text.
        { maxBuffer: MAX_OUTPUT, timeout: CALL_TIMEOUT_MS, encoding: "buffer", windowsHide: true },
        (error, stdoutBytes, stderrBytes) => {
          const stdout = inlineFile && !error ? "" : stdoutBytes.toString("utf8");
          const stderr = stderrBytes.toString("utf8");
          const code =
            error && typeof (error as { code?: unknown }).code === "number"
              ? (error as { code: number }).code
              : error
                ? null
                : 0;
          // A string code is the spawn's own failure (the program never ran) or Node's output bound, not an exit status.
          const errno =
            error && typeof (error as { code?: unknown }).code === "string"
              ? (error as NodeJS.ErrnoException)
              : undefined;
          if (errno?.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER")
            return resolve(
              errorResult(
                {
                  code: "RESPONSE_TOO_LARGE",
                  message: `The CLI's answer is over ${MAX_OUTPUT / 1024 / 1024} MiB.`,
                  suggestion: 'Ask for less: "fields", a filter, or fewer pages.',
                },
                hints,
              ),
            );
          if (errno && !stdout && !stderr) return resolve(notStarted(file, errno, hints));
          if (code === 0 && inlineFile) return resolve(fileResult(cli, argv, stdoutBytes, inlineFile));
          if (code === 0) {
            try {
              const envelope = parseExact(stdout) as Record<string, unknown>;
              return resolve(structured(forMcp(envelope, hints)));
            } catch {
              return resolve(
                errorResult(
                  {
                    code: "INTERNAL_ERROR",
                    message: "The CLI's output was not one JSON document.",
                    suggestion: "Report it with the issue tool.",
                  },
                  hints,
                ),
              );
            }
          }
          try {
            const parsed = JSON.parse(stderr.trim().split("\n").pop() ?? "") as CodedError;
            // The CLI's advice names its flags; through MCP the same switches are arguments.
            if (parsed.code === "CONFIRMATION_REQUIRED")
              parsed.suggestion = 'Call again with "yes": true to confirm, or "dry-run": true to preview the request.';
            if (typeof parsed.code === "string") return resolve(errorResult(parsed, hints));
          } catch {
            // Not the CLI's error document: reported below.
          }
          const why = error?.killed
            ? `it ran over ${CALL_TIMEOUT_MS / 60000} minutes`
            : `it ended with ${code ?? (error as { signal?: string } | null)?.signal ?? "an error"}`;
          resolve(
            errorResult(
              {
                code: error?.killed ? "TIMEOUT" : "INTERNAL_ERROR",
                message: `The command failed: ${why}. ${stderr.slice(0, 500)}`.trim(),
                suggestion: "Retry once; if it fails again, report it with the issue tool.",
              },
              hints,
            ),
          );
        },
      );
    } catch (error) {
      // Node throws some spawn failures (E2BIG among them) instead of reporting them through the callback.
      return resolve(notStarted(file, error as NodeJS.ErrnoException, hints));
    }
    child.stdin?.on("error", () => {});
    child.stdin?.end(stdin ?? "");
  });
}

/**
 * A file answer returned inline: an embedded resource holding its bytes (base64), and as structured content what a
 * written file would report — its size, sha256 and type.
 */
function fileResult(cli: Cli, argv: string[], bytes: Buffer, mimeType: string): CallResult {
  const words = argv.filter((a) => !a.startsWith("-"));
  const answer = {
    bytes: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    content_type: mimeType,
  };
  const value = { ok: true, result: answer };
  return {
    content: [
      { type: "text", text: JSON.stringify(value) },
      {
        type: "resource",
        resource: {
          uri: `agent://${cli.manifest.product.binary}/answers/${words.join("/")}`,
          mimeType,
          blob: bytes.toString("base64"),
        },
      },
    ],
    structuredContent: value,
  };
}

/** One command's call: its arguments checked and turned into argv (mcp-tools.ts), then run by the CLI. */
export function callCommand(
  cli: Cli,
  options: CallOptions,
  hints: McpHints,
  command: Command,
  args: Record<string, unknown> | undefined,
): Promise<CallResult> {
  try {
    const { argv, stdin, inlineFile } = invocationFor(command, args);
    return runCli(cli, options, hints, argv, stdin, inlineFile);
  } catch (error) {
    return Promise.resolve(asError(error, hints));
  }
}
