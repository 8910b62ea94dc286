import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { connect, createServer } from "node:net";
import type { ServiceConfig } from "../../config/types.js";
import { stopGroup } from "../../core/process.js";
import { underWatchdog } from "../../core/watchdog.js";
import { InterError } from "../../core/errors.js";

/**
 * The URL a CLI calls a service at: the service's origin with the API's base path ("/v1") — unless the URL given
 * already has a path of its own.
 */
export function withBasePath(url: string, basePath: string | undefined): string {
  const parsed = new URL(url);
  if (!basePath || (parsed.pathname !== "/" && parsed.pathname !== "")) return url.replace(/\/$/, "");
  return `${parsed.origin}${basePath.startsWith("/") ? basePath : `/${basePath}`}`.replace(/\/$/, "");
}

export interface RunningServices {
  /** Per service: the origin of its readiness URL (what a CLI under test uses as base URL). */
  origins: Record<string, string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const fill = (text: string, port: number) => text.replaceAll("{port}", String(port));

/**
 * Whether a GET of the readiness URL answers 2xx within a second, following redirects as fetch would. node:http
 * rather than fetch: fetch's first call loads undici, a cost in every build and evaluation that starts a service.
 */
function answersOk(url: string, redirects = 5): Promise<boolean> {
  return new Promise((resolve) => {
    const request = (url.startsWith("https:") ? httpsGet : httpGet)(url, { timeout: 1000 }, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location && redirects > 0)
        resolve(answersOk(new URL(location, url).href, redirects - 1));
      else resolve(status >= 200 && status < 300);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(false));
  });
}

async function waitReady(
  name: string,
  ready: string | number | undefined,
  timeoutMs: number,
  exited: () => string | undefined,
): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  for (;;) {
    const gone = exited();
    if (gone)
      throw new InterError(
        "SERVICE_FAILED",
        `Service ${name} exited before it was ready: ${gone}`,
        `Run its command by hand to see why; targets.eval.services.${name}.command.`,
        { service: name },
      );
    try {
      if (typeof ready === "string") {
        if (await answersOk(ready)) return;
      } else if (typeof ready === "number") {
        await new Promise<void>((resolve, reject) => {
          const socket = connect(ready, "127.0.0.1", () => {
            socket.end();
            resolve();
          });
          socket.on("error", reject);
        });
        return;
      } else return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline)
      throw new InterError(
        "SERVICE_FAILED",
        `Service ${name} was not ready within ${timeoutMs} ms (${String(ready)}).`,
        `Check targets.eval.services.${name}.ready and that the service starts.`,
        { service: name },
      );
    // Services now start for every attempt: poll finely at first (most are up within a few hundred ms), then back off.
    await new Promise((r) => setTimeout(r, Date.now() - started < 1000 ? 10 : 50));
  }
}

/**
 * Starts the configured services, each in its own process group, on a free port substituted for `{port}` in its
 * command, env and readiness URL; stops them all (whole groups) on `stop()`, also after a failed start.
 */
export async function startServices(services: Record<string, ServiceConfig>, cwd: string): Promise<RunningServices> {
  const { execa } = await import("execa");
  const children: Array<{ pid?: number; done: Promise<unknown> }> = [];
  const origins: Record<string, string> = {};
  const stop = async () => {
    await Promise.all(children.map((child) => stopGroup(child.pid, child.done)));
  };
  try {
    for (const [name, service] of Object.entries(services)) {
      const port = await freePort();
      const env = Object.fromEntries(Object.entries(service.env ?? {}).map(([k, v]) => [k, fill(v, port)]));
      const command = service.command.map((part) => fill(part, port));
      // The service runs under a watchdog in its group: if inter dies without stopping it (kill -9), the watchdog
      // sees its parent gone within 200 ms and stops the service — no server outlives the build that started it.
      const [sh, ...watched] = underWatchdog("inter-service", command);
      const child = execa(sh!, watched, {
        cwd,
        env: { PORT: String(port), ...env },
        detached: true,
        stdin: "ignore",
        reject: false,
        all: true,
      });
      let exit: string | undefined;
      const done = child.then(
        (r) => (exit = `exit code ${r.exitCode ?? r.signal}${r.all ? `: ${String(r.all).slice(-300)}` : ""}`),
      );
      children.push({ pid: child.pid, done });
      const ready = typeof service.ready === "string" ? fill(service.ready, port) : service.ready;
      await waitReady(name, ready, service.timeoutMs ?? 15_000, () => exit);
      origins[name] =
        typeof ready === "string"
          ? new URL(ready).origin
          : `http://127.0.0.1:${typeof ready === "number" ? ready : port}`;
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { origins, stop };
}
