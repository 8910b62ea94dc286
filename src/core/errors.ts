/**
 * Stable error codes are contracts (README, "Exit codes and error codes"): agents branch on them, so a code is never renamed.
 * Each code carries its exit status so every command maps failures the same way.
 */
export const ERROR_CODES = {
  USAGE_ERROR: 2,
  CONFIG_NOT_FOUND: 2,
  CONFIG_INVALID: 2,
  CONFIG_SYNTAX: 2,
  CONFIG_LOAD_FAILED: 2,
  TASK_NOT_FOUND: 2,
  TASK_CYCLE: 2,
  TASK_UNKNOWN_DEPENDENCY: 2,
  INPUT_NOT_FOUND: 2,
  CONTEXT_INCOMPLETE: 2,
  OPENAPI_INVALID: 2,
  INPUT_TOO_LARGE: 2,
  PLAN_INVALID: 2,
  OVERLAY_INVALID: 2,
  TARBALL_UNSAFE: 2,
  CANDIDATE_INVALID: 2,
  SERVER_JSON_INVALID: 2,
  DIFF_IGNORE_INVALID: 2,
  RESULTS_INVALID: 2,
  RESULTS_MISMATCH: 2,
  CREDENTIAL_MISSING: 2,
  SETUP_INPUT_REQUIRED: 2,
  WORKSPACE_NOT_FOUND: 2,
  MODEL_KEY_MISSING: 2,
  MODEL_AUTH_FAILED: 2,
  MODEL_REQUEST_REJECTED: 2,
  TRIGGER_QUERIES_INVALID: 2,
  TRIGGER_SHADOWED: 2,
  VERSION_NOT_BUMPED: 2,
  INSTALL_CONFLICT: 2,
  INSPECT_FAILED: 1,
  INIT_FAILED: 1,
  UPDATE_FAILED: 1,
  CERTIFICATION_BELOW: 1,
  EVAL_FAILED: 1,
  EVAL_NOT_JUDGED: 1,
  EVAL_MODELS_DIFFER: 1,
  TRIGGERS_FAILED: 1,
  SURFACE_BREAKING: 1,
  PUBLISH_REFUSED: 1,
  PUBLISH_FAILED: 1,
  SERVICE_FAILED: 1,
  LOCK_TIMEOUT: 1,
  DISK_FULL: 1,
  NOT_WRITABLE: 1,
  TASK_FAILED: 1,
  INTERNAL_ERROR: 1,
  MODEL_UNREACHABLE: 1,
  MODEL_OUTPUT_INVALID: 1,
  MODEL_BUDGET_EXCEEDED: 1,
  INTERRUPTED: 130,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class InterError extends Error {
  readonly code: ErrorCode;
  readonly suggestion: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, suggestion: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "InterError";
    this.code = code;
    this.suggestion = suggestion;
    this.details = details;
  }

  get exitCode(): number {
    return ERROR_CODES[this.code];
  }
}

/** File-system failures a user can act on, by errno: the machine's state, not a bug in inter. */
function fileSystemError(error: unknown): InterError | undefined {
  const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  const where = path ? ` (${syscall ?? "writing"} ${path})` : "";
  if (code === "ENOSPC" || code === "EDQUOT")
    return new InterError(
      "DISK_FULL",
      `The disk is full${where}.`,
      "Free space (or raise the quota) and run the command again; `inter cache gc` trims the cache.",
      { errno: code, path },
    );
  if (code === "EROFS" || code === "EACCES" || code === "EPERM")
    return new InterError(
      "NOT_WRITABLE",
      `A file or folder cannot be written${where}: ${code}.`,
      "Check the folder is writable by this user and not on a read-only mount.",
      { errno: code, path },
    );
  return undefined;
}

export function toInterError(error: unknown): InterError {
  if (error instanceof InterError) return error;
  const fs = fileSystemError(error);
  if (fs) return fs;
  const message = error instanceof Error ? error.message : String(error);
  return new InterError(
    "INTERNAL_ERROR",
    `Unexpected internal error: ${message}`,
    "Re-run with INTER_DEBUG=1 for a stack trace and report it with the command you ran.",
    process.env.INTER_DEBUG && error instanceof Error ? { stack: error.stack } : undefined,
  );
}
