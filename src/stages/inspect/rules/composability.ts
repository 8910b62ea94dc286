import { noSubject, printedJson, section, subject, succeeded, verdict, expected } from "./judging.js";

/** The spec's Composability rules ("Composability" in the Agent-Friendly CLI Spec v0.1). */
export const COMPOSABILITY = section("Composability", [
  {
    id: "C1",
    priority: "P0",
    title: "stdout is data only",
    judge: (f) => {
      const ok = succeeded(f.probes.help, f.probes.skills, f.probes.version, f.probes.list);
      return expected(
        ok.length > 0 && ok.every(printedJson),
        "successful stdout is one JSON document",
        ...ok.filter((p) => !printedJson(p)),
      );
    },
  },
  {
    id: "C2",
    priority: "P0",
    title: "logs, progress and warnings go to stderr",
    judge: (f) => {
      const ok = succeeded(f.probes.help, f.probes.skills, f.probes.list);
      return expected(
        ok.every(printedJson),
        "nothing but data on stdout; anything else would be on stderr",
        f.probes.skills,
      );
    },
  },
  {
    id: "C3",
    priority: "P2",
    title: "| jq . works",
    judge: (f) =>
      verdict(printedJson(f.probes.skills) && printedJson(f.probes.help), "stdout is valid JSON", f.probes.skills),
  },
  {
    id: "C4",
    priority: "P2",
    title: "--quiet silences non-essential stderr",
    judge: (f) =>
      expected(
        f.probes.skillsQuiet?.exitCode === 0 &&
          f.probes.skillsQuiet.stderr === "" &&
          Array.isArray(f.probes.skillsQuiet.json),
        "--quiet: data only, stderr empty",
        f.probes.skillsQuiet,
      ),
  },
  {
    id: "C5",
    priority: "P2",
    title: "one command's JSON output feeds another's --json-input",
    judge: (f) =>
      f.probes.jsonInputEnvelope
        ? verdict(
            f.probes.jsonInputEnvelope.exitCode === 0,
            `${subject(f, "body")}: an {ok, result} envelope, as commands print it, on stdin was accepted`,
            f.probes.jsonInputEnvelope,
          )
        : noSubject(f, "body", "no command takes a body"),
  },
  {
    id: "C6",
    priority: "P1",
    title: "no prompt when piped (echo | cli cmd returns)",
    judge: (f) =>
      verdict(
        !!f.probes.barePipe && !f.probes.barePipe.timedOut,
        f.probes.barePipe?.timedOut
          ? "a bare call with a line piped on stdin did not return: it waits for input; never prompt when stdin is not a terminal"
          : `returned in ${f.probes.barePipe?.durationMs} ms`,
        f.probes.barePipe,
      ),
  },
  {
    id: "C7",
    priority: "P2",
    title: "the same read gives the same result",
    judge: (f) =>
      f.probes.list && f.probes.listAgain
        ? expected(
            f.probes.list.stdout === f.probes.listAgain.stdout,
            "two identical list calls",
            f.probes.list,
            f.probes.listAgain,
          )
        : verdict(f.probes.help?.stdout === f.probes.helpFreshHome?.stdout, "two identical help calls", f.probes.help),
  },
]);
