import { RESERVED_FLAGS } from "../../../runtime/args.js";
import { documentOf, versionOf } from "../probe-output.js";
import {
  calls,
  hasFlag,
  KEBAB,
  na,
  params,
  printedJson,
  ran,
  section,
  SEMVER,
  verdict,
  version,
  expected,
} from "./judging.js";

/** The spec's Naming rules ("Naming" in the Agent-Friendly CLI Spec v0.1). */
export const NAMING = section("Naming", [
  {
    id: "N1",
    priority: "P2",
    title: "one consistent noun-verb pattern",
    judge: (f) =>
      f.commands.length
        ? expected(
            f.commands.every((c) => c.name.split(" ").length >= 2),
            "every command is <noun> … <verb>",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "N2",
    priority: "P2",
    title: "kebab-case flags and commands",
    judge: (f) =>
      expected(
        f.commands.every((c) => c.name.split(" ").every((w) => KEBAB.test(w))) &&
          params(f).every((p) => KEBAB.test(p.name.replace(/^--/, ""))),
        "names are kebab-case",
        f.probes.help,
      ),
  },
  {
    id: "N3",
    priority: "P2",
    title: "at most three levels",
    judge: (f) =>
      expected(
        f.commands.every((c) => c.name.split(" ").length <= 3),
        "no command deeper than three words",
        f.probes.help,
      ),
  },

  {
    id: "N4",
    priority: "P1",
    title: "the reserved flags exist",
    judge: (f) => {
      const missing = RESERVED_FLAGS.filter((x) => !hasFlag(f, x)).map((x) => `--${x}`);
      // The spec's nine, as the runtime lists them (src/runtime/args.ts): its type holds each to a global flag.
      return verdict(
        !missing.length,
        missing.length ? `missing: ${missing.join(" ")}` : "all nine reserved flags exist",
        f.probes.help,
      );
    },
  },
  {
    id: "N5",
    priority: "P2",
    title: "--help works everywhere",
    judge: (f) => {
      const bad = Object.values(f.commandHelp).filter((p) => p.exitCode !== 0 || !printedJson(p));
      return verdict(
        !bad.length && f.probes.help?.exitCode === 0,
        `${Object.keys(f.commandHelp).length + 1} help calls`,
        ...bad.slice(0, 2),
      );
    },
  },
  {
    id: "N6",
    priority: "P2",
    title: "--version prints semver",
    judge: (f) => {
      // --version anywhere prints the version and nothing else: after a command it must not run the command.
      const after = ran(f.probes.versionAfter, f.probes.versionGroup);
      const printed = documentOf(f.probes.version);
      const other = after.filter(
        (p) =>
          p.exitCode !== 0 ||
          versionOf(p) !== version(f) ||
          (documentOf(p)?.result !== undefined &&
            JSON.stringify(documentOf(p)!.result) !== JSON.stringify(printed?.result)),
      );
      return verdict(
        f.probes.version?.exitCode === 0 && SEMVER.test(version(f)) && !other.length,
        other.length
          ? `--version after a command did something else: ${calls(other)}`
          : `version "${version(f)}"${after.length ? `, the same after a command and a group` : ""}`,
        f.probes.version,
        ...(other.length ? other : after),
      );
    },
  },
]);
