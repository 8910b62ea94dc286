import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The program on the agent's PATH under the candidate's name. It holds nothing of the candidate: it sends argv, cwd
 * and stdin to the broker (broker-protocol.ts's frames), relays signals, and replays stdout, stderr and the exit
 * code it gets back. It loads only `net`, through process.getBuiltinModule, so it runs the same whether Node takes
 * the file for CommonJS or, under a package.json with "type": "module", for an ES module.
 */
const CLIENT = String.raw`
"use strict";
const net = process.getBuiltinModule("net");
const socket = net.connect(SOCKET);
const frame = (type, body) => {
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32BE(body.length, 1);
  socket.write(Buffer.concat([head, body]));
};
frame("Q", Buffer.from(JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() })));
let stdinDone = false;
const endStdin = () => { if (!stdinDone) { stdinDone = true; frame("D", Buffer.alloc(0)); } };
process.stdin.on("data", (d) => frame("I", d));
process.stdin.on("end", endStdin);
process.stdin.on("error", endStdin);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) process.on(sig, () => frame("K", Buffer.from(sig)));
process.stdout.on("error", () => {});
process.stderr.on("error", () => {});
let pending = Buffer.alloc(0);
let finished = false;
socket.on("data", (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
    const type = String.fromCharCode(pending[0]);
    const body = pending.subarray(5, 5 + pending.readUInt32BE(1));
    pending = pending.subarray(5 + body.length);
    if (type === "O") process.stdout.write(body);
    else if (type === "E") process.stderr.write(body);
    else if (type === "X") {
      finished = true;
      const { code, signal } = JSON.parse(body.toString());
      process.stdout.write("", () => process.stderr.write("", () => {
        if (signal) {
          for (const sig of ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"]) process.removeAllListeners(sig);
          try { process.kill(process.pid, signal); } catch {}
        }
        process.exit(typeof code === "number" ? code : 128);
      }));
    }
  }
});
socket.on("error", (e) => {
  process.stderr.write("the evaluation's broker is unreachable (" + e.code + "): this call was not made\n");
  process.exit(127);
});
socket.on("close", () => { if (!finished) { process.stderr.write("the evaluation's broker closed the call\n"); process.exit(128); } });
`;

/** Writes the client as `<binDir>/<binary>`, run by the given Node with the broker's socket path fixed inside. */
export function writeBrokerClient(binDir: string, binary: string, socket: string, node = process.execPath): string {
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, binary);
  // Node options and extra CA certificates in the agent's environment are for the agent, and they cost the client
  // (loading a CA bundle alone costs every start): env drops them. The kernel reads at most 255 bytes of a #! line.
  const shebang =
    node.length < 180 && !/\s/.test(node)
      ? `#!/usr/bin/env -S -u NODE_OPTIONS -u NODE_EXTRA_CA_CERTS ${node}`
      : "#!/usr/bin/env node";
  writeFileSync(path, `${shebang}\n${CLIENT.replace("SOCKET", JSON.stringify(socket))}`);
  chmodSync(path, 0o755);
  return path;
}
