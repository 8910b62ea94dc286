import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { InterError } from "../../core/errors.js";
import { shippedSchemaValidator } from "../../core/json-schema.js";
import { emptyOverlay, type Overlay } from "./overlay.js";

/** Largest overlay read: a reviewed file of names and sentences, not a data set. */
const MAX_OVERLAY_BYTES = 8 * 1024 * 1024;

/** The project's overlay, checked against schemas/overlay.schema.json; a missing file is an empty overlay. */
export async function readOverlay(root: string, file: string): Promise<Overlay> {
  let text: string;
  try {
    text = readFileSync(join(root, file), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyOverlay();
    throw new InterError(
      "OVERLAY_INVALID",
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      "Make it a readable file, or remove it to build from the rules alone.",
      { file },
    );
  }
  if (Buffer.byteLength(text) > MAX_OVERLAY_BYTES)
    throw new InterError(
      "INPUT_TOO_LARGE",
      `${file}: the overlay is over ${MAX_OVERLAY_BYTES} bytes.`,
      "An overlay holds names and sentences; regenerate it with `inter design suggest --refresh`.",
      { file, limit: MAX_OVERLAY_BYTES },
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InterError(
      "OVERLAY_INVALID",
      `${file}: not JSON (${(error as Error).message}).`,
      "Fix the JSON (a reviewer's edit?), or regenerate it with `inter design suggest`.",
      { file },
    );
  }
  const validate = await shippedSchemaValidator("overlay");
  if (!validate(value)) {
    const first = validate.errors?.[0];
    const at = first ? `${first.instancePath || "/"}: ${first.message ?? first.keyword}` : "does not match the schema";
    throw new InterError(
      "OVERLAY_INVALID",
      `${file}: ${at}${(validate.errors?.length ?? 0) > 1 ? ` (and ${validate.errors!.length - 1} more)` : ""}.`,
      "Fix the entry (schemas/overlay.schema.json says what each holds), or remove it to fall back to the rules.",
      { file, errors: (validate.errors ?? []).slice(0, 20).map((e) => ({ path: e.instancePath, message: e.message })) },
    );
  }
  return value as Overlay;
}

/** Writes the overlay whole (temp file + rename): an interrupted run leaves the old file or the new one, never half. */
export function writeOverlay(root: string, file: string, overlay: Overlay): void {
  writeFileAtomic(join(root, file), `${JSON.stringify(overlay, null, 2)}\n`);
}
