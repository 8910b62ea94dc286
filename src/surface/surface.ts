/**
 * What a candidate promises the agents and scripts that call it: its commands, flags, outputs, errors, paging, Skills
 * and rules, read from the files the package carries (manifest.json, commands/<group>.json, skills/<name>/SKILL.md —
 * runtime/manifest.ts describes them). The package is untrusted input: every field is checked before it is used.
 */
import { InterError } from "../core/errors.js";
import { nestedDeeper } from "../core/json-depth.js";
import type { Command, Flag, Manifest, Requirement } from "../runtime/manifest.js";
import { compareText } from "../core/text-order.js";

export interface SurfaceSkill {
  name: string;
  description: string;
  /** The commands its SKILL.md tells the agent to run. */
  commands: string[];
}

export interface Surface {
  /** Where it was read from, as the user named it. */
  label: string;
  product: { name: string; binary: string; version: string; package?: string };
  env: { credential: string; baseUrl: string };
  commands: Command[];
  skills: SurfaceSkill[];
  rules: string[];
}

const fail = (label: string, what: string): never => {
  throw new InterError(
    "CANDIDATE_INVALID",
    `${label}: ${what}.`,
    "Pass a cli.tgz or package folder that `inter build` made (its manifest.json and commands/ describe the CLI).",
    { candidate: label },
  );
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

/** Far deeper than any manifest inter writes (a flag's default sits six levels down), shallow enough to compare safely. */
const MAX_DEPTH = 256;

function parseJson(label: string, path: string, text: string | undefined): unknown {
  if (text === undefined) return fail(label, `${path} is missing`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(label, `${path} is not JSON (${(error as Error).message})`);
  }
  // Comparing values (defaults, enums) walks them recursively: a hostile nesting must not overflow the stack.
  if (nestedDeeper(value, MAX_DEPTH)) fail(label, `${path} nests deeper than ${MAX_DEPTH} levels`);
  return value;
}

function checkFlag(label: string, where: string, flag: unknown): Flag {
  if (
    !isObject(flag) ||
    !isString(flag.flag) ||
    !isString(flag.type) ||
    !isString(flag.in) ||
    !isString(flag.wire) ||
    typeof flag.required !== "boolean"
  ) {
    return fail(label, `${where} has a flag without flag, in, wire, type and required`);
  }
  if (flag.enum !== undefined && !Array.isArray(flag.enum)) fail(label, `${where} --${flag.flag}: enum is not a list`);
  return flag as unknown as Flag;
}

function checkCommand(label: string, file: string, command: unknown, index: number): Command {
  const where = `${file}: commands[${index}]`;
  if (
    !isObject(command) ||
    !isString(command.name) ||
    !Array.isArray(command.path) ||
    !isObject(command.operation) ||
    !isString(command.operation.method) ||
    !isString(command.operation.path)
  ) {
    return fail(label, `${where} lacks a name, path or operation`);
  }
  if (!Array.isArray(command.flags)) fail(label, `${where} (${command.name}) has no flags list`);
  if (!isObject(command.output) || !isString(command.output.shape))
    fail(label, `${where} (${command.name}) has no output shape`);
  const flags = (command.flags as unknown[]).map((f) => checkFlag(label, `${where} (${command.name})`, f));
  return {
    ...(command as unknown as Command),
    flags,
    statuses: Array.isArray(command.statuses) ? command.statuses.filter(isString) : [],
    auth: Array.isArray(command.auth) ? command.auth.flatMap(requirementOf) : [],
  };
}

/** A requirement as candidates record it: an object of scheme → scopes, or (before several credentials) a scheme's name. */
function requirementOf(value: unknown): Requirement[] {
  if (isString(value)) return [{ [value]: [] }];
  if (!isObject(value)) return [];
  return [Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v.filter(isString) : []]))];
}

/**
 * Every credential variable a candidate's manifest names, sorted, read without trusting its shape: the one `auth.env`
 * of candidates built before several credentials, else each scheme's variables.
 */
export function manifestCredentialNames(auth: unknown): string[] {
  if (!isObject(auth)) return [];
  if (isString(auth.env)) return [auth.env];
  const schemes = isObject(auth.schemes) ? Object.values(auth.schemes) : [];
  return [
    ...new Set(schemes.flatMap((s) => (isObject(s) && isObject(s.env) ? Object.values(s.env).filter(isString) : []))),
  ].sort();
}

/** The command names a SKILL.md's "## Commands" section runs (`binary <command> …` in backticks), in order. */
export function skillCommands(markdown: string, binary: string, names: Set<string>): string[] {
  const section = /^## Commands\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(markdown)?.[1] ?? "";
  const found: string[] = [];
  for (const match of section.matchAll(/`([^`\n]+)`/g)) {
    const words = match[1]!.trim().split(/\s+/);
    if (words[0] !== binary) continue;
    // The longest leading run of words that names a command (commands are two or three words).
    for (const n of [3, 2]) {
      const name = words.slice(1, 1 + n).join(" ");
      if (names.has(name)) {
        if (!found.includes(name)) found.push(name);
        break;
      }
    }
  }
  return found;
}

/** Builds the surface from a package's files (paths relative to the package root). */
export function surfaceOf(label: string, files: Map<string, string>): Surface {
  const manifest = parseJson(label, "manifest.json", files.get("manifest.json")) as Partial<Manifest>;
  if (
    !isObject(manifest) ||
    !isObject(manifest.product) ||
    !isString(manifest.product.binary) ||
    !Array.isArray(manifest.groups)
  ) {
    return fail(label, "manifest.json lacks product.binary or groups");
  }
  const product = manifest.product;
  const commands: Command[] = [];
  for (const group of manifest.groups) {
    if (!isObject(group) || !isString(group.name) || !/^[a-z0-9][a-z0-9-]*$/.test(group.name))
      return fail(label, "manifest.json groups has an entry without a kebab-case name");
    const file = `commands/${group.name}.json`;
    const content = parseJson(label, file, files.get(file));
    if (!isObject(content) || !Array.isArray(content.commands)) return fail(label, `${file} lacks its commands list`);
    content.commands.forEach((c, i) => commands.push(checkCommand(label, file, c, i)));
  }
  const names = new Set(commands.map((c) => c.name));
  if (names.size !== commands.length) fail(label, "two commands share a name");
  const skills = (Array.isArray(manifest.skills) ? manifest.skills : [])
    .filter((s) => isObject(s) && isString(s.name))
    .map((s) => ({
      name: s.name,
      description: isString(s.description) ? s.description : "",
      commands: skillCommands(files.get(`skills/${s.name}/SKILL.md`) ?? "", product.binary, names),
    }));
  const pkg = files.has("package.json")
    ? (parseJson(label, "package.json", files.get("package.json")) as Record<string, unknown>)
    : {};
  return {
    label,
    product: {
      name: isString(product.name) ? product.name : product.binary,
      binary: product.binary,
      version: isString(product.version) ? product.version : "0.0.0",
      ...(isObject(pkg) && isString(pkg.name) ? { package: pkg.name } : {}),
    },
    env: {
      credential: manifestCredentialNames(manifest.auth).join(", "),
      baseUrl: isObject(manifest.baseUrl) && isString(manifest.baseUrl.env) ? manifest.baseUrl.env : "",
    },
    commands: commands.sort((a, b) => compareText(a.name, b.name)),
    skills,
    rules: (Array.isArray(manifest.rules) ? manifest.rules : []).filter(isString),
  };
}

/** The files of a package `surfaceOf` reads; nothing else is loaded. */
export const surfaceFile = (path: string) =>
  path === "manifest.json" ||
  path === "package.json" ||
  /^commands\/[a-z0-9-]+\.json$/.test(path) ||
  /^skills\/[^/]+\/SKILL\.md$/.test(path);
