import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { InterConfig } from "../config/types.js";
import { servicesKey } from "../config/secret-keys.js";
import type { DepResult, TaskSpec } from "../engine/graph/task.js";
import type { BundleData } from "./bundle.js";
import type { DiscoverData } from "./discover.js";
import { credentialEnvNames } from "../config/credential.js";
import { PROBES_FILE, projectPaths } from "../config/project-paths.js";
import { writeJson } from "./io.js";
import { writeFileAtomic } from "../core/atomic.js";
import type { SavedProbes } from "../stages/inspect/probe-reuse.js";

export interface InspectData {
  candidate: string;
  level: string;
  pass: number;
  fail: number;
  notApplicable: number;
  blocking: string[];
  /** Why, per blocking name: a rule's title and reason, the naming or wire finding in short (receipt.ts). */
  why?: Array<{ id: string; why: string }>;
  receipt: string;
  /** The wire check in short: requests validated, invalid and inexpressible (stages/inspect/wire-check.ts). */
  wire?: { checked: number; invalid: number; inexpressible: number; notRun?: string };
  /** Why the probes' calls to the API were not judged, with the next action (the receipt's `api.reason`). */
  apiNotJudged?: string;
}

/** Project files a service command names ("examples/rooms/server.mjs"), so the probes' API is part of the key. */
function serviceFiles(services: Record<string, { command: string[] }>): string[] {
  const files = Object.values(services).flatMap((s) => s.command.slice(1));
  return [
    ...new Set(
      files.filter(
        (a) =>
          !a.startsWith("-") &&
          !/[{}*?[\]]/.test(a) &&
          !isAbsolute(a) &&
          !a.split(/[\\/]/).includes("..") &&
          /[./]/.test(a) &&
          /\.[A-Za-z0-9]+$/.test(a),
      ),
    ),
  ].sort();
}

const candidateOf = (dep: DepResult) => (dep.data as BundleData).candidate;
/** The OpenAPI description's files (paths and content hashes): the wire check holds the candidate's requests to them. */
const descriptionOf = (dep: DepResult) => (dep.data as DiscoverData).inputs.openapi;

function readSavedProbes(file: string): SavedProbes | undefined {
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as SavedProbes;
    return saved?.schema === 1 && saved.results && typeof saved.results === "object" ? saved : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The inspection receipt is this task's cache record: keyed by the candidate hash (not by how it was built), so an
 * unchanged candidate is never inspected twice. Configured services are started so API probes have something real.
 */
export function inspectTask(config: InterConfig): TaskSpec {
  const paths = projectPaths(config);
  const receiptFile = paths.receipt;
  const services = config.targets?.eval?.services ?? {};
  const credentials = credentialEnvNames(config);
  return {
    id: "inspect",
    kind: "builtin",
    description: `Install and probe the candidate; judge the 98 rules and write ${receiptFile}`,
    impl: "2",
    deps: ["bundle", "discover"],
    uses: { bundle: candidateOf, discover: descriptionOf },
    config: { outDir: paths.outDir, services: servicesKey(services) },
    // The service's own files (its script, named in its command) are inputs: a changed server is probed again.
    inputs: serviceFiles(services),
    outputs: [receiptFile],
    // Whether the credentials are present decides which probes can run (their values are hashed, never stored).
    env: credentials,
    async run(ctx) {
      const [{ inspectTarball, installTarball }, { startServices }, { blockingReasons }] = await Promise.all([
        import("../stages/inspect/inspect.js"),
        import("../engine/services/supervisor.js"),
        import("../stages/inspect/receipt.js"),
      ]);
      const probesFile = join(ctx.root, PROBES_FILE);
      const bundle = ctx.deps.bundle!.data as BundleData;
      const file = join(ctx.root, bundle.file);
      const names = Object.keys(services);
      // The services come up while npm installs the candidate: neither waits for the other.
      const [started, install] = await Promise.allSettled([
        names.length ? startServices(services, ctx.root) : Promise.resolve(undefined),
        installTarball(file),
      ]);
      const running = started.status === "fulfilled" ? started.value : undefined;
      if (started.status === "rejected" || install.status === "rejected") {
        if (install.status === "fulfilled") install.value.cleanup();
        await running?.stop();
        throw started.status === "rejected" ? started.reason : (install as PromiseRejectedResult).reason;
      }
      try {
        const receipt = await inspectTarball(
          file,
          readFileSync(file),
          {
            baseUrl: running ? running.origins[names[0]!] : undefined,
            apiUnavailable: running ? undefined : "no service is configured (targets.eval.services)",
            interVersion: ctx.interVersion,
            description: {
              files: descriptionOf(ctx.deps.discover!).map((f) => join(ctx.root, f.path)),
              root: ctx.root,
            },
            reuse: {
              previous: ctx.force ? undefined : readSavedProbes(probesFile),
              // What the API probes call: the services as configured and the content of the files they run.
              service: names.length
                ? JSON.stringify([servicesKey(services), serviceFiles(services).map((f) => ctx.inputs[f] ?? null)])
                : undefined,
              keep: (saved) => writeFileAtomic(probesFile, JSON.stringify(saved)),
            },
          },
          install.value,
        );
        receipt.candidate = { sha256: bundle.candidate, file: bundle.file };
        writeJson(ctx.root, receiptFile, receipt);
        const data: InspectData = {
          candidate: bundle.candidate,
          level: receipt.certification.level,
          ...receipt.summary,
          blocking: receipt.certification.blocking,
          why: blockingReasons(receipt),
          receipt: receiptFile,
          ...(!receipt.api.probed && receipt.api.reason ? { apiNotJudged: receipt.api.reason } : {}),
          ...(receipt.wire
            ? {
                wire: {
                  checked: receipt.wire.checked,
                  invalid: receipt.wire.invalid.length,
                  inexpressible: receipt.wire.inexpressibleCount,
                  ...(receipt.wire.notRun ? { notRun: receipt.wire.notRun } : {}),
                },
              }
            : {}),
        };
        const wire = receipt.wire;
        const warnings = receipt.skills.filter((s) => !s.valid).map((s) => `Skill ${s.name}: ${s.problems.join("; ")}`);
        if (wire) {
          for (const i of wire.invalid.slice(0, 5))
            warnings.push(
              `wire: ${i.command} (${i.operation}) sends a request the description rejects: ${i.errors[0]}`,
            );
          for (const i of wire.inexpressible.slice(0, 5))
            warnings.push(`wire: ${i.command} (${i.operation}) cannot be expressed: ${i.reason}`);
          const more =
            wire.invalid.length +
            wire.inexpressibleCount -
            Math.min(5, wire.invalid.length) -
            Math.min(5, wire.inexpressible.length);
          if (more > 0) warnings.push(`wire: ${more} more (the receipt's wire lists them)`);
        }
        return { data, warnings };
      } finally {
        await running?.stop();
      }
    },
  };
}
