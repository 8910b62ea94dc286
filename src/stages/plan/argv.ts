import { BUILTIN_NAMES } from "../../runtime/builtins.js";
import type { CandidateTree, Rename } from "./findings.js";
import { renameOf } from "./renames.js";

/** Commands every generated CLI has beside the API's (src/runtime/main.ts). */
const BUILTIN_COMMANDS = BUILTIN_NAMES;

export interface ArgvProblem {
  code: "UNKNOWN_BINARY" | "UNKNOWN_COMMAND" | "UNKNOWN_FLAG";
  /** Index of the token at fault. */
  index: number;
  message: string;
  suggestion: string;
  renamed?: Rename;
}

/** What to do about a command the overlay renamed. */
export const FIX_RENAMES =
  "run `inter eval validate <plan> --fix-renames` to rewrite the plan's command names through the overlay's renames (it shows the diff first)";

/**
 * What is wrong with a command line (a prefix, or a whole reference call) against the candidate: its binary, its
 * command path and every flag it names. `partial` accepts words that only begin a command (a prefix may stop at a group).
 */
export function argvProblems(tokens: string[], tree: CandidateTree, partial: boolean): ArgvProblem[] {
  const names = [...tree.commands.map((c) => c.name), ...BUILTIN_COMMANDS];
  const [binary, ...rest] = tokens;
  if (binary !== tree.binary)
    return [
      {
        code: "UNKNOWN_BINARY",
        index: 0,
        message: `The call starts with "${binary}", but the candidate's binary is "${tree.binary}".`,
        suggestion: `Start it with "${tree.binary}".`,
      },
    ];
  const firstFlag = rest.findIndex((t) => t.startsWith("-"));
  const words = rest.slice(0, firstFlag < 0 ? rest.length : firstFlag);
  let command: string | undefined;
  for (let n = Math.min(3, words.length); n >= 1 && !command; n--) {
    const candidate = words.slice(0, n).join(" ");
    if (names.includes(candidate) || candidate === "skills") command = candidate;
  }
  if (!command && words.length) {
    const typed = words.join(" ");
    if (partial && names.some((n) => n.startsWith(`${typed} `))) return [];
    const renamed = renameOf(words, tree.renames);
    if (renamed)
      return [
        {
          code: "UNKNOWN_COMMAND",
          index: 1,
          message: `"${tree.binary} ${typed}" is not a command of the candidate: the overlay renamed \`${renamed.from}\` to \`${renamed.to}\` (${renamed.entry}).`,
          suggestion: `Write "${renamed.to}" here, or ${FIX_RENAMES}.`,
          renamed,
        },
      ];
    return [
      {
        code: "UNKNOWN_COMMAND",
        index: 1,
        message: `"${tree.binary} ${typed}" is not a command of the candidate.`,
        suggestion: `Commands: ${names.slice(0, 8).join(", ")}${names.length > 8 ? ", …" : ""}.`,
      },
    ];
  }
  const spec = tree.commands.find((c) => c.name === command);
  const allowed = new Set([...(spec?.parameters ?? []).map((p) => p.name), ...tree.globalFlags]);
  const problems: ArgvProblem[] = [];
  rest.forEach((token, k) => {
    if (!token.startsWith("--")) return;
    // A token after a flag that takes a value is that value ("--title --fake"), not a flag.
    const before = rest[k - 1];
    if (
      before?.startsWith("--") &&
      !before.includes("=") &&
      spec?.parameters.some((p) => p.name === before && p.type !== "boolean")
    )
      return;
    const flag = token.split("=")[0]!;
    const base = flag.startsWith("--no-") && allowed.has(`--${flag.slice(5)}`) ? `--${flag.slice(5)}` : flag;
    if (command && !BUILTIN_COMMANDS.includes(command) && !allowed.has(base)) {
      problems.push({
        code: "UNKNOWN_FLAG",
        index: k + 1,
        message: `"${command}" has no flag ${flag}.`,
        suggestion: `Its flags: ${[...(spec?.parameters ?? []).map((p) => p.name)].join(", ") || "(none)"}.`,
      });
    }
  });
  return problems;
}
