import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServices } from "../../src/engine/services/supervisor.js";
import { alive, tempDir, until } from "../helpers.js";

/**
 * A service that answers its readiness path according to `plan`: a status per request, the last repeated; "redirect"
 * sends the client to /ok, which answers 200.
 */
const server = (plan: Array<number | "redirect">) => [
  "node",
  "-e",
  `require("fs").writeFileSync("service.pid", String(process.pid));
     const plan = ${JSON.stringify(plan)}; let n = 0;
     require("http").createServer((req, res) => {
       if (req.url === "/ok") return res.end("ok");
       const step = plan[Math.min(n++, plan.length - 1)];
       if (step === "redirect") { res.writeHead(302, { location: "/ok" }); return res.end(); }
       res.writeHead(step); res.end();
     }).listen(Number(process.env.PORT), "127.0.0.1");`,
];

describe("a service's readiness URL", () => {
  it("is ready once it answers 2xx, after refusing, failing and redirecting first", async () => {
    const running = await startServices(
      { api: { command: server([503, 500, "redirect"]), ready: "http://127.0.0.1:{port}/health" } },
      tempDir(),
    );
    try {
      expect(running.origins.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await running.stop();
    }
  });

  it("that never answers 2xx is SERVICE_FAILED within its timeout, and the service is stopped", async () => {
    const dir = tempDir();
    const failed = startServices(
      { api: { command: server([503]), ready: "http://127.0.0.1:{port}/health", timeoutMs: 2000 } },
      dir,
    );
    await expect(failed).rejects.toMatchObject({ code: "SERVICE_FAILED" });
    await expect(failed).rejects.toThrow(/not ready within 2000 ms/);
    // Its group is stopped and its exit awaited before the error: a service that never got to write its pid is gone.
    const pidFile = join(dir, "service.pid");
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, "utf8"));
      await until(() => !alive(pid), 30_000, "the service to be stopped");
    }
  });
});
