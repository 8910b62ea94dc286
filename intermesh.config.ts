import { defineConfig } from "intermesh";

export default defineConfig({
  product: {
    name: "Rooms",
    binary: "rooms",
    package: "rooms-cli",
    version: "0.1.0",
    // The MCP registry's name for the server: a namespace you own (here, a GitHub login), then a name.
    mcpName: "io.github.intermesh-example/rooms",
  },
  inputs: { openapi: "examples/rooms/openapi.yaml", context: "examples/rooms/context.md" },
  api: { baseUrl: "http://127.0.0.1:4010", credentialEnv: "ROOMS_API_KEY" },
  targets: {
    cli: { outDir: "dist" },
    eval: {
      plan: "evals/eval-plan.json",
      agent: "reference",
      services: {
        // {port} is a free port inter picks; the probes and the evaluation call the service there.
        api: {
          command: ["node", "examples/rooms/server.mjs", "--port", "{port}"],
          env: { ROOMS_SERVER_KEY: "rooms-demo-key" },
          ready: "http://127.0.0.1:{port}/health",
        },
      },
    },
  },
});
