/** A parsed JSON value: nothing about its shape is assumed until a reader narrows it (stages/inspect/probe-output.ts). */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** One invocation of the CLI under inspection, as evidence. */
export interface Probe {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** stdout parsed as JSON, when it is (read it through stages/inspect/probe-output.ts). */
  json?: Json;
  /** stderr parsed as JSON, when it is. */
  error?: Json;
  /** Set when the probe was not run again but reused from the inspection of this candidate (stages/inspect/probe-reuse.ts). */
  reusedFrom?: string;
}

/**
 * Where a probe that must not reach an API sends what it would send: the discard port on loopback, which refuses every
 * connection. Every probe but those meant to call the configured service runs with the CLI's base URL set to it, so
 * no probe of an inspection ever calls the API the CLI names by default (its production URL, with the credential
 * the caller exported).
 */
export const REFUSING_URL = "http://127.0.0.1:9";
