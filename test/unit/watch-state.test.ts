import { describe, expect, it } from "vitest";
import { INITIAL, transition, type WatchInput, type WatchState } from "../../src/cli/watch-state.js";

const run = (inputs: WatchInput[], from: WatchState = INITIAL) => {
  let state = from;
  const effects: string[] = [];
  for (const input of inputs) {
    const next = transition(state, input);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
};

describe("the watch state machine", () => {
  it("waits after a quiet cycle, queues changes, and starts the next cycle with them", () => {
    expect(run([{ kind: "cycle-done" }]).state).toEqual({ kind: "watching" });
    expect(
      run([{ kind: "cycle-done" }, { kind: "changed", paths: ["a"] }, { kind: "changed", paths: ["b"] }]).state,
    ).toEqual({ kind: "queued", changed: ["a", "b"] });
    expect(run([{ kind: "cycle-done" }, { kind: "changed", paths: ["a"] }, { kind: "start" }]).state).toEqual({
      kind: "running",
      changed: [],
    });
  });

  it("a change while building aborts the build and becomes the next cycle", () => {
    const { state, effects } = run([{ kind: "changed", paths: ["a"] }, { kind: "cycle-done" }]);
    expect(effects).toEqual(["abort-build"]);
    expect(state).toEqual({ kind: "queued", changed: ["a"] });
  });

  it("a signal aborts the build and stops; a second one exits at once; changes then start nothing", () => {
    const first = run([{ kind: "signal", signal: "SIGINT" }]);
    expect(first).toEqual({ state: { kind: "stopping", signal: "SIGINT" }, effects: ["abort-build"] });
    expect(
      run([{ kind: "changed", paths: ["a"] }, { kind: "cycle-done" }, { kind: "start" }], first.state).state,
    ).toEqual(first.state);
    expect(run([{ kind: "signal", signal: "SIGINT" }], first.state).effects).toEqual(["exit-now"]);
  });
});
