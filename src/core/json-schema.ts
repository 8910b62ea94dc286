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

async function newAjv(): Promise<Ajv> {
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
  const ajv = new AjvClass({ allErrors: true, strict: false, discriminator: true });
  addFormats(ajv);
  return ajv;
}

/** Compiles a JSON Schema (2020-12) with formats and discriminators; ajv loads only when something is validated. */
export async function compileSchema(schema: object): Promise<SchemaValidator> {
  return (await newAjv()).compile(schema);
}

/** The checkers' one compiler: a new one compiles the 2020-12 meta-schema first, 0.4 s of every watch cycle's inspection. */
let checking: Promise<Ajv> | undefined;

/**
 * Checks many schemas with one compiler (a new one per schema costs more than the schema), the same for every checker
 * of the process: each schema is compiled and then forgotten, so two that share an `$id` do not collide. Throws as
 * compileSchema does for a schema that does not compile.
 */
export async function schemaChecker(): Promise<(schema: object) => void> {
  const ajv = await (checking ??= newAjv());
  return (schema) => {
    // Held to the meta-schema (what compiling checks first); compiled, which costs far more, only where compiling can
    // find more: a reference to resolve, a discriminator, or a pattern that is not a Unicode regular expression.
    if (!ajv.validateSchema(schema)) throw new Error(ajv.errorsText(ajv.errors));
    if (!needsCompiling(schema)) return;
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
