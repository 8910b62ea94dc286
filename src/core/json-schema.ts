export type SchemaValidator = ((value: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, any> }> | null;
};

/** Compiles a JSON Schema (2020-12) with formats and discriminators; ajv loads only when something is validated. */
export async function compileSchema(schema: object): Promise<SchemaValidator> {
  // Both are CommonJS; their default export sits one level deeper depending on the loader.
  const [ajvModule, formatsModule] = (await Promise.all([import("ajv/dist/2020.js"), import("ajv-formats")])) as unknown as [
    { default: { default?: new (o: object) => { compile(s: object): SchemaValidator } } & (new (o: object) => { compile(s: object): SchemaValidator }) },
    { default: { default?: (ajv: unknown) => void } & ((ajv: unknown) => void) },
  ];
  const AjvClass = ajvModule.default.default ?? ajvModule.default;
  const addFormats = formatsModule.default.default ?? formatsModule.default;
  const ajv = new AjvClass({ allErrors: true, strict: false, discriminator: true });
  addFormats(ajv);
  return ajv.compile(schema) as SchemaValidator;
}
