import { execa, type ResultPromise } from "execa";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inter, makeProject, REPO } from "../helpers.js";

export const API_KEY = "rooms-demo-key";

/** Starts the example Rooms API on a free loopback port; resolves once it listens. */
export async function startExampleApi(): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ResultPromise = execa("node", [join(REPO, "examples/rooms/server.mjs"), "--port", "0"], { env: { ROOMS_SERVER_KEY: API_KEY }, reject: false, buffer: false });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("example API did not start within 10 s")), 10_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
  });
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child;
    },
  };
}

/** A copy of the repository's example project in a temporary folder. */
export function exampleProject(): string {
  const dir = makeProject({});
  for (const path of ["examples", "evals", "intermesh.config.ts"]) cpSync(join(REPO, path), join(dir, path), { recursive: true });
  return dir;
}

/** Builds the example and installs its cli.tgz with npm into a fresh prefix, as a user would. */
export async function buildAndInstall(dir: string): Promise<{ bin: string; candidate: string; prefix: string }> {
  const built = await inter(dir, ["build", "--json"]);
  if (built.exitCode !== 0) throw new Error(`inter build failed: ${built.stdout}${built.stderr}`);
  const bundle = built.json.data.tasks.find((t: { id: string }) => t.id === "bundle");
  const prefix = mkdtempSync(join(tmpdir(), "inter-install-"));
  await execa("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefix", prefix, join(dir, bundle.data.file)]);
  return { bin: join(prefix, "node_modules", ".bin", "rooms"), candidate: bundle.data.candidate, prefix };
}
