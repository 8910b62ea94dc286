import type { Command, CredentialVariables } from "../../runtime/manifest.js";
import type { CandidateManifest } from "../candidate/candidate-manifest.js";
import type { Candidate } from "../candidate/open-candidate.js";
import { schemaRef } from "../../core/schema-ref.js";
import { compareText } from "../../core/text-order.js";

// `inter eval new`: a starter plan for a candidate built by inter, one scenario per bundled Skill. Command prefixes come
// from the Skills' own commands; nothing is invented — tasks, ids and expected values are placeholders that make
// validation fail until replaced.

const FILL = (what: string) => `<<FILL ME: ${what}>>`;

/**
 * The variables a starter plan names: those of the first alternative most commands take — for OAuth 2 the client's id
 * and secret where the CLI can obtain tokens, else the access token; one name as a string, several as a list.
 */
function starterCredentials(
  auth: NonNullable<CandidateManifest["auth"]>,
  commands: Array<Pick<Command, "auth">>,
): string | string[] {
  if (typeof auth.env === "string") return auth.env;
  const counts = new Map<string, number>();
  for (const c of commands)
    if (Array.isArray(c.auth) && c.auth[0])
      counts.set(
        Object.keys(c.auth[0]).sort().join(" "),
        (counts.get(Object.keys(c.auth[0]).sort().join(" ")) ?? 0) + 1,
      );
  const common = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const names = (common ? common.split(" ") : []).flatMap((name) => {
    const scheme = auth.schemes?.[name];
    if (!scheme) return [];
    const env: CredentialVariables = scheme.env ?? {};
    if (env.clientId && env.clientSecret && (scheme.tokenUrl || scheme.openIdConnectUrl))
      return [env.clientId, env.clientSecret];
    if (env.accessKeyId && env.secretAccessKey) return [env.accessKeyId, env.secretAccessKey];
    return [env.value ?? env.username ?? env.accessToken].filter((v): v is string => !!v);
  });
  return names.length === 1 ? names[0]! : names.length ? names : FILL("the variable holding the API's credential");
}

/** The files `starterPlan` reads: the command groups and each Skill's SKILL.md (besides manifest.json). */
export const scaffoldFile = (path: string) =>
  /^commands\/[^/]+\.json$/.test(path) || /^skills\/[^/]+\/SKILL\.md$/.test(path);

/** The starter plan for a candidate opened by stages/candidate/open-candidate.ts, to be written in `folder` (its `$schema` is relative to it). */
export function starterPlan(candidate: Candidate, folder: string) {
  const manifest = candidate.manifest;
  const files: Record<string, string> = {};
  for (const [path, entry] of candidate.files)
    if (scaffoldFile(path)) files[`package/${path}`] = entry.bytes.toString("utf8");
  const binary = manifest.product.binary;
  // Commands live in one file per group (package/commands/<group>.json).
  const names = new Set(
    Object.entries(files)
      .filter(([p]) => p.startsWith("package/commands/"))
      .flatMap(([, text]) =>
        (JSON.parse(text) as { commands: Array<{ name: string; hidden?: boolean }> }).commands
          .filter((c) => !c.hidden)
          .map((c) => c.name),
      ),
  );
  const scenarios = Object.entries(files)
    .filter(([p]) => p.endsWith("/SKILL.md"))
    .sort(([a], [b]) => compareText(a, b))
    .map(([path, text]) => {
      const name = path.split("/")[2]!;
      // The commands the Skill links for its task (its "## Commands" list), not every command its text mentions: a
      // starter plan that demands more calls succeed than the task needs fails a correct agent.
      const section = /^## Commands\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? "";
      const quoted = [
        ...new Set(
          [...section.matchAll(new RegExp(`^- \`${binary} ([a-z0-9 -]+?)(?= --|\`)`, "gm"))].map((m) => m[1]!.trim()),
        ),
      ].filter((c) => names.has(c));
      const observations = quoted.map((command) => ({
        id: command.replace(/ /g, "-"),
        kind: "cli",
        description: `the ${command} call`,
        command_prefix: [binary, ...command.split(" ")],
      }));
      return {
        id: name,
        user_task: FILL(`what a user asks for "${name}", with every id and file name the agent needs`),
        inputs: {},
        expected_outcome: FILL("what is true when the task is done"),
        observations: observations.length
          ? observations
          : [
              {
                id: "call",
                kind: "cli",
                description: "the main call",
                command_prefix: [binary, FILL("resource"), FILL("action")],
              },
            ],
        checks: [
          ...observations.map((o) => ({
            id: `${o.id}-ok`,
            type: "command_success",
            description: `${o.description} succeeded`,
            observation_id: o.id,
          })),
          {
            id: "outcome",
            type: "field_equals",
            description: FILL("the fact this check proves"),
            source: {
              observation_id: observations[observations.length - 1]?.id ?? "call",
              field: ["stdout", "result", FILL("field")],
            },
            expected: FILL("expected value"),
          },
        ],
      };
    });
  const apiUrl = manifest.baseUrl?.default ?? "http://127.0.0.1:8080";
  const plan = {
    // The project's installed copy of the schema, as a path from the plan's folder that holds in any checkout.
    $schema: schemaRef(folder, "eval-plan.schema.json"),
    schema_version: "3.0.0",
    target: {
      api_url: apiUrl,
      account: FILL("which account or data set the run uses"),
      credential_env: starterCredentials(
        manifest.auth ?? {},
        Object.entries(files)
          .filter(([p]) => p.startsWith("package/commands/"))
          .flatMap(([, text]) => (JSON.parse(text) as { commands: Array<Pick<Command, "auth">> }).commands),
      ),
      allowed_reads: [FILL("what the agent may read")],
      allowed_hosts: [new URL(apiUrl).hostname],
      read_only_confirmed: false,
    },
    settings: { repetitions: 1, concurrency: 1, timeout_seconds: 600 },
    assumptions: [],
    scenarios: scenarios.length
      ? scenarios
      : [
          {
            id: "first-task",
            user_task: FILL("a task"),
            inputs: {},
            expected_outcome: FILL("the outcome"),
            observations: [
              {
                id: "call",
                kind: "cli",
                description: "the main call",
                command_prefix: [binary, FILL("resource"), FILL("action")],
              },
            ],
            checks: [
              { id: "call-ok", type: "command_success", description: "the call succeeded", observation_id: "call" },
            ],
          },
        ],
  };
  return plan;
}

/** A starter for the golden run: per scenario, each observed command with its flags to fill in. */
export function starterReference(plan: ReturnType<typeof starterPlan>): Record<string, Array<{ argv: string[] }>> {
  return Object.fromEntries(
    plan.scenarios.map((s) => [
      s.id,
      s.observations
        .filter((o) => o.kind === "cli")
        .map((o) => ({ argv: [...o.command_prefix, FILL("the flags a correct agent gives")] })),
    ]),
  );
}
