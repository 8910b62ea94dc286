import type { NameSource } from "../types.js";
import type { Qualifier } from "./claims.js";
import type { Draft } from "./draft.js";

/** Where each word of a draft's final name came from. */
export function sourceOf(d: Draft, entry: { path: string[]; qualifier?: Qualifier }, collapsed: boolean): NameSource {
  const { path } = entry;
  if (d.explicit)
    return {
      resource: { word: path[0]!, from: "x-cli-name" },
      action: { word: path[path.length - 1]!, from: "x-cli-name", text: d.op.cli.name! },
    };
  return {
    resource: {
      word: path[0]!,
      from: d.resourceFrom,
      ...(d.resourceFrom === "tag" ? { text: d.op.tags[0]! } : { text: d.op.path }),
    },
    ...(path.length === 3 ? { sub: { word: path[1]!, from: "path" as const, text: d.op.path } } : {}),
    action: {
      word: d.action,
      from: d.actionFrom,
      ...(d.actionText
        ? { text: d.actionText }
        : d.actionFrom === "method"
          ? { text: `${d.op.method.toUpperCase()} ${d.op.path}` }
          : {}),
      ...(d.actionReason ? { reason: d.actionReason } : {}),
    },
    ...(entry.qualifier
      ? {
          qualifier: {
            words: entry.qualifier.words.join("-") || path[path.length - 1]!,
            from: entry.qualifier.from,
            reason: `told apart from ${entry.qualifier.with.join(", ")}`,
          },
        }
      : {}),
    ...(collapsed ? { collapsed: true } : {}),
    ...(d.dropped.length ? { dropped: [...new Set(d.dropped)] } : {}),
  };
}
