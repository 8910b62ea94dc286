import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Probe } from "./probe.js";
import { compareText } from "../../core/text-order.js";

/**
 * Reusing probes of the last inspection for a candidate whose runtime and commands did not change (issue #21: a brief
 * edit re-made the tarball, and inspection re-ran every probe although only the Skills and the prose had changed).
 *
 * A probe is reused only when it calls an API command (its first word is a command group), and only when everything
 * that command's behaviour comes from is byte-for-byte the same: the runtime (every package file but the prose and
 * the Skills), the manifest's structure (the manifest without its description, rules, Skills and group descriptions),
 * the group's command file, the service the API probes call, the probe's arguments, input and environment. Probes of
 * help, Skills, issues, version and schema read the prose, so they always run again. What the last inspection saw is
 * kept beside the cache, redacted of the credential, and the receipt names every probe it reused and from which
 * candidate.
 */
export interface SavedProbes {
  schema: 1;
  inter: string;
  candidate: string;
  results: Record<string, Probe>;
}

/**
 * Package files whose text is prose from the brief, or the Skills: they change with the brief, never the behaviour.
 * The MCP search index (mcp/) is made of the commands' and groups' words, and server.json (the MCP registry's entry)
 * of the brief's description; no probe runs either.
 */
const PROSE = (path: string) =>
  path === "manifest.json" ||
  path.startsWith("commands/") ||
  path.startsWith("mcp/") ||
  path.startsWith("skills/") ||
  path.startsWith("agent/") ||
  ["AGENTS.md", "README.md", "CHANGELOG.md", "package.json", "server.json"].includes(path);

const hash = (...parts: Array<string | Buffer>) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex");
};

interface Parts {
  runtime: string;
  structure: string;
  groups: Map<string, string>;
}

function packageParts(root: string): Parts | undefined {
  let files: string[];
  try {
    files = (readdirSync(root, { recursive: true }) as string[]).map((f) => String(f).split("\\").join("/")).sort();
  } catch {
    return undefined;
  }
  const runtime = createHash("sha256");
  for (const file of files) {
    if (PROSE(file)) continue;
    let content: Buffer;
    try {
      content = readFileSync(join(root, file));
    } catch {
      continue; // a folder
    }
    runtime.update(file).update("\0").update(content).update("\0");
  }
  let manifest: Record<string, unknown>;
  let pkg: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8")) as Record<string, unknown>;
    pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const product = (manifest.product ?? {}) as Record<string, unknown>;
  const groups = Array.isArray(manifest.groups) ? (manifest.groups as Array<{ name?: unknown }>) : [];
  const structure = hash(
    JSON.stringify({
      ...manifest,
      product: { ...product, description: undefined },
      rules: undefined,
      skills: undefined,
      groups: groups.map((g) => ({ ...g, description: undefined })),
    }),
    JSON.stringify({ ...pkg, description: undefined, keywords: undefined }),
  );
  const byGroup = new Map<string, string>();
  for (const g of groups) {
    if (typeof g.name !== "string") continue;
    try {
      byGroup.set(g.name, hash(readFileSync(join(root, "commands", `${g.name}.json`))));
    } catch {
      // a group without its file: its probes run
    }
  }
  return { runtime: runtime.digest("hex"), structure, groups: byGroup };
}

export interface ProbeOptions {
  input?: string;
  pipeOpen?: boolean;
  timeoutMs?: number;
  env?: Record<string, string | undefined>;
  maxBuffer?: number;
}

export class ProbeReuse {
  private readonly parts: Parts | undefined;
  private readonly results: Record<string, Probe> = {};
  /** The commands of the probes answered from the last inspection. */
  readonly reused: string[] = [];

  /**
   * @param service identifies what the API probes call (its config and files); undefined when there is no service.
   * @param apiUrl the address the service runs at this time, left out of keys (it changes every run).
   */
  constructor(
    packageRoot: string | undefined,
    private readonly previous: SavedProbes | undefined,
    private readonly inter: string,
    private readonly service: string | undefined,
    private readonly apiUrl: string | undefined,
    private readonly baseEnv: Record<string, string>,
  ) {
    this.parts = packageRoot ? packageParts(packageRoot) : undefined;
  }

  /** The key of a probe that may be reused, or undefined when it must run. */
  keyOf(args: string[], options: ProbeOptions): string | undefined {
    const group = args[0];
    if (!this.parts || group === undefined || group.startsWith("-") || group === "skills" || group === "issue")
      return undefined;
    const commands = this.parts.groups.get(group);
    if (!commands) return undefined;
    const neutral = (value: string | undefined) =>
      value !== undefined && this.apiUrl ? value.split(this.apiUrl).join("<api>") : value;
    // The folders each inspection makes afresh (its state and home) are not part of what a probe is.
    const env = Object.entries({ ...this.baseEnv, ...options.env })
      .filter(([name]) => name !== "HOME" && name !== "XDG_STATE_HOME")
      .map(([name, value]) => [name, neutral(value)])
      .sort(([a], [b]) => compareText(String(a), String(b)));
    return hash(
      JSON.stringify({
        args: args.map((a) => neutral(a)),
        input: options.input,
        pipeOpen: options.pipeOpen,
        timeoutMs: options.timeoutMs,
        env,
      }),
      this.inter,
      this.parts.runtime,
      this.parts.structure,
      commands,
      this.service ?? "",
    );
  }

  lookup(key: string | undefined): Probe | undefined {
    if (!key || !this.previous || this.previous.inter !== this.inter) return undefined;
    const probe = this.previous.results[key];
    if (!probe) return undefined;
    this.reused.push(probe.command);
    this.results[key] = probe;
    return { ...probe, reusedFrom: this.previous.candidate };
  }

  remember(key: string | undefined, probe: Probe): void {
    if (key) this.results[key] = probe;
  }

  /**
   * What to keep for the next inspection. A probe whose output held the credential is not kept at all: stored redacted,
   * it would read as a CLI that never printed it.
   */
  saved(candidate: string, redact: (text: string) => string): SavedProbes {
    const results: Record<string, Probe> = {};
    for (const [key, probe] of Object.entries(this.results)) {
      const text = JSON.stringify(probe);
      if (redact(text) === text) results[key] = probe;
    }
    return { schema: 1, inter: this.inter, candidate, results };
  }

  get from(): string | undefined {
    return this.previous?.candidate;
  }
}
