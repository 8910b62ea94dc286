import { pushTo } from "../core/group.js";
import { compareText } from "../core/text-order.js";

/**
 * The changes between two surfaces, each classified for the agents and scripts that call the CLI: breaking (a call
 * that worked may now fail or mean something else), non-breaking (something new that nothing relied on), or
 * informational (worth knowing, changes no call). docs/diff.md lists every kind with its class.
 */
import type { Command, Flag, Limits } from "../runtime/manifest.js";
import { codeForStatus, EXIT } from "../runtime/errors.js";
import type { Surface } from "./surface.js";

export type Severity = "breaking" | "non-breaking" | "informational";

export interface ApiSide {
  /** The operation: its operationId and method and path. */
  operation: string;
  /** The operation in the OpenAPI document, a JSON pointer; absent in candidates that did not record it. */
  pointer?: string;
  /** The parameter or body property behind a flag: `query limit`, `body room_id`. */
  parameter?: string;
  /** Which candidate's OpenAPI document the pointer is into: the old one for what was removed, else the new one. */
  document: "old" | "new";
}

export interface SurfaceChange {
  /** Stable: what the ignore file names. `<kind> <command>[ --flag| field]`. */
  id: string;
  kind: string;
  severity: Severity;
  reason: string;
  command?: string;
  flag?: string;
  field?: string;
  skill?: string;
  before?: unknown;
  after?: unknown;
  api?: ApiSide;
}

const json = (v: unknown) => JSON.stringify(v);
const same = (a: unknown, b: unknown) => json(a) === json(b);

function apiSide(command: Command, flag?: Flag, document: "old" | "new" = "new"): ApiSide {
  const op = command.operation;
  return {
    operation: `${op.operationId ? `${op.operationId} (${op.method} ${op.path})` : `${op.method} ${op.path}`}`,
    ...(op.pointer ? { pointer: op.pointer } : {}),
    ...(flag ? { parameter: `${flag.in} ${flag.wire}` } : {}),
    document,
  };
}

/** Path templates compare by shape: `/rooms/{id}` and `/rooms/{roomId}` are the same operation. */
const pathShape = (path: string) => path.replace(/\{[^}]*\}/g, "{}");
const methodPath = (c: Command) => `${c.operation.method.toUpperCase()} ${pathShape(c.operation.path)}`;

/**
 * Pairs old and new items: first by each key in turn (the strongest first), then what remains stays unpaired. A pair
 * found by an earlier key is never broken by a later one.
 */
function pairBy<T>(
  olds: T[],
  news: T[],
  keys: Array<(x: T) => string | undefined>,
): { pairs: Array<[T, T]>; removed: T[]; added: T[] } {
  const pairs: Array<[T, T]> = [];
  let left = [...olds];
  let right = [...news];
  for (const key of keys) {
    const index = new Map<string, T[]>();
    for (const n of right) {
      const k = key(n);
      if (k !== undefined) pushTo(index, k, n);
    }
    const counts = new Map<string, number>();
    for (const o of left) {
      const k = key(o);
      if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const paired = new Set<T>();
    for (const o of left) {
      const k = key(o);
      // Only a one-to-one match is a pair: two old commands of one operation cannot both have become the one new.
      if (k === undefined || counts.get(k) !== 1 || index.get(k)?.length !== 1) continue;
      const n = index.get(k)![0]!;
      pairs.push([o, n]);
      paired.add(o).add(n);
    }
    left = left.filter((o) => !paired.has(o));
    right = right.filter((n) => !paired.has(n));
  }
  return { pairs, removed: left, added: right };
}

type Emit = (change: Omit<SurfaceChange, "id"> & { id?: string }) => void;

const LIMITS: Array<{ key: keyof Limits; narrower: "higher" | "lower" }> = [
  { key: "minimum", narrower: "higher" },
  { key: "exclusiveMinimum", narrower: "higher" },
  { key: "minLength", narrower: "higher" },
  { key: "minItems", narrower: "higher" },
  { key: "maximum", narrower: "lower" },
  { key: "exclusiveMaximum", narrower: "lower" },
  { key: "maxLength", narrower: "lower" },
  { key: "maxItems", narrower: "lower" },
];

/** integer → number accepts every value it did; any other change of type refuses some. */
const widerType = (before: string, after: string) => before === "integer" && after === "number";

/** An array flag's type is only the same when its items are, so the name says what the items are. */
const flagType = (f: Flag) => (f.type === "array" ? `array of ${f.items ?? "any"}` : f.type);

/** What every change of one flag carries, in this key order: the command, the flag as typed, its API side. */
interface FlagBase {
  command: string;
  flag: string;
  api: ApiSide;
}

/** Decides whether the flag became required (calls without it now fail) or optional. */
function flagRequiredChange(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag } = base;
  if (o.required !== n.required) {
    emit(
      n.required
        ? {
            ...base,
            kind: "flag-became-required",
            severity: "breaking",
            reason: `${flag} of \`${command}\` is now required: calls without it fail with MISSING_FLAG.`,
            before: false,
            after: true,
          }
        : {
            ...base,
            kind: "flag-became-optional",
            severity: "non-breaking",
            reason: `${flag} of \`${command}\` is no longer required.`,
            before: true,
            after: false,
          },
    );
  }
}

/** Decides whether the flag's type changed, and whether the new type still takes every value the old one took. */
function flagTypeChange(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag } = base;
  if (flagType(o) !== flagType(n)) {
    const wider =
      widerType(o.type, n.type) ||
      (o.type === "array" && n.type === "array" && widerType(o.items ?? "", n.items ?? ""));
    emit({
      ...base,
      kind: wider ? "flag-type-widened" : "flag-type-changed",
      severity: wider ? "non-breaking" : "breaking",
      reason: wider
        ? `${flag} of \`${command}\` now takes ${flagType(n)}, which includes every ${flagType(o)} it took.`
        : `${flag} of \`${command}\` now takes ${flagType(n)} instead of ${flagType(o)}: values that were valid may be refused.`,
      before: flagType(o),
      after: flagType(n),
    });
  }
}

/** Decides, for each numeric limit that moved, whether it now refuses values it accepted or accepts more. */
function flagNumericLimitChanges(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag } = base;
  for (const { key, narrower } of LIMITS) {
    const a = o[key] as number | undefined;
    const b = n[key] as number | undefined;
    if (a === b) continue;
    const narrowed = b !== undefined && (a === undefined || (narrower === "higher" ? b > a : b < a));
    emit({
      ...base,
      id: `${narrowed ? "flag-limit-narrowed" : "flag-limit-widened"} ${command} ${flag} ${key}`,
      kind: narrowed ? "flag-limit-narrowed" : "flag-limit-widened",
      severity: narrowed ? "breaking" : "non-breaking",
      reason: `${flag} of \`${command}\`: ${key} ${a ?? "none"} → ${b ?? "none"}${narrowed ? ": values that were accepted are now refused" : ": it accepts more than it did"}.`,
      before: a,
      after: b,
    });
  }
}

/** Decides, for a pattern or format that changed, whether the flag now accepts more or may refuse what it accepted. */
function flagPatternFormatChanges(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag } = base;
  for (const key of ["pattern", "format"] as const) {
    const a = o[key];
    const b = n[key];
    if (a === b) continue;
    // A pattern or format removed accepts more; one added or replaced may refuse what was accepted.
    const widened = b === undefined;
    emit({
      ...base,
      id: `${widened ? "flag-limit-widened" : "flag-limit-narrowed"} ${command} ${flag} ${key}`,
      kind: widened ? "flag-limit-widened" : "flag-limit-narrowed",
      severity: widened ? "non-breaking" : "breaking",
      reason: `${flag} of \`${command}\`: ${key} ${a === undefined ? "none" : json(a)} → ${b === undefined ? "none" : json(b)}${widened ? "" : ": values that were accepted may be refused"}.`,
      before: a,
      after: b,
    });
  }
}

/** Decides whether the flag now accepts null (wider) or no longer does (narrower). */
function flagNullableChange(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag } = base;
  if (o.nullable !== n.nullable && (o.nullable || n.nullable)) {
    emit(
      n.nullable
        ? {
            ...base,
            kind: "flag-limit-widened",
            id: `flag-limit-widened ${command} ${flag} nullable`,
            severity: "non-breaking",
            reason: `${flag} of \`${command}\` now accepts null.`,
            before: false,
            after: true,
          }
        : {
            ...base,
            kind: "flag-limit-narrowed",
            id: `flag-limit-narrowed ${command} ${flag} nullable`,
            severity: "breaking",
            reason: `${flag} of \`${command}\` no longer accepts null.`,
            before: true,
            after: false,
          },
    );
  }
}

/** Decides which allowed values the flag lost (breaking) or gained, or whether its whole list of them came or went. */
function flagEnumChanges(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag } = base;
  if (o.enum && n.enum) {
    for (const value of o.enum.filter((v) => !n.enum!.some((w) => same(v, w)))) {
      emit({
        ...base,
        id: `flag-enum-value-removed ${command} ${flag} ${json(value)}`,
        kind: "flag-enum-value-removed",
        severity: "breaking",
        reason: `${flag} of \`${command}\` no longer accepts ${json(value)}.`,
        before: value,
      });
    }
    for (const value of n.enum.filter((v) => !o.enum!.some((w) => same(v, w)))) {
      emit({
        ...base,
        id: `flag-enum-value-added ${command} ${flag} ${json(value)}`,
        kind: "flag-enum-value-added",
        severity: "non-breaking",
        reason: `${flag} of \`${command}\` now also accepts ${json(value)}.`,
        after: value,
      });
    }
  } else if (o.enum && !n.enum) {
    emit({
      ...base,
      kind: "flag-limit-widened",
      id: `flag-limit-widened ${command} ${flag} enum`,
      severity: "non-breaking",
      reason: `${flag} of \`${command}\` is no longer limited to ${o.enum.map(json).join(", ")}.`,
      before: o.enum,
    });
  } else if (!o.enum && n.enum) {
    emit({
      ...base,
      kind: "flag-limit-narrowed",
      id: `flag-limit-narrowed ${command} ${flag} enum`,
      severity: "breaking",
      reason: `${flag} of \`${command}\` now accepts only ${n.enum.map(json).join(", ")}.`,
      after: n.enum,
    });
  }
}

/** Decides whether a changed default alters calls that omit the flag (breaking) or was only added or dropped. */
function flagDefaultChange(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag } = base;
  if (!same(o.default, n.default)) {
    const changed = o.default !== undefined && n.default !== undefined;
    emit({
      ...base,
      kind: "flag-default-changed",
      severity: changed ? "breaking" : "informational",
      reason: changed
        ? `${flag} of \`${command}\` defaults to ${json(n.default)} instead of ${json(o.default)}: calls that omit it now behave differently.`
        : `${flag} of \`${command}\`: default ${o.default === undefined ? "none" : json(o.default)} → ${n.default === undefined ? "none" : json(n.default)}.`,
      before: o.default,
      after: n.default,
    });
  }
}

/** Decides whether the flag's value now goes elsewhere in the request, which callers see only in the API. */
function flagWireChange(base: FlagBase, o: Flag, n: Flag, emit: Emit): void {
  const { command, flag, api } = base;
  if (o.in !== n.in || o.wire !== n.wire) {
    emit({
      ...base,
      kind: "flag-wire-changed",
      severity: "informational",
      reason: `${flag} of \`${command}\` is now sent as ${n.in} ${n.wire} (was ${o.in} ${o.wire})${o.flag === n.flag ? "; the command line is unchanged" : ""}.`,
      before: `${o.in} ${o.wire}`,
      after: `${n.in} ${n.wire}`,
      api: { ...api, parameter: `${n.in} ${n.wire}` },
    });
  }
}

/** The changes between two paired flags; the call order is the emission order, which changes that sort equal keep. */
function flagChanges(command: string, o: Flag, n: Flag, api: ApiSide, emit: Emit): void {
  const flag = `--${n.flag}`;
  const base: FlagBase = { command, flag, api };
  flagRequiredChange(base, o, n, emit);
  flagTypeChange(base, o, n, emit);
  flagNumericLimitChanges(base, o, n, emit);
  flagPatternFormatChanges(base, o, n, emit);
  flagNullableChange(base, o, n, emit);
  flagEnumChanges(base, o, n, emit);
  flagDefaultChange(base, o, n, emit);
  flagWireChange(base, o, n, emit);
}

const PERMISSION_RANK = { read: 0, write: 1, delete: 2 } as Record<string, number>;

const errorCodes = (c: Command) =>
  [
    ...new Set(
      (c.statuses ?? [])
        .map(Number)
        .filter((s) => s >= 400)
        .map(codeForStatus),
    ),
  ].sort();

function outputChanges(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  const base = { command: name, api };
  if (o.output.shape !== n.output.shape) {
    emit({
      ...base,
      kind: "output-shape-changed",
      severity: "breaking",
      reason: `\`${name}\` now returns ${n.output.shape} instead of ${o.output.shape}.`,
      before: o.output.shape,
      after: n.output.shape,
    });
    return;
  }
  if ((o.output.listField ?? "") !== (n.output.listField ?? "")) {
    emit({
      ...base,
      kind: "output-list-field-changed",
      severity: "breaking",
      reason: `\`${name}\` returns its items under ${json(n.output.listField ?? "the top level")} instead of ${json(o.output.listField ?? "the top level")}.`,
      before: o.output.listField,
      after: n.output.listField,
    });
  }
  const before = o.output.fields ?? [];
  const after = n.output.fields ?? [];
  for (const field of before.filter((f) => !after.includes(f))) {
    emit({
      ...base,
      field,
      kind: "output-field-removed",
      severity: "breaking",
      reason: `\`${name}\` no longer returns \`${field}\`: readers of it get nothing.`,
    });
  }
  for (const field of after.filter((f) => !before.includes(f))) {
    emit({
      ...base,
      field,
      kind: "output-field-added",
      severity: "non-breaking",
      reason: `\`${name}\` now also returns \`${field}\`.`,
    });
  }
  for (const field of before.filter((f) => after.includes(f))) {
    const a = o.output.types?.[field];
    const b = n.output.types?.[field];
    if (!a || !b) continue;
    if (a.type !== b.type) {
      emit({
        ...base,
        field,
        kind: "output-field-retyped",
        severity: "breaking",
        reason: `\`${name}\` returns \`${field}\` as ${b.type} instead of ${a.type}.`,
        before: a.type,
        after: b.type,
      });
      continue;
    }
    for (const value of (b.enum ?? []).filter((v) => a.enum && !a.enum.some((w) => same(v, w)))) {
      emit({
        ...base,
        field,
        id: `output-enum-value-added ${name} ${field} ${json(value)}`,
        kind: "output-enum-value-added",
        severity: "non-breaking",
        reason: `\`${name}\` may now return ${json(value)} in \`${field}\`; readers should expect values they do not know.`,
        after: value,
      });
    }
    for (const value of (a.enum ?? []).filter((v) => b.enum && !b.enum.some((w) => same(v, w)))) {
      emit({
        ...base,
        field,
        id: `output-enum-value-removed ${name} ${field} ${json(value)}`,
        kind: "output-enum-value-removed",
        severity: "informational",
        reason: `\`${name}\` no longer returns ${json(value)} in \`${field}\`.`,
        before: value,
      });
    }
  }
}

/** Decides whether the command was renamed: calls of the old name break. */
function commandRenamed(o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (o.name !== n.name) {
    emit({
      id: `command-renamed ${o.name}`,
      kind: "command-renamed",
      severity: "breaking",
      command: o.name,
      reason: `\`${o.name}\` is now \`${n.name}\` (same operation): calls of the old name fail with UNKNOWN_COMMAND.`,
      before: o.name,
      after: n.name,
      api,
    });
  }
}

/** Decides whether the command now calls another operation, which its callers do not see. */
function operationChanged(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (methodPath(o) !== methodPath(n) || (o.operation.operationId ?? "") !== (n.operation.operationId ?? "")) {
    emit({
      command: name,
      kind: "operation-changed",
      severity: "informational",
      reason: `\`${name}\` now calls ${apiSide(n).operation} (was ${apiSide(o).operation}).`,
      before: apiSide(o).operation,
      after: apiSide(n).operation,
      api,
    });
  }
}

/** Decides which old flag is which new one, so a flag renamed or moved is not reported as removed and added. */
function pairFlags(o: Command, n: Command): { pairs: Array<[Flag, Flag]>; removed: Flag[]; added: Flag[] } {
  // Flags pair by where their value goes first: the same parameter under a new flag name is a rename, not remove + add.
  // A path parameter renamed in the document (`/vaults/{vaultUuid}` → `/vaults/{id}`) is the same by its place.
  const slot = new Map<(typeof o.flags)[number], string>();
  for (const side of [o, n]) {
    const names = [...side.operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const f of side.flags)
      if (f.in === "path" && names.includes(f.wire)) slot.set(f, `path #${names.indexOf(f.wire)}`);
  }
  return pairBy(o.flags, n.flags, [(f) => `${f.in} ${f.wire}`, (f) => f.flag, (f) => slot.get(f)]);
}

/** Decides whether a paired flag was renamed: calls with the old name break. */
function flagRenamed(name: string, n: Command, a: Flag, b: Flag, emit: Emit): void {
  if (a.flag !== b.flag)
    emit({
      id: `flag-renamed ${name} --${a.flag}`,
      command: name,
      flag: `--${a.flag}`,
      kind: "flag-renamed",
      severity: "breaking",
      reason: `--${a.flag} of \`${name}\` is now --${b.flag} (same ${b.in} parameter ${b.wire}): calls with the old name fail with UNKNOWN_FLAG.`,
      before: `--${a.flag}`,
      after: `--${b.flag}`,
      api: apiSide(n, b),
    });
}

/** Each flag pair's rename comes right before its other changes, as changes that sort equal keep that order. */
function pairedFlagChanges(name: string, n: Command, pairs: Array<[Flag, Flag]>, emit: Emit): void {
  for (const [a, b] of pairs) {
    flagRenamed(name, n, a, b, emit);
    flagChanges(name, a, b, apiSide(n, b), emit);
  }
}

/** A flag with no pair in the new command is gone: every call that passes it breaks. */
function removedFlagChanges(name: string, o: Command, removed: Flag[], emit: Emit): void {
  for (const f of removed)
    emit({
      command: name,
      flag: `--${f.flag}`,
      kind: "flag-removed",
      severity: "breaking",
      reason: `\`${name}\` no longer has --${f.flag}: calls with it fail with UNKNOWN_FLAG.`,
      api: apiSide(o, f, "old"),
    });
}

/** Decides whether a new flag breaks calls: only a required one does. */
function addedFlagChanges(name: string, n: Command, added: Flag[], emit: Emit): void {
  for (const f of added) {
    emit(
      f.required
        ? {
            command: name,
            flag: `--${f.flag}`,
            kind: "flag-added-required",
            severity: "breaking",
            reason: `\`${name}\` has a new required flag --${f.flag}: calls without it fail with MISSING_FLAG.`,
            api: apiSide(n, f),
          }
        : {
            command: name,
            flag: `--${f.flag}`,
            kind: "flag-added",
            severity: "non-breaking",
            reason: `\`${name}\` has a new optional flag --${f.flag}.`,
            api: apiSide(n, f),
          },
    );
  }
}

/** Decides whether --json-input came (non-breaking) or went (breaking). */
function jsonInputChange(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (o.jsonInput !== n.jsonInput) {
    emit(
      n.jsonInput
        ? {
            command: name,
            kind: "json-input-added",
            severity: "non-breaking",
            reason: `\`${name}\` now accepts a whole request body as --json-input.`,
            api,
          }
        : {
            command: name,
            kind: "json-input-removed",
            severity: "breaking",
            reason: `\`${name}\` no longer accepts --json-input.`,
            api,
          },
    );
  }
}

/** Decides whether the command now needs --yes (breaking) or no longer does. */
function destructiveChange(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (o.destructive !== n.destructive) {
    emit(
      n.destructive
        ? {
            command: name,
            kind: "became-destructive",
            severity: "breaking",
            reason: `\`${name}\` is now destructive: it needs --yes, calls without it fail with CONFIRMATION_REQUIRED.`,
            api,
          }
        : {
            command: name,
            kind: "no-longer-destructive",
            severity: "non-breaking",
            reason: `\`${name}\` is no longer destructive and no longer needs --yes.`,
            api,
          },
    );
  }
}

/** Decides whether the command needs a higher permission level, which agents allowed only the old one are refused. */
function permissionChange(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (o.permission !== n.permission) {
    const wider = (PERMISSION_RANK[n.permission] ?? 0) > (PERMISSION_RANK[o.permission] ?? 0);
    emit({
      command: name,
      kind: "permission-changed",
      severity: wider ? "breaking" : "non-breaking",
      reason: `\`${name}\` now needs ${n.permission} permission instead of ${o.permission}${wider ? ": agents allowed only the old level are refused it" : ""}.`,
      before: o.permission,
      after: n.permission,
      api,
    });
  }
}

/** A command needs a credential when it names a scheme and cannot run without one. */
const needsCredential = (c: Command) => c.auth.length > 0 && !c.authOptional;

/** How a reason names a command's auth: the schemes of each alternative, or none. */
const describeAuth = (auth: Command["auth"]) => auth.map((r) => Object.keys(r).join(" + ")).join(" or ") || "none";

/** Decides whether a credential became required or optional, else whether only the schemes changed. */
function credentialChange(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (needsCredential(o) !== needsCredential(n)) {
    emit(
      needsCredential(n)
        ? {
            command: name,
            kind: "credential-required",
            severity: "breaking",
            reason: `\`${name}\` now needs a credential: calls without one fail with CREDENTIAL_MISSING.`,
            api,
          }
        : {
            command: name,
            kind: "credential-no-longer-required",
            severity: "non-breaking",
            reason: `\`${name}\` works without a credential now.`,
            api,
          },
    );
  } else if (!same(o.auth, n.auth)) {
    emit({
      command: name,
      kind: "auth-scheme-changed",
      severity: "informational",
      reason: `\`${name}\` authenticates with ${describeAuth(n.auth)} instead of ${describeAuth(o.auth)}.`,
      before: o.auth,
      after: n.auth,
      api,
    });
  }
}

/** Decides whether paging came, went (breaking) or changed; a new style or parameter breaks the page flags. */
function pagingChange(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  const [pa, pb] = [o.pagination, n.pagination];
  if (!same(pa, pb)) {
    if (!pa)
      emit({
        command: name,
        kind: "paging-added",
        severity: "non-breaking",
        reason: `\`${name}\` now pages (${pb!.style}): --all fetches every page.`,
        after: pb,
        api,
      });
    else if (!pb)
      emit({
        command: name,
        kind: "paging-removed",
        severity: "breaking",
        reason: `\`${name}\` no longer pages: --all and the page flags are gone.`,
        before: pa,
        api,
      });
    else
      emit({
        command: name,
        kind: "paging-changed",
        severity: pa.style !== pb.style || pa.param !== pb.param ? "breaking" : "informational",
        reason: `\`${name}\` pages by ${pb.style}${pb.param ? ` (${pb.param})` : ""} instead of ${pa.style}${pa.param ? ` (${pa.param})` : ""}.`,
        before: pa,
        after: pb,
        api,
      });
  }
}

/** Decides which error codes the command may newly end with (callers should handle them) and which it no longer declares. */
function errorCodeChanges(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  const [ea, eb] = [errorCodes(o), errorCodes(n)];
  for (const code of eb.filter((c) => !ea.includes(c)))
    emit({
      id: `error-code-added ${name} ${code}`,
      command: name,
      kind: "error-code-added",
      severity: "non-breaking",
      reason: `\`${name}\` may now end with ${code} (exit ${EXIT[code] ?? 1}).`,
      after: code,
      api,
    });
  for (const code of ea.filter((c) => !eb.includes(c)))
    emit({
      id: `error-code-removed ${name} ${code}`,
      command: name,
      kind: "error-code-removed",
      severity: "informational",
      reason: `\`${name}\` no longer declares ${code} (exit ${EXIT[code] ?? 1}).`,
      before: code,
      api,
    });
}

/** Decides whether the API deprecated the command or took that back; it runs either way. */
function deprecationChange(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (!!o.deprecated !== !!n.deprecated)
    emit({
      command: name,
      kind: n.deprecated ? "command-deprecated" : "command-undeprecated",
      severity: "informational",
      reason: n.deprecated
        ? `\`${name}\` is deprecated in the API: it still runs; plan its replacement.`
        : `\`${name}\` is no longer deprecated.`,
      api,
    });
}

/** Decides whether the command left help or came back to it; it runs either way. */
function hiddenChange(name: string, o: Command, n: Command, api: ApiSide, emit: Emit): void {
  if (o.hidden !== n.hidden)
    emit({
      command: name,
      kind: n.hidden ? "command-hidden" : "command-unhidden",
      severity: "informational",
      reason: n.hidden ? `\`${name}\` is hidden from help (it still runs).` : `\`${name}\` is listed in help again.`,
      api,
    });
}

/** The changes between two paired commands; the call order is the emission order, which changes that sort equal keep. */
function commandChanges(o: Command, n: Command, emit: Emit): void {
  const name = n.name;
  const api = apiSide(n);
  commandRenamed(o, n, api, emit);
  operationChanged(name, o, n, api, emit);
  const flags = pairFlags(o, n);
  pairedFlagChanges(name, n, flags.pairs, emit);
  removedFlagChanges(name, o, flags.removed, emit);
  addedFlagChanges(name, n, flags.added, emit);
  jsonInputChange(name, o, n, api, emit);
  destructiveChange(name, o, n, api, emit);
  permissionChange(name, o, n, api, emit);
  credentialChange(name, o, n, api, emit);
  pagingChange(name, o, n, api, emit);
  errorCodeChanges(name, o, n, api, emit);
  deprecationChange(name, o, n, api, emit);
  hiddenChange(name, o, n, api, emit);
  outputChanges(name, o, n, api, emit);
}

/** Every change from `before` to `after`, ordered breaking first, each with a stable id. */
export function surfaceChanges(before: Surface, after: Surface): SurfaceChange[] {
  const changes: SurfaceChange[] = [];
  const emit: Emit = (change) => {
    const id =
      change.id ?? [change.kind, change.command, change.flag ?? change.field ?? change.skill].filter(Boolean).join(" ");
    changes.push({ ...change, id });
  };
  const p = (a: string, b: string, kind: string, breaking: boolean, what: string) => {
    if (a !== b)
      emit({
        kind,
        severity: breaking ? "breaking" : "informational",
        reason: `${what} ${json(b)} instead of ${json(a)}.`,
        before: a,
        after: b,
      });
  };
  p(before.product.binary, after.product.binary, "binary-renamed", true, "The CLI is now run as");
  if (before.product.package && after.product.package)
    p(before.product.package, after.product.package, "package-renamed", true, "The package is now installed as");
  p(before.env.credential, after.env.credential, "credential-env-changed", true, "Credentials are now read from");
  p(before.env.baseUrl, after.env.baseUrl, "base-url-env-changed", true, "The base URL is now read from");

  // A command is the same one when its operation is: the operationId first, then method and path, then the name.
  const commands = pairBy(before.commands, after.commands, [(c) => c.operation.operationId, methodPath, (c) => c.name]);
  for (const [o, n] of commands.pairs) commandChanges(o, n, emit);
  for (const c of commands.removed)
    emit({
      command: c.name,
      kind: "command-removed",
      severity: "breaking",
      reason: `\`${c.name}\` is gone: calls of it fail with UNKNOWN_COMMAND.`,
      api: apiSide(c, undefined, "old"),
    });
  for (const c of commands.added)
    emit({
      command: c.name,
      kind: "command-added",
      severity: "non-breaking",
      reason: `New command \`${c.name}\`${c.description ? `: ${c.description}` : ""}.`,
      api: apiSide(c),
    });

  // A Skill renamed keeps its description or its commands.
  const skills = pairBy(before.skills, after.skills, [
    (s) => s.name,
    (s) => s.description || undefined,
    (s) => (s.commands.length ? s.commands.join(",") : undefined),
  ]);
  const renamedCommand = new Map(commands.pairs.map(([o, n]) => [o.name, n.name]));
  for (const [o, n] of skills.pairs) {
    if (o.name !== n.name)
      emit({
        skill: o.name,
        kind: "skill-renamed",
        severity: "breaking",
        reason: `Skill ${o.name} is now ${n.name}: agent setups that load it by name miss it.`,
        before: o.name,
        after: n.name,
      });
    // Commands that were only renamed count as the same link.
    const was = o.commands.map((c) => renamedCommand.get(c) ?? c);
    const unlinked = was.filter((c) => !n.commands.includes(c));
    const linked = n.commands.filter((c) => !was.includes(c));
    if (unlinked.length || linked.length)
      emit({
        skill: n.name,
        kind: "skill-relinked",
        severity: "informational",
        reason: `Skill ${n.name} ${[linked.length ? `now uses ${linked.map((c) => `\`${c}\``).join(", ")}` : "", unlinked.length ? `no longer uses ${unlinked.map((c) => `\`${c}\``).join(", ")}` : ""].filter(Boolean).join(" and ")}.`,
        before: o.commands,
        after: n.commands,
      });
  }
  for (const s of skills.removed)
    emit({
      skill: s.name,
      kind: "skill-removed",
      severity: "breaking",
      reason: `Skill ${s.name} is gone: agent setups that load it by name miss it.`,
    });
  for (const s of skills.added)
    emit({ skill: s.name, kind: "skill-added", severity: "non-breaking", reason: `New Skill ${s.name}.` });

  for (const rule of before.rules.filter((r) => !after.rules.includes(r)))
    emit({
      id: `rule-removed ${rule}`,
      kind: "rule-removed",
      severity: "informational",
      reason: `Rule dropped: ${rule}`,
      before: rule,
    });
  for (const rule of after.rules.filter((r) => !before.rules.includes(r)))
    emit({
      id: `rule-added ${rule}`,
      kind: "rule-added",
      severity: "informational",
      reason: `New rule: ${rule}`,
      after: rule,
    });

  const rank = { breaking: 0, "non-breaking": 1, informational: 2 };
  return changes.sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      compareText(a.command ?? a.skill ?? "", b.command ?? b.skill ?? "") ||
      compareText(a.id, b.id),
  );
}
