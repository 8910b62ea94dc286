import type { RemoteCacheConfig } from "../../config/types.js";
import { InterError } from "../../core/errors.js";

/** Where the remote cache is and how to talk to it, after the environment has overridden the config. */
export interface RemoteSettings {
  url: string;
  team: string | undefined;
  token: string | undefined;
  /** HMAC key for the artifact integrity tag (x-artifact-tag), when artifacts are signed. */
  signatureKey: string | undefined;
  /** Use artifacts without a signature (cache.remote.trust: "unsigned"); otherwise, with no key, nothing is downloaded. */
  trustUnsigned: boolean;
  timeoutMs: number;
}

/** INTER_REMOTE_CACHE_URL / _TEAM / _TOKEN / _SIGNATURE_KEY override `cache.remote`; no URL means no remote cache. */
export function remoteSettings(
  config: RemoteCacheConfig | undefined,
  env: NodeJS.ProcessEnv = process.env,
): RemoteSettings | undefined {
  const url = env.INTER_REMOTE_CACHE_URL || config?.url;
  if (!url) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    const from = env.INTER_REMOTE_CACHE_URL ? "INTER_REMOTE_CACHE_URL" : "cache.remote.url";
    throw new InterError(
      "CONFIG_INVALID",
      `${from} is not an http(s) URL.`,
      `Set ${from} to the server's base URL, e.g. https://cache.example.com.`,
      { field: from },
    );
  }
  return {
    url: url.replace(/\/+$/, ""),
    team: env.INTER_REMOTE_CACHE_TEAM || config?.team,
    token: env.INTER_REMOTE_CACHE_TOKEN || config?.token,
    signatureKey: config?.signature === false ? undefined : env.INTER_REMOTE_CACHE_SIGNATURE_KEY || undefined,
    trustUnsigned: (env.INTER_REMOTE_CACHE_TRUST || config?.trust) === "unsigned",
    timeoutMs: config?.timeoutMs ?? 10_000,
  };
}
