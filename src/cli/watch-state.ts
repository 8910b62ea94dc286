/**
 * The states of `--watch` and what moves it between them. Pure: the loop in cli/watch.ts feeds inputs in and carries
 * out the effects (abort the running build, exit at once).
 *
 *   running ──cycle-done, nothing changed──▶ watching ──changed──▶ queued ──start──▶ running
 *      │ ▲                                                            ▲
 *      │ └──────────────────────── start ─────────────────────────────┘
 *      ├──changed──▶ running (the build is aborted; the paths wait in `changed`)
 *      └──cycle-done, paths waiting──▶ queued
 *   any ──signal──▶ stopping (the build is aborted) ──signal──▶ exit 130 at once
 */
export type WatchState =
  /** A build cycle is under way; `changed` collects paths that changed meanwhile (they start the next cycle). */
  | { kind: "running"; changed: string[] }
  /** Idle: waiting for a change. */
  | { kind: "watching" }
  /** Changes arrived: the next cycle starts with them. */
  | { kind: "queued"; changed: string[] }
  /** Ctrl-C (or SIGTERM): no new cycle starts; the running one is aborted. */
  | { kind: "stopping"; signal: string };

export type WatchInput =
  | { kind: "changed"; paths: string[] }
  | { kind: "signal"; signal: string }
  | { kind: "cycle-done" }
  | { kind: "start" };

export type WatchEffect = "abort-build" | "exit-now";

export const INITIAL: WatchState = { kind: "running", changed: [] };

export function transition(state: WatchState, input: WatchInput): { state: WatchState; effects: WatchEffect[] } {
  switch (input.kind) {
    case "signal":
      return state.kind === "stopping"
        ? { state, effects: ["exit-now"] }
        : { state: { kind: "stopping", signal: input.signal }, effects: ["abort-build"] };
    case "changed":
      switch (state.kind) {
        case "running":
          return { state: { kind: "running", changed: [...state.changed, ...input.paths] }, effects: ["abort-build"] };
        case "watching":
          return { state: { kind: "queued", changed: [...input.paths] }, effects: [] };
        case "queued":
          return { state: { kind: "queued", changed: [...state.changed, ...input.paths] }, effects: [] };
        case "stopping":
          return { state, effects: [] };
        default:
          return unreachable(state);
      }
    case "cycle-done":
      switch (state.kind) {
        case "running":
          return {
            state: state.changed.length ? { kind: "queued", changed: state.changed } : { kind: "watching" },
            effects: [],
          };
        case "watching":
        case "queued":
        case "stopping":
          return { state, effects: [] };
        default:
          return unreachable(state);
      }
    case "start":
      return state.kind === "queued"
        ? { state: { kind: "running", changed: [] }, effects: [] }
        : { state, effects: [] };
    default:
      return unreachable(input);
  }
}

function unreachable(value: never): never {
  throw new Error(`unhandled watch state or input: ${JSON.stringify(value)}`);
}
