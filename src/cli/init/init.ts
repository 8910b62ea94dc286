import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import { sha256 as sha } from "../../core/hash.js";
import { CONFIG_NAMES } from "../../config/load.js";
import { InterError } from "../../core/errors.js";
import { GITIGNORE_LINES, ownSkills, projectFiles, type InitChoices, type Planned } from "./templates.js";

/**
 * create: new file · unchanged: already as inter init writes it · update: written by inter init and untouched since,
 * so the newer template replaces it · kept: yours, left as it is · conflict: yours where inter needs the place ·
 * append: lines added to a file · link: a symlink to an installed Skill.
 */
export type Action = "create" | "unchanged" | "update" | "kept" | "conflict" | "append" | "link";

export interface Step {
  path: string;
  action: Action;
  exists: boolean;
  reason?: string;
  /** For a conflict: the decision it needs from you. */
  decision?: string;
  /** What is written: file content, lines to append, or a link target. */
  write?: { kind: "file"; content: string } | { kind: "append"; text: string } | { kind: "link"; target: string };
}

const MANIFEST = ".intermesh/init.json";

/** What inter init wrote before (path → sha256), so a file it made and nobody edited can be brought up to date. */
function readManifest(dir: string): Record<string, string> {
  try {
    return (JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as { files: Record<string, string> }).files ?? {};
  } catch {
    return {};
  }
}

function fileStep(dir: string, planned: Planned, owned: Record<string, string>, whenYours: "kept" | "conflict"): Step {
  const abs = join(dir, planned.path);
  const write = { kind: "file" as const, content: planned.content };
  if (!existsSync(abs)) return { path: planned.path, action: "create", exists: false, write };
  if (!statSync(abs).isFile())
    return {
      path: planned.path,
      action: "conflict",
      exists: true,
      reason: "exists and is not a file",
      decision: `Move ${planned.path} away and run \`inter init\` again.`,
    };
  const current = readFileSync(abs);
  if (sha(current) === sha(planned.content)) return { path: planned.path, action: "unchanged", exists: true };
  if (owned[planned.path] === sha(current))
    return {
      path: planned.path,
      action: "update",
      exists: true,
      reason: "written by inter init and not edited since",
      write,
    };
  return whenYours === "kept"
    ? {
        path: planned.path,
        action: "kept",
        exists: true,
        reason: "exists and differs from what inter init writes; yours, left as it is",
      }
    : { path: planned.path, action: "conflict", exists: true, reason: "exists and was not written by inter init" };
}

/** Every step of `inter init` for this folder, decided without writing anything. */
export function planInit(dir: string, choices: InitChoices): Step[] {
  const owned = readManifest(dir);
  const steps: Step[] = [];
  const files = projectFiles(choices);
  const otherConfig = CONFIG_NAMES.find((n) => n !== "intermesh.config.ts" && existsSync(join(dir, n)));
  for (const file of files) {
    if (file.path === "intermesh.config.ts" && otherConfig)
      steps.push({
        path: file.path,
        action: "kept",
        exists: false,
        reason: `${otherConfig} is this project's config already`,
      });
    else steps.push(fileStep(dir, file, owned, "kept"));
  }

  const gitignore = join(dir, ".gitignore");
  const present = existsSync(gitignore)
    ? new Set(
        readFileSync(gitignore, "utf8")
          .split(/\r?\n/)
          .map((l) => l.trim()),
      )
    : new Set<string>();
  const missing = GITIGNORE_LINES.filter((l) => !present.has(l) && !present.has(l.replace(/\/$/, "")));
  if (!existsSync(gitignore))
    steps.push({
      path: ".gitignore",
      action: "create",
      exists: false,
      write: { kind: "file", content: `${GITIGNORE_LINES.join("\n")}\n` },
    });
  else if (!missing.length) steps.push({ path: ".gitignore", action: "unchanged", exists: true });
  else {
    const text = readFileSync(gitignore, "utf8");
    steps.push({
      path: ".gitignore",
      action: "append",
      exists: true,
      reason: `adds ${missing.join(", ")}`,
      write: {
        kind: "append",
        text: `${text.endsWith("\n") || !text ? "" : "\n"}# intermesh\n${missing.join("\n")}\n`,
      },
    });
  }

  const claude = existsSync(join(dir, ".claude")) && statSync(join(dir, ".claude")).isDirectory();
  for (const [name, skillFiles] of ownSkills()) {
    const folder = `.agents/skills/${name}`;
    const fileSteps = skillFiles.map((f) =>
      fileStep(dir, { path: `${folder}/${f.path}`, content: f.content }, owned, "conflict"),
    );
    const known = new Set(skillFiles.map((f) => `${folder}/${f.path}`));
    const strangers =
      existsSync(join(dir, folder)) && statSync(join(dir, folder)).isDirectory()
        ? readdirSync(join(dir, folder), { recursive: true, encoding: "utf8" })
            .map((f) => `${folder}/${f.split("\\").join("/")}`)
            .filter((f) => statSync(join(dir, f)).isFile() && !known.has(f))
        : [];
    if (
      fileSteps.some((s) => s.action === "conflict") ||
      strangers.length ||
      (existsSync(join(dir, folder)) && !statSync(join(dir, folder)).isDirectory())
    ) {
      // A Skill of the same name that inter did not install is left whole: mixing files would make a third Skill.
      steps.push({
        path: folder,
        action: "conflict",
        exists: true,
        reason: `a Skill named ${name} exists here and was not installed by inter init`,
        decision: `Keep yours (inter's ${name} is then not installed), or move ${folder} away and run \`inter init\` again.`,
      });
      continue;
    }
    steps.push(...fileSteps);
    if (!claude) continue;
    const link = `.claude/skills/${name}`;
    const target = `../../${folder}`;
    const abs = join(dir, link);
    let current: string | undefined;
    try {
      current = lstatSync(abs).isSymbolicLink() ? readlinkSync(abs) : "";
    } catch {
      current = undefined;
    }
    if (current === undefined)
      steps.push({ path: link, action: "link", exists: false, reason: `→ ${target}`, write: { kind: "link", target } });
    else if (current === target) steps.push({ path: link, action: "unchanged", exists: true });
    else
      steps.push({
        path: link,
        action: "conflict",
        exists: true,
        reason: "exists and is not inter init's link",
        decision: `Keep yours, or remove ${link} and run \`inter init\` again to link .claude to ${folder}.`,
      });
  }
  return steps;
}

/**
 * Carries out the steps in order, recording each file it writes in .intermesh/init.json. A failure stops the run with
 * INIT_FAILED listing what was done, what failed and what is pending; the same command resumes (finished steps are
 * then "unchanged").
 */
export function applyInit(
  dir: string,
  steps: Step[],
  resume: string,
  resumeAction?: { command: string; args: string[]; cwd: string },
): void {
  const owned = readManifest(dir);
  const done: string[] = [];
  for (const [i, step] of steps.entries()) {
    if (!step.write) continue;
    const abs = join(dir, step.path);
    try {
      mkdirSync(dirname(abs), { recursive: true });
      if (step.write.kind === "file") {
        writeFileAtomic(abs, step.write.content);
        owned[step.path] = sha(step.write.content);
      } else if (step.write.kind === "append") appendFileSync(abs, step.write.text);
      else symlinkSync(step.write.target, abs, "dir");
      writeFileAtomic(join(dir, MANIFEST), `${JSON.stringify({ files: owned }, null, 2)}\n`);
      done.push(step.path);
    } catch (error) {
      const pending = steps
        .slice(i + 1)
        .filter((s) => s.write)
        .map((s) => s.path);
      throw new InterError(
        "INIT_FAILED",
        `inter init could not write ${step.path}: ${(error as Error).message}`,
        `Fix what stops ${step.path} from being written, then run \`${resume}\` again: finished steps are kept.`,
        {
          completed: done,
          failed: { path: step.path, reason: (error as Error).message },
          pending,
          resume,
          // The same facts in Intermesh 0.1's words, which its Skills read.
          completed_steps: done,
          failed_step: { path: step.path, reason: (error as Error).message },
          pending_steps: pending,
          next_actions: [
            {
              ...(resumeAction ?? { command: "inter", args: resume.split(" ").slice(1), cwd: dir }),
              after: `what stops ${step.path} from being written is fixed`,
            },
          ],
        },
      );
    }
  }
}
