/**
 * Local files a command reads (an upload) or writes (`--output`): the value is a path, checked as one — secrets files
 * and system folders refused wherever the path resolves (symbolic links and `..` followed first), existence and
 * readability checked before anything is sent — never as an opaque string that might be a key (guard.ts).
 */
import { closeSync, existsSync, fstatSync, openSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { CliError } from "./errors.js";
import { sensitive } from "./guard.js";

/** Folders whose files are credentials or the machine's own state, wherever a path to them comes from. */
const PRIVATE_FOLDER =
  /(^|\/)\.(ssh|aws|gnupg|kube|docker|azure|config\/gcloud|config\/gh|terraform\.d|cargo\/credentials(\.toml)?|git-credentials|pypirc)(\/|$)|^\/(proc|sys|etc\/ssl\/private)(\/|$)|^\/dev\/(?!shm\/)/i;

/** The path as it really is: links followed, for a file that does not exist yet its folder's. */
function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return resolve(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/** SENSITIVE_PATH when the path, as given or as it resolves, is a secrets file or in a private folder. */
function refuseSensitive(flag: string, path: string): void {
  const real = realPath(path);
  if ([path, real].some((p) => sensitive(p) || PRIVATE_FOLDER.test(p)))
    throw new CliError(
      "SENSITIVE_PATH",
      `--${flag} names a sensitive file or folder (${path}); it is refused.`,
      "Give a file of your own data: secrets files (.env, keys, certificates, ~/.ssh, ~/.aws) and system folders never leave or enter through this CLI.",
      { flag },
    );
}

/** A file to send: its path, its size when it is known (not for stdin), and its descriptor, open since it was checked. */
export interface OpenedFile {
  flag: string;
  path: string;
  /** Open from the check until it is sent: a file removed in between is still the file that was checked. */
  fd?: number;
  /** Undefined for stdin. */
  size?: number;
}

/** Opens a file to upload (`-` is stdin): refused when it is sensitive, missing, not a regular file or unreadable. */
export function openUpload(flag: string, path: string): OpenedFile {
  if (path === "-") return { flag, path };
  if (!path.trim())
    throw new CliError("INVALID_VALUE", `--${flag} needs a file's path, or - for stdin.`, `Give --${flag} ./file.`, {
      flag,
    });
  refuseSensitive(flag, path);
  if (!existsSync(path))
    throw new CliError(
      "FILE_NOT_FOUND",
      `--${flag}: no file at ${path}.`,
      "Check the path (relative paths are from the current folder), or give - to read stdin.",
      { flag, path },
    );
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new CliError(
      "FILE_NOT_READABLE",
      `--${flag}: ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}).`,
      "Give a file this user can read.",
      { flag, path },
    );
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    throw new CliError(
      "FILE_NOT_READABLE",
      `--${flag}: ${path} is ${stat.isDirectory() ? "a folder" : "not a regular file"}.`,
      "Give a file's path (or - for stdin).",
      { flag, path },
    );
  }
  return { flag, path, fd, size: stat.size };
}

/** Closes what openUpload opened (a call that ends before sending, a dry run). */
export function closeUploads(files: OpenedFile[]): void {
  for (const f of files)
    if (f.fd !== undefined) {
      try {
        closeSync(f.fd);
      } catch {
        // already closed by the stream that sent it
      }
      f.fd = undefined;
    }
}

/**
 * Checks where `--output` will write before the request is sent: not a sensitive place, not a folder, its folder
 * exists, and an existing file only with `--force`.
 */
export function checkOutput(path: string, force: boolean): void {
  if (path === "-") return;
  refuseSensitive("output", path);
  const folder = dirname(resolve(path));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new CliError(
      "INVALID_VALUE",
      `--output: the folder ${dirname(path)} does not exist.`,
      "Create the folder first, or give a path in an existing one.",
      { flag: "output", path },
    );
  if (existsSync(path)) {
    if (statSync(path).isDirectory())
      throw new CliError("INVALID_VALUE", `--output: ${path} is a folder.`, "Give a file's path inside it.", {
        flag: "output",
        path,
      });
    if (!force)
      throw new CliError(
        "OUTPUT_EXISTS",
        `--output: ${path} already exists; it was not overwritten.`,
        "Give another path, or add --force to replace it.",
        { flag: "output", path },
      );
  }
}
