import { CSP, esc, inlineMarkdown, STYLE } from "../report/html.js";
import type { TriggerQuery } from "./queries.js";

/** JSON placed inside a <script> element: nothing in it can close the element or open a comment. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

/**
 * The review page of a query set: self-contained (no network: the evaluation report's Content-Security-Policy), the
 * queries grouped should trigger / should not, each editable (text, expected Skill, split), deletable and movable to
 * the other group; new ones added; the edited set exported as JSON (shown, and as a download named like the file, its
 * `$schema` kept) with the draft mark cleared, since a person has now reviewed it. Any query's expected Skill can be
 * any of `skills` or none; changing it (or moving the query) drops its note, which explained the old expectation.
 */
export function reviewPage(input: {
  file: string;
  skill?: string;
  schema?: string;
  queries: TriggerQuery[];
  skills: Array<{ name: string; description: string }>;
}): string {
  const data = {
    file: input.file,
    skill: input.skill ?? null,
    schema: input.schema ?? null,
    queries: input.queries,
    skills: input.skills,
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Review trigger queries — ${esc(input.file)}</title><style>${STYLE}
.q{display:flex;flex-direction:column;gap:.4em;margin:.6em 0;padding:.5em;border:1px solid var(--line);border-radius:.4em}
.q textarea{width:100%;font:inherit;resize:vertical}.q .query{min-height:2.6em}.q .note{min-height:1.6em;color:var(--muted);overflow:hidden}
.q .controls{display:flex;flex-wrap:wrap;gap:.4em;align-items:center}
.q label{color:var(--muted);font-size:.9em}#skills li{margin:.3em 0}#skills p{margin:.1em 0 .4em}
#export{width:100%;min-height:12em;font-family:monospace}</style></head>
<body><main><h1>Review trigger queries</h1>
<p><code>${esc(input.file)}</code>${input.skill ? ` · Skill <strong>${esc(input.skill)}</strong>` : ""}. Should-trigger queries expect ${input.skill ? "this Skill" : "a Skill"}; should-not ones expect ${input.skill ? "another Skill or none (near misses)" : "none"}. Edit, add, delete or move queries, then export and save the JSON over the file.</p>
${input.skills.length ? `<section><h2>The Skills</h2><ul id="skills">${input.skills.map((k) => `<li><strong>${esc(k.name)}</strong>${k.description ? `<p>${inlineMarkdown(k.description)}</p>` : ""}</li>`).join("")}</ul></section>` : ""}
<section><h2>Should trigger (<span id="count-should">0</span>)</h2><div id="should"></div><button type="button" id="add-should">Add a should-trigger query</button></section>
<section><h2>Should not trigger (<span id="count-should-not">0</span>)</h2><div id="should-not"></div><button type="button" id="add-should-not">Add a should-not query</button></section>
<section><h2>Export</h2><button type="button" id="export-button">Export JSON</button> <a id="download" download="${esc(input.file)}" hidden>Download</a><textarea id="export" readonly></textarea></section>
</main>
<script id="data" type="application/json">${scriptJson(data)}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const names = [...new Set([...data.skills.map((s) => s.name), ...(data.skill ? [data.skill] : []), ...data.queries.map((q) => q.expected_skill).filter((s) => s)])];
const target = data.skill || names[0] || null;
let queries = data.queries.map((q) => Object.assign({}, q));
const shouldTrigger = (q) => (data.skill ? q.expected_skill === data.skill : q.expected_skill !== null);
function option(value, label, selected) {
  const o = document.createElement("option");
  o.value = value; o.textContent = label; o.selected = selected;
  return o;
}
function row(q) {
  const div = document.createElement("div");
  div.className = "q";
  div.dataset.index = String(queries.indexOf(q));
  const text = document.createElement("textarea");
  text.className = "query"; text.value = q.query; text.setAttribute("aria-label", "query");
  text.addEventListener("input", () => { q.query = text.value; });
  const expectedLabel = document.createElement("label");
  expectedLabel.textContent = "expects";
  const expected = document.createElement("select");
  expected.className = "expected"; expected.setAttribute("aria-label", "expected Skill");
  const choices = [...new Set([...names, ...(q.expected_skill ? [q.expected_skill] : [])])];
  for (const n of choices) expected.append(option(n, n, q.expected_skill === n));
  expected.append(option("", "(none)", q.expected_skill === null));
  expected.addEventListener("change", () => setExpected(q, expected.value || null));
  const splitLabel = document.createElement("label");
  splitLabel.textContent = "split";
  const split = document.createElement("select");
  split.className = "split"; split.setAttribute("aria-label", "split");
  for (const s of ["test", "train"]) split.append(option(s, s, (q.split || "test") === s));
  split.addEventListener("change", () => { q.split = split.value; });
  const toggle = document.createElement("button");
  toggle.type = "button"; toggle.className = "toggle";
  // Says what the query will then expect: the button moves it to the other group.
  toggle.textContent = data.skill ? (shouldTrigger(q) ? "Move: should not load this Skill" : "Move: should load this Skill") : (shouldTrigger(q) ? "Move: should load no Skill" : "Move: should load a Skill");
  toggle.title = "Move to the other group";
  toggle.addEventListener("click", () => setExpected(q, shouldTrigger(q) ? null : target));
  // A note is shown whole: a text area as tall as its text, never a one-line field that cuts it off.
  const note = document.createElement("textarea");
  note.className = "note"; note.value = q.note || ""; note.placeholder = "note (why it expects what it expects)"; note.setAttribute("aria-label", "note"); note.rows = 1;
  const fit = () => { note.style.height = "auto"; note.style.height = note.scrollHeight + 2 + "px"; };
  note.addEventListener("input", () => { if (note.value) q.note = note.value; else delete q.note; fit(); });
  requestAnimationFrame(fit);
  const remove = document.createElement("button");
  remove.type = "button"; remove.className = "delete"; remove.textContent = "Delete";
  remove.addEventListener("click", () => { queries = queries.filter((x) => x !== q); render(); });
  const controls = document.createElement("div");
  controls.className = "controls";
  controls.append(expectedLabel, expected, splitLabel, split, toggle, remove);
  div.append(text, note, controls);
  return div;
}
// A note says why a query expects what it expects ("near miss: the task of X"): once the expectation changes — another
// Skill, none, or a move to the other group — it would say something false, so it goes (the note field shows it).
function setExpected(q, skill) {
  if (q.expected_skill !== skill) delete q.note;
  q.expected_skill = skill;
  render();
}
function render() {
  for (const [id, should] of [["should", true], ["should-not", false]]) {
    const list = queries.filter((q) => shouldTrigger(q) === should);
    document.getElementById(id).replaceChildren(...list.map(row));
    document.getElementById("count-" + id).textContent = String(list.length);
  }
}
function add(should) {
  queries.push({ query: "", expected_skill: should ? target : null, split: "test" });
  render();
  const group = document.getElementById(should ? "should" : "should-not");
  group.lastElementChild && group.lastElementChild.querySelector("textarea.query").focus();
}
document.getElementById("add-should").addEventListener("click", () => add(true));
document.getElementById("add-should-not").addEventListener("click", () => add(false));
document.getElementById("export-button").addEventListener("click", () => {
  const kept = queries.filter((q) => q.query.trim()).map((q) => {
    const out = { query: q.query.trim(), expected_skill: q.expected_skill };
    if (q.split) out.split = q.split;
    if (q.note) out.note = q.note;
    return out;
  });
  const json = JSON.stringify(Object.assign(data.schema ? { $schema: data.schema } : {}, data.skill ? { skill: data.skill } : {}, { draft: false, queries: kept }), null, 2) + "\\n";
  document.getElementById("export").value = json;
  const link = document.getElementById("download");
  link.href = "data:application/json;charset=utf-8," + encodeURIComponent(json);
  link.hidden = false;
});
render();
</script></body></html>
`;
}
