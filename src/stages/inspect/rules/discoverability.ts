import { count } from "../../../core/plural.js";
import type { Probe } from "../probes.js";
import { documentOf, isObject, listOf, recordOf } from "../probe-output.js";
import {
  declared,
  frontmatter,
  hasFlag,
  helpOf,
  na,
  namesOf,
  params,
  printedJson,
  section,
  SEMVER,
  unreadable,
  verdict,
  version,
  expected,
} from "./judging.js";

/** Whether --brief printed a brief: a `brief` field in its result that says something, or any text. */
const briefPrinted = (p?: Probe) => {
  const brief = recordOf(p)?.brief;
  return typeof brief === "string" ? brief.trim().length > 0 : !!p?.stdout.trim();
};

/** The spec's Discoverability rules ("Discoverability" in the Agent-Friendly CLI Spec v0.1). */
export const DISCOVERABILITY = section("Discoverability", [
  {
    id: "D1",
    priority: "P1",
    title: "--help prints JSON with a commands array",
    judge: (f) => {
      const ok = !!helpOf(f)?.commands;
      return verdict(
        ok,
        ok ? "root --help is JSON with commands[]" : unreadable(f.probes.help, "a JSON object with commands[]"),
        f.probes.help,
      );
    },
  },
  {
    id: "D2",
    priority: "P2",
    title: "<cmd> --help prints that command's JSON",
    judge: (f) => {
      const helps = Object.entries(f.commandHelp);
      if (!helps.length) return na("the CLI lists no commands");
      // That command's own document: it names the command, or lists it alone (a group's document listing it among
      // others is not its help).
      const own = (name: string, p: Probe) => {
        const doc = documentOf(p);
        const listed = doc?.commands?.length === 1 ? doc.commands[0] : undefined;
        return doc?.command?.name === name || (isObject(listed) && listed.name === name);
      };
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
    priority: "P1",
    title: "help JSON has help (string) and commands (array)",
    judge: (f) =>
      verdict(helpOf(f)?.help !== undefined && !!helpOf(f)?.commands, "help and commands present", f.probes.help),
  },
  {
    id: "D4",
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
    priority: "P2",
    title: "constrained parameters list their enum",
    judge: (f) =>
      params(f).some((p) => "enum" in p)
        ? expected(
            params(f).every((p) => !("enum" in p) || (Array.isArray(p.enum) && p.enum.length > 0)),
            "declared enums are non-empty lists",
            f.probes.help,
          )
        : na("no parameter declares a fixed set of values"),
  },
  {
    id: "D6",
    priority: "P2",
    title: "parameters with defaults declare default",
    judge: (f) =>
      params(f).some((p) => "default" in p)
        ? verdict(true, "defaults are declared in help", f.probes.help)
        : na("no parameter declares a default"),
  },
  {
    id: "D7",
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
    priority: "P2",
    title: "commands declare their output shape",
    judge: (f) =>
      f.commands.length
        ? expected(
            f.commands.every((c) => typeof c.output === "string"),
            "output declared per command",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "D9",
    priority: "P1",
    title: "every command has a non-empty description",
    judge: (f) =>
      f.commands.length
        ? expected(
            f.commands.every((c) => typeof c.description === "string" && c.description.trim().length > 0),
            "descriptions present",
            f.probes.help,
          )
        : na("no commands"),
  },
  {
    id: "D10",
    priority: "P2",
    title: "the version is semver",
    judge: (f) => verdict(SEMVER.test(version(f)), `version "${version(f)}"`, f.probes.version),
  },
  {
    id: "D11",
    priority: "P1",
    title: "help JSON carries help, commands, rules, skills (and issue)",
    judge: (f) =>
      expected(
        ["help", "commands", "rules", "skills", "issue"].every((k) => helpOf(f)?.keys.includes(k)),
        "all five keys present",
        f.probes.help,
      ),
  },
  {
    id: "D12",
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
    priority: "P1",
    title: "agent/rules/ holds trigger.md, workflow.md, writeback.md",
    judge: (f) => {
      const missing = ["trigger", "workflow", "writeback"].filter((r) => !f.files[`agent/rules/${r}.md`]);
      return verdict(!missing.length, missing.length ? `missing: ${missing.join(", ")}` : "all three present");
    },
  },
  {
    id: "D14",
    priority: "P2",
    title: "agent/skills/*.md exist and skills lists them (skills <name> shows one)",
    judge: (f) => {
      const files = Object.keys(f.agentSkillFiles).sort();
      const listed = namesOf(listOf(f.probes.skills) ?? []).sort();
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
    priority: "P1",
    title: "--brief prints the brief",
    judge: (f) =>
      verdict(f.probes.brief?.exitCode === 0 && briefPrinted(f.probes.brief), "brief printed", f.probes.brief),
  },
  {
    id: "D16",
    priority: "P1",
    title: "JSON by default, --human for people, --agent forces JSON",
    judge: (f) =>
      expected(
        !!documentOf(f.probes.skills) &&
          f.probes.skillsHuman?.exitCode === 0 &&
          !printedJson(f.probes.skillsHuman) &&
          hasFlag(f, "agent"),
        "default JSON, --human text, --agent declared",
        f.probes.skills,
        f.probes.skillsHuman,
      ),
  },
  {
    id: "D17",
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
]);
