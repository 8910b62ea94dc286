import $RefParser, { type FileInfo } from "@apidevtools/json-schema-ref-parser";
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { dirname, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { InterError } from "../../core/errors.js";
import { refsAllLocal } from "./local-refs.js";
import { isObject, Resolver } from "./resolver.js";
import { yamlPlugin } from "./yaml-parser.js";

/*
 * Reading an OpenAPI document and the files its `$ref`s name, sandboxed: the document is untrusted, so a `$ref` may
 * only reach regular files inside the project (or the document's own folder), within a size limit, never over the
 * network. What it reads is what the CLI package publishes.
 */

/** Largest file one OpenAPI document (or a file its `$ref`s name) may be; GitHub's whole REST description is ~12 MB. */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a file the document (or a `$ref`) names, only when it is a regular file inside one of `roots` and within the
 * size limit: a `$ref` to `/etc/passwd` or `../../secret.yaml` would otherwise land in the published tarball, and one to
 * `/dev/zero` would never end. The limit is checked on the open descriptor, so a file swapped in between is caught.
 */
function projectFileReader(roots: string[]) {
  const realRoots = roots.map((r) => realpathSync(r));
  const reader = {
    order: 1,
    canRead: true,
    /** The parser wraps what a resolver throws in its own error; the coded one is kept here to be thrown instead. */
    refusal: undefined as InterError | undefined,
    /** The bytes of the first file read: the document itself. */
    document: undefined as Buffer | undefined,
    read(info: FileInfo): Buffer {
      try {
        const bytes = readInside(info);
        reader.document ??= bytes;
        return bytes;
      } catch (error) {
        if (error instanceof InterError) reader.refusal ??= error;
        throw error;
      }
    },
  };
  const readInside = (info: FileInfo): Buffer => {
    const path = info.url.startsWith("file:") ? fileURLToPath(info.url) : decodeURIComponent(info.url);
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new InterError(
        "OPENAPI_INVALID",
        `${path}: the file a $ref names does not exist`,
        "Check every external `$ref` points at a file that exists, relative to the file that contains it.",
        { file: path, pointer: "", reason: "missing" },
      );
    }
    if (!realRoots.some((root) => real === root || real.startsWith(root + sep))) {
      throw new InterError(
        "OPENAPI_INVALID",
        `${path}: a $ref names a file outside the project and outside the document's own folder (${realRoots.join(", ")})`,
        "Copy the referenced file into the project: what a document refers to is published in the CLI package, so inter reads nothing else.",
        { file: path, pointer: "", reason: "outside the project" },
      );
    }
    // Non-blocking: opening a FIFO to read would wait for a writer forever; it is refused below as not a regular file.
    const fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile())
        throw new InterError(
          "OPENAPI_INVALID",
          `${path}: not a regular file`,
          "Point the `$ref` (or inputs.openapi) at a YAML or JSON file.",
          { file: path, pointer: "", reason: "not a regular file" },
        );
      if (stat.size > MAX_DOCUMENT_BYTES)
        throw new InterError(
          "INPUT_TOO_LARGE",
          `${path}: ${stat.size} bytes, over the ${MAX_DOCUMENT_BYTES}-byte limit for one OpenAPI file`,
          "Split the document across files with `$ref`s, or remove what the CLI does not need.",
          { file: path, bytes: stat.size, limit: MAX_DOCUMENT_BYTES },
        );
      const buffer = Buffer.alloc(stat.size);
      let read = 0;
      while (read < stat.size) {
        const n = readSync(fd, buffer, read, stat.size - read, read);
        if (n === 0) break;
        read += n;
      }
      return buffer.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  };
  return reader;
}

/** The document parsed, with a resolver for its `$ref`s; any problem is a coded error naming the file. */
export async function resolveDocument(
  file: string,
  root: string,
): Promise<{ root: Record<string, unknown>; resolver: Resolver }> {
  let parser = new $RefParser();
  // The config (trusted) names the document, so its folder is readable too: a document kept beside the project
  // (`../api/openapi.yaml`) may refer to files next to it, and nothing beyond.
  const reader = projectFileReader([root, dirname(file)]);
  const resolve = (external: boolean) =>
    withoutLazyHeaders(() =>
      parser.resolve(file, {
        resolve: { external, http: false, file: false, project: reader } as never,
        parse: { yaml: yamlPlugin },
      }),
    );
  try {
    // The parser finds other files' `$ref`s by walking the whole document, a pointer built for every key (seconds on
    // a 50 MB one). A document that names no other file is read alone; one that does is read as before, in full. Its
    // bytes settle most documents (stages/openapi/local-refs.ts); the parsed document is walked for the rest.
    let refs = await resolve(false);
    if (!(reader.document && refsAllLocal(reader.document)) && namesOtherFile(parser.schema)) {
      parser = new $RefParser();
      refs = await resolve(true);
    }
    if (!isObject(parser.schema))
      throw new InterError(
        "OPENAPI_INVALID",
        `${file}: the document is not an object`,
        "An OpenAPI document is a YAML or JSON object with an `openapi` (or `swagger`) field.",
        { file, pointer: "", reason: "the document is not an object" },
      );
    return { root: parser.schema as Record<string, unknown>, resolver: new Resolver(refs) };
  } catch (error) {
    if (error instanceof InterError) throw error;
    if (reader.refusal) throw reader.refusal;
    const err = error as Error & { name: string; source?: string };
    const firstLine = err.message.split("\n")[0]!;
    if (err.name === "ParserError") {
      const at = /\((\d+):(\d+)\)/.exec(err.message);
      throw new InterError(
        "OPENAPI_INVALID",
        `${file}: not valid YAML or JSON: ${firstLine.replace(/^Error parsing [^:]+: /, "")}`,
        at ? `Fix the syntax at line ${at[1]}, column ${at[2]}.` : "Fix the YAML or JSON syntax.",
        {
          file,
          pointer: "",
          reason: firstLine,
          ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}),
        },
      );
    }
    throw new InterError(
      "OPENAPI_INVALID",
      `${err.source ?? file}: ${firstLine}`,
      "Check every external `$ref` points at a file that exists, relative to the file that contains it.",
      { file: err.source ?? file, pointer: "", reason: firstLine },
    );
  }
}

/**
 * Runs `start` (the parser's resolve up to its first wait) while the global `Headers` reads as undefined. The parser
 * merges its options at once, asking of each `typeof Headers !== "undefined" && value instanceof Headers`, and in Node
 * `Headers` is a getter that loads the whole fetch implementation (undici) when first read: a cost in every build that
 * reads a description, for a check no option of ours could meet. The getter is put back before anything else runs, so
 * fetch and `Headers` work as before everywhere else.
 */
function withoutLazyHeaders<T>(start: () => T): T {
  const own = Object.getOwnPropertyDescriptor(globalThis, "Headers");
  if (!own?.get || !own.configurable) return start();
  Object.defineProperty(globalThis, "Headers", { value: undefined, configurable: true, writable: true });
  try {
    return start();
  } finally {
    Object.defineProperty(globalThis, "Headers", own);
  }
}

/**
 * Whether a `$ref` in the document names anything but a place in it (what the parser calls external: a `$ref` not
 * starting with "#"). Walked without recursion, so a deeply nested document cannot overflow the stack here.
 */
function namesOtherFile(document: unknown): boolean {
  const stack: unknown[] = [document];
  const seen = new Set<object>();
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== "object" || ArrayBuffer.isView(node) || seen.has(node)) continue;
    seen.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string" && ref.length > 0 && ref[0] !== "#") return true;
    for (const value of Object.values(node)) if (value && typeof value === "object") stack.push(value);
  }
  return false;
}
