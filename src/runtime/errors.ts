/** Error codes are contracts (docs/generated-cli.md, the exit-code table): never renamed within a major version. Each has one exit code. */
export const EXIT: Record<string, number> = {
  USAGE_ERROR: 2,
  UNKNOWN_COMMAND: 2,
  MISSING_COMMAND: 2,
  UNKNOWN_FLAG: 2,
  POSITIONAL_NOT_ALLOWED: 2,
  MISSING_FLAG: 2,
  INVALID_VALUE: 2,
  INVALID_JSON_INPUT: 2,
  SECRET_IN_ARGUMENT: 2,
  SENSITIVE_PATH: 2,
  FILE_NOT_FOUND: 2,
  FILE_NOT_READABLE: 2,
  OUTPUT_EXISTS: 2,
  OUTPUT_REQUIRED: 2,
  UNSAFE_INPUT: 2,
  CONFIRMATION_REQUIRED: 2,
  // MCP only: a command called through the dynamic toolset's call tool of another kind (runtime/mcp-dynamic.ts).
  WRONG_TOOL: 2,
  BASE_URL_MISSING: 2,
  VALIDATION_ERROR: 2,
  GUARDRAIL_ERROR: 2,
  CREDENTIAL_MISSING: 10,
  AUTH_FAILED: 10,
  AUTH_EXPIRED: 10,
  PERMISSION_DENIED: 11,
  NOT_FOUND: 20,
  CONFLICT: 30,
  INSTALL_CONFLICT: 30,
  PRECONDITION_FAILED: 30,
  RATE_LIMITED: 1,
  SERVER_ERROR: 1,
  NETWORK_ERROR: 1,
  TIMEOUT: 1,
  RESPONSE_TOO_LARGE: 1,
  OUTPUT_FAILED: 1,
  UPLOAD_FAILED: 1,
  HTTP_ERROR: 1,
  PROOF_MISSING: 1,
  PROOF_MISMATCH: 1,
  INTERNAL_ERROR: 1,
};

export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly suggestion: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  get exitCode(): number {
    return EXIT[this.code] ?? 1;
  }
}

/** HTTP status → error code; the exit code follows from the code. */
export function codeForStatus(status: number): string {
  if (status === 400 || status === 422) return "VALIDATION_ERROR";
  if (status === 401) return "AUTH_FAILED";
  if (status === 403) return "PERMISSION_DENIED";
  if (status === 404) return "NOT_FOUND";
  if (status === 409) return "CONFLICT";
  if (status === 412) return "PRECONDITION_FAILED";
  if (status === 429) return "RATE_LIMITED";
  if (status >= 500) return "SERVER_ERROR";
  return "HTTP_ERROR";
}
