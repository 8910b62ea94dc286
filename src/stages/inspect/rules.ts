import { DRY_RUN_MESSAGE, type Facts, type Probe } from "./probes.js";
import type { SubjectKind } from "./subjects.js";
import { count } from "../../core/plural.js";
import { frontMatterText, readFrontMatter } from "../../core/front-matter.js";

export type Layer = "core" | "recommended" | "ecosystem";
export type Status = "pass" | "fail" | "not applicable";

export interface Evidence {
  command: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface Verdict {
  status: Status;
  reason: string;
  evidence?: Evidence[];
}

export interface Rule {
  id: string;
  group: string;
  priority: "P0" | "P1" | "P2";
  title: string;
  judge(f: Facts): Verdict;
}

const trim = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}…` : text);
const evidence = (...probes: Array<Probe | undefined>): Evidence[] =>
  probes
    .filter((p): p is Probe => !!p)
    .map((p) => ({ command: p.command, exitCode: p.exitCode, stdout: trim(p.stdout), stderr: trim(p.stderr) }));
const verdict = (ok: boolean, reason: string, ...probes: Array<Probe | undefined>): Verdict => ({
  status: ok ? "pass" : "fail",
  reason,
  evidence: evidence(...probes),
});
const na = (reason: string): Verdict => ({ status: "not applicable", reason });

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const structured = (p?: Probe) =>
  !!p?.error && p.error.error === true && typeof p.error.code === "string" && typeof p.error.message === "string";
const refused = (p?: Probe) =>
  !!p && p.exitCode !== 0 && p.exitCode !== null && !p.timedOut && structured(p) && p.stdout === "";
const params = (f: Facts) => f.commands.flatMap((c) => c.parameters ?? []);
/** Command parameters and the global flags help declares as objects: what D4 and D7 hold to a type and `required`. */
const declared = (f: Facts) => [
  ...params(f),
  ...(Array.isArray(f.probes.help?.json?.globalFlags)
    ? f.probes.help!.json.globalFlags.filter((g: unknown) => !!g && typeof g === "object")
    : []),
];
const globalFlags = (f: Facts): string[] =>
  Array.isArray(f.probes.help?.json?.globalFlags)
    ? f.probes.help!.json.globalFlags.map((g: { name?: string } | string) => (typeof g === "string" ? g : g.name))
    : [];
const hasFlag = (f: Facts, flag: string) => globalFlags(f).includes(flag) || !!f.probes.help?.stdout.includes(flag);
const frontmatter = (text?: string) => {
  const front = text === undefined ? undefined : readFrontMatter(text);
  return front?.kind === "mapping"
    ? { name: frontMatterText(front, "name"), description: frontMatterText(front, "description") }
    : undefined;
};
/** Every probe that reported a structured error on stderr, whatever its exit code. */
const errorProbes = (f: Facts) => Object.values(f.probes).filter((p): p is Probe => !!p && structured(p));
const envelope = (p?: Probe) => (p?.json && typeof p.json === "object" && !Array.isArray(p.json) ? p.json : undefined);
/**
 * The result of a successful call, read the way an outside checker reads it: the envelope's `result`, or a top-level
 * array, or an `items` list.
 */
const data = (p?: Probe) => (Array.isArray(p?.json) ? p!.json : (envelope(p)?.result ?? envelope(p)?.items));
/** The version a call printed, as a checker finds it: plain text, or a top-level `version`. */
const versionOf = (p?: Probe) => {
  const json = p?.json;
  return String(
    json && typeof json === "object" && typeof json.version === "string"
      ? json.version
      : typeof json === "string"
        ? json
        : (p?.stdout.trim() ?? ""),
  );
};
const version = (f: Facts) => versionOf(f.probes.version);
/** Successful JSON documents besides results that must carry rules, skills and issue too (R1–R3): help, a listing, --describe, --mcp-schema. */
const documents = (f: Facts) =>
  [f.probes.help, f.probes.list, f.probes.describe, f.probes.mcp].filter(
    (p): p is Probe => !!p && p.exitCode === 0 && !!envelope(p),
  );
const noApi = (f: Facts) => na(`needs the API: ${f.apiUnavailable}`);
/** "not applicable" because no command fits the probe (stages/inspect/subjects.ts says why). */
const noSubject = (f: Facts, kind: SubjectKind, fallback: string) => na(f.subjects?.none[kind] ?? fallback);
/** "<command> (<why it was chosen>)": which command a probe ran on. */
const subject = (f: Facts, kind: SubjectKind) => {
  const s = f.subjects?.chosen[kind];
  return s ? `${s.command.name} (${s.why})` : "";
};

/**
 * Whether the request a --json-input --dry-run would send carries the piped fields; undefined when it does or when
 * the CLI does not show its request (then its exit status is the evidence).
 */
function bodyProblem(p: Probe, fields: string[]): string | undefined {
  const request = data(p)?.request;
  if (!request || typeof request !== "object") return undefined;
  if (typeof request.body !== "string") return fields.length ? "the request it would send has no body" : undefined;
  let keys: string[];
  try {
    const parsed = JSON.parse(request.body);
    keys = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  } catch {
    keys = [...new URLSearchParams(request.body).keys()];
  }
  const missing = fields.filter((k) => !keys.some((key) => key === k || key.startsWith(`${k}[`)));
  return missing.length ? `the request it would send lacks the piped ${missing.join(", ")}` : undefined;
}

/** The Agent-Friendly CLI Spec v0.1 (docs/generated-cli.md): the 98 rules, judged only from what the probes observed. */
export const RULES: Rule[] = [
  // Discoverability
  {
    id: "D1",
    group: "Discoverability",
    priority: "P1",
    title: "--help prints JSON with a commands array",
    judge: (f) =>
      verdict(Array.isArray(f.probes.help?.json?.commands), "root --help is JSON with commands[]", f.probes.help),
  },
  {
    id: "D2",
    group: "Discoverability",
    priority: "P2",
    title: "<cmd> --help prints that command's JSON",
    judge: (f) => {
      const helps = Object.entries(f.commandHelp);
      if (!helps.length) return na("the CLI lists no commands");
      // That command's own document: it names the command, or lists it alone (a group's document listing it among
      // others is not its help).
      const own = (name: string, p: Probe) =>
        !!p.json &&
        (p.json.command?.name === name ||
          (Array.isArray(p.json.commands) && p.json.commands.length === 1 && p.json.commands[0]?.name === name));
      const bad = helps.find(([name, p]) => !own(name, p));
      const of = f.commands.length > helps.length ? ` (an even sample of ${f.commands.length})` : "";
      return verdict(
        !bad,
        bad
          ? `${bad[0]} --help does not print ${bad[0]}'s own document`
          : `${count(helps.length, "command")}${of} ${helps.length === 1 ? "prints its" : "print their"} own JSON help`,
        bad?.[1] ?? helps[0]![1],
      );
    },
  },
  {
    id: "D3",
    group: "Discoverability",
    priority: "P1",
    title: "help JSON has help (string) and commands (array)",
    judge: (f) =>
      verdict(
        typeof f.probes.help?.json?.help === "string" && Array.isArray(f.probes.help?.json?.commands),
        "help and commands present",
        f.probes.help,
      ),
  },
  {
    id: "D4",
    group: "Discoverability",
    priority: "P1",
    title: "every parameter declares a type",
    judge: (f) => {
      const all = declared(f);
      const bad = all.filter((p) => typeof p.type !== "string").map((p) => p.name);
      return all.length
        ? verdict(
            !bad.length,
            bad.length
              ? `without a type: ${bad.slice(0, 8).join(", ")}`
              : `${all.length} parameters and global flags checked`,
            f.probes.help,
          )
        : na("no command has parameters");
    },
  },
  {
    id: "D5",
    group: "Discoverability",
    priority: "P2",
    title: "constrained parameters list their enum",
    judge: (f) =>
      params(f).some((p) => "enum" in p)
        ? verdict(
            params(f).every((p) => !("enum" in p) || (Array.isArray(p.enum) && p.enum.length > 0)),
            "declared enums are non-empty lists",
            f.probes.help,
          )
        : na("no parameter declares a fixed set of values"),
  },
  {
    id: "D6",
    group: "Discoverability",
    priority: "P2",
    title: "parameters with defaults declare default",
    judge: (f) =>
      params(f).some((p) => "default" in p)
        ? verdict(true, "defaults are declared in help", f.probes.help)
        : na("no parameter declares a default"),
  },
  {
    id: "D7",
    group: "Discoverability",
    priority: "P1",
    title: "every parameter says required true/false",
    judge: (f) => {
      const all = declared(f);
      const bad = all.filter((p) => typeof p.required !== "boolean").map((p) => p.name);
      return all.length
        ? verdict(
            !bad.length,
            bad.length
              ? `without required true/false: ${bad.slice(0, 8).join(", ")}`
              : "required is a boolean everywhere, global flags included",
            f.probes.help,
          )
        : na("no command has parameters");
    },
  },
  {
    id: "D8",
    group: "Discoverability",
    priority: "P2",
    title: "commands declare their output shape",
    judge: (f) =>
      f.commands.length
        ? verdict(
            f.commands.every((c) => typeof c.output === "string"),
            "output declared per command",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "D9",
    group: "Discoverability",
    priority: "P1",
    title: "every command has a non-empty description",
    judge: (f) =>
      f.commands.length
        ? verdict(
            f.commands.every((c) => typeof c.description === "string" && c.description.trim().length > 0),
            "descriptions present",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "D10",
    group: "Discoverability",
    priority: "P2",
    title: "the version is semver",
    judge: (f) => verdict(SEMVER.test(version(f)), `version "${version(f)}"`, f.probes.version),
  },
  {
    id: "D11",
    group: "Discoverability",
    priority: "P1",
    title: "help JSON carries help, commands, rules, skills (and issue)",
    judge: (f) =>
      verdict(
        ["help", "commands", "rules", "skills", "issue"].every((k) => f.probes.help?.json && k in f.probes.help.json),
        "all five keys present",
        f.probes.help,
      ),
  },
  {
    id: "D12",
    group: "Discoverability",
    priority: "P1",
    title: "agent/brief.md exists (one paragraph)",
    judge: (f) =>
      verdict(
        !!f.files["agent/brief.md"]?.trim(),
        f.files["agent/brief.md"] ? "agent/brief.md present" : "agent/brief.md missing",
      ),
  },
  {
    id: "D13",
    group: "Discoverability",
    priority: "P1",
    title: "agent/rules/ holds trigger.md, workflow.md, writeback.md",
    judge: (f) => {
      const missing = ["trigger", "workflow", "writeback"].filter((r) => !f.files[`agent/rules/${r}.md`]);
      return verdict(!missing.length, missing.length ? `missing: ${missing.join(", ")}` : "all three present");
    },
  },
  {
    id: "D14",
    group: "Discoverability",
    priority: "P2",
    title: "agent/skills/*.md exist and skills lists them (skills <name> shows one)",
    judge: (f) => {
      const files = Object.keys(f.agentSkillFiles).sort();
      const listed = Array.isArray(data(f.probes.skills))
        ? data(f.probes.skills)
            .map((s: { name: string }) => s.name)
            .sort()
        : [];
      return verdict(
        files.length > 0 && JSON.stringify(files) === JSON.stringify(listed) && f.probes.skillOne?.exitCode === 0,
        `files: ${files.join(", ") || "none"}; listed: ${listed.join(", ") || "none"}`,
        f.probes.skills,
        f.probes.skillOne,
      );
    },
  },
  {
    id: "D15",
    group: "Discoverability",
    priority: "P1",
    title: "--brief prints the brief",
    judge: (f) =>
      verdict(
        f.probes.brief?.exitCode === 0 &&
          (typeof data(f.probes.brief)?.brief === "string"
            ? data(f.probes.brief).brief.trim().length > 0
            : !!f.probes.brief?.stdout.trim()),
        "brief printed",
        f.probes.brief,
      ),
  },
  {
    id: "D16",
    group: "Discoverability",
    priority: "P1",
    title: "JSON by default, --human for people, --agent forces JSON",
    judge: (f) =>
      verdict(
        !!envelope(f.probes.skills) &&
          f.probes.skillsHuman?.exitCode === 0 &&
          f.probes.skillsHuman.json === undefined &&
          hasFlag(f, "--agent"),
        "default JSON, --human text, --agent declared",
        f.probes.skills,
        f.probes.skillsHuman,
      ),
  },
  {
    id: "D17",
    group: "Discoverability",
    priority: "P1",
    title: "rules/*.md start with frontmatter holding name and description",
    judge: (f) => {
      const bad = ["trigger", "workflow", "writeback"].filter((r) => {
        const fm = frontmatter(f.files[`agent/rules/${r}.md`]);
        return !fm?.name || !fm.description;
      });
      return verdict(
        !bad.length,
        bad.length ? `without name/description frontmatter: ${bad.join(", ")}` : "all rules have frontmatter",
      );
    },
  },
  {
    id: "D18",
    group: "Discoverability",
    priority: "P1",
    title: "skills markdown starts with frontmatter holding name and description",
    judge: (f) => {
      const all = [
        ...Object.entries(f.agentSkillFiles).map(([n, t]) => [`agent/skills/${n}.md`, t]),
        ...Object.entries(f.skillFiles).map(([n, t]) => [`skills/${n}/SKILL.md`, t]),
      ];
      if (!all.length) return na("the package has no Skills");
      const bad = all
        .filter(([, t]) => {
          const fm = frontmatter(t);
          return !fm?.name || !fm.description;
        })
        .map(([p]) => p);
      // A SKILL.md's name must also be its folder's, or portable loaders cannot find it.
      const misnamed = Object.entries(f.skillFiles)
        .filter(([folder, t]) => {
          const name = frontmatter(t)?.name;
          return name !== undefined && name !== folder;
        })
        .map(([folder]) => `skills/${folder}/SKILL.md`);
      return verdict(
        !bad.length && !misnamed.length,
        bad.length
          ? `without frontmatter: ${bad.join(", ")}`
          : misnamed.length
            ? `name differs from its folder: ${misnamed.join(", ")}`
            : `${count(all.length, "file")} ${all.length === 1 ? "has" : "have"} name and description`,
      );
    },
  },
  // Output
  {
    id: "O1",
    group: "Output",
    priority: "P0",
    title: "default output is JSON, no flag needed",
    judge: (f) =>
      verdict(
        !!f.probes.skills?.json && (!f.probes.list || !!f.probes.list.json),
        "plain invocations print JSON",
        f.probes.skills,
        f.probes.list,
      ),
  },
  {
    id: "O2",
    group: "Output",
    priority: "P0",
    title: "it parses (jq .)",
    judge: (f) =>
      verdict(
        [f.probes.help, f.probes.skills, f.probes.list].every((p) => !p || p.json !== undefined),
        "stdout parses as JSON",
        f.probes.help,
        f.probes.skills,
      ),
  },
  {
    id: "O3",
    group: "Output",
    priority: "P0",
    title: "its shape does not change within a version",
    judge: (f) => {
      const keys = (p?: Probe) =>
        Object.keys(envelope(p) ?? {})
          .sort()
          .join(",");
      const [a, b] =
        f.probes.list && f.probes.listAgain
          ? [f.probes.list, f.probes.listAgain]
          : [f.probes.skills, f.probes.skillOne];
      if (!a || !b) return na("not enough comparable responses");
      const same = keys(a) === keys(b) || keys(a).replace(",page", "") === keys(b).replace(",page", "");
      return verdict(same && keys(a).length > 0, `envelope keys: ${keys(a)} / ${keys(b)}`, a, b);
    },
  },
  {
    id: "O4",
    group: "Output",
    priority: "P2",
    title: "--fields a,b trims output",
    judge: (f) => {
      const rows = data(f.probes.skillsFields);
      const ok = Array.isArray(rows) && rows.every((r: object) => Object.keys(r).join() === "name");
      return verdict(
        ok && (!f.probes.listFields || Array.isArray(data(f.probes.listFields))),
        "--fields name keeps only name",
        f.probes.skillsFields,
        f.probes.listFields,
      );
    },
  },
  {
    id: "O5",
    group: "Output",
    priority: "P2",
    title: "an empty result is [], not an error",
    judge: (f) =>
      verdict(
        f.probes.issueEmpty?.exitCode === 0 &&
          Array.isArray(data(f.probes.issueEmpty)) &&
          data(f.probes.issueEmpty).length === 0,
        "an empty listing is []",
        f.probes.issueEmpty,
      ),
  },
  {
    id: "O6",
    group: "Output",
    priority: "P2",
    title: "--human exists",
    judge: (f) =>
      verdict(
        f.probes.skillsHuman?.exitCode === 0 && !!f.probes.skillsHuman.stdout.trim(),
        "--human prints text",
        f.probes.skillsHuman,
      ),
  },
  {
    id: "O7",
    group: "Output",
    priority: "P2",
    title: "many results come as an array",
    judge: (f) =>
      verdict(
        Array.isArray(data(f.probes.skills)) && (!f.probes.list || Array.isArray(data(f.probes.list))),
        "lists are arrays",
        f.probes.skills,
        f.probes.list,
      ),
  },
  {
    id: "O8",
    group: "Output",
    priority: "P2",
    title: "paged output says total / has_more (or equivalent)",
    judge: (f) => {
      if (!f.probes.paged)
        return f.subjects?.none.paged
          ? noSubject(f, "paged", "no command pages")
          : f.apiUnavailable
            ? noApi(f)
            : na("no command pages");
      // Sample values for a command's required flags may be refused by the API: then its paging was not seen.
      const filled = (f.subjects?.chosen.paged?.command.parameters ?? []).some((p) => p.required);
      if (filled && f.probes.paged.exitCode !== 0)
        return na(
          `${subject(f, "paged")} refused the probe's sample values (exit ${f.probes.paged.exitCode}), so its paging was not seen`,
        );
      const page = envelope(f.probes.paged)?.page;
      return verdict(
        !!page && typeof page.has_more === "boolean",
        `${subject(f, "paged")}: ${page ? `page: ${JSON.stringify(page)}` : "no page information"}`,
        f.probes.paged,
      );
    },
  },
  {
    id: "O9",
    group: "Output",
    priority: "P2",
    title: "NDJSON available for large streams",
    judge: (f) => {
      const lines = f.probes.skillsNdjson?.stdout.trim().split("\n").filter(Boolean) ?? [];
      return verdict(
        f.probes.skillsNdjson?.exitCode === 0 &&
          lines.every((l) => {
            try {
              JSON.parse(l);
              return true;
            } catch {
              return false;
            }
          }),
        `--ndjson printed ${lines.length} JSON lines`,
        f.probes.skillsNdjson,
      );
    },
  },
  {
    id: "O10",
    group: "Output",
    priority: "P2",
    title: "JSON automatically when stdout is not a terminal",
    judge: (f) =>
      verdict(
        f.probes.help?.json !== undefined && f.probes.skills?.json !== undefined,
        "probes run without a terminal got JSON",
        f.probes.skills,
      ),
  },
  {
    id: "R1",
    group: "Output",
    priority: "P1",
    title: "every response carries rules[] (the full rule texts)",
    judge: (f) => {
      const r = envelope(f.probes.skills)?.rules;
      const lacking = documents(f).filter((p) => !Array.isArray(envelope(p)?.rules));
      return verdict(
        Array.isArray(r) &&
          r.length > 0 &&
          r.every((x: unknown) => typeof x === "string" && x.length > 10) &&
          !lacking.length,
        lacking.length
          ? `no rules[] in: ${lacking.map((p) => p.command).join("; ")}`
          : `${count(Array.isArray(r) ? r.length : 0, "rule")}, in ${count(documents(f).length + 1, "kind")} of response`,
        f.probes.skills,
        ...lacking,
      );
    },
  },
  {
    id: "R2",
    group: "Output",
    priority: "P1",
    title: "every response carries skills[] (name, description, command)",
    judge: (f) => {
      const s = envelope(f.probes.skills)?.skills;
      const lacking = documents(f).filter((p) => !Array.isArray(envelope(p)?.skills));
      return verdict(
        Array.isArray(s) &&
          s.every(
            (x: { name?: unknown; description?: unknown; command?: unknown }) =>
              typeof x.name === "string" && typeof x.description === "string" && typeof x.command === "string",
          ) &&
          !lacking.length,
        lacking.length
          ? `no skills[] in: ${lacking.map((p) => p.command).join("; ")}`
          : `${Array.isArray(s) ? s.length : 0} skills`,
        f.probes.skills,
        ...lacking,
      );
    },
  },
  {
    id: "R3",
    group: "Output",
    priority: "P1",
    title: "every response carries issue, a one-line guide to reporting problems",
    judge: (f) => {
      const lacking = documents(f).filter((p) => typeof envelope(p)?.issue !== "string");
      return verdict(
        typeof envelope(f.probes.skills)?.issue === "string" &&
          !envelope(f.probes.skills).issue.includes("\n") &&
          !lacking.length,
        lacking.length ? `no issue line in: ${lacking.map((p) => p.command).join("; ")}` : "issue line present",
        f.probes.skills,
        ...lacking,
      );
    },
  },
  // Errors
  {
    id: "E1",
    group: "Errors",
    priority: "P0",
    title: "errors go to stderr as {error: true, code, message, suggestion}",
    judge: (f) =>
      verdict(
        structured(f.probes.bogus) && typeof f.probes.bogus?.error?.suggestion === "string",
        "a bogus flag gives a JSON error on stderr",
        f.probes.bogus,
      ),
  },
  {
    id: "E2",
    group: "Errors",
    priority: "P2",
    title: "on error stdout stays empty",
    judge: (f) => {
      const errs = errorProbes(f);
      return verdict(
        errs.length > 0 && errs.every((p) => p.stdout === ""),
        `${errs.length} failing probes left stdout empty`,
        ...errs.filter((p) => p.stdout !== "").slice(0, 2),
        f.probes.bogus,
      );
    },
  },
  {
    id: "E3",
    group: "Errors",
    priority: "P2",
    title: "the error parses as JSON",
    judge: (f) => verdict(f.probes.bogus?.error !== undefined, "stderr parses", f.probes.bogus),
  },
  {
    id: "E4",
    group: "Errors",
    priority: "P0",
    title: "code is machine-readable (UPPER_SNAKE)",
    judge: (f) => {
      const errs = errorProbes(f);
      const bad = errs.filter((p) => !UPPER_SNAKE.test(p.error.code));
      return verdict(
        errs.length > 0 && !bad.length,
        `codes: ${[...new Set(errs.map((p) => p.error.code))].join(", ")}`,
        ...(bad.length ? bad : [f.probes.bogus]),
      );
    },
  },
  {
    id: "E5",
    group: "Errors",
    priority: "P0",
    title: "message is non-empty",
    judge: (f) => {
      const errs = errorProbes(f);
      return verdict(
        errs.length > 0 && errs.every((p) => String(p.error.message).trim().length > 0),
        "messages present",
        f.probes.bogus,
      );
    },
  },
  {
    id: "E6",
    group: "Errors",
    priority: "P1",
    title: "suggestion says what to do next",
    judge: (f) => {
      const errs = errorProbes(f);
      return verdict(
        errs.length > 0 &&
          errs.every((p) => typeof p.error.suggestion === "string" && p.error.suggestion.trim().length > 0),
        "every error has a suggestion",
        f.probes.bogus,
      );
    },
  },
  {
    id: "E7",
    group: "Errors",
    priority: "P0",
    title: "never goes interactive on error; exits at once (bare invocation too)",
    judge: (f) => {
      const hung = [f.probes.bare, f.probes.bogus, f.probes.jsonInputClosed, f.probes.createEmpty].filter(
        (p) => p?.timedOut,
      );
      return verdict(
        !!f.probes.bare && !hung.length,
        hung.length
          ? `did not return: ${hung.map((p) => p!.command).join("; ")}`
          : `bare invocation returned in ${f.probes.bare?.durationMs} ms`,
        ...(hung.length ? hung : [f.probes.bare]),
      );
    },
  },
  {
    id: "E8",
    group: "Errors",
    priority: "P0",
    title: "error codes are contracts: never renamed within a major version",
    judge: (f) => {
      const errs = errorProbes(f);
      return verdict(
        errs.length > 0 && errs.every((p) => UPPER_SNAKE.test(p.error.code)),
        "every error carries a stable-looking code; renames across versions need two versions to compare (not established here)",
        f.probes.bogus,
      );
    },
  },
  // Input
  {
    id: "I1",
    group: "Input",
    priority: "P1",
    title: "every flag has a --long-name",
    judge: (f) =>
      params(f).length
        ? verdict(
            params(f).every((p) => /^--[a-z0-9-]+$/.test(p.name)),
            "parameters are --long-names",
            f.probes.help,
          )
        : na("no parameters"),
  },
  {
    id: "I2",
    group: "Input",
    priority: "P1",
    title: "no positional arguments whose meaning depends on order",
    judge: (f) =>
      verdict(
        refused(f.probes.positional) && f.probes.positional?.exitCode === 2,
        "a stray argument is refused",
        f.probes.positional,
      ),
  },
  {
    id: "I3",
    group: "Input",
    priority: "P2",
    title: "--json-input reads a body from stdin",
    judge: (f) => {
      const p = f.probes.jsonInputEnvelope;
      if (!p) return noSubject(f, "body", "no command takes a request body");
      const problem = p.exitCode === 0 ? bodyProblem(p, f.bodyFields ?? []) : `exit ${p.exitCode}`;
      return verdict(
        !problem,
        `${subject(f, "body")}: ${problem ? `a body piped to --json-input was not taken (${problem})` : `a body piped to --json-input (${(f.bodyFields ?? []).join(", ") || "no fields"}) is the request's body`}`,
        p,
      );
    },
  },
  {
    id: "I4",
    group: "Input",
    priority: "P1",
    title: "a missing required parameter is a structured error, exit 2",
    judge: (f) =>
      f.probes.createEmpty
        ? verdict(
            refused(f.probes.createEmpty) && f.probes.createEmpty.exitCode === 2,
            `${subject(f, "required")} called with nothing`,
            f.probes.createEmpty,
          )
        : noSubject(f, "required", "no command has required parameters"),
  },
  {
    id: "I5",
    group: "Input",
    priority: "P1",
    title: "a wrongly typed value is a structured error, exit 2",
    judge: (f) =>
      f.probes.typedBad
        ? verdict(
            refused(f.probes.typedBad) && f.probes.typedBad.exitCode === 2,
            "a non-number for an integer flag",
            f.probes.typedBad,
          )
        : noSubject(f, "typed", "no integer parameter to mistype"),
  },
  {
    id: "I6",
    group: "Input",
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
    group: "Input",
    priority: "P2",
    title: "arrays as repeated flags or comma lists",
    judge: (f) => {
      const arrays = params(f).filter((p) => p.type === "array");
      return arrays.length
        ? verdict(
            arrays.every((p) => "items" in p),
            "array parameters declare their items",
            f.probes.help,
          )
        : na("no array parameters");
    },
  },
  {
    id: "I8",
    group: "Input",
    priority: "P1",
    title: "no hidden state changes behaviour",
    judge: (f) =>
      verdict(
        !!f.probes.help && f.probes.help.stdout === f.probes.helpFreshHome?.stdout,
        "help is identical under a fresh HOME",
        f.probes.help,
        f.probes.helpFreshHome,
      ),
  },
  {
    id: "I9",
    group: "Input",
    priority: "P1",
    title: "authentication never prompts (environment or flags only)",
    judge: (f) =>
      f.probes.noCredential
        ? verdict(
            !f.probes.noCredential.timedOut && refused(f.probes.noCredential),
            "without a credential the CLI stops with an error",
            f.probes.noCredential,
          )
        : noSubject(f, "auth", "no command needs a credential"),
  },
  // Safety
  {
    id: "S1",
    group: "Safety",
    priority: "P1",
    title: "destructive operations refuse without --yes",
    judge: (f) =>
      f.probes.destructiveRefused
        ? verdict(refused(f.probes.destructiveRefused), "refused without --yes", f.probes.destructiveRefused)
        : noSubject(f, "destructive", "no destructive command"),
  },
  {
    id: "S2",
    group: "Safety",
    priority: "P2",
    title: "the refusal names --yes",
    judge: (f) =>
      f.probes.destructiveRefused
        ? verdict(
            f.probes.destructiveRefused.stderr.includes("--yes"),
            "the error mentions --yes",
            f.probes.destructiveRefused,
          )
        : noSubject(f, "destructive", "no destructive command"),
  },
  {
    id: "S3",
    group: "Safety",
    priority: "P2",
    title: "--dry-run previews",
    judge: (f) => {
      // issue create --dry-run: a preview that says so (dry_run: true), and nothing recorded (the listing lacks it).
      const preview = f.probes.issueDryRun;
      const said = preview?.exitCode === 0 && (data(preview)?.dry_run === true || envelope(preview)?.dry_run === true);
      const listed = data(f.probes.issueList);
      const written =
        Array.isArray(listed) && listed.some((i: { message?: unknown }) => i?.message === DRY_RUN_MESSAGE);
      const builtin = !preview
        ? undefined
        : !said
          ? "issue create --dry-run did not answer with a preview (dry_run: true)"
          : written
            ? "issue create --dry-run recorded the issue"
            : !Array.isArray(listed)
              ? "issue list did not answer, so the preview's effect is unknown"
              : undefined;
      if (builtin) return verdict(false, builtin, preview, f.probes.issueList);
      if (f.probes.dryRun)
        return verdict(
          f.probes.dryRun.exitCode === 0 &&
            !!f.probes.dryRun.json &&
            !f.probes.dryRun.stdout.includes("inter-probe-credential"),
          `dry run printed the request, credential hidden${preview ? "; issue create --dry-run previewed and recorded nothing" : ""}`,
          f.probes.dryRun,
          preview,
        );
      return verdict(
        hasFlag(f, "--dry-run") && !!preview,
        preview
          ? "issue create --dry-run previewed and recorded nothing"
          : "--dry-run declared, but no write command could be probed",
        f.probes.help,
        preview,
      );
    },
  },
  {
    id: "S4",
    group: "Safety",
    priority: "P1",
    title: ".. traversal and control characters in inputs are refused",
    judge: (f) =>
      f.probes.traversal
        ? verdict(
            refused(f.probes.traversal) && refused(f.probes.control),
            "both refused",
            f.probes.traversal,
            f.probes.control,
          )
        : noSubject(f, "hostile", "no command takes a string value"),
  },
  {
    id: "S5",
    group: "Safety",
    priority: "P2",
    title: "no self-update",
    judge: (f) => {
      const pkg = JSON.parse(f.files["package.json"] ?? "{}");
      const hooks = Object.keys(pkg.scripts ?? {}).filter((s) => /install|prepare/.test(s));
      const updater = f.commands.find((c) => !c.method && /\b(self-update|upgrade)\b/.test(c.name));
      return verdict(
        !hooks.length && !updater,
        hooks.length
          ? `install hooks: ${hooks.join(", ")}`
          : updater
            ? `updater command: ${updater.name}`
            : "no install hooks or updater command (API operations named upgrade are not updaters)",
      );
    },
  },
  {
    id: "S6",
    group: "Safety",
    priority: "P2",
    title: "destructive commands are marked destructive: true in help",
    judge: (f) => {
      const d = f.commands.filter((c) => c.destructive === true);
      return d.length
        ? verdict(true, `marked: ${d.map((c) => c.name).join(", ")}`, f.probes.help)
        : f.probes.destructiveRefused
          ? verdict(false, "a command refused without --yes but is not marked")
          : na("no destructive command");
    },
  },
  {
    id: "S7",
    group: "Safety",
    priority: "P2",
    title: "--quiet never bypasses --yes",
    judge: (f) =>
      f.probes.destructiveQuiet
        ? verdict(refused(f.probes.destructiveQuiet), "still refused with --quiet", f.probes.destructiveQuiet)
        : noSubject(f, "destructive", "no destructive command"),
  },
  {
    id: "S8",
    group: "Safety",
    priority: "P1",
    title: "a --sanitize flag cleans external input",
    judge: (f) => verdict(hasFlag(f, "--sanitize"), "--sanitize declared", f.probes.help),
  },
  // Exit codes
  {
    id: "X1",
    group: "Exit codes",
    priority: "P1",
    title: "0 success",
    judge: (f) =>
      verdict(
        f.probes.help?.exitCode === 0 && f.probes.skills?.exitCode === 0,
        "successful calls exit 0",
        f.probes.skills,
      ),
  },
  {
    id: "X2",
    group: "Exit codes",
    priority: "P2",
    title: "1 general",
    judge: (f) =>
      f.probes.help?.json?.exitCodes?.["1"]
        ? verdict(true, "exit 1 documented for general errors (not provoked)", f.probes.help)
        : na("a general failure cannot be provoked safely, and none is documented"),
  },
  {
    id: "X3",
    group: "Exit codes",
    priority: "P0",
    title: "2 usage or parameter error",
    judge: (f) =>
      verdict(f.probes.bogus?.exitCode === 2, `bogus flag exit ${f.probes.bogus?.exitCode}`, f.probes.bogus),
  },
  {
    id: "X4",
    group: "Exit codes",
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
    group: "Exit codes",
    priority: "P2",
    title: "11 permission",
    judge: (f) =>
      f.probes.help?.json?.exitCodes?.["11"]
        ? verdict(true, "exit 11 documented (a permission failure cannot be provoked from outside)", f.probes.help)
        : na("a permission failure cannot be provoked from outside"),
  },
  {
    id: "X6",
    group: "Exit codes",
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
    group: "Exit codes",
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
    group: "Exit codes",
    priority: "P2",
    title: "exit code matches the error code",
    judge: (f) => {
      const seen = new Map<string, Set<number | null>>();
      for (const p of errorProbes(f)) seen.set(p.error.code, new Set([...(seen.get(p.error.code) ?? []), p.exitCode]));
      const mixed = [...seen].filter(([, exits]) => exits.size > 1 || exits.has(0)).map(([c]) => c);
      return verdict(
        seen.size > 0 && !mixed.length,
        mixed.length
          ? `codes with several exit codes, or reported with exit 0: ${mixed.join(", ")}`
          : `${seen.size} codes, each with one exit code`,
        ...errorProbes(f)
          .filter((p) => mixed.includes(p.error.code))
          .slice(0, 2),
      );
    },
  },
  {
    id: "X9",
    group: "Exit codes",
    priority: "P0",
    title: "never exit 0 with an error reported on stdout",
    judge: (f) => {
      const bad = Object.values(f.probes).filter(
        (p): p is Probe => !!p && p.exitCode === 0 && (p.json?.ok === false || p.json?.error === true),
      );
      return verdict(!bad.length, bad.length ? "exit 0 with an error document" : "no exit 0 carried an error", ...bad);
    },
  },
  // Composability
  {
    id: "C1",
    group: "Composability",
    priority: "P0",
    title: "stdout is data only",
    judge: (f) => {
      const ok = [f.probes.help, f.probes.skills, f.probes.version, f.probes.list].filter(
        (p): p is Probe => !!p && p.exitCode === 0,
      );
      return verdict(
        ok.length > 0 && ok.every((p) => p.json !== undefined),
        "successful stdout is one JSON document",
        ...ok.filter((p) => p.json === undefined),
      );
    },
  },
  {
    id: "C2",
    group: "Composability",
    priority: "P0",
    title: "logs, progress and warnings go to stderr",
    judge: (f) => {
      const ok = [f.probes.help, f.probes.skills, f.probes.list].filter((p): p is Probe => !!p && p.exitCode === 0);
      return verdict(
        ok.every((p) => p.json !== undefined),
        "nothing but data on stdout; anything else would be on stderr",
        f.probes.skills,
      );
    },
  },
  {
    id: "C3",
    group: "Composability",
    priority: "P2",
    title: "| jq . works",
    judge: (f) =>
      verdict(
        f.probes.skills?.json !== undefined && f.probes.help?.json !== undefined,
        "stdout is valid JSON",
        f.probes.skills,
      ),
  },
  {
    id: "C4",
    group: "Composability",
    priority: "P2",
    title: "--quiet silences non-essential stderr",
    judge: (f) =>
      verdict(
        f.probes.skillsQuiet?.exitCode === 0 &&
          f.probes.skillsQuiet.stderr === "" &&
          Array.isArray(f.probes.skillsQuiet.json),
        "--quiet: data only, stderr empty",
        f.probes.skillsQuiet,
      ),
  },
  {
    id: "C5",
    group: "Composability",
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
    group: "Composability",
    priority: "P1",
    title: "no prompt when piped (echo | cli cmd returns)",
    judge: (f) =>
      verdict(
        !!f.probes.barePipe && !f.probes.barePipe.timedOut,
        `returned in ${f.probes.barePipe?.durationMs} ms`,
        f.probes.barePipe,
      ),
  },
  {
    id: "C7",
    group: "Composability",
    priority: "P2",
    title: "the same read gives the same result",
    judge: (f) =>
      f.probes.list && f.probes.listAgain
        ? verdict(
            f.probes.list.stdout === f.probes.listAgain.stdout,
            "two identical list calls",
            f.probes.list,
            f.probes.listAgain,
          )
        : verdict(f.probes.help?.stdout === f.probes.helpFreshHome?.stdout, "two identical help calls", f.probes.help),
  },
  // Naming
  {
    id: "N1",
    group: "Naming",
    priority: "P2",
    title: "one consistent noun-verb pattern",
    judge: (f) =>
      f.commands.length
        ? verdict(
            f.commands.every((c) => c.name.split(" ").length >= 2),
            "every command is <noun> … <verb>",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "N2",
    group: "Naming",
    priority: "P2",
    title: "kebab-case flags and commands",
    judge: (f) =>
      verdict(
        f.commands.every((c) => c.name.split(" ").every((w) => KEBAB.test(w))) &&
          params(f).every((p) => KEBAB.test(p.name.replace(/^--/, ""))),
        "names are kebab-case",
        f.probes.help,
      ),
  },
  {
    id: "N3",
    group: "Naming",
    priority: "P2",
    title: "at most three levels",
    judge: (f) =>
      verdict(
        f.commands.every((c) => c.name.split(" ").length <= 3),
        "no command deeper than three words",
        f.probes.help,
      ),
  },

  {
    id: "N4",
    group: "Naming",
    priority: "P1",
    title: "the reserved flags exist",
    judge: (f) => {
      const missing = [
        "--agent",
        "--human",
        "--brief",
        "--help",
        "--version",
        "--yes",
        "--dry-run",
        "--quiet",
        "--fields",
      ].filter((x) => !hasFlag(f, x));
      return verdict(
        !missing.length,
        missing.length ? `missing: ${missing.join(" ")}` : "all nine reserved flags exist",
        f.probes.help,
      );
    },
  },
  {
    id: "N5",
    group: "Naming",
    priority: "P2",
    title: "--help works everywhere",
    judge: (f) => {
      const bad = Object.values(f.commandHelp).filter((p) => p.exitCode !== 0 || p.json === undefined);
      return verdict(
        !bad.length && f.probes.help?.exitCode === 0,
        `${Object.keys(f.commandHelp).length + 1} help calls`,
        ...bad.slice(0, 2),
      );
    },
  },
  {
    id: "N6",
    group: "Naming",
    priority: "P2",
    title: "--version prints semver",
    judge: (f) => {
      // --version anywhere prints the version and nothing else: after a command it must not run the command.
      const after = [f.probes.versionAfter, f.probes.versionGroup].filter((p): p is Probe => !!p);
      const ran = after.filter(
        (p) =>
          p.exitCode !== 0 ||
          versionOf(p) !== version(f) ||
          (envelope(p)?.result !== undefined &&
            JSON.stringify(envelope(p)!.result) !== JSON.stringify(envelope(f.probes.version)?.result)),
      );
      return verdict(
        f.probes.version?.exitCode === 0 && SEMVER.test(version(f)) && !ran.length,
        ran.length
          ? `--version after a command did something else: ${ran.map((p) => `${p.command} (exit ${p.exitCode})`).join("; ")}`
          : `version "${version(f)}"${after.length ? `, the same after a command and a group` : ""}`,
        f.probes.version,
        ...(ran.length ? ran : after),
      );
    },
  },
  // Meta
  {
    id: "M1",
    group: "Meta",
    priority: "P2",
    title: "AGENTS.md at the package root",
    judge: (f) => verdict(!!f.files["AGENTS.md"]?.trim(), f.files["AGENTS.md"] ? "present" : "missing"),
  },
  {
    id: "M2",
    group: "Meta",
    priority: "P2",
    title: "an MCP tool-schema export",
    judge: (f) =>
      verdict(
        Array.isArray(f.probes.mcp?.json?.tools),
        `${f.probes.mcp?.json?.tools?.length ?? 0} tools`,
        f.probes.mcp,
      ),
  },
  {
    id: "M3",
    group: "Meta",
    priority: "P2",
    title: "CHANGELOG.md marks breaking changes",
    judge: (f) =>
      verdict(
        /breaking/i.test(f.files["CHANGELOG.md"] ?? ""),
        f.files["CHANGELOG.md"] ? "CHANGELOG.md says how breaking changes are marked" : "CHANGELOG.md missing",
      ),
  },
  // Feedback
  {
    id: "F1",
    group: "Feedback",
    priority: "P2",
    title: "an issue subcommand (create / list / show)",
    judge: (f) =>
      verdict(
        [f.probes.issueCreate, f.probes.issueList, f.probes.issueShow].every((p) => p?.exitCode === 0),
        "create, list and show succeed",
        f.probes.issueCreate,
        f.probes.issueList,
        f.probes.issueShow,
      ),
  },
  {
    id: "F2",
    group: "Feedback",
    priority: "P2",
    title: "a report records version, context and exit code",
    judge: (f) => {
      const r = data(f.probes.issueCreate);
      return verdict(
        !!r?.version && !!r?.context && r.context.exit_code === 1,
        "version, context and exit_code recorded",
        f.probes.issueCreate,
      );
    },
  },
  {
    id: "F3",
    group: "Feedback",
    priority: "P2",
    title: "types bug / requirement / suggestion / bad-output",
    judge: (f) =>
      verdict(
        ["bug", "requirement", "suggestion", "bad-output"].every((t) => f.probes.help?.stdout.includes(t)),
        "all four types documented",
        f.probes.help,
      ),
  },
  {
    id: "F4",
    group: "Feedback",
    priority: "P2",
    title: "stored locally, no external service",
    judge: (f) =>
      verdict(
        f.probes.issueCreate?.exitCode === 0 && f.stateFiles.length > 0,
        `stored in the CLI's state folder: ${f.stateFiles.join(", ") || "nothing"}`,
        f.probes.issueCreate,
      ),
  },
  {
    id: "F5",
    group: "Feedback",
    priority: "P2",
    title: "issue list and issue show <id> are queryable (filters by type and status)",
    judge: (f) => {
      const id = data(f.probes.issueCreate)?.id;
      const listed =
        Array.isArray(data(f.probes.issueList)) && data(f.probes.issueList).some((i: { id: unknown }) => i.id === id);
      return verdict(
        listed && data(f.probes.issueShow)?.id === id,
        "the new issue is found by list --type --status and by show",
        f.probes.issueList,
        f.probes.issueShow,
      );
    },
  },
  {
    id: "F6",
    group: "Feedback",
    priority: "P2",
    title: "statuses open / in-progress / resolved / closed with transitions",
    judge: (f) =>
      verdict(
        data(f.probes.issueUpdate)?.status === "closed" && refused(f.probes.issueBadTransition),
        "open → closed allowed, closed → in-progress refused",
        f.probes.issueUpdate,
        f.probes.issueBadTransition,
      ),
  },
  {
    id: "F7",
    group: "Feedback",
    priority: "P2",
    title: "an issue record has id, type, status, message, created_at, updated_at",
    judge: (f) => {
      const r = data(f.probes.issueCreate) ?? {};
      const missing = ["id", "type", "status", "message", "created_at", "updated_at"].filter((k) => !(k in r));
      return verdict(
        !missing.length,
        missing.length ? `missing: ${missing.join(", ")}` : "all six fields",
        f.probes.issueCreate,
      );
    },
  },
  {
    id: "F8",
    group: "Feedback",
    priority: "P2",
    title: "every listed issue has a status",
    judge: (f) => {
      const rows = data(f.probes.issueList);
      return verdict(
        Array.isArray(rows) && rows.length > 0 && rows.every((i: { status?: unknown }) => typeof i.status === "string"),
        "statuses present",
        f.probes.issueList,
      );
    },
  },
  // Guardrails
  {
    id: "G1",
    group: "Guardrails",
    priority: "P1",
    title: "unknown flags exit 2",
    judge: (f) => {
      // On the CLI itself and on its built-in commands (skills, issue), with a value and without.
      const probes = [f.probes.bogus, f.probes.bogusSkills, f.probes.bogusIssue].filter((p): p is Probe => !!p);
      // MISSING_FLAG would say the flag was taken as a known one lacking its value.
      const bad = probes.filter((p) => p.exitCode !== 2 || !structured(p) || p.error?.code === "MISSING_FLAG");
      return verdict(
        !!f.probes.bogus && !bad.length,
        bad.length
          ? `an unknown flag was not refused with exit 2: ${bad.map((p) => `${p.command} (exit ${p.exitCode})`).join("; ")}`
          : `bogus flags refused with exit 2 (${count(probes.length, "call")}, built-in commands included)`,
        ...(bad.length ? bad : probes),
      );
    },
  },
  {
    id: "G2",
    group: "Guardrails",
    priority: "P1",
    title: "values that look like keys or tokens are refused with a code naming SECRET",
    judge: (f) => {
      if (!f.probes.secret) return noSubject(f, "hostile", "no command takes a string value");
      // A command's flag (a long key and a short sk-live-… one), a global flag's value, a built-in's argument.
      const probes = [f.probes.secret, f.probes.secretShort, f.probes.secretFields, f.probes.secretSkill].filter(
        (p): p is Probe => !!p,
      );
      const bad = probes.filter(
        (p) =>
          !refused(p) ||
          !/SECRET/.test(p.error?.code ?? "") ||
          p.stderr.includes("sk-interprobe0123456789") ||
          p.stderr.includes("sk-live-0123abcd"),
      );
      return verdict(
        !bad.length,
        bad.length
          ? `not refused as a secret, or echoed: ${bad.map((p) => `${p.command} (exit ${p.exitCode})`).join("; ")}`
          : `sk-… refused and not echoed (${count(probes.length, "call")}: a flag, a short key, --fields, a skills argument)`,
        ...(bad.length ? bad : [f.probes.secret]),
      );
    },
  },
  {
    id: "G3",
    group: "Guardrails",
    priority: "P1",
    title: "sensitive paths (.env, *.key, *.pem, id_rsa) are refused",
    judge: (f) => {
      if (!f.probes.sensitive) return noSubject(f, "hostile", "no command takes a string value");
      // Refused as a bad value (exit 2), not failing later for another reason (no credential, the API's 404).
      const refusedValue = (p?: Probe) => refused(p) && p!.exitCode === 2;
      const ok = refusedValue(f.probes.sensitive) && (!f.probes.sensitiveBare || refusedValue(f.probes.sensitiveBare));
      return verdict(
        ok,
        !refusedValue(f.probes.sensitive)
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
    group: "Guardrails",
    priority: "P2",
    title: "each command declares its permission (read / write / delete)",
    judge: (f) =>
      f.commands.length
        ? verdict(
            f.commands.every((c) => ["read", "write", "delete"].includes(String(c.permission))),
            "permission declared",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "G5",
    group: "Guardrails",
    priority: "P2",
    title: "output can redact PII",
    judge: (f) => verdict(hasFlag(f, "--redact"), "--redact declared", f.probes.help),
  },
  {
    id: "G6",
    group: "Guardrails",
    priority: "P1",
    title: "a missing precondition (no credential, no base URL) is a structured error",
    judge: (f) =>
      f.probes.noCredential
        ? verdict(refused(f.probes.noCredential), "no credential → structured error", f.probes.noCredential)
        : noSubject(f, "auth", "no command needs a credential"),
  },
  {
    id: "G7",
    group: "Guardrails",
    priority: "P2",
    title: "batch sizes are bounded",
    judge: (f) => verdict(hasFlag(f, "--max-pages"), "--max-pages bounds --all", f.probes.help),
  },
  {
    id: "G8",
    group: "Guardrails",
    priority: "P1",
    title: "shell metacharacters in identifiers and paths are refused",
    judge: (f) =>
      f.probes.shell
        ? verdict(refused(f.probes.shell), "x;rm -rf / refused", f.probes.shell)
        : noSubject(f, "hostile", "no command takes an identifier"),
  },
  {
    id: "G9",
    group: "Guardrails",
    priority: "P1",
    title: "if a guardrail itself errors, the command is refused (fail closed)",
    judge: (f) =>
      f.probes.secret
        ? verdict(
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
];

const CORE = new Set("O1 O2 O3 E1 E4 E5 E7 E8 X3 X9 C1 C2 I4 I5 S1 S4 G1 G2 G3 G8".split(" "));
const ECOSYSTEM = new Set("D12 D13 D14 D17 D18 R1 R2 R3 M1 M2 M3 F1 F2 F3 F4 F5 F6 F7 F8".split(" "));

export function layerOf(id: string): Layer {
  return CORE.has(id) ? "core" : ECOSYSTEM.has(id) ? "ecosystem" : "recommended";
}
