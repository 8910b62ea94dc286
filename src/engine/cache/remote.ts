import { createHmac, timingSafeEqual } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { sha256 } from "../../core/hash.js";
import { heldOpen } from "../../core/held-open.js";
import { MAX_DOCUMENT_DEPTH, nestedDeeper } from "../../core/json-depth.js";
import type { RemoteSettings } from "./remote-settings.js";
import type { Store, TaskRecord } from "./store.js";
import { redactor } from "../../core/redact.js";

export interface RemoteSummary {
  url: string;
  hits: number;
  misses: number;
  uploads: number;
  errors: number;
  /** The first error, once: the remote is then treated as down for the rest of the run. */
  warning: string | null;
}

const FORMAT = "inter-artifact/1";
const UPLOADS_AT_ONCE = 4;

/** Packs a record and the objects it names into one artifact (gzipped JSON: small, self-describing, verifiable). */
function packArtifact(record: TaskRecord, store: Store): Buffer | undefined {
  const objects: Record<string, string> = {};
  for (const o of record.outputs) {
    const bytes = store.readObject(o.sha256);
    if (!bytes) return undefined;
    objects[o.sha256] = bytes.toString("base64");
  }
  return gzipSync(JSON.stringify({ format: FORMAT, record, objects }));
}

/**
 * Unpacks an artifact into the local store, trusting nothing: it must be the record of this task and fingerprint, and
 * every object must hash to its name. Anything else is a miss.
 */
/** The most an artifact may weigh, and the total time lookups may take in one run. */
const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;
const LOOKUP_BUDGET_MS = 20_000;

/** The most an artifact may unpack to; a larger one is a miss. */
const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

function unpackArtifact(
  body: Buffer,
  expected: { task: string; fingerprint: string },
  store: Store,
): TaskRecord | undefined {
  let parsed: { format?: string; record?: TaskRecord; objects?: Record<string, string> };
  try {
    // A gzip bomb stops at the cap instead of filling memory.
    parsed = JSON.parse(gunzipSync(body, { maxOutputLength: MAX_UNPACKED_BYTES }).toString("utf8"));
  } catch {
    return undefined;
  }
  // Records are a few levels deep; a deeper one would overflow the stack of whatever hashes or validates it.
  if (nestedDeeper(parsed, MAX_DOCUMENT_DEPTH)) return undefined;
  const record = parsed.record;
  if (
    parsed.format !== FORMAT ||
    !record ||
    record.task !== expected.task ||
    record.fingerprint !== expected.fingerprint ||
    !Array.isArray(record.outputs)
  )
    return undefined;
  const verified: Buffer[] = [];
  for (const o of record.outputs) {
    const encoded = parsed.objects?.[o.sha256];
    if (typeof encoded !== "string") return undefined;
    const bytes = Buffer.from(encoded, "base64");
    if (sha256(bytes) !== o.sha256) return undefined;
    verified.push(bytes);
  }
  for (const bytes of verified) store.putObject(bytes);
  store.writeRecord(record);
  return record;
}

/**
 * A client of the Turborepo remote-cache HTTP API (GET/PUT/HEAD /v8/artifacts/:hash, bearer token, team or slug).
 * The remote can only speed a build up: the first error (down, slow, refusing the token) is reported once and the
 * run goes on with the local cache alone. Uploads run in the background, a few at a time, and are awaited by flush().
 */
export class RemoteCache {
  private down = false;
  /** Milliseconds spent in lookups this run. */
  private spent = 0;
  private readonly queue: Array<() => Promise<void>> = [];
  private active = 0;
  private idle: Array<() => void> = [];
  readonly summary: RemoteSummary;

  constructor(private readonly settings: RemoteSettings) {
    // The URL is shown in summaries; credentials embedded in it are not.
    const shown = new URL(settings.url);
    shown.username = "";
    shown.password = "";
    this.summary = {
      url: shown.toString().replace(/\/$/, ""),
      hits: 0,
      misses: 0,
      uploads: 0,
      errors: 0,
      warning: null,
    };
  }

  get available(): boolean {
    return !this.down;
  }

  readonly pack = packArtifact;
  readonly unpack = unpackArtifact;

  private endpoint(id: string): string {
    const query = this.settings.team
      ? `?${this.settings.team.startsWith("team_") ? "teamId" : "slug"}=${encodeURIComponent(this.settings.team)}`
      : "";
    return `${this.settings.url}/v8/artifacts/${encodeURIComponent(id)}${query}`;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.settings.token ? { authorization: `Bearer ${this.settings.token}` } : {}), ...extra };
  }

  private tag(id: string, body: Buffer): string {
    return createHmac("sha256", this.settings.signatureKey!)
      .update(id)
      .update(this.settings.team ?? "")
      .update(body)
      .digest("base64");
  }

  private fail(what: string, error: unknown): void {
    this.summary.errors += 1;
    if (this.down) return;
    this.down = true;
    let reason =
      error instanceof Error
        ? error.name === "TimeoutError"
          ? `no answer within ${this.settings.timeoutMs} ms`
          : error.message
        : String(error);
    // Errors quote the URL as given; a user:token in it is never shown.
    const { username, password } = new URL(this.settings.url);
    reason = redactor([
      password,
      username,
      decodeURIComponent(password),
      decodeURIComponent(username),
      this.settings.token,
    ])(reason);
    this.summary.warning = `remote cache ${this.summary.url} ${what} failed (${reason}); continuing with the local cache only`;
  }

  /**
   * One request, retried once on a network error, a 5xx, or a failed upload that was not an authentication refusal;
   * every attempt bounded by the timeout.
   */
  private async request(id: string, init: RequestInit): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(this.endpoint(id), {
          ...init,
          signal: AbortSignal.timeout(this.settings.timeoutMs),
        });
        const retry =
          response.status >= 500 ||
          (init.method === "PUT" && !response.ok && response.status !== 401 && response.status !== 403);
        if (retry && attempt < 2) {
          await response.body?.cancel();
          continue;
        }
        return response;
      } catch (error) {
        if (attempt >= 2 || (error as Error).name === "TimeoutError") throw error;
      }
    }
  }

  /** The artifact stored under `id`, or undefined when there is none, its signature is wrong, or the remote failed. */
  async get(id: string): Promise<Buffer | undefined> {
    // Two attempts, each bounded by the timeout, body included.
    return heldOpen(() => this.download(id), 2 * this.settings.timeoutMs);
  }

  private async download(id: string): Promise<Buffer | undefined> {
    if (this.down) return undefined;
    // An artifact nobody signed proves only that it agrees with itself: it is not used unless the config trusts that.
    if (!this.settings.signatureKey && !this.settings.trustUnsigned) {
      this.summary.warning ??= `remote cache ${this.summary.url}: artifacts are not signed, so none is used (uploads go on). Set INTER_REMOTE_CACHE_SIGNATURE_KEY on every machine, or cache.remote.trust: "unsigned" if anyone who can write to the cache may run code in your builds`;
      return undefined;
    }
    try {
      const started = performance.now();
      const response = await this.request(id, { headers: this.headers() });
      if (response.status === 404) {
        await response.body?.cancel();
        return this.spend(started, undefined);
      }
      if (!response.ok)
        throw new Error(
          `HTTP ${response.status}${response.status === 401 || response.status === 403 ? ": the token was refused" : ""}`,
        );
      if (Number(response.headers.get("content-length") ?? 0) > MAX_ARTIFACT_BYTES) {
        await response.body?.cancel();
        this.reject(
          `an artifact of ${response.headers.get("content-length")} bytes is over the ${MAX_ARTIFACT_BYTES}-byte limit; it was not used`,
        );
        return this.spend(started, undefined);
      }
      const body = Buffer.from(await response.arrayBuffer());
      if (body.length > MAX_ARTIFACT_BYTES) return this.spend(started, undefined);
      if (this.settings.signatureKey) {
        const tag = response.headers.get("x-artifact-tag");
        const expected = Buffer.from(this.tag(id, body));
        if (!tag || tag.length !== expected.length || !timingSafeEqual(Buffer.from(tag), expected)) {
          // Said, not silently missed: a key that differs between machines would otherwise look like an empty cache.
          this.reject(
            tag
              ? "an artifact's signature does not match INTER_REMOTE_CACHE_SIGNATURE_KEY (signed with another key, or altered); it was not used"
              : "an artifact carries no signature; it was not used",
          );
          return this.spend(started, undefined);
        }
      }
      return this.spend(started, body);
    } catch (error) {
      this.fail("download", error);
      return undefined;
    }
  }

  /**
   * Lookups are sequential and each is bounded, but a remote that answers each just under its limit would still slow a
   * build many times over: past a total budget per run the remote is left for the local cache alone.
   */
  private spend<T>(started: number, value: T): T {
    this.spent += performance.now() - started;
    const budget = Math.max(LOOKUP_BUDGET_MS, 2 * this.settings.timeoutMs);
    if (this.spent > budget && !this.down) {
      this.down = true;
      this.summary.warning = `remote cache ${this.summary.url}: lookups took over ${Math.round(budget / 1000)} s in all; continuing with the local cache only`;
    }
    return value;
  }

  /** An artifact or list refused for what it says (not for a failure of the remote): the first reason is shown. */
  reject(reason: string): void {
    this.summary.warning ??= `remote cache ${this.summary.url}: ${reason}`;
  }

  /** Counts a lookup's outcome: a usable record, or none (absent, wrong, truncated, foreign). */
  counted(hit: boolean): void {
    if (hit) this.summary.hits += 1;
    else if (!this.down) this.summary.misses += 1;
  }

  /** Queues an upload; it never delays the task that produced it. */
  put(id: string, body: Buffer, durationMs: number): void {
    if (this.down) return;
    this.queue.push(async () => {
      if (this.down) return;
      try {
        // An artifact already there is never replaced: this client may not be able to verify it (another key, or none),
        // and a good signed artifact must not be overwritten by one its readers would refuse.
        const present = await this.request(id, { method: "HEAD", headers: this.headers() });
        await present.body?.cancel();
        if (present.ok) return;
        const headers = this.headers({
          "content-type": "application/octet-stream",
          "x-artifact-duration": String(durationMs),
          ...(this.settings.signatureKey ? { "x-artifact-tag": this.tag(id, body) } : {}),
        });
        const response = await this.request(id, { method: "PUT", headers, body: new Uint8Array(body) });
        await response.body?.cancel();
        if (!response.ok)
          throw new Error(
            `HTTP ${response.status}${response.status === 401 || response.status === 403 ? ": the token was refused" : ""}`,
          );
        this.summary.uploads += 1;
      } catch (error) {
        this.fail("upload", error);
      }
    });
    this.pump();
  }

  private pump(): void {
    while (this.active < UPLOADS_AT_ONCE && this.queue.length) {
      const job = this.queue.shift()!;
      this.active += 1;
      // A HEAD and a PUT of two attempts each.
      void heldOpen(job, 4 * this.settings.timeoutMs).finally(() => {
        this.active -= 1;
        this.pump();
        if (!this.active && !this.queue.length) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  /** Waits for queued uploads (each bounded by the timeout) before the process exits. */
  async flush(): Promise<void> {
    if (!this.active && !this.queue.length) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }
}
