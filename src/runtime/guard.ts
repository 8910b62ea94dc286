import { nestedDeeper as deeper } from "../core/json-depth.js";
import { CliError } from "./errors.js";

export const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\bsk-[A-Za-z0-9_-]{12,}/, "an API secret key (sk-…)"],
  // sk-/rk-/pk- and 8+ key characters with a digit among them (sk-live-abc123, sk-test1234, sk-1234567890): words such
  // as "sk-8", "task-list" or "pk-users-email" are not keys.
  [/\b(sk|rk|pk)-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{8,}/, "an API key (sk-…, rk-…, pk-…)"],
  [/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]{10,}/, "a payment API key"],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/, "a GitHub token"],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/, "a GitHub token"],
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key"],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, "a JSON Web Token"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key"],
  [/^(bearer|basic)\s+\S{8,}$/i, "an Authorization header value"],
];

/** A long unbroken run of mixed letters and digits is what keys look like, and what ids, dates and words do not. */
export function opaque(value: string): boolean {
  return (
    /^[A-Za-z0-9+/_=.-]{40,}$/.test(value) &&
    /[A-Za-z]/.test(value) &&
    /\d/.test(value) &&
    !/^[0-9a-f-]{36}$/i.test(value)
  );
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const TRAVERSAL = /(^|[\\/])\.\.([\\/]|$)/;
const SENSITIVE =
  /(^|[\\/])(\.env(\.[\w-]+)?|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|\.ssh[\\/].*|\.aws[\\/]credentials|\.netrc|\.npmrc|[^\\/]*\.(pem|key|p12|pfx))$|^\/etc\/(passwd|shadow|sudoers)/i;
const SHELL = /[;|`$<>]|&&|\$\(|\n/;
/**
 * A value that is itself the name of a secrets file (`id_rsa`, `.env.local`, `server.pem`): refused wherever it is
 * given, identifier or text. A sentence that mentions one ("my id_rsa notes") is text, and passes.
 */
const SENSITIVE_NAME =
  /^(\.env(\.[\w.-]+)?|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|\.netrc|\.npmrc|\.pgpass|[^\\/\s]*\.(pem|key|p12|pfx))$/i;

const looksLikePath = (value: string) =>
  /[\\/]/.test(value) || /^\.[\w-]/.test(value) || /\.(pem|key|p12|pfx)$/i.test(value);

/** A secrets file named by the whole value, or as the last segment of a path (`~/.ssh/id_ed25519`, `app/.env.local`). */
export function sensitive(value: string): boolean {
  const tail = value.trim().split(/[\\/]/).pop() ?? "";
  return (
    SENSITIVE_NAME.test(value.trim()) || (looksLikePath(value) && (SENSITIVE.test(value) || SENSITIVE_NAME.test(tail)))
  );
}

export interface Checked {
  /** The flag (or "argument") the value came from, for messages. */
  source: string;
  value: string;
  /** An identifier or location: shell metacharacters are refused there (G8). */
  identifier: boolean;
  /**
   * A local file's path (a file flag): only key patterns and control characters are refused here; where it leads is
   * checked when it is opened (local-file.ts), and a long path is not an opaque token.
   */
  path?: boolean;
  /** Of the specific shape the document gives it (a hash's pattern): data, so a long opaque string is no token here. */
  shaped?: boolean;
}

/** Control characters are stripped by --sanitize instead of refused. */
export function sanitize(value: string): string {
  return value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim();
}

function check({ source, value, identifier, path, shaped }: Checked): void {
  for (const [pattern, what] of SECRET_PATTERNS) {
    if (pattern.test(value)) {
      throw new CliError(
        "SECRET_IN_ARGUMENT",
        `${source} looks like ${what}; credentials are never accepted as arguments.`,
        "Put the credential in the environment variable this CLI reads (see --help: auth.env) and remove it from the command line.",
        { source },
      );
    }
  }
  if (path) {
    if (CONTROL.test(value))
      throw new CliError("UNSAFE_INPUT", `${source} contains control characters.`, "Give a plain file path.", {
        source,
      });
    return;
  }
  if (!shaped && opaque(value)) {
    throw new CliError(
      "SECRET_IN_ARGUMENT",
      `${source} looks like a key or token (a long opaque string); credentials are never accepted as arguments.`,
      "Set the credential in the environment instead. If this really is data, shorten or split it.",
      { source },
    );
  }
  if (CONTROL.test(value)) {
    throw new CliError(
      "UNSAFE_INPUT",
      `${source} contains control characters.`,
      "Remove them, or add --sanitize to strip them.",
      { source },
    );
  }
  if (TRAVERSAL.test(value)) {
    throw new CliError(
      "UNSAFE_INPUT",
      `${source} contains a ".." path segment (path traversal).`,
      "Give the value without .. segments.",
      { source },
    );
  }
  if (sensitive(value)) {
    throw new CliError(
      "SENSITIVE_PATH",
      `${source} names a sensitive file (${value}); it is refused.`,
      "Do not pass secrets files (.env, keys, certificates) to this CLI.",
      { source },
    );
  }
  if ((identifier || looksLikePath(value)) && SHELL.test(value)) {
    throw new CliError(
      "UNSAFE_INPUT",
      `${source} contains shell metacharacters (; | & $ \` < >), which are never valid in an identifier or path.`,
      "Pass the plain identifier.",
      { source },
    );
  }
}

/** Whether a value would be refused as a credential (SECRET_IN_ARGUMENT): a key pattern, or a long opaque string. */
export function secretLike(value: string): boolean {
  return SECRET_PATTERNS.some(([pattern]) => pattern.test(value)) || opaque(value);
}

const GLOBAL_SECRETS = SECRET_PATTERNS.map(
  ([pattern]) => new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`),
);

/**
 * Text with every credential-looking part replaced by [REDACTED]: what an error says never echoes a secret back,
 * whichever value (a command word, a flag name, an API's message) carried it.
 */
export function maskSecrets(text: string): string {
  let out = text;
  for (const pattern of GLOBAL_SECRETS) out = out.replace(pattern, "[REDACTED]");
  return out.replace(/[A-Za-z0-9+/_=.-]{40,}/g, (token) =>
    opaque(token) && !token.includes("//") && !filePath(token) ? "[REDACTED]" : token,
  );
}

/**
 * An absolute or relative file path (`/home/me/Reports2024/final-v2.pdf`, `./exports/…`): a key may hold slashes
 * (base64), but it does not begin with one, nor with `./`, `../` or `~/`, and its parts are not all file-name words.
 */
function filePath(token: string): boolean {
  if (!/^(\/|\.\.?\/|~\/)/.test(token)) return false;
  const parts = token.split("/").filter(Boolean);
  return parts.length >= 2 && parts.every((p) => /^[\w.-]{1,40}$/.test(p) && !/^[A-Za-z0-9]{30,}$/.test(p));
}

/** Runs every guardrail; a guardrail that itself fails refuses the command (fail closed, G9). */
export function guard(values: Checked[]): void {
  for (const v of values) {
    try {
      check(v);
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(
        "GUARDRAIL_ERROR",
        `A safety check failed on ${v.source}; the command is refused.`,
        "Retry with a simpler value, and report it with `issue create`.",
        { source: v.source },
      );
    }
  }
}

/** JSON nested this deep is not a request body; deeper values are refused before anything walks them recursively. */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `max` (src/core/json-depth.ts, walked without recursion). */
export function nestedDeeper(value: unknown, max = MAX_JSON_DEPTH): boolean {
  return deeper(value, max);
}
