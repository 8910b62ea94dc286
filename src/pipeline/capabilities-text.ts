import { sha256 } from "../core/hash.js";
import { indented, jsonPieces } from "../core/json-pieces.js";
import { isPlainJson } from "../core/plain-json.js";

/**
 * The commands' text in the last capabilities.json written, by the array it was made from (read-only by contract), and
 * whether they are plain JSON (core/plain-json.ts).
 */
let lastCommands: { commands: object; text: readonly string[]; digest: string; plain: boolean } | undefined;

/**
 * capabilities.json's text, byte for byte `JSON.stringify(caps, null, 2)` plus a newline, in pieces (core/text-io.ts:
 * Text); a digest of its commands and groups (what emit derives the command files and the search index from); and
 * whether caps is plain JSON, so its value can be handed to emit (pipeline/io.ts). A watch cycle after a brief edit
 * designs with the same command array (stages/design/descriptions.ts keeps it), so its megabytes are serialized,
 * checked and hashed once. Plain commands are serialized one by one (core/json-pieces.ts): a large CLI's as one text
 * were a two-byte string of twice their size, copied once more when first read.
 */
export function capabilitiesText(caps: { commands: object; groups: unknown }): {
  text: readonly string[];
  commandsDigest: string;
  plain: boolean;
} {
  if (lastCommands?.commands !== caps.commands) {
    const plain = isPlainJson(caps.commands);
    const text = plain ? [...jsonPieces(caps.commands, 2, 1)] : [indented(caps.commands, 1)];
    lastCommands = { commands: caps.commands, text, digest: sha256(text), plain };
  }
  const text: string[] = [];
  const rest: Record<string, unknown> = {};
  // A member JSON leaves out makes caps other than what its text parses to.
  let omitted = false;
  for (const [key, value] of Object.entries(caps)) {
    if (value === undefined || typeof value === "function" || typeof value === "symbol") {
      omitted = true;
      continue;
    }
    text.push(text.length ? ",\n" : "{\n", `  ${JSON.stringify(key)}: `);
    if (value !== caps.commands) {
      text.push(indented(value, 1));
      rest[key] = value;
    } else for (const piece of lastCommands.text) text.push(piece);
  }
  text.push(text.length ? "\n}\n" : "{}\n");
  return {
    text,
    commandsDigest: sha256(`${lastCommands.digest}\n${JSON.stringify(caps.groups)}`),
    plain: !omitted && lastCommands.plain && isPlainJson(rest) && Object.getPrototypeOf(caps) === Object.prototype,
  };
}
