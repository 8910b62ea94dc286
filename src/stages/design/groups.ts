import { pushTo } from "../../core/group.js";
import type { OperationModel } from "../openapi/model.js";
import { lead, plainText } from "./plain-text.js";
import type { CommandSpec } from "./types.js";

/**
 * What each command group (a command's first word) is for, as help and the package's command files show it: its
 * tag's description as plain text, else what its commands do. A description that is only a link
 * (`https://trello.com/docs/api/card/index.html`) tells an agent nothing it can act on, so it never stands alone.
 */

const MAX = 300;
const URL = /\bhttps?:\/\/\S+/g;

/** A tag description's first paragraph as plain text; "" when it says nothing but links. */
export function groupText(description: string | undefined): string {
  const text = lead(plainText(description), MAX).text;
  return text.replace(URL, "").replace(/[\s().,:;-]+/g, "").length ? text : "";
}

export function groupsOf(commands: CommandSpec[], model: OperationModel): Array<{ name: string; description: string }> {
  const tags = new Map(model.tags.map((t) => [t.name, t.description]));
  const byGroup = new Map<string, CommandSpec[]>();
  for (const c of commands) if (!c.hidden) pushTo(byGroup, c.path[0]!, c);
  return [...byGroup.keys()].sort().map((name) => {
    const members = byGroup.get(name)!;
    // The group's tag: the one its commands were named from (one tag, one group), whatever words the name lost.
    const tag = members
      .map((c) => (c.nameSource.resource.from === "tag" ? c.nameSource.resource.text : undefined))
      .find((t) => t !== undefined);
    const own = groupText(tag !== undefined ? tags.get(tag) : undefined);
    const actions = [...new Set(members.map((c) => c.path.slice(1).join(" ")))];
    const shown = actions.slice(0, 6).join(", ");
    return {
      name,
      description: own || `${name}: ${shown}${actions.length > 6 ? `, and ${actions.length - 6} more` : ""}`,
    };
  });
}
