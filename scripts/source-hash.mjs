// The build id: a hash of every source file's path and content. The build stamps lib/ with it, and the test run's
// global setup (test/global-setup.ts) rebuilds lib/ when the stamp no longer matches the source.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function sourceHash(repo) {
  const hash = createHash("sha256");
  for (const file of readdirSync(join(repo, "src"), { recursive: true }).sort()) {
    const path = join("src", String(file));
    if (path.endsWith(".ts")) hash.update(path).update(readFileSync(join(repo, path)));
  }
  return hash.digest("hex").slice(0, 12);
}
