import { sha256 } from "../core/hash.js";
import type { Text } from "../core/text-io.js";

/** The commands' text in the last capabilities.json written, by the array it was made from (read-only by contract). */
let lastCommands: { commands: object; text: string; digest: string } | undefined;

/**
 * JSON.stringify(value, null, 2) as it reads one level in (every line after the first indented by two more spaces):
 * cut from the text of `{ v: value }`, which JSON.stringify indents so itself. Indenting the value's own text with
 * replaceAll made another copy of it: for Graph beta's 80 MB of commands, with the hash that follows, 1.4–1.7 s
 * against 0.45 s.
 */
const nested = (value: unknown) => JSON.stringify({ v: value }, null, 2).slice('{\n  "v": '.length, -"\n}".length);

/**
 * capabilities.json's text, byte for byte `JSON.stringify(caps, null, 2)` plus a newline, and a digest of its commands
 * and groups (what emit derives the command files and the search index from). A watch cycle after a brief edit designs
 * with the same command array (stages/design/descriptions.ts keeps it), so its megabytes are serialized and hashed once.
 * The text is in pieces, each member's on its own (core/text-io.ts: Text): joined, Graph beta's would be copied whole.
 */
export function capabilitiesText(caps: { commands: object; groups: unknown }): {
  text: Text;
  commandsDigest: string;
} {
  if (lastCommands?.commands !== caps.commands) {
    const text = nested(caps.commands);
    lastCommands = { commands: caps.commands, text, digest: sha256(text) };
  }
  const text: string[] = [];
  for (const [key, value] of Object.entries(caps)) {
    if (value === undefined || typeof value === "function" || typeof value === "symbol") continue;
    text.push(text.length ? ",\n" : "{\n", `  ${JSON.stringify(key)}: `, value === caps.commands ? lastCommands.text : nested(value));
  }
  text.push(text.length ? "\n}\n" : "{}\n");
  return { text, commandsDigest: sha256(`${lastCommands.digest}\n${JSON.stringify(caps.groups)}`) };
}
