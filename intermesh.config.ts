import { defineConfig } from "intermesh";

export default defineConfig({
  product: { name: "Rooms", binary: "rooms", package: "rooms-cli", version: "0.1.0" },
  inputs: { openapi: "examples/rooms/openapi.yaml", context: "examples/rooms/context.md" },
  api: { baseUrl: "http://127.0.0.1:4010", credentialEnv: "ROOMS_API_KEY" },
  targets: { cli: { outDir: "dist" } },
});
