import type { ValueSpec, ValueType } from "./model.js";
import { isObject, isRef, Resolver } from "./resolver.js";
import { BOUND_KEYS, ELEMENT_BOUND_KEYS } from "../../runtime/limits.js";

const TYPES = new Set<ValueType>(["string", "integer", "number", "boolean", "array", "object"]);
const MAX_DEPTH = 12;
const SCALARS = new Set<ValueType>(["string", "integer", "number", "boolean"]);
/**
 * Schema nodes one document may expand in total. Each named schema is summarised once per depth (memoised by its
 * resolved `$ref`), so an honest document stays far below this; a document built to fan out (`allOf` of twelve refs,
 * each of twelve more, …) stops here and the rest of its schemas are read as complex objects.
 */
export const MAX_SCHEMA_VISITS = 200_000;

export interface SchemaSummary extends ValueSpec {
  /** Object properties with their summaries (only one level deep). */
  properties?: Record<string, SchemaSummary>;
  required?: string[];
  readOnly?: boolean;
  /** Nested structure (objects, arrays of objects, unions) that flags cannot express. */
  complex: boolean;
  /** For arrays: the element's own summary. */
  itemSchema?: SchemaSummary;
}

function primitiveType(schema: Record<string, unknown>): { type?: ValueType; nullable: boolean } {
  const raw = schema.type;
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const nullable = list.includes("null") || schema.nullable === true;
  const type = list.find((t): t is ValueType => TYPES.has(t as ValueType));
  if (type) return { type, nullable };
  if (Array.isArray(schema.enum) && schema.enum.length) {
    const sample = schema.enum.find((v) => v !== null);
    const t =
      typeof sample === "number"
        ? Number.isInteger(sample)
          ? "integer"
          : "number"
        : typeof sample === "boolean"
          ? "boolean"
          : "string";
    return { type: t, nullable };
  }
  if (isObject(schema.properties) || schema.additionalProperties !== undefined) return { type: "object", nullable };
  if (schema.items !== undefined) return { type: "array", nullable };
  return { nullable };
}

/**
 * Reduces a JSON Schema to what a command line needs: type, enum, default, and one level of properties.
 * allOf is merged, a union of one type plus null is that type, a union of scalars with a string a string (of numbers
 * alone a number), anything richer is marked complex.
 */
export function summarize(
  resolver: Resolver,
  node: unknown,
  base: string,
  where: string,
  seen: ReadonlySet<string> = new Set(),
  depth = 0,
): SchemaSummary {
  if (
    ++resolver.visits > MAX_SCHEMA_VISITS &&
    !plainScalar(node) &&
    // A named scalar (Graph's `timeZoneStandard`: a list of two strings) is one hop, and expands nothing either.
    !(isRef(node) && plainScalar(resolver.deref<Record<string, unknown>>(node, base, where, seen).value))
  ) {
    resolver.overBudget = true;
    return { type: "object", complex: true };
  }
  // A named schema reads the same wherever it is used (at the same depth); cycles are cut the first time through.
  const memoKey = isRef(node) ? `${depth} ${resolver.absolute(node.$ref, base)}` : undefined;
  const known = memoKey === undefined ? undefined : resolver.summaries.get(memoKey);
  if (known) return known as SchemaSummary;
  const result = summarizeNode(resolver, node, base, where, seen, depth);
  if (memoKey !== undefined) resolver.summaries.set(memoKey, result);
  return result;
}

/**
 * OpenAPI 3.0's way to let a referenced value be null (Microsoft Graph: `anyOf: [{$ref: includedUserTypes},
 * {type: object, nullable: true}]`): a nullable object that says nothing else is null, not a value to give as JSON.
 */
const nullPlaceholder = (node: unknown): boolean =>
  isObject(node) &&
  node.nullable === true &&
  (node.type === "object" || node.type === undefined) &&
  Object.keys(node).every((k) => k === "type" || k === "nullable" || k === "description");

/**
 * A schema of one scalar type that refers to and composes nothing (`{type: string}`): read whatever the budget, as it
 * expands nothing. Past the budget, Graph beta's last 5,000 path parameters were objects taking JSON.
 */
const plainScalar = (node: unknown): boolean =>
  isObject(node) &&
  typeof node.type === "string" &&
  SCALARS.has(node.type as ValueType) &&
  !["$ref", "allOf", "oneOf", "anyOf", "not", "properties", "items", "additionalProperties"].some((k) => k in node);

function summarizeNode(
  resolver: Resolver,
  node: unknown,
  base: string,
  where: string,
  seen: ReadonlySet<string>,
  depth: number,
): SchemaSummary {
  const located = resolver.deref<Record<string, unknown>>(node, base, where, seen);
  if (located.cycle || depth > MAX_DEPTH || !isObject(located.value)) return { type: "object", complex: true };
  const schema = located.value;
  const next = (child: unknown) => summarize(resolver, child, located.base, where, located.seen, depth + 1);

  let summary: SchemaSummary = { type: "string", complex: false };
  const own = primitiveType(schema);
  if (own.type) summary.type = own.type;
  if (own.nullable) summary.nullable = true;

  for (const key of ["allOf"] as const) {
    if (!Array.isArray(schema[key])) continue;
    // A part of allOf is this same value, not one nested in it (Azure's `allOf: [ProxyResource]`, which is
    // `allOf: [Resource]`): its properties are this object's, read at its depth. Cycles are cut by `seen`.
    for (const part of schema[key] as unknown[])
      summary = merge(summary, summarize(resolver, part, located.base, where, located.seen, depth), !own.type);
  }
  for (const key of ["oneOf", "anyOf"] as const) {
    if (!Array.isArray(schema[key])) continue;
    const raw = schema[key] as unknown[];
    const parts = raw.map(next);
    // The branches that are values, not null: their indexes, so each keeps its node (a discriminator names `$ref`s).
    const valued = parts.flatMap((p, i) =>
      !(p.enum?.length === 1 && p.enum[0] === null) &&
      !(p.type === "string" && p.nullable && !p.enum && !p.properties) &&
      !nullPlaceholder(raw[i])
        ? [i]
        : [],
    );
    const nonNull = valued.map((i) => parts[i]!);
    const types = new Set(nonNull.map((p) => p.type));
    if (parts.length > nonNull.length) summary.nullable = true;
    const scalars = nonNull.every((p) => !p.complex && !p.properties && SCALARS.has(p.type as ValueType));
    if (types.size === 1 && nonNull.every((p) => !p.complex)) {
      const tags =
        nonNull.length > 1
          ? variantTags(
              nonNull,
              valued.map((i) => raw[i]),
              schema,
            )
          : undefined;
      const union = nonNull.length === 1 ? nonNull[0]! : sameTypeUnion(nonNull, tags);
      summary = { ...summary, ...union, nullable: summary.nullable || union.nullable };
    } else if (scalars && (types.has("string") || !types.has("boolean"))) {
      // "An id or a name" (`oneOf: [string, integer]`): one value a flag takes as text, which every branch reads the
      // same in a path, query or header, and the string branch accepts in a body; numbers alone are a number.
      const type: ValueType = types.has("string") ? "string" : "number";
      // Every branch a list (its values all), or the strings' branches lists beside free numbers (Stripe's `now`,
      // `unchanged` or a timestamp): the strings it takes, a number passing by its type (runtime/args.ts).
      const listed = nonNull.filter((p) => p.enum?.length);
      const enums =
        listed.length === nonNull.length ||
        (listed.length && nonNull.every((p) => (p.type === "string") === !!p.enum?.length))
          ? listed.flatMap((p) => p.enum!)
          : undefined;
      // Each branch's limits are of its own kind (a minimum of numbers, a pattern of strings): the runtime checks a
      // value against those of its kind (runtime/limits.ts).
      const limits = Object.assign(
        {},
        ...nonNull.map((p) => Object.fromEntries(BOUND_KEYS.flatMap((k) => (p[k] === undefined ? [] : [[k, p[k]]])))),
      );
      summary = {
        ...summary,
        ...limits,
        type,
        anyOf: [...types] as ValueType[],
        complex: false,
        ...(enums ? { enum: [...new Set(enums)] } : {}),
        ...(summary.description || !nonNull[0]!.description ? {} : { description: nonNull[0]!.description }),
      };
    } else if (oneOrList(nonNull)) {
      // "A number, or a list of numbers" (`oneOf: [string, array of string]`: Telstra's recipients, OpenAI's `stop`):
      // a list flag, whose one value goes as a list of one, which the list's branch accepts.
      const list = nonNull.find((p) => p.type === "array")!;
      summary = {
        ...summary,
        ...list,
        nullable: summary.nullable || list.nullable,
        ...(summary.description || !list.description ? {} : { description: list.description }),
      };
    } else {
      summary.type = types.size === 1 ? [...types][0]! : "object";
      summary.complex = true;
    }
  }

  // JSON Schema's `const` (OpenAPI 3.1) is a list of one value.
  if (schema.const !== undefined && !Array.isArray(schema.enum)) {
    const value = schema.const;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) {
      summary.enum = [value] as ValueSpec["enum"];
      if (!own.type && value !== null)
        summary.type =
          typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : (typeof value as ValueType);
    }
  }
  if (Array.isArray(schema.enum)) {
    // A list's enum that lists lists (Mailchimp's `action`: `[["click"], ["open"], …]`) means the values its
    // elements take; an enum of nothing a flag can say (objects) lists nothing, and is left out rather than empty.
    const values = summary.type === "array" ? schema.enum.flat() : schema.enum;
    const scalars = values.filter((v) => v === null || ["string", "number", "boolean"].includes(typeof v));
    if (scalars.length) summary.enum = [...new Set(scalars)] as ValueSpec["enum"];
  }
  if (schema.default !== undefined && (typeof schema.default !== "object" || schema.default === null))
    summary.default = schema.default;
  if (typeof schema.format === "string") summary.format = schema.format;
  // A file's bytes, however the document says it: Swagger 2.0's `type: file`, or 3.1's `contentMediaType` without
  // an encoding that makes it text (`contentEncoding: base64` is a string in a JSON body).
  if (
    schema.type === "file" ||
    // Swagger 2 bodies converted from `type: file` say it as a format.
    schema.format === "file" ||
    (typeof schema.contentMediaType === "string" &&
      schema.contentEncoding === undefined &&
      summary.type === "string" &&
      !/^(text\/|application\/([\w.+-]*\+)?(json|xml)\b)/i.test(schema.contentMediaType))
  )
    summary.format = "binary";
  Object.assign(summary, bounds(schema));
  if (typeof schema.description === "string" && schema.description.trim())
    summary.description = schema.description.trim();
  else if (typeof schema.title === "string") summary.description = schema.title;
  if (schema.readOnly === true) summary.readOnly = true;

  if (summary.type === "array") {
    // Items an allOf part gave (`allOf: [{$ref: FilterList}, {description}]`, as AWS wraps every list) are the items.
    const items =
      schema.items !== undefined
        ? next(schema.items)
        : (summary.itemSchema ?? { type: "string" as const, complex: false });
    summary.items = items.type;
    summary.itemSchema = items;
    if (items.type === "object" || items.type === "array" || items.complex) summary.complex = true;
  }
  if (summary.type === "object") {
    if (isObject(schema.properties)) {
      summary.properties = { ...(summary.properties ?? {}) };
      for (const [name, prop] of Object.entries(schema.properties)) {
        summary.properties[name] = depth < 2 ? next(prop) : { type: "object", complex: true };
      }
    }
    if (Array.isArray(schema.required))
      summary.required = [
        ...new Set([...(summary.required ?? []), ...schema.required.filter((r): r is string => typeof r === "string")]),
      ];
  }
  return summary;
}

const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const count = (v: unknown): v is number => num(v) && Number.isInteger(v) && v >= 0;

/** The document's limits on a value. 3.0 and 2.0 write exclusive bounds as booleans beside minimum/maximum; 3.1 as numbers. */
function bounds(schema: Record<string, unknown>): Partial<ValueSpec> {
  const out: Partial<ValueSpec> = {};
  if (num(schema.minimum)) {
    if (schema.exclusiveMinimum === true) out.exclusiveMinimum = schema.minimum;
    else out.minimum = schema.minimum;
  }
  if (num(schema.maximum)) {
    if (schema.exclusiveMaximum === true) out.exclusiveMaximum = schema.maximum;
    else out.maximum = schema.maximum;
  }
  if (num(schema.exclusiveMinimum)) out.exclusiveMinimum = schema.exclusiveMinimum;
  if (num(schema.multipleOf) && schema.multipleOf > 0) out.multipleOf = schema.multipleOf;
  if (num(schema.exclusiveMaximum)) out.exclusiveMaximum = schema.exclusiveMaximum;
  if (count(schema.minLength)) out.minLength = schema.minLength;
  if (count(schema.maxLength)) out.maxLength = schema.maxLength;
  if (count(schema.minItems)) out.minItems = schema.minItems;
  if (count(schema.maxItems)) out.maxItems = schema.maxItems;
  // A pattern the runtime cannot compile (or one that could backtrack for long) is left to the server.
  if (typeof schema.pattern === "string" && schema.pattern.length <= 512) {
    try {
      new RegExp(schema.pattern, "u");
      out.pattern = schema.pattern;
    } catch {
      // not an ECMAScript regular expression
    }
  }
  return out;
}

/**
 * Whether a union's branches are one list of scalars and values of its items' type beside it (a value or a list of
 * them): nothing else, so a list of one value is one of the union's values.
 */
function oneOrList(branches: readonly SchemaSummary[]): boolean {
  const lists = branches.filter((p) => p.type === "array");
  if (lists.length !== 1 || lists[0]!.complex || !lists[0]!.itemSchema) return false;
  const item = lists[0]!.itemSchema;
  if ((lists[0]!.minItems ?? 0) > 1) return false;
  return branches.every(
    (p) => p === lists[0] || (!p.complex && !p.properties && SCALARS.has(p.type as ValueType) && p.type === item.type),
  );
}

/**
 * The branches of a oneOf or anyOf that are all one type, as one value that any of them accepts: the values of every
 * branch's list (`oneOf: [{enum: [red]}, {enum: [blue]}]` takes red or blue, never red alone, which a flag would send
 * as a constant), the limits all branches share, and of objects every branch's properties (each required only where
 * every branch requires it), so each variant can be said with flags.
 */
function sameTypeUnion(parts: SchemaSummary[], tags?: VariantTags): SchemaSummary {
  const [first, ...rest] = parts as [SchemaSummary, ...SchemaSummary[]];
  const union: SchemaSummary = { type: first.type, complex: parts.some((p) => p.complex) };
  if (parts.some((p) => p.nullable)) union.nullable = true;
  const enums = parts.every((p) => p.enum?.length) ? [...new Set(parts.flatMap((p) => p.enum!))] : undefined;
  if (enums) union.enum = enums as SchemaSummary["enum"];
  const description = parts.find((p) => p.description)?.description;
  if (description) union.description = description;
  const shared = <K extends keyof SchemaSummary>(key: K) =>
    rest.every((p) => JSON.stringify(p[key]) === JSON.stringify(first[key])) ? first[key] : undefined;
  for (const key of [...BOUND_KEYS, "format", "default", "items", "readOnly"] as const) {
    const value = shared(key);
    if (value !== undefined) (union as unknown as Record<string, unknown>)[key] = value;
  }
  if (parts.some((p) => p.itemSchema)) {
    const items = parts.map((p) => p.itemSchema);
    union.itemSchema = items.every((i) => i) ? sameTypeOrComplex(items as SchemaSummary[]) : undefined;
  }
  if (parts.some((p) => p.properties)) {
    const names = [...new Set(parts.flatMap((p) => Object.keys(p.properties ?? {})))];
    union.properties = Object.fromEntries(
      names.map((name) => [name, sameTypeOrComplex(parts.flatMap((p) => p.properties?.[name] ?? []))]),
    );
    const required = first.required?.filter((r) => rest.every((p) => p.required?.includes(r)));
    if (required?.length) union.required = required;
    if (tags) {
      const told = union.properties[tags.property];
      if (told && !told.enum) union.properties[tags.property] = { ...told, enum: [...new Set(tags.values)] };
      for (const name of names) {
        if (name === tags.property) continue;
        const carrying = parts.flatMap((p, i) => (p.properties?.[name] ? [i] : []));
        const requiring = carrying.filter((i) => parts[i]!.required?.includes(name));
        if (carrying.length === parts.length && (!requiring.length || requiring.length === carrying.length)) continue;
        const prop = union.properties[name]!;
        union.properties[name] = { ...prop, description: withVariants(prop.description, tags, carrying, requiring) };
      }
    }
  }
  return union;
}

/** Which variant of a union of objects is which: per branch, the value its `property` takes. */
interface VariantTags {
  property: string;
  values: string[];
}

/**
 * The property that tells a union's object variants apart, and each branch's value of it — what help needs to say
 * which fields go with which variant (`--area-code` only when `type` is `areacode`). Read from a property every
 * branch lists one value of (`enum: [areacode]`, `const`), else from OpenAPI's `discriminator` (its mapping, or
 * each branch's schema name).
 */
function variantTags(parts: SchemaSummary[], raw: unknown[], schema: Record<string, unknown>): VariantTags | undefined {
  if (!parts.every((p) => p.properties)) return undefined;
  const distinct = (values: string[]) => new Set(values).size === values.length;
  for (const property of Object.keys(parts[0]!.properties!)) {
    const values = parts.map((p) => p.properties![property]?.enum);
    if (values.every((v) => v?.length === 1 && typeof v[0] === "string")) {
      const each = values.map((v) => String(v![0]));
      if (distinct(each)) return { property, values: each };
    }
  }
  const discriminator = schema.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== "string") return undefined;
  const mapping = isObject(discriminator.mapping) ? discriminator.mapping : {};
  const values = raw.map((branch) => {
    if (!isRef(branch)) return undefined;
    const name = branch.$ref.split("/").pop()!;
    const mapped = Object.entries(mapping).find(([, to]) => to === branch.$ref || to === name);
    return mapped?.[0] ?? name;
  });
  return values.every((v): v is string => !!v) && distinct(values)
    ? { property: discriminator.propertyName, values }
    : undefined;
}

const MAX_VARIANTS_SAID = 5;

/** A variant's own field said as such: "Only when type is areacode (required then)." before what the field is. */
function withVariants(description: string | undefined, tags: VariantTags, carrying: number[], requiring: number[]) {
  // A field of dozens of variants names a few of them: the line must leave room for what the field is.
  const said = (at: number[]) =>
    at.length > MAX_VARIANTS_SAID
      ? `${at
          .slice(0, MAX_VARIANTS_SAID - 1)
          .map((i) => tags.values[i])
          .join(", ")} or ${at.length - MAX_VARIANTS_SAID + 1} others`
      : at.map((i) => tags.values[i]).join(" or ");
  const when =
    carrying.length === tags.values.length
      ? `Required when ${tags.property} is ${said(requiring)}.`
      : `Only when ${tags.property} is ${said(carrying)}${
          !requiring.length
            ? ""
            : requiring.length === carrying.length
              ? " (required then)"
              : `; required when ${said(requiring)}`
        }.`;
  return description ? `${when} ${description}` : when;
}

/** Values of one place in several branches: their union where they are one scalar type, else a complex value. */
const sameTypeOrComplex = (parts: SchemaSummary[]): SchemaSummary =>
  parts.length === 1
    ? parts[0]!
    : new Set(parts.map((p) => p.type)).size === 1
      ? sameTypeUnion(parts)
      : { type: "object", complex: true };

function merge(into: SchemaSummary, part: SchemaSummary, adoptType: boolean): SchemaSummary {
  return {
    ...into,
    type: adoptType && into.type === "string" && !into.enum ? part.type : into.type,
    properties:
      into.properties || part.properties ? { ...(into.properties ?? {}), ...(part.properties ?? {}) } : undefined,
    required:
      into.required || part.required ? [...new Set([...(into.required ?? []), ...(part.required ?? [])])] : undefined,
    enum: into.enum ?? part.enum,
    default: into.default ?? part.default,
    format: into.format ?? part.format,
    description: into.description ?? part.description,
    items: into.items ?? part.items,
    itemSchema: into.itemSchema ?? part.itemSchema,
    anyOf: into.anyOf ?? part.anyOf,
    complex: into.complex || part.complex,
    ...Object.fromEntries(
      BOUND_KEYS.filter((k) => into[k] !== undefined || part[k] !== undefined).map((k) => [k, into[k] ?? part[k]]),
    ),
  };
}

/** The ValueSpec of a summary: what a flag declares. */
export function valueSpec(summary: SchemaSummary): ValueSpec {
  const spec: ValueSpec = { type: summary.type };
  if (summary.items) spec.items = summary.items;
  if (summary.itemSchema?.enum && !summary.enum) spec.enum = summary.itemSchema.enum;
  if (summary.enum) spec.enum = summary.enum;
  if (summary.default !== undefined) spec.default = summary.default;
  if (summary.format) spec.format = summary.format;
  if (summary.nullable) spec.nullable = true;
  if (summary.anyOf) spec.anyOf = summary.anyOf;
  const object =
    summary.type === "object" ? summary : summary.itemSchema?.type === "object" ? summary.itemSchema : undefined;
  if (object?.required?.length) spec.requires = object.required;
  if (summary.description) spec.description = summary.description;
  for (const k of BOUND_KEYS)
    if (summary[k] !== undefined) (spec as unknown as Record<string, unknown>)[k] = summary[k];
  // An array flag's format is its items' (`--ids <uuid>`): the runtime checks, and inspection samples, each element by it.
  // Not a file's: an array of files is a file flag, which design tells apart.
  if (!spec.format && summary.itemSchema?.format && summary.itemSchema.format !== "binary")
    spec.format = summary.itemSchema.format;
  // An array flag's limits on each element (enum aside) come from its items.
  if (summary.itemSchema)
    for (const k of ELEMENT_BOUND_KEYS)
      if (spec[k] === undefined && summary.itemSchema[k] !== undefined)
        (spec as unknown as Record<string, unknown>)[k] = summary.itemSchema[k];
  return spec;
}
