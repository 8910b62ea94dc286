// A plan using every property the schema defines, typed as the Plan type: `tsc` (test/unit/plan-types.test.ts) proves
// it is a Plan — an object literal may not carry a property its type lacks — and the test proves the schema accepts
// it and that it holds every property the schema names. Together: the type and the schema describe the same plan.
import type { Plan, ReferenceSolutions } from "../../src/stages/plan/types.js";

export const planSample: Plan = {
  $schema: "../schemas/eval-plan.schema.json",
  schema_version: "3.0.0",
  target: {
    api_url: "http://127.0.0.1:4010",
    account: "demo",
    credential_env: "DEMO_API_KEY",
    allowed_reads: ["rooms"],
    allowed_hosts: ["127.0.0.1"],
    read_only_confirmed: false,
  },
  settings: { repetitions: 2, concurrency: 1, timeout_seconds: 300, unobserved_side_effects: "fail" },
  assumptions: ["The demo account has rooms."],
  scenarios: [
    {
      id: "every-kind",
      user_task: "List the rooms and save them to rooms.json.",
      inputs: { file: "rooms.json" },
      expected_outcome: "rooms.json lists the rooms.",
      observations: [
        { id: "list", kind: "cli", description: "the listing", command_prefix: ["demo", "rooms", "list"] },
        { id: "saved", kind: "file", description: "the file", path: "rooms.json" },
        { id: "request", kind: "request", description: "the HTTP call", method: "GET", path: "/rooms" },
      ],
      checks: [
        { id: "ok", type: "command_success", description: "listed", observation_id: "list" },
        { id: "exists", type: "file_exists", description: "written", observation_id: "saved" },
        { id: "nonempty", type: "file_nonempty", description: "not empty", observation_id: "saved" },
        {
          id: "first",
          type: "field_equals",
          description: "first room",
          source: { observation_id: "list", field: ["stdout", "result", "0", "id"] },
          expected: "rm_1",
        },
        {
          id: "same",
          type: "values_match",
          description: "file holds it",
          left: { observation_id: "saved", field: ["content"] },
          right: { observation_id: "list", field: ["stdout", "result"] },
        },
        {
          id: "flag",
          type: "flag_equals",
          description: "all pages",
          observation_id: "list",
          flag: "--max-pages",
          expected: "5",
        },
        {
          id: "bytes",
          type: "file_sha256",
          description: "exact bytes",
          observation_id: "saved",
          expected: "0".repeat(64),
        },
      ],
    },
  ],
};

export const referenceSample: ReferenceSolutions = {
  "every-kind": [{ argv: ["demo", "rooms", "list"], save_stdout: "rooms.json", save_field: ["result"] }],
};
