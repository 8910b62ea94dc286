import { count } from "../../../core/plural.js";
import { documentOf, isObject, listOf, type Document, type Json } from "../probe-output.js";
import type { Facts, Probe } from "../probes.js";
import { documents, na, noApi, noSubject, printedJson, ran, section, subject, verdict, expected } from "./judging.js";

/** The documents R1–R3 look in (help, a listing, --describe, --mcp-schema) that lack what `has` asks for. */
const documentsWithout = (f: Facts, has: (doc: Document) => boolean) =>
  documents(f).filter((p) => !has(documentOf(p)!));
const commandsOf = (probes: Probe[]) => probes.map((p) => p.command).join("; ");
/** A skill as every response lists it: name, description and the command that shows it. */
const isSkillRef = (x: Json) =>
  isObject(x) && typeof x.name === "string" && typeof x.description === "string" && typeof x.command === "string";

/** The spec's Output rules ("Output" in the Agent-Friendly CLI Spec v0.1). */
export const OUTPUT = section("Output", [
  {
    id: "O1",
    priority: "P0",
    title: "default output is JSON, no flag needed",
    judge: (f) =>
      expected(
        !!f.probes.skills?.json && (!f.probes.list || !!f.probes.list.json),
        "plain invocations print JSON",
        f.probes.skills,
        f.probes.list,
      ),
  },
  {
    id: "O2",
    priority: "P0",
    title: "it parses (jq .)",
    judge: (f) => {
      const unparsed = ran(f.probes.help, f.probes.skills, f.probes.list).filter((p) => !printedJson(p));
      return verdict(
        !unparsed.length,
        unparsed.length ? `stdout is not JSON: ${commandsOf(unparsed)}` : "stdout parses as JSON",
        f.probes.help,
        f.probes.skills,
      );
    },
  },
  {
    id: "O3",
    priority: "P0",
    title: "its shape does not change within a version",
    judge: (f) => {
      const keys = (p?: Probe) => [...(documentOf(p)?.keys ?? [])].sort().join(",");
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
    priority: "P2",
    title: "--fields a,b trims output",
    judge: (f) => {
      const rows = listOf(f.probes.skillsFields);
      const ok = !!rows && rows.every((r) => isObject(r) && Object.keys(r).join() === "name");
      return expected(
        ok && (!f.probes.listFields || !!listOf(f.probes.listFields)),
        "--fields name keeps only name",
        f.probes.skillsFields,
        f.probes.listFields,
      );
    },
  },
  {
    id: "O5",
    priority: "P2",
    title: "an empty result is [], not an error",
    judge: (f) =>
      expected(
        f.probes.issueEmpty?.exitCode === 0 && listOf(f.probes.issueEmpty)?.length === 0,
        "an empty listing is []",
        f.probes.issueEmpty,
      ),
  },
  {
    id: "O6",
    priority: "P2",
    title: "--human exists",
    judge: (f) =>
      expected(
        f.probes.skillsHuman?.exitCode === 0 && !!f.probes.skillsHuman.stdout.trim(),
        "--human prints text",
        f.probes.skillsHuman,
      ),
  },
  {
    id: "O7",
    priority: "P2",
    title: "many results come as an array",
    judge: (f) =>
      expected(
        !!listOf(f.probes.skills) && (!f.probes.list || !!listOf(f.probes.list)),
        "lists are arrays",
        f.probes.skills,
        f.probes.list,
      ),
  },
  {
    id: "O8",
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
      if (filled && f.probes.paged.exitCode !== 0) {
        const refusal = `refused the probe's sample values (exit ${f.probes.paged.exitCode})`;
        return na(`${subject(f, "paged")} ${refusal}, so its paging was not seen`);
      }
      const page = documentOf(f.probes.paged)?.page;
      return verdict(
        !!page && typeof page.has_more === "boolean",
        `${subject(f, "paged")}: ${page ? `page: ${JSON.stringify(page)}` : "no page information"}`,
        f.probes.paged,
      );
    },
  },
  {
    id: "O9",
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
    priority: "P2",
    title: "JSON automatically when stdout is not a terminal",
    judge: (f) =>
      expected(
        f.probes.help?.json !== undefined && f.probes.skills?.json !== undefined,
        "probes run without a terminal got JSON",
        f.probes.skills,
      ),
  },
  {
    id: "R1",
    priority: "P1",
    title: "every response carries rules[] (the full rule texts)",
    judge: (f) => {
      const r = documentOf(f.probes.skills)?.rules;
      const lacking = documentsWithout(f, (doc) => !!doc.rules);
      return verdict(
        !!r && r.length > 0 && r.every((x) => typeof x === "string" && x.length > 10) && !lacking.length,
        lacking.length
          ? `no rules[] in: ${commandsOf(lacking)}`
          : `${count(r?.length ?? 0, "rule")}, in ${count(documents(f).length + 1, "kind")} of response`,
        f.probes.skills,
        ...lacking,
      );
    },
  },
  {
    id: "R2",
    priority: "P1",
    title: "every response carries skills[] (name, description, command)",
    judge: (f) => {
      const s = documentOf(f.probes.skills)?.skills;
      const lacking = documentsWithout(f, (doc) => !!doc.skills);
      return verdict(
        !!s && s.every(isSkillRef) && !lacking.length,
        lacking.length ? `no skills[] in: ${commandsOf(lacking)}` : `${s?.length ?? 0} skills`,
        f.probes.skills,
        ...lacking,
      );
    },
  },
  {
    id: "R3",
    priority: "P1",
    title: "every response carries issue, a one-line guide to reporting problems",
    judge: (f) => {
      const issue = documentOf(f.probes.skills)?.issue;
      const lacking = documentsWithout(f, (doc) => doc.issue !== undefined);
      return verdict(
        issue !== undefined && !issue.includes("\n") && !lacking.length,
        lacking.length ? `no issue line in: ${commandsOf(lacking)}` : "issue line present",
        f.probes.skills,
        ...lacking,
      );
    },
  },
]);
