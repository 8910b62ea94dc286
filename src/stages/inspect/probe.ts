/** One invocation of the CLI under inspection, as evidence. */
export interface Probe {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** stdout parsed as JSON, when it is. */
  json?: any;
  /** stderr parsed as JSON, when it is. */
  error?: any;
  /** Set when the probe was not run again but reused from the inspection of this candidate (stages/inspect/probe-reuse.ts). */
  reusedFrom?: string;
}
