import { count } from "../../../core/plural.js";
import type { Facts } from "../probes.js";
import { documentOf } from "../probe-output.js";
import { section, verdict } from "./judging.js";

/** How many tools --mcp-schema exported, and of which part of the CLI when it was asked for one group's only. */
const exported = (f: Facts) => {
  const tools = count(documentOf(f.probes.mcp)?.tools?.length ?? 0, "tool");
  const scope = f.sampling?.mcpSchema;
  return scope
    ? `${tools} for the ${scope.scope} group (${count(scope.commands, "command")} of ${scope.of}), exported alone`
    : tools;
};

/** The spec's Meta rules ("Meta" in the Agent-Friendly CLI Spec v0.1). */
export const META = section("Meta", [
  {
    id: "M1",
    priority: "P2",
    title: "AGENTS.md at the package root",
    judge: (f) => verdict(!!f.files["AGENTS.md"]?.trim(), f.files["AGENTS.md"] ? "present" : "missing"),
  },
  {
    id: "M2",
    priority: "P2",
    title: "an MCP tool-schema export",
    judge: (f) => verdict(!!documentOf(f.probes.mcp)?.tools, exported(f), f.probes.mcp),
  },
  {
    id: "M3",
    priority: "P2",
    title: "CHANGELOG.md marks breaking changes",
    judge: (f) =>
      verdict(
        /breaking/i.test(f.files["CHANGELOG.md"] ?? ""),
        f.files["CHANGELOG.md"] ? "CHANGELOG.md says how breaking changes are marked" : "CHANGELOG.md missing",
      ),
  },
]);
