/** What plan validation reports, and the view of a candidate it checks against (shared by every validation stage). */
export type Stage = "shape" | "references" | "candidate" | "hygiene";

export interface Finding {
  stage: Stage;
  /** The file the pointer points into, when it is not the plan (the reference solutions). */
  file?: string;
  severity: "error" | "warning";
  code: string;
  /** JSON pointer into the plan ("" is the whole document). */
  pointer: string;
  message: string;
  suggestion: string;
  /** The command the finding is about was renamed by the overlay: `inter eval validate --fix-renames` rewrites it. */
  renamed?: Rename;
}

/** A command the design overlay renamed (capabilities.json `nameSource.renamed`). */
export interface Rename {
  from: string;
  to: string;
  /** The overlay entry that renamed it, e.g. `groups.rooms.commands.getRoom.name`. */
  entry: string;
}

export interface CandidateTree {
  sha256: string | null;
  binary: string;
  commands: Array<{
    name: string;
    parameters: Array<{ name: string; type?: string; enum?: unknown[] }>;
    permission?: string;
    fields?: Record<string, { type?: string; enum?: unknown[] }>;
  }>;
  globalFlags: string[];
  /** Commands the overlay renamed, when the build's capabilities.json is at hand. */
  renames?: Rename[];
}
