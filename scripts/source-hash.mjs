// The build id: a hash of what lib/ is made from — every source file's path and content, the shipped schemas lib/
// holds compiled validators of, and the build's own inputs (this script, scripts/build.mjs, package.json: the version
// it stamps and the dependencies it bundles). The build stamps lib/ with it, and the test run's global setup
// (test/global-setup.ts) rebuilds lib/ when the stamp no longer matches.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const BUILD_INPUTS = ["package.json", "scripts/build.mjs", "scripts/source-hash.mjs"];

export function sourceHash(repo) {
  const hash = createHash("sha256");
  const sources = readdirSync(join(repo, "src"), { recursive: true })
    .map((file) => join("src", String(file)))
    .filter((path) => path.endsWith(".ts"))
    .sort();
  // The shipped schemas' validators are compiled into lib/ too.
  const schemas = readdirSync(join(repo, "schemas"))
    .filter((file) => file.endsWith(".schema.json"))
    .map((file) => join("schemas", file))
    .sort();
  for (const path of [...BUILD_INPUTS, ...sources, ...schemas]) {
    const content = readFileSync(join(repo, path));
    hash.update(`${path}\0${content.length}\0`).update(content);
  }
  return hash.digest("hex").slice(0, 12);
}
