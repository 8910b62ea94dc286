import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { sha256 } from "./hash.js";
import { shippedFile } from "./shipped-files.js";

export type SchemaValidator = ((value: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, any> }> | null;
};

type Ajv = {
  compile(s: object): SchemaValidator;
  removeSchema(s: object): void;
  validateSchema(s: object): boolean;
  errorsText(errors?: SchemaValidator["errors"]): string;
  errors?: SchemaValidator["errors"];
};

/** The 2020-12 meta-schema's validator that `npm run build` compiled (scripts/build.mjs), when lib/ has it. */
let precompiled: SchemaValidator | null | undefined;
function precompiledMeta(): SchemaValidator | undefined {
  if (precompiled === undefined) {
    try {
      const loaded = createRequire(import.meta.url)(shippedFile("lib/json-schema-2020-meta.cjs")) as {
        default?: SchemaValidator;
      } & SchemaValidator;
      precompiled = typeof loaded.default === "function" ? loaded.default : loaded;
    } catch {
      precompiled = null;
    }
  }
  return precompiled ?? undefined;
}

/** What a schema's `$schema` says when it is written for JSON Schema 2020-12, the precompiled meta-schema's own `$id`. */
const DRAFT_2020 = new Set([
  undefined,
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2020-12/schema#",
]);

/** The precompiled meta-schema's validator when it applies to `schema`. */
const metaValidatorOf = (schema: object) =>
  DRAFT_2020.has((schema as { $schema?: string }).$schema) ? precompiledMeta() : undefined;

/**
 * Holds a schema to the meta-schema as ajv's own check does, with the precompiled validator where it applies (a
 * schema that names no `$schema`, or 2020-12's): undefined when it passes, else ajv's words for what is wrong. The
 * compiler is made only when it is needed (a schema of another `$schema`, or words for one that fails).
 */
function metaErrors(ajv: () => Ajv, schema: object): string | undefined {
  const meta = metaValidatorOf(schema);
  if (meta) return meta(schema) ? undefined : ajv().errorsText(meta.errors);
  const compiler = ajv();
  return compiler.validateSchema(schema) ? undefined : compiler.errorsText(compiler.errors);
}

/** Makes a compiler; ajv's modules load (once) before, making one is then synchronous. */
async function ajvMaker(): Promise<() => Ajv> {
  // Both are CommonJS; their default export sits one level deeper depending on the loader.
  const [ajvModule, formatsModule] = (await Promise.all([
    import("ajv/dist/2020.js"),
    import("ajv-formats"),
  ])) as unknown as [
    { default: { default?: new (o: object) => Ajv } & (new (o: object) => Ajv) },
    { default: { default?: (ajv: unknown) => void } & ((ajv: unknown) => void) },
  ];
  const AjvClass = ajvModule.default.default ?? ajvModule.default;
  const addFormats = formatsModule.default.default ?? formatsModule.default;
  return () => {
    // Schemas are held to the meta-schema before they are compiled (metaErrors), as compiling would hold them.
    const ajv = new AjvClass({ allErrors: true, strict: false, discriminator: true, validateSchema: false });
    addFormats(ajv);
    return ajv;
  };
}

/** Compiles a JSON Schema (2020-12) with formats and discriminators; ajv loads only when something is validated. */
export async function compileSchema(schema: object): Promise<SchemaValidator> {
  const ajv = (await ajvMaker())();
  // What ajv's compile throws for a schema the meta-schema refuses.
  const wrong = typeof schema === "boolean" ? undefined : metaErrors(() => ajv, schema);
  if (wrong !== undefined) throw new Error(`schema is invalid: ${wrong}`);
  return ajv.compile(schema);
}

/** The schemas inter ships (schemas/<name>.schema.json), whose validators `npm run build` compiles into lib/schemas/. */
export type ShippedSchema = "eval-plan" | "results" | "trigger-queries" | "overlay" | "diff-ignore";

const shippedValidators = new Map<ShippedSchema, Promise<SchemaValidator>>();

/**
 * The validator of a schema inter ships, once per process: the one the build compiled (scripts/build.mjs) when it was
 * made from this very file, else compiled from the file now (a source checkout not yet built, a schema edited since).
 */
export function shippedSchemaValidator(name: ShippedSchema): Promise<SchemaValidator> {
  let validator = shippedValidators.get(name);
  if (!validator) {
    const text = readFileSync(shippedFile(`schemas/${name}.schema.json`));
    validator = Promise.resolve(precompiledValidator(name, sha256(text))).then(
      (found) => found ?? compileSchema(JSON.parse(text.toString("utf8")) as object),
    );
    shippedValidators.set(name, validator);
  }
  return validator;
}

function precompiledValidator(name: ShippedSchema, sourceSha256: string): SchemaValidator | undefined {
  try {
    const loaded = createRequire(import.meta.url)(shippedFile(`lib/schemas/${name}.cjs`)) as SchemaValidator & {
      default?: SchemaValidator;
      sourceSha256?: string;
    };
    if (loaded.sourceSha256 !== sourceSha256) return undefined;
    return typeof loaded.default === "function" ? loaded.default : loaded;
  } catch {
    return undefined;
  }
}

/**
 * The checkers' one compiler, made on first need: making one is costly (without the precompiled meta-schema it also
 * compiles that, in every watch cycle's inspection), and with the precompiled meta-schema most checks need none.
 */
let checking: Promise<() => Ajv> | undefined;
const sharedCompiler = () =>
  (checking ??= ajvMaker().then((make) => {
    let made: Ajv | undefined;
    return () => (made ??= make());
  }));

/**
 * Checks many schemas with one compiler (a new one per schema costs more than the schema), the same for every checker
 * of the process: each schema is compiled and then forgotten, so two that share an `$id` do not collide. Rejects as
 * compileSchema does for a schema that does not compile. A schema the precompiled meta-schema passes and that holds
 * nothing compiling could refuse (needsCompiling) is accepted without loading ajv at all: that is every tool of a
 * generated MCP server, and loading ajv's modules is a cost of its own in an inspection.
 */
export function schemaChecker(): (schema: object) => Promise<void> {
  return async (schema) => {
    if (metaValidatorOf(schema)?.(schema) && !needsCompiling(schema)) return;
    const compiler = await sharedCompiler();
    // Held to the meta-schema (what compiling checks first); compiled, which costs far more, only where compiling can
    // find more: a reference to resolve, a discriminator, or a pattern that is not a Unicode regular expression.
    const wrong = metaErrors(compiler, schema);
    if (wrong !== undefined) throw new Error(wrong);
    if (!needsCompiling(schema)) return;
    const ajv = compiler();
    try {
      ajv.compile(schema);
    } finally {
      try {
        ajv.removeSchema(schema);
      } catch {
        // never added
      }
    }
  };
}

const REFERENCES = new Set(["$ref", "$dynamicRef", "$recursiveRef", "discriminator"]);

/**
 * Whether a schema that passed its meta-schema might still not compile: it refers to something, or a string under
 * `pattern` (or a `patternProperties` key) is not a regular expression with the `u` flag, as the compiler reads them.
 * Strings under those names that are data rather than schema (an example's field) only cost the compile.
 */
function needsCompiling(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(needsCompiling);
  if (!value || typeof value !== "object") return false;
  for (const [key, inner] of Object.entries(value)) {
    if (REFERENCES.has(key)) return true;
    if (key === "pattern" && typeof inner === "string" && !isUnicodePattern(inner)) return true;
    if (key === "patternProperties" && inner && typeof inner === "object")
      if (Object.keys(inner).some((k) => !isUnicodePattern(k))) return true;
    if (needsCompiling(inner)) return true;
  }
  return false;
}

function isUnicodePattern(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}
