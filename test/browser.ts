import { accessSync, constants, mkdirSync } from "node:fs";
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
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  // Asked first: Playwright makes its profile and artifact folders before it finds the program missing, and leaves them.
  try {
    accessSync(executablePath, constants.X_OK);
  } catch {
    throw new Error(
      `Chromium is not at ${executablePath}: run scripts/test-deps.sh (Debian's chromium), or set CHROMIUM_PATH to a Chromium.`,
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath,
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
