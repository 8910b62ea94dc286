/**
 * The parts of a candidate's manifest.json and package.json that inter's commands read (runtime/manifest.ts describes
 * the whole manifest), checked once where the candidate is opened: a package is untrusted input. Other keys pass
 * through unchecked; `inter diff` checks commands and flags in depth (src/surface/surface.ts).
 */
import * as t from "typanion";
import { InterError } from "../../core/errors.js";
import { nestedDeeper } from "../../core/json-depth.js";

const isCredentialVariables = t.isRecord(t.isString());

const isManifestHead = t.isPartial({
  product: t.isPartial({
    binary: t.isString(),
    name: t.isOptional(t.isString()),
    version: t.isOptional(t.isString()),
    description: t.isOptional(t.isString()),
  }),
  baseUrl: t.isOptional(
    t.isPartial({
      default: t.isOptional(t.isNullable(t.isString())),
      env: t.isOptional(t.isString()),
      path: t.isOptional(t.isString()),
    }),
  ),
  auth: t.isOptional(
    t.isPartial({
      env: t.isOptional(t.isString()),
      schemes: t.isOptional(
        t.isRecord(
          t.isPartial({
            env: t.isOptional(isCredentialVariables),
            tokenUrl: t.isOptional(t.isString()),
            openIdConnectUrl: t.isOptional(t.isString()),
          }),
        ),
      ),
    }),
  ),
  groups: t.isOptional(t.isArray(t.isPartial({ name: t.isString() }))),
  skills: t.isOptional(t.isArray(t.isPartial({ name: t.isString(), description: t.isOptional(t.isString()) }))),
  rules: t.isOptional(t.isArray(t.isString())),
});

const isDependencies = t.isOptional(t.isRecord(t.isString()));

const isPackageJson = t.isPartial({
  name: t.isOptional(t.isString()),
  version: t.isOptional(t.isString()),
  description: t.isOptional(t.isString()),
  bin: t.isOptional(t.isOneOf([t.isString(), t.isRecord(t.isString())])),
  scripts: t.isOptional(t.isRecord(t.isString())),
  dependencies: isDependencies,
  optionalDependencies: isDependencies,
  peerDependencies: isDependencies,
});

/** What inter reads of a candidate's manifest.json. */
export type CandidateManifest = t.InferType<typeof isManifestHead> & Record<string, unknown>;
/** What inter reads of a candidate's package.json. */
export type CandidatePackageJson = t.InferType<typeof isPackageJson> & Record<string, unknown>;

/** Far deeper than any manifest inter writes, shallow enough to walk recursively without overflowing the stack. */
const MAX_DEPTH = 256;

const invalid = (label: string, what: string) =>
  new InterError(
    "CANDIDATE_INVALID",
    `${label}: ${what}.`,
    "Pass a cli.tgz or package folder that `inter build` made (its manifest.json and commands/ describe the CLI).",
    { candidate: label },
  );

function parseJson(label: string, path: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(label, `${path} is not JSON (${(error as Error).message})`);
  }
  if (nestedDeeper(value, MAX_DEPTH)) throw invalid(label, `${path} nests deeper than ${MAX_DEPTH} levels`);
  return value;
}

function checked<T>(label: string, path: string, value: unknown, is: t.StrictValidator<unknown, T>): T {
  const errors: string[] = [];
  if (!is(value, { errors })) throw invalid(label, `${path} is not what \`inter build\` writes: ${errors[0] ?? "?"}`);
  return value;
}

/** manifest.json, parsed and checked; CANDIDATE_INVALID naming the field when it is missing or of the wrong shape. */
export function parseManifest(label: string, text: string | undefined): CandidateManifest {
  if (text === undefined) throw invalid(label, "manifest.json is missing");
  return checked(label, "manifest.json", parseJson(label, "manifest.json", text), isManifestHead) as CandidateManifest;
}

/** package.json, parsed and checked; an empty object when the package has none. */
export function parsePackageJson(label: string, text: string | undefined): CandidatePackageJson {
  if (text === undefined) return {};
  return checked(label, "package.json", parseJson(label, "package.json", text), isPackageJson) as CandidatePackageJson;
}
