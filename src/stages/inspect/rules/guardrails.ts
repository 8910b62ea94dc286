import { count } from "../../../core/plural.js";
import { PROBE_SECRET, PROBE_SHORT_SECRET, type Probe } from "../probes.js";
import { errorOf } from "../probe-output.js";
import { calls, hasFlag, na, noSubject, ran, refused, refusedWith2, section, verdict, expected } from "./judging.js";

/** Exit 2 with a structured error other than MISSING_FLAG, which would say the flag was taken as a known one. */
const refusedAsUnknown = (p: Probe) => {
  const code = errorOf(p)?.code;
  return p.exitCode === 2 && code !== undefined && code !== "MISSING_FLAG";
};
/** Whether a refusal quoted a made-up key: the short one, or the start of the long one (a message may cut it). */
const echoesSecret = (p: Probe) =>
  p.stderr.includes(PROBE_SECRET.slice(0, 23)) || p.stderr.includes(PROBE_SHORT_SECRET);

/** The spec's Guardrails rules ("Guardrails" in the Agent-Friendly CLI Spec v0.1). */
export const GUARDRAILS = section("Guardrails", [
  {
    id: "G1",
    priority: "P1",
    title: "unknown flags exit 2",
    judge: (f) => {
      // On the CLI itself and on its built-in commands (skills, issue), with a value and without.
      const probes = ran(f.probes.bogus, f.probes.bogusSkills, f.probes.bogusIssue);
      const bad = probes.filter((p) => !refusedAsUnknown(p));
      return verdict(
        !!f.probes.bogus && !bad.length,
        bad.length
          ? `an unknown flag was not refused with exit 2: ${calls(bad)}`
          : `bogus flags refused with exit 2 (${count(probes.length, "call")}, built-in commands included)`,
        ...(bad.length ? bad : probes),
      );
    },
  },
  {
    id: "G2",
    priority: "P1",
    title: "values that look like keys or tokens are refused with a code naming SECRET",
    judge: (f) => {
      if (!f.probes.secret) return noSubject(f, "hostile", "no command takes a string value");
      // A command's flag (a long key and a short sk-live-… one), a global flag's value, a built-in's argument.
      const probes = ran(f.probes.secret, f.probes.secretShort, f.probes.secretFields, f.probes.secretSkill);
      const bad = probes.filter((p) => !refused(p) || !/SECRET/.test(errorOf(p)?.code ?? "") || echoesSecret(p));
      const kinds = "a flag, a short key, --fields, a skills argument";
      return verdict(
        !bad.length,
        bad.length
          ? `not refused as a secret, or echoed: ${calls(bad)}`
          : `sk-… refused and not echoed (${count(probes.length, "call")}: ${kinds})`,
        ...(bad.length ? bad : [f.probes.secret]),
      );
    },
  },
  {
    id: "G3",
    priority: "P1",
    title: "sensitive paths (.env, *.key, *.pem, id_rsa) are refused",
    judge: (f) => {
      if (!f.probes.sensitive) return noSubject(f, "hostile", "no command takes a string value");
      // Refused as a bad value (exit 2), not failing later for another reason (no credential, the API's 404).
      const ok = refusedWith2(f.probes.sensitive) && (!f.probes.sensitiveBare || refusedWith2(f.probes.sensitiveBare));
      return verdict(
        ok,
        !refusedWith2(f.probes.sensitive)
          ? "./.env was not refused"
          : !ok
            ? "a bare id_rsa was not refused"
            : "./.env and a bare id_rsa refused",
        f.probes.sensitive,
        f.probes.sensitiveBare,
      );
    },
  },
  {
    id: "G4",
    priority: "P2",
    title: "each command declares its permission (read / write / delete)",
    judge: (f) =>
      f.commands.length
        ? expected(
            f.commands.every((c) => ["read", "write", "delete"].includes(String(c.permission))),
            "permission declared",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "G5",
    priority: "P2",
    title: "output can redact PII",
    judge: (f) => verdict(hasFlag(f, "redact"), "--redact declared", f.probes.help),
  },
  {
    id: "G6",
    priority: "P1",
    title: "a missing precondition (no credential, no base URL) is a structured error",
    judge: (f) =>
      f.probes.noCredential
        ? verdict(refused(f.probes.noCredential), "no credential → structured error", f.probes.noCredential)
        : noSubject(f, "auth", "no command needs a credential"),
  },
  {
    id: "G7",
    priority: "P2",
    title: "batch sizes are bounded",
    judge: (f) => verdict(hasFlag(f, "max-pages"), "--max-pages bounds --all", f.probes.help),
  },
  {
    id: "G8",
    priority: "P1",
    title: "shell metacharacters in identifiers and paths are refused",
    judge: (f) =>
      f.probes.shell
        ? verdict(refused(f.probes.shell), "x;rm -rf / refused", f.probes.shell)
        : noSubject(f, "hostile", "no command takes an identifier"),
  },
  {
    id: "G9",
    priority: "P1",
    title: "if a guardrail itself errors, the command is refused (fail closed)",
    judge: (f) =>
      f.probes.secret
        ? expected(
            [
              f.probes.secret,
              f.probes.traversal,
              f.probes.shell,
              f.probes.sensitive,
              f.probes.control,
              ...(f.probes.sensitiveBare ? [f.probes.sensitiveBare] : []),
            ].every(refused),
            "every hostile value was refused (a guardrail's own failure cannot be provoked from outside)",
            f.probes.secret,
          )
        : noSubject(f, "hostile", "no command takes a string value"),
  },
]);
