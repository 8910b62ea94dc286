/**
 * The broker's wire format over its Unix socket: frames of one type byte, a 4-byte big-endian length and the payload.
 * Client → broker: Q (JSON {argv, cwd}), I (stdin bytes), D (stdin ended), K (a signal name).
 * Broker → client: O (stdout bytes), E (stderr bytes), X (JSON {code, signal}).
 * The client (broker-client.ts) speaks it in plain CommonJS, so both sides are kept to these few lines.
 */
const MAX_FRAME = 16 * 1024 * 1024;

export function frame(type: string, payload: Buffer | string): Buffer {
  const body = typeof payload === "string" ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Feeds bytes in, calls back once per whole frame; a frame over MAX_FRAME is a protocol error. */
export function frameReader(
  onFrame: (type: string, payload: Buffer) => void,
  onError: (message: string) => void,
): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  let failed = false;
  return (chunk) => {
    if (failed) return;
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (length > MAX_FRAME) {
        failed = true;
        onError(`frame of ${length} bytes is over the limit`);
        return;
      }
      if (pending.length < 5 + length) return;
      const type = String.fromCharCode(pending[0]!);
      const payload = pending.subarray(5, 5 + length);
      pending = pending.subarray(5 + length);
      onFrame(type, payload);
    }
  };
}
