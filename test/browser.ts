import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { REPO } from "./helpers.js";

/** Screenshots and other things a person may want to look at after a run (kept out of git). */
export const ARTIFACTS = join(REPO, "test-artifacts");

/**
 * Debian's Chromium, headless. The flags keep it from reaching for Google's services, which this machine's closed
 * network refuses; --no-sandbox because CI runs as root.
 */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
