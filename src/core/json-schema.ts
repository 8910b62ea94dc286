export type SchemaValidator = ((value: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, any> }> | null;
};

type Ajv = { compile(s: object): SchemaValidator; removeSchema(s: object): void };

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
