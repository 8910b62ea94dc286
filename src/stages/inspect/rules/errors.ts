import { errorOf } from "../probe-output.js";
import { errorProbes, ran, section, UPPER_SNAKE, verdict, expected } from "./judging.js";

/** The spec's Errors rules ("Errors" in the Agent-Friendly CLI Spec v0.1). */
export const ERRORS = section("Errors", [
  {
    id: "E1",
    priority: "P0",
    title: "errors go to stderr as {error: true, code, message, suggestion}",
    judge: (f) =>
      expected(
        errorOf(f.probes.bogus)?.suggestion !== undefined,
        "a bogus flag gives a JSON error on stderr",
        f.probes.bogus,
      ),
  },
  {
    id: "E2",
    priority: "P2",
    title: "on error stdout stays empty",
    judge: (f) => {
      const errs = errorProbes(f);
      return verdict(
        errs.length > 0 && errs.every(({ probe }) => probe.stdout === ""),
        `${errs.length} failing probes left stdout empty`,
        ...errs
          .map(({ probe }) => probe)
          .filter((p) => p.stdout !== "")
          .slice(0, 2),
        f.probes.bogus,
      );
    },
  },
  {
    id: "E3",
    priority: "P2",
    title: "the error parses as JSON",
    judge: (f) => {
      const ok = f.probes.bogus?.error !== undefined;
      return verdict(ok, ok ? "stderr parses" : "a bogus flag's stderr is not JSON", f.probes.bogus);
    },
  },
  {
    id: "E4",
    priority: "P0",
    title: "code is machine-readable (UPPER_SNAKE)",
    judge: (f) => {
      const errs = errorProbes(f);
      const bad = errs.filter(({ error }) => !UPPER_SNAKE.test(error.code)).map(({ probe }) => probe);
      return verdict(
        errs.length > 0 && !bad.length,
        `codes: ${[...new Set(errs.map(({ error }) => error.code))].join(", ")}`,
        ...(bad.length ? bad : [f.probes.bogus]),
      );
    },
  },
  {
    id: "E5",
    priority: "P0",
    title: "message is non-empty",
    judge: (f) => {
      const errs = errorProbes(f);
      return expected(
        errs.length > 0 && errs.every(({ error }) => error.message.trim().length > 0),
        "messages present",
        f.probes.bogus,
      );
    },
  },
  {
    id: "E6",
    priority: "P1",
    title: "suggestion says what to do next",
    judge: (f) => {
      const errs = errorProbes(f);
      return expected(
        errs.length > 0 && errs.every(({ error }) => !!error.suggestion?.trim()),
        "every error has a suggestion",
        f.probes.bogus,
      );
    },
  },
  {
    id: "E7",
    priority: "P0",
    title: "never goes interactive on error; exits at once (bare invocation too)",
    judge: (f) => {
      const hung = ran(f.probes.bare, f.probes.bogus, f.probes.jsonInputClosed, f.probes.createEmpty).filter(
        (p) => p.timedOut,
      );
      return verdict(
        !!f.probes.bare && !hung.length,
        hung.length
          ? `did not return: ${hung.map((p) => p.command).join("; ")}`
          : `bare invocation returned in ${f.probes.bare?.durationMs} ms`,
        ...(hung.length ? hung : [f.probes.bare]),
      );
    },
  },
  {
    id: "E8",
    priority: "P0",
    title: "error codes are contracts: never renamed within a major version",
    judge: (f) => {
      const errs = errorProbes(f);
      return verdict(
        errs.length > 0 && errs.every(({ error }) => UPPER_SNAKE.test(error.code)),
        "every error carries a stable-looking code; " +
          "renames across versions need two versions to compare (not established here)",
        f.probes.bogus,
      );
    },
  },
]);
