/**
 * The generated executable, `<binary>.cjs`: the runtime's `run` on the package folder and the arguments, nothing else
 * (inspection's probe host relies on it: stages/inspect/probe-host.ts).
 *
 * It loads lib/runtime.cjs as `require` would, but with V8's compiled code for it kept between calls: compiling the
 * quarter-megabyte runtime is about a tenth of a call's start, and agents call a CLI hundreds of times (the start-up
 * budget of docs/architecture.md). The code cache is the user's own, beside the OAuth tokens
 * (`$XDG_CACHE_HOME/<binary>/v8/`, a 0600 file in a 0700 folder): one file per install folder and Node version, which
 * V8 itself refuses when its version or flags differ. Node's own cache, `module.enableCompileCache`, exists only from
 * Node 22.1. A file someone else owns or can write is never read (V8 runs what the cache holds), its first line must
 * name the runtime file as it is now (size, times, inode: a reinstall or an edit is a new file), and
 * `NODE_DISABLE_COMPILE_CACHE` (Node's variable for its own cache) turns it off. Without HOME or XDG_CACHE_HOME,
 * or where the folder cannot be written, the runtime is compiled as before: a cache never costs a call its answer.
 */
export function cliShim(binary: string): string {
  return `#!/usr/bin/env node
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const Module = require("node:module");

const file = path.join(__dirname, "lib", "runtime.cjs");
const source = fs.readFileSync(file, "utf8");
const stat = fs.statSync(file);
const key = [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino].join(" ");
const cache = cacheFile();
const cachedData = cache && readCache(cache);
const script = new vm.Script(Module.wrap(source), {
  filename: file,
  cachedData,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const runtime = { exports: {} };
script.runInThisContext().call(runtime.exports, runtime.exports, Module.createRequire(file), runtime, file, path.dirname(file));

runtime.exports.run(__dirname, process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  if (cache && (!cachedData || script.cachedDataRejected)) keep(cache);
});

function cacheFile() {
  const env = process.env;
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const base = env.XDG_CACHE_HOME || (env.HOME ? path.join(env.HOME, ".cache") : "");
  if (!path.isAbsolute(base)) return undefined;
  let place = 0x811c9dc5;
  for (let i = 0; i < __dirname.length; i++) place = Math.imul(place ^ __dirname.charCodeAt(i), 0x01000193) >>> 0;
  const name = "runtime-" + place.toString(16) + "-" + process.version + "-" + process.arch + ".cache";
  return path.join(base, ${JSON.stringify(binary)}, "v8", name);
}

function readCache(cache) {
  let fd;
  try {
    fd = fs.openSync(cache, "r");
    const own = fs.fstatSync(fd);
    // Owner and mode bits mean this on POSIX only (Windows reports every file writable).
    if (process.getuid && (own.uid !== process.getuid() || own.mode & 0o022)) return undefined;
    const bytes = fs.readFileSync(fd);
    const line = bytes.indexOf(10);
    return line > 0 && bytes.toString("latin1", 0, line) === key ? bytes.subarray(line + 1) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function keep(cache) {
  const temporary = cache + "." + process.pid + ".tmp";
  try {
    fs.mkdirSync(path.dirname(cache), { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, Buffer.concat([Buffer.from(key + "\\n", "latin1"), script.createCachedData()]), {
      mode: 0o600,
      flag: "wx",
    });
    fs.renameSync(temporary, cache);
  } catch {
    try {
      fs.unlinkSync(temporary);
    } catch {}
  }
}
`;
}
