import { pushTo } from "../../../core/group.js";
import { singular } from "../word-forms.js";
import type { Claims } from "./claims.js";
import type { Draft } from "./draft.js";
import { segmentsOf } from "./path-words.js";

/** Names within their length: lone sub-resources merged, then long sub-resources, actions and groups shortened. */

const MAX_NAME_LENGTH = 48;
/** A group word longer than this may lose words so that its commands fit MAX_NAME_LENGTH. */
const MAX_GROUP_LENGTH = 24;

/** A sub-resource of one command is no group: `player devices list` → `player list-devices`. Returns those merged. */
export function collapseLoneSubs(claims: Claims): Set<Draft> {
  const under = new Map<string, number>();
  for (const { path } of claims.chosen.values())
    if (path.length === 3) under.set(path.slice(0, 2).join(" "), (under.get(path.slice(0, 2).join(" ")) ?? 0) + 1);
  const collapsed = new Set<Draft>();
  for (const [d, entry] of claims.chosen) {
    const { path } = entry;
    if (d.explicit || path.length !== 3 || under.get(path.slice(0, 2).join(" ")) !== 1 || scopesMaking(d, path))
      continue;
    const said = new Set(path[0]!.split("-").flatMap((t) => [t, singular(t)]));
    const subTokens = path[1]!.split("-");
    const ownTokens = subTokens.filter((t) => !said.has(t) && !said.has(singular(t)));
    // Tokens said twice in a row (`create` + `create-array`) are said once.
    const joined = [...path[2]!.split("-"), ...(ownTokens.length ? ownTokens : subTokens)].filter(
      (t, i, all) => t !== all[i - 1],
    );
    const merged = [path[0]!, joined.join("-")];
    if (claims.taken.has(merged.join(" ")) || merged[1]!.length > 40) continue;
    claims.taken.delete(path.join(" "));
    claims.taken.set(merged.join(" "), d);
    entry.path = merged;
    collapsed.add(d);
  }
  return collapsed;
}

/**
 * A making under one item the path names last (`POST /projects/user/{user_id}` "Create new project for a specified
 * user"): merged, `create-user` would say it makes the item; kept apart, `projects user create` makes a project.
 */
function scopesMaking(d: Draft, path: string[]): boolean {
  const segments = segmentsOf(d.op.path);
  return (
    ["create", "add"].includes(path[2]!.split("-")[0]!) &&
    segments.length >= 2 &&
    /^\{[^}]+\}$/.test(segments[segments.length - 1]!) &&
    !/^\{/.test(segments[segments.length - 2]!)
  );
}

/**
 * A sub-resource whose commands run over MAX_NAME_LENGTH loses the words its group already says, then middle words,
 * the same for every command under it (`phone-numbers` stays one sub-resource of its group), while every new name is
 * free.
 */
export function shortenSubs(chosen: Map<Draft, { path: string[] }>, taken: Map<string, Draft>): void {
  const bySub = new Map<string, Array<[Draft, { path: string[] }]>>();
  for (const [d, e] of chosen)
    if (e.path.length === 3 && !d.explicit) pushTo(bySub, e.path.slice(0, 2).join(" "), [d, e]);
  for (const entries of bySub.values()) {
    const [group, sub] = entries[0]![1].path as [string, string];
    const longest = (word: string) => Math.max(...entries.map(([, e]) => [group, word, e.path[2]].join(" ").length));
    const free = (word: string) =>
      entries.every(([d, e]) => {
        const owner = taken.get([group, word, e.path[2]].join(" "));
        return !owner || owner === d;
      });
    let word = sub;
    while (longest(word) > MAX_NAME_LENGTH) {
      const tokens = word.split("-");
      // "classification" is said by `classifications-files`: a word and its plural are one.
      const said = new Set(group.split("-").map(singular));
      const unsaid = tokens.filter((t) => !said.has(singular(t)));
      const candidates = [
        ...(unsaid.length && unsaid.length < tokens.length ? [unsaid.join("-")] : []),
        ...tokens.slice(1, -1).map((_, j) => tokens.filter((__, k) => k !== j + 1).join("-")),
      ];
      const next = candidates.find(free);
      if (!next) break;
      word = next;
    }
    if (word === sub) continue;
    for (const [d, e] of entries) {
      taken.delete(e.path.join(" "));
      e.path = [group, word, e.path[2]!];
      taken.set(e.path.join(" "), d);
    }
  }
}

/**
 * A group whose commands run over MAX_NAME_LENGTH loses words of its own name, the same for every command under it
 * (one tag stays one group), while no other group has that name.
 */
export function shortenGroups(chosen: Map<Draft, { path: string[] }>, taken: Map<string, Draft>): void {
  const byGroup = new Map<string, Array<[Draft, { path: string[] }]>>();
  for (const [d, e] of chosen) pushTo(byGroup, e.path[0]!, [d, e]);
  const names = new Set(byGroup.keys());
  for (const [group, entries] of byGroup) {
    // `financial-connections` says what its commands are about; only a tag's long compound is worth losing words of.
    if (entries.some(([d]) => d.explicit) || group.length <= MAX_GROUP_LENGTH) continue;
    let tokens = group.split("-");
    const longest = () => Math.max(...entries.map(([, e]) => [tokens.join("-"), ...e.path.slice(1)].join(" ").length));
    // Middle words first, the earliest that leaves a name no other group has (`article-configuration-item-…-child`),
    // then leading ones (`issue-field-configurations` → `field-configurations`).
    while (longest() > MAX_NAME_LENGTH) {
      const middles = tokens.slice(1, -1).map((_, j) => tokens.filter((__, k) => k !== j + 1));
      const next = [...middles, tokens.length > 1 ? tokens.slice(1) : undefined].find(
        (t) => t && !names.has(t.join("-")),
      );
      if (!next) break;
      tokens = next;
    }
    const word = tokens.join("-");
    if (word === group) continue;
    names.add(word);
    for (const [d, e] of entries) {
      taken.delete(e.path.join(" "));
      e.path = [word, ...e.path.slice(1)];
      taken.set(e.path.join(" "), d);
    }
  }
}

/**
 * Names still over MAX_NAME_LENGTH lose words of their action while they stay unique: first tokens another word of the
 * name already says, then middle tokens; the action's verb always stays. Groups and sub-resources shorten alike for all
 * their commands (shortenSubs, shortenGroups).
 */
export function shorten(path: string[], taken: Map<string, Draft>, d: Draft): string[] {
  let current = path;
  const free = (next: string[]) => !taken.has(next.join(" ")) || taken.get(next.join(" ")) === d;
  while (current.join(" ").length > MAX_NAME_LENGTH) {
    const candidates: string[][] = [];
    current.forEach((word, i) => {
      const tokens = word.split("-");
      // The group is the tag's and a sub-resource is its commands' alike (shortenSubs): only the action shortens here.
      if (tokens.length < 2 || i === 0 || (i === 1 && current.length === 3)) return;
      const elsewhere = new Set(current.filter((_, j) => j !== i).flatMap((w) => w.split("-")));
      const seen = new Set<string>();
      // The action's verb (the last word's first token) always stays.
      const deduped = tokens.filter(
        (t, k) => (i === current.length - 1 && k === 0) || (!elsewhere.has(t) && !seen.has(t) && seen.add(t)),
      );
      if (deduped.length && deduped.length < tokens.length)
        candidates.push(current.map((w, j) => (j === i ? deduped.join("-") : w)));
    });
    const byLength = current
      .map((_, i) => i)
      .filter((i) => i === current.length - 1)
      .sort((a, b) => current[b]!.length - current[a]!.length);
    for (const i of byLength) {
      const tokens = current[i]!.split("-");
      // Any middle token, the earliest first: among thousands of similar names (Microsoft Graph) the first may be taken.
      for (let k = 1; k < tokens.length - 1; k++)
        candidates.push(current.map((w, j) => (j === i ? tokens.filter((_, m) => m !== k).join("-") : w)));
      if (tokens.length === 2 && i < current.length - 1)
        candidates.push(current.map((w, j) => (j === i ? tokens[1]! : w)));
    }
    const next = candidates.find(free);
    if (!next) break;
    taken.delete(current.join(" "));
    taken.set(next.join(" "), d);
    current = next;
  }
  return current;
}
