import { pushTo } from "../../../core/group.js";
import type { Operation } from "../../openapi/model.js";
import type { NameSource } from "../types.js";
import { isNoise } from "../verbs.js";
import { kebab, singular } from "../word-forms.js";
import { clean, pathWords, wireWords, type PathWord } from "./path-words.js";

/** The resource each operation belongs to: its tag or first path word, cleaned of what every resource shares. */

/** The resource an operation belongs to before names are cleaned: its first tag, else its first path word. */
export function rawResource(op: Operation): {
  resource: string;
  from: NameSource["resource"]["from"];
  dropped: string[];
} {
  // A tag that is a path (Magento tags each operation `order/{orderId}/refund`) names no group: the path says it.
  const raw = op.tags[0] && !/[/{}]/.test(op.tags[0]) ? kebab(op.tags[0]) : "";
  const tag = clean(raw);
  if (tag) return { resource: tag, from: "tag", dropped: raw.split("-").filter((t) => isNoise(t)) };
  const { words } = pathWords(op);
  return { resource: words[0]?.word || paramResource(op.path) || "api", from: "path", dropped: [] };
}

/**
 * A path of parameters only names what it acts on by its last parameter (S3's `/{Bucket}/{Key}` → key, `/{Bucket}` →
 * bucket), as the fragments of its other paths do (`/{Bucket}#acl`); an id alone (`/{id}`) names nothing.
 */
function paramResource(path: string): string {
  const params = [...path.replace(/#.*$/, "").matchAll(/\{([^}]+)\}/g)].map((m) => wireWords(clean(kebab(m[1]!))));
  const last = params[params.length - 1];
  return last && last !== "id" ? last : "";
}

/**
 * Where the resource stands in the path: the word sharing the most of its words (`alpha-sender` in
 * `/Services/{Sid}/AlphaSenders`, `tollfree-verification` in `/Tollfree/Verifications`), the last on a tie.
 */
export function resourceIndex(words: PathWord[], resource: string): number {
  const mine = new Set(resource.split("-").map(singular));
  let best = -1;
  let bestScore = 0;
  words.forEach((w, i) => {
    const tokens = w.word.split("-").map(singular);
    const shared = tokens.filter((t) => mine.has(t)).length;
    // The resource itself first (`accounts` before `bank-accounts`), then a path word made only of the resource's
    // words (`reservations` of "Réservations de salle"), then one sharing half of them.
    const exact = singular(w.word) === singular(resource) || w.word === resource;
    const score = exact ? 3 : shared === tokens.length ? 2 : shared / Math.max(mine.size, 1);
    if (shared && score >= 0.5 && score >= bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * The path words that say what an operation acts on when its tag is not in the path (Spotify's "Tracks" on
 * `/audio-features/{id}`, "Users" on `/me/top/artists`): those after the last item the path names
 * (`/Services/{Sid}/Compliance` → compliance), the collection itself when the path ends at its item, and otherwise
 * all but a leading namespace (`/me`, `/browse`).
 */
export function unspelledTagRest(words: PathWord[]): PathWord[] {
  // The last word's own id (`/Services/{Sid}/Compliance/Usa2p/{Sid}`) does not make it a parent.
  const lastItem = words
    .slice(0, -1)
    .map((w) => w.beforeParam)
    .lastIndexOf(true);
  if (lastItem >= 0) return words.slice(lastItem + 1);
  // A word after a parameter is no namespace (`/v1/{parent}/messages:send`: the messages of a parent).
  return words.length > 1 && !words[0]!.afterParam ? words.slice(1) : words;
}

/** More operations than one group's help can show an agent within its budget (runtime/help.ts, DESCRIBE_BYTES). */
const WIDE_TAG = 60;

/**
 * A tag over more than WIDE_TAG operations whose paths never name it (Xero's "Accounting" over /Invoices, /Contacts,
 * … — 224 operations) is a product area, not a resource: its operations take the resource their paths begin with, so
 * `invoices update`, not `accounting invoices update` in a group of hundreds. A tag the paths name (GitHub's `repos`
 * over /repos/…) is the resource already, and stays.
 */
export function splitWideTags(
  resources: Array<{
    op: Operation;
    resource: string;
    from: NameSource["resource"]["from"];
    dropped: string[];
    explicit?: boolean;
  }>,
): void {
  const byTag = new Map<string, typeof resources>();
  for (const r of resources) if (r.from === "tag" && !r.explicit) pushTo(byTag, r.resource, r);
  for (const [tag, members] of byTag) {
    if (members.length <= WIDE_TAG) continue;
    const words = members.map((r) => pathWords(r.op).words);
    const first = words.map((w) => w[0]?.word);
    if (first.some((w) => !w) || new Set(first).size < 2) continue;
    if (words.filter((w) => resourceIndex(w, tag) >= 0).length * 2 >= members.length) continue;
    members.forEach((r, i) => Object.assign(r, { resource: first[i]!, from: "path", dropped: [] }));
  }
}

/**
 * Resource names lose what every one of them shares (`messaging-v1-alpha-sender` → `alpha-sender`), version tokens
 * and stop words, and the product's own name where more words remain.
 */
export function cleanResources(
  drafts: Array<{ resource: string; dropped: string[]; explicit?: unknown }>,
  productWords: Set<string>,
): void {
  for (const d of drafts) {
    const kept = wireWords(clean(d.resource));
    if (kept && kept !== d.resource)
      d.dropped.push(...d.resource.split("-").filter((t) => !kept.split("-").includes(t)));
    d.resource = kept || d.resource;
  }
  const names = [...new Set(drafts.filter((d) => !d.explicit).map((d) => d.resource))];
  if (names.length > 1) {
    const split = names.map((n) => n.split("-"));
    let shared = 0;
    while (split.every((s) => s.length > shared + 1 && s[shared] === split[0]![shared])) shared++;
    if (shared) {
      for (const d of drafts) {
        if (d.explicit) continue;
        d.dropped.push(...d.resource.split("-").slice(0, shared));
        d.resource = d.resource.split("-").slice(shared).join("-");
      }
    }
  }
  for (const d of drafts) {
    const tokens = d.resource.split("-");
    if (tokens.length > 1 && productWords.has(tokens[0]!)) {
      d.dropped.push(tokens[0]!);
      d.resource = tokens.slice(1).join("-");
    }
  }
}
