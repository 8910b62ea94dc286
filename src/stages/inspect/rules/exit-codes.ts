import { documentOf } from "../probe-output.js";
import { errorProbes, helpOf, na, noApi, noSubject, ran, section, subject, verdict, expected } from "./judging.js";

/** The spec's Exit codes rules ("Exit codes" in the Agent-Friendly CLI Spec v0.1). */
export const EXIT_CODES = section("Exit codes", [
  {
    id: "X1",
    priority: "P1",
    title: "0 success",
    judge: (f) =>
      expected(
        f.probes.help?.exitCode === 0 && f.probes.skills?.exitCode === 0,
        "successful calls exit 0",
        f.probes.skills,
      ),
  },
  {
    id: "X2",
    priority: "P2",
    title: "1 general",
    judge: (f) =>
      helpOf(f)?.exitCodes?.["1"]
        ? verdict(true, "exit 1 documented for general errors (not provoked)", f.probes.help)
        : na("a general failure cannot be provoked safely, and none is documented"),
  },
  {
    id: "X3",
    priority: "P0",
    title: "2 usage or parameter error",
    judge: (f) =>
      verdict(f.probes.bogus?.exitCode === 2, `bogus flag exit ${f.probes.bogus?.exitCode}`, f.probes.bogus),
  },
  {
    id: "X4",
    priority: "P2",
    title: "10 auth",
    judge: (f) =>
      f.probes.noCredential
        ? verdict(
            f.probes.noCredential.exitCode === 10,
            `missing credential exit ${f.probes.noCredential.exitCode}`,
            f.probes.noCredential,
          )
        : noSubject(f, "auth", "no command needs a credential"),
  },
  {
    id: "X5",
    priority: "P2",
    title: "11 permission",
    judge: (f) =>
      helpOf(f)?.exitCodes?.["11"]
        ? verdict(true, "exit 11 documented (a permission failure cannot be provoked from outside)", f.probes.help)
        : na("a permission failure cannot be provoked from outside"),
  },
  {
    id: "X6",
    priority: "P2",
    title: "20 not found",
    judge: (f) =>
      f.probes.getMissing
        ? verdict(
            f.probes.getMissing.exitCode === 20,
            `${subject(f, "get")}: missing id exit ${f.probes.getMissing.exitCode}`,
            f.probes.getMissing,
          )
        : f.subjects?.none.get
          ? noSubject(f, "get", "no get-like command")
          : f.apiUnavailable
            ? noApi(f)
            : na("no get-like command"),
  },
  {
    id: "X7",
    priority: "P2",
    title: "30 conflict or failed precondition",
    judge: (f) =>
      f.probes.issueBadTransition
        ? verdict(
            f.probes.issueBadTransition.exitCode === 30,
            `forbidden issue transition exit ${f.probes.issueBadTransition.exitCode}`,
            f.probes.issueBadTransition,
          )
        : na("no conflict could be provoked"),
  },
  {
    id: "X8",
    priority: "P2",
    title: "exit code matches the error code",
    judge: (f) => {
      const errs = errorProbes(f);
      const seen = new Map<string, Set<number | null>>();
      for (const { probe, error } of errs)
        seen.set(error.code, new Set([...(seen.get(error.code) ?? []), probe.exitCode]));
      const mixed = [...seen].filter(([, exits]) => exits.size > 1 || exits.has(0)).map(([c]) => c);
      return verdict(
        seen.size > 0 && !mixed.length,
        mixed.length
          ? `codes with several exit codes, or reported with exit 0: ${mixed.join(", ")}`
          : `${seen.size} codes, each with one exit code`,
        ...errs
          .filter(({ error }) => mixed.includes(error.code))
          .map(({ probe }) => probe)
          .slice(0, 2),
      );
    },
  },
  {
    id: "X9",
    priority: "P0",
    title: "never exit 0 with an error reported on stdout",
    judge: (f) => {
      const bad = ran(...Object.values(f.probes)).filter((p) => p.exitCode === 0 && documentOf(p)?.reportsError);
      return verdict(!bad.length, bad.length ? "exit 0 with an error document" : "no exit 0 carried an error", ...bad);
    },
  },
]);
