// `npm run check`: the static checks — format, layers, exports, types — side by side: each is a process of its own
// that mostly parses source (prettier most of all on a clean clone, where its cache is empty), so on two cores they
// take the time of the longest rather than of all of them. They are not part of `npm test`, which runs the suite
// alone; the README's test command and CI (.ci/run) run them first. Each check's output is printed whole once it ends,
// in this order; the exit code is the first failing check's, else 0.
import { spawn } from "node:child_process";

const CHECKS = ["check:format", "check:layers", "check:exports", "check:types"];
const npm = process.env.npm_execpath
  ? [process.execPath, process.env.npm_execpath]
  : [process.platform === "win32" ? "npm.cmd" : "npm"];

const runs = CHECKS.map(
  (script) =>
    new Promise((resolve) => {
      const out = [];
      const child = spawn(npm[0], [...npm.slice(1), "run", "--silent", script], {
        stdio: ["ignore", "pipe", "pipe"],
        shell: process.platform === "win32" && npm.length === 1,
      });
      child.stdout.on("data", (chunk) => out.push(chunk));
      child.stderr.on("data", (chunk) => out.push(chunk));
      child.on("error", (error) => resolve({ script, code: 1, output: `${error.message}\n` }));
      child.on("close", (code, signal) =>
        resolve({ script, code: code ?? (signal ? 1 : 0), output: Buffer.concat(out).toString() }),
      );
    }),
);

let exit = 0;
for (const { script, code, output } of await Promise.all(runs)) {
  process.stdout.write(`> ${script}${code ? ` (failed, exit ${code})` : ""}\n${output}`);
  if (code && !exit) exit = code;
}
process.exitCode = exit;
