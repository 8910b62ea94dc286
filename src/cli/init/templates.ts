import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { shippedFile } from "../../core/shipped-files.js";
import type { SchemeVariables } from "./credentials.js";

export interface InitChoices {
  name: string;
  binary: string;
  /** Project-relative path of the OpenAPI document (given by --openapi, or the conventional place). */
  openapi: string;
  /** Whether --openapi named a document (otherwise it is a blocker `inter status` reports). */
  openapiGiven: boolean;
  /** Scaffold the complete Rooms example (API server, brief, plan, reference) instead of a skeleton. */
  example: boolean;
  /**
   * The variables of each security scheme the document's commands send, as the design names them
   * (init/credentials.ts); undefined when the document could not be read, `{}` when it sends none.
   */
  credentials?: SchemeVariables;
}

/** A file `inter init` writes: its project-relative path and content. */
export interface Planned {
  path: string;
  content: string;
}

export const GITIGNORE_LINES = [".intermesh/", "dist/", ".inter-eval/"];

/**
 * The binary name a product name suggests: lowercase kebab-case opening with a letter, as product.binary requires
 * (a folder named `2a6c5dde`, a product named "123 Forms": the digits before the first letter are left out).
 */
export function binaryFor(name: string): string {
  return (
    name
      .normalize("NFKD")
      .replace(/[^\w\s-]/g, "")
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, "-")
      .replace(/-+/g, "-")
      .replace(/^[^a-z]+|-$/g, "") || "api"
  );
}

/** The config's `api` line: the document's credential variables by scheme, or a note on where they will come from. */
function apiLines(choices: InitChoices): string {
  const credentials = choices.credentials;
  if (!credentials)
    return `  // The variables the CLI reads its credentials from are named by the build from the document's security schemes
  // (inter build lists them); name your own in api.credentials: { <scheme>: "<VARIABLE>" }.`;
  if (!Object.keys(credentials).length) return "  // The document's operations send no credential.";
  return `  // The variables the generated CLI reads its credentials from, per security scheme of the document (never the values).
  api: { credentials: ${literal(credentials)} },`;
}

/** A plain object as TypeScript source: `{ bearerAuth: "X_TOKEN", "x-key": { value: "X" } }`. */
function literal(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
  return `{ ${Object.entries(value)
    .map(([k, v]) => `${key(k)}: ${literal(v)}`)
    .join(", ")} }`;
}

function configFile(choices: InitChoices): string {
  return `import { defineConfig } from "intermesh";

// Written by \`inter init\`. Every field is described in intermesh's docs/config.md; \`inter status\` says what is missing.
export default defineConfig({
  product: { name: ${JSON.stringify(choices.name)}, binary: ${JSON.stringify(choices.binary)} },
  inputs: {
    // The OpenAPI document (Swagger 2.0 or OpenAPI 3.x, YAML or JSON); files it $refs are followed.
    openapi: ${JSON.stringify(choices.openapi)},
    // The product brief for agents: what users do with the API, its rules, and the tasks an agent should manage.
    context: "inputs/context.md",
  },
${apiLines(choices)}
  targets: {
    cli: { outDir: "dist" },
    // After the first build: \`inter eval new evals --candidate dist/cli.tgz\`, fill in the plan, then enable this.
    // eval: { plan: "evals/eval-plan.json", agent: "reference" },
  },
});
`;
}

/** The brief skeleton: every section the skills task reads, with what to write in it. Placeholders block generation. */
function contextSkeleton(name: string): string {
  return `# ${name}

<!-- TODO: one paragraph: who uses ${name} and what for. Agents read this first. Replace every TODO, then run \`inter status\`. -->

## Rules

<!-- TODO: what an agent must always or never do, one rule per line, e.g.: -->
- <!-- TODO: Never delete a record the user did not name explicitly. -->

## Tasks and scenarios

### <!-- TODO: a task a user asks for, as a short title, e.g. "Book a room for a meeting" -->

<!-- TODO: what the user gives and what the agent does, in the user's words. One "###" section per task; each becomes a
Skill linked to the commands it needs. -->

Expected outcome: <!-- TODO: what is true when the task is done -->
`;
}

const EVALS_README = `# Evaluations

An evaluation plan says which tasks an agent performs with the generated CLI and how to check what it did.

1. Build a candidate: \`inter build\` (writes dist/cli.tgz).
2. Start a plan from it: \`inter eval new evals --candidate dist/cli.tgz\` (one scenario per Skill, with placeholders).
3. Replace every placeholder; \`inter eval validate evals/eval-plan.json\` says what is still wrong.
4. Enable \`targets.eval\` in intermesh.config.ts and run \`inter run eval\`.
`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => f.split("\\").join("/"))
    .sort();
}

/** inter's own Skills, shipped in the package's skills/ folder: folder name → files (relative path → content). */
export function ownSkills(): Map<string, Planned[]> {
  const root = shippedFile("skills");
  const skills = new Map<string, Planned[]>();
  for (const name of readdirSync(root).sort()) {
    if (!statSync(join(root, name)).isDirectory()) continue;
    skills.set(
      name,
      filesUnder(join(root, name)).map((f) => ({ path: f, content: readFileSync(join(root, name, f), "utf8") })),
    );
  }
  return skills;
}

/** The files of the project itself (not the Skills), in the order they are written. */
export function projectFiles(choices: InitChoices): Planned[] {
  if (!choices.example) {
    return [
      { path: "intermesh.config.ts", content: configFile(choices) },
      { path: "inputs/context.md", content: contextSkeleton(choices.name) },
      { path: "evals/README.md", content: EVALS_README },
    ];
  }
  // The example is this package's own: its config with the example's files moved to inputs/.
  const config = readFileSync(shippedFile("intermesh.config.ts"), "utf8").replaceAll("examples/rooms/", "inputs/");
  const files: Planned[] = [{ path: "intermesh.config.ts", content: config }];
  const example = shippedFile("examples/rooms");
  const copy = (from: string, to: string) => files.push({ path: to, content: readFileSync(from, "utf8") });
  copy(join(example, "openapi.yaml"), "inputs/openapi.yaml");
  copy(join(example, "context.md"), "inputs/context.md");
  copy(join(example, "server.mjs"), "inputs/server.mjs");
  const evals = shippedFile("evals");
  for (const f of ["eval-plan.json", "eval-plan.reference.json"]) {
    // The repository's plan points $schema at its own schemas/; in a project the package's copy is the one to use.
    const text = readFileSync(join(evals, f), "utf8").replace(
      /"\$schema": "[^"]*"/,
      '"$schema": "../node_modules/intermesh/schemas/eval-plan.schema.json"',
    );
    files.push({ path: `evals/${f}`, content: text });
  }
  return files;
}
