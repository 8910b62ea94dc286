import fc from "fast-check";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getHeapStatistics } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { validateConfig } from "../../src/config/validate.js";
import { PRESET_NAMES } from "../../src/evaluation/sandbox/presets.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { InterError } from "../../src/core/errors.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { bindFlags, splitArgv } from "../../src/runtime/args.js";
import { CliError } from "../../src/runtime/errors.js";
import { guard } from "../../src/runtime/guard.js";
import { buildRequest } from "../../src/runtime/http.js";
import type { Command, Flag, Manifest } from "../../src/runtime/manifest.js";
import { tempDir } from "../helpers.js";

// Property-based runs over the inputs inter does not trust. Every case must end with a result or a coded error, within
// a per-case budget of time and heap growth: a hang, a crash with a plain Error, or a blow-up fails the property.
const CASE_HEAP_BYTES = 256 * 1024 * 1024;

// The heap alone, not process.memoryUsage(): that also reads the resident set from the kernel, and a property run
// asks thousands of times (about half a second of the file's CPU).
async function withinBudget<T>(run: () => T | Promise<T>): Promise<T | undefined> {
  const heap = getHeapStatistics().used_heap_size;
  let value: T | undefined;
  try {
    value = await run();
  } finally {
    const grown = getHeapStatistics().used_heap_size - heap;
    if (grown > CASE_HEAP_BYTES) throw new Error(`case grew the heap by ${grown} bytes (budget ${CASE_HEAP_BYTES})`);
  }
  return value;
}

/** A coded failure is an answer; anything else thrown is a bug. */
function coded(error: unknown, codes: readonly string[]): void {
  const code = error instanceof InterError || error instanceof CliError ? error.code : undefined;
  if (!code || !codes.includes(code)) throw error;
}

const word = fc.stringMatching(/^[a-z]{1,10}$/);
const markdownLine = fc.oneof(
  fc.constantFrom(
    "# Product",
    "## Tasks and scenarios",
    "## Rules",
    "## Product",
    "**Outcome:**",
    "**Not for:**",
    "- ",
    "",
    "```",
    "    ",
  ),
  fc
    .tuple(fc.constantFrom("#", "##", "###", "####", "-", "*", "**", ">", "1."), fc.string({ maxLength: 80 }))
    .map(([a, b]) => `${a} ${b}`),
  fc.string({ maxLength: 200 }),
  fc.nat({ max: 20_000 }).map((n) => `### a${" ".repeat(n)}b`),
);
const brief = fc.array(markdownLine, { maxLength: 120 }).map((lines) => lines.join("\n"));

const commandSpec = fc.record({
  name: fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
  summary: fc.string({ maxLength: 60 }),
});

describe("fuzz: briefs", () => {
  it("parseBrief and planSkills end, with no uncoded error, on any text", async () => {
    await fc.assert(
      fc.asyncProperty(brief, fc.array(commandSpec, { maxLength: 12 }), async (text, specs) => {
        await withinBudget(() => {
          const parsed = parseBrief(text);
          const commands = specs.map((s, i) => ({
            name: `${s.name} ${i}`,
            path: [...s.name.split(" "), String(i)],
            description: s.summary,
            operation: { method: "GET", path: `/${s.name.replaceAll(" ", "/")}/${i}`, operationId: `op${i}` },
            flags: [],
            destructive: false,
            permission: "read",
            // As the designer records it for every command (stages/design/types.ts NameSource).
            nameSource: {
              resource: { word: s.name.split(" ")[0]!, from: "path" },
              action: { word: String(i), from: "method" },
            },
          }));
          planSkills(parsed, commands as never, "Fuzz");
        });
      }),
      { numRuns: 300 },
    );
  });
});

const scratch = tempDir("inter-fuzz-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ref = fc.constantFrom(
  "#/components/schemas/A",
  "#/components/schemas/Missing",
  "#/paths",
  "other.yaml",
  "../outside.yaml",
  "/etc/passwd",
  "/dev/zero",
  "http://127.0.0.1:9/x.yaml",
  "#/components/schemas/A/properties/self",
  "",
);
const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    fc.record({ $ref: ref }),
    fc.record(
      { type: fc.constantFrom("string", "integer", "number", "boolean", "array", "object", "null", 7) },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        type: fc.constant("object"),
        properties: fc.dictionary(word, tie("node"), { maxKeys: 4 }),
        required: fc.array(word, { maxLength: 3 }),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record({ type: fc.constant("array"), items: tie("node") }),
    fc.record({ allOf: fc.array(tie("node"), { maxLength: 4 }) }),
    fc.record({ oneOf: fc.array(tie("node"), { maxLength: 4 }) }),
    fc.record({ anyOf: fc.array(tie("node"), { maxLength: 4 }), pattern: fc.constantFrom("^(a+)+$", "[", "^\\d{2}$") }),
    fc.anything({ maxDepth: 3 }),
  ),
})).node;
const operation = fc.record(
  {
    operationId: fc.oneof(word, fc.anything({ maxDepth: 1 })),
    parameters: fc.array(
      fc.oneof(
        fc.record({
          name: word,
          in: fc.constantFrom("query", "path", "header", "cookie", "body", "nowhere"),
          required: fc.boolean(),
          schema,
        }),
        fc.record({ $ref: ref }),
        fc.anything({ maxDepth: 2 }),
      ),
      { maxLength: 4 },
    ),
    requestBody: fc.record({ content: fc.record({ "application/json": fc.record({ schema }) }) }),
    responses: fc.dictionary(
      fc.constantFrom("200", "201", "404", "default", "2XX", "x"),
      fc.record({ description: fc.string(), content: fc.record({ "application/json": fc.record({ schema }) }) }),
      { maxKeys: 3 },
    ),
  },
  { requiredKeys: [] },
);
const document = fc.record(
  {
    openapi: fc.constantFrom("3.1.0", "3.0.3", "2.0", "4.0", 3),
    info: fc.oneof(fc.record({ title: fc.string(), version: fc.string() }), fc.anything({ maxDepth: 1 })),
    servers: fc.oneof(
      fc.array(fc.record({ url: fc.oneof(fc.webUrl(), fc.string(), fc.constant("/v1")) }), { maxLength: 2 }),
      fc.anything({ maxDepth: 1 }),
    ),
    paths: fc.oneof(
      fc.dictionary(
        fc.oneof(
          word.map((w) => `/${w}/{id}`),
          fc.string({ maxLength: 20 }),
        ),
        fc.dictionary(fc.constantFrom("get", "post", "put", "delete", "patch", "parameters", "x-y"), operation, {
          maxKeys: 3,
        }),
        { maxKeys: 5 },
      ),
      fc.anything({ maxDepth: 2 }),
    ),
    components: fc.record({ schemas: fc.record({ A: schema, B: schema }) }),
  },
  { requiredKeys: ["openapi"] },
);

describe("fuzz: OpenAPI documents", () => {
  it("any document (YAML or JSON, any $ref) reads into a model or fails with OPENAPI_INVALID", async () => {
    writeFileSync(join(scratch, "other.yaml"), "type: string\n");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(document, fc.boolean(), async (doc, asYaml) => {
        const file = join(scratch, `doc-${n++}.${asYaml ? "yaml" : "json"}`);
        let text: string;
        try {
          text = asYaml ? stringify(doc, { aliasDuplicateObjects: false }) : JSON.stringify(doc);
        } catch {
          return; // not expressible in that syntax
        }
        writeFileSync(file, text);
        try {
          await withinBudget(() => readOperationModel(file, scratch));
        } catch (error) {
          coded(error, ["OPENAPI_INVALID", "INPUT_TOO_LARGE"]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("fuzz: configs", () => {
  const product = fc.record(
    {
      name: fc.oneof(word, fc.anything({ maxDepth: 1 })),
      binary: fc.oneof(word, fc.string(), fc.anything({ maxDepth: 1 })),
      package: fc.oneof(word, fc.string()),
      version: fc.string(),
    },
    { requiredKeys: [] },
  );
  const config = fc.record(
    {
      product,
      inputs: fc.oneof(
        fc.record(
          { openapi: fc.oneof(fc.string(), fc.array(fc.string())), context: fc.string() },
          { requiredKeys: [] },
        ),
        fc.anything({ maxDepth: 2 }),
      ),
      api: fc.record({ baseUrl: fc.oneof(fc.webUrl(), fc.string()), credentialEnv: fc.string() }, { requiredKeys: [] }),
      targets: fc.anything({ maxDepth: 3 }),
      tasks: fc.oneof(
        fc.dictionary(
          word,
          fc.record(
            {
              command: fc.array(fc.string()),
              deps: fc.array(word),
              inputs: fc.array(fc.string()),
              outputs: fc.array(fc.string()),
            },
            { requiredKeys: [] },
          ),
        ),
        fc.anything({ maxDepth: 2 }),
      ),
      cache: fc.anything({ maxDepth: 3 }),
    },
    { requiredKeys: [] },
  );
  it("any exported value validates or fails with CONFIG_INVALID", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(config, fc.anything({ maxDepth: 3 })), async (value) => {
        try {
          await withinBudget(() => validateConfig(value, "/project/intermesh.config.ts", PRESET_NAMES));
        } catch (error) {
          coded(error, ["CONFIG_INVALID"]);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("fuzz: the generated CLI's flags", () => {
  const flag = (name: string, at: Flag["in"], type: Flag["type"], extra: Partial<Flag> = {}): Flag => ({
    flag: name,
    in: at,
    wire: name.replaceAll("-", "_"),
    type,
    required: false,
    ...extra,
  });
  const command: Command = {
    path: ["things", "create"],
    name: "things create",
    description: "Create a thing",
    operation: { method: "POST", path: "/things/{thing_id}" },
    flags: [
      flag("thing-id", "path", "string", { required: true }),
      flag("count", "query", "integer", { minimum: 1, maximum: 10 }),
      flag("ratio", "query", "number"),
      flag("tags", "query", "array", { items: "string", maxItems: 3 }),
      flag("kind", "body", "string", { enum: ["a", "b"] }),
      flag("when", "body", "string", { format: "date-time" }),
      flag("code", "body", "string", { pattern: "^[A-Z]{3}$" }),
      flag("trace", "header", "string"),
      flag("dry", "query", "boolean"),
      flag("meta", "body", "object"),
    ],
    jsonInput: true,
    destructive: false,
    permission: "write",
    output: { shape: "object" },
    auth: [{ key: [] }],
    hidden: false,
  };
  const manifest = {
    product: { name: "F", binary: "f", version: "1.0.0", description: "" },
    auth: { schemes: { key: { type: "apiKey", in: "header", name: "x-key", env: { value: "F_KEY" } } } },
  } as unknown as Manifest;
  const kindOf = (name: string) => {
    const f = command.flags.find((x) => x.flag === name);
    return f ? (f.type === "boolean" ? ("boolean" as const) : ("value" as const)) : ("unknown" as const);
  };
  // Mostly well-formed flag/value pairs (so cases get past the first check), with hostile values mixed in.
  const value = fc.oneof(
    fc.constantFrom(
      "a",
      "b",
      "ABC",
      "3",
      "0",
      "11",
      "1.5",
      "2026-05-04T10:00:00Z",
      "true",
      "x,y,z,w",
      '{"k":1}',
      "99999999999999999999999",
      "-12345678901234567890",
      "\r\nX: y",
      "../etc/passwd",
    ),
    fc.string({ maxLength: 40 }),
    fc.stringMatching(/^-?\d{1,30}$/),
    fc.json({ maxDepth: 4 }),
    fc.nat({ max: 3000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
  );
  const pair = fc
    .tuple(
      fc.constantFrom("count", "ratio", "tags", "kind", "when", "code", "trace", "meta", "fields", "max-pages"),
      value,
      fc.boolean(),
    )
    .map(([name, v, inline]) => (inline ? [`--${name}=${v}`] : [`--${name}`, v]));
  const extra = fc.constantFrom(["--dry"], ["--no-dry"], ["--all"], ["--x=1"], ["stray"], ["-h"], ["--"]);
  const argvOf = fc
    .tuple(
      fc.oneof(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.string({ maxLength: 20 })),
      fc.array(fc.oneof({ weight: 5, arbitrary: pair }, { weight: 1, arbitrary: extra }), { maxLength: 8 }),
    )
    .map(([id, rest]) => ["--thing-id", id, ...rest.flat()]);
  it("any argv binds to typed values or fails with a usage-class code, and any bound values build a request", async () => {
    await fc.assert(
      fc.asyncProperty(argvOf, fc.string({ maxLength: 30 }), async (argv, credential) => {
        try {
          await withinBudget(() => {
            const parsed = splitArgv(["things", "create", ...argv], kindOf);
            guard(
              [...parsed.raw].flatMap(([k, vs]) =>
                vs.map((value) => ({ source: `--${k}`, value, identifier: k === "thing-id" || k === "trace" })),
              ),
            );
            const values = bindFlags(command, parsed, false);
            const request = buildRequest(manifest, command, "http://127.0.0.1:9", values, undefined, [
              { scheme: manifest.auth.schemes.key!, value: credential },
            ]);
            expect(request.url.startsWith("http://127.0.0.1:9/things/")).toBe(true);
          });
        } catch (error) {
          coded(error, [
            "UNKNOWN_FLAG",
            "MISSING_FLAG",
            "INVALID_VALUE",
            "VALIDATION_ERROR",
            "POSITIONAL_NOT_ALLOWED",
            "USAGE_ERROR",
            "SECRET_IN_ARGUMENT",
            "SENSITIVE_PATH",
            "UNSAFE_INPUT",
            "CREDENTIAL_MISSING",
          ]);
        }
      }),
      { numRuns: 500 },
    );
  });
});
