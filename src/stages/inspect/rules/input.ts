import {
  bodyProblem,
  na,
  noSubject,
  params,
  refused,
  refusedWith2,
  section,
  subject,
  verdict,
  expected,
} from "./judging.js";

/** The spec's Input rules ("Input" in the Agent-Friendly CLI Spec v0.1). */
export const INPUT = section("Input", [
  {
    id: "I1",
    priority: "P1",
    title: "every flag has a --long-name",
    judge: (f) =>
      params(f).length
        ? expected(
            params(f).every((p) => /^--[a-z0-9-]+$/.test(p.name)),
            "parameters are --long-names",
            f.probes.help,
          )
        : na("no parameters"),
  },
  {
    id: "I2",
    priority: "P1",
    title: "no positional arguments whose meaning depends on order",
    judge: (f) => verdict(refusedWith2(f.probes.positional), "a stray argument is refused", f.probes.positional),
  },
  {
    id: "I3",
    priority: "P2",
    title: "--json-input reads a body from stdin",
    judge: (f) => {
      const p = f.probes.jsonInputEnvelope;
      if (!p) return noSubject(f, "body", "no command takes a request body");
      const fields = f.bodyFields ?? [];
      const problem = p.exitCode === 0 ? bodyProblem(p, fields) : `exit ${p.exitCode}`;
      const outcome = problem
        ? `a body piped to --json-input was not taken (${problem})`
        : `a body piped to --json-input (${fields.join(", ") || "no fields"}) is the request's body`;
      return verdict(!problem, `${subject(f, "body")}: ${outcome}`, p);
    },
  },
  {
    id: "I4",
    priority: "P1",
    title: "a missing required parameter is a structured error, exit 2",
    judge: (f) =>
      f.probes.createEmpty
        ? verdict(
            refusedWith2(f.probes.createEmpty),
            `${subject(f, "required")} called with nothing`,
            f.probes.createEmpty,
          )
        : noSubject(f, "required", "no command has required parameters"),
  },
  {
    id: "I5",
    priority: "P1",
    title: "a wrongly typed value is a structured error, exit 2",
    judge: (f) =>
      f.probes.typedBad
        ? verdict(refusedWith2(f.probes.typedBad), "a non-number for an integer flag", f.probes.typedBad)
        : noSubject(f, "typed", "no integer parameter to mistype"),
  },
  {
    id: "I6",
    priority: "P2",
    title: "booleans have --x and --no-x",
    judge: (f) => {
      const bools = params(f).filter((p) => p.type === "boolean");
      return bools.length
        ? verdict(
            bools.every((p) => "negation" in p),
            `${bools.length} boolean flags declare --no-x`,
            f.probes.help,
          )
        : na("no boolean parameters");
    },
  },
  {
    id: "I7",
    priority: "P2",
    title: "arrays as repeated flags or comma lists",
    judge: (f) => {
      const arrays = params(f).filter((p) => p.type === "array");
      return arrays.length
        ? expected(
            arrays.every((p) => "items" in p),
            "array parameters declare their items",
            f.probes.help,
          )
        : na("no array parameters");
    },
  },
  {
    id: "I8",
    priority: "P1",
    title: "no hidden state changes behaviour",
    judge: (f) =>
      expected(
        !!f.probes.help && f.probes.help.stdout === f.probes.helpFreshHome?.stdout,
        "help is identical under a fresh HOME",
        f.probes.help,
        f.probes.helpFreshHome,
      ),
  },
  {
    id: "I9",
    priority: "P1",
    title: "authentication never prompts (environment or flags only)",
    judge: (f) =>
      f.probes.noCredential
        ? expected(
            !f.probes.noCredential.timedOut && refused(f.probes.noCredential),
            "without a credential the CLI stops with an error",
            f.probes.noCredential,
          )
        : noSubject(f, "auth", "no command needs a credential"),
  },
]);
