import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { CoreError } from "./core-error.ts";

/** What {@link walkTree} found below a root: POSIX paths relative to it, in UTF-8 byte order. */
export interface TreeWalk {
  readonly files: readonly string[];
  /** Directories, each with a trailing `/`, so a listing can tell them from files. */
  readonly directories: readonly string[];
}

export interface WalkTreeOptions {
  /** Relative POSIX paths (files or directories) to leave out, e.g. `seal` for an output set. */
  readonly exclude?: (relativePath: string) => boolean;
}

/**
 * Walks a directory tree with the one symlink policy of the project: refuse. A symbolic link,
 * socket, device or FIFO anywhere below the root throws `TREE_UNSUPPORTED_ENTRY` naming it,
 * rather than being followed (which could leave the tree) or skipped (which would make what is
 * hashed, sealed or archived differ from what is on disk). Paths holding a newline, carriage
 * return or backslash are refused too, since `sha256sum` listings escape them (svc-tree/v1), and
 * so are names that are not UTF-8 (below).
 */
export async function walkTree(root: string, options: WalkTreeOptions = {}): Promise<TreeWalk> {
  const files: string[] = [];
  const directories: string[] = [];
  await walkInto(root, "", options.exclude ?? (() => false), files, directories);
  files.sort(compareUtf8);
  directories.sort(compareUtf8);
  return { files, directories };
}

async function walkInto(
  root: string,
  prefix: string,
  exclude: (relativePath: string) => boolean,
  files: string[],
  directories: string[],
): Promise<void> {
  for (const raw of await readdir(join(root, prefix), { encoding: "buffer" })) {
    const name = utf8Name(raw, prefix);
    const relative = prefix === "" ? name : `${prefix}/${name}`;
    if (exclude(relative)) continue;
    if (/[\n\r\\]/.test(relative))
      throw new CoreError(
        "TREE_UNSUPPORTED_ENTRY",
        `${relative}: newline, carriage return or backslash in a path`,
      );
    const stats = await lstat(join(root, relative));
    if (stats.isDirectory()) {
      directories.push(`${relative}/`);
      await walkInto(root, relative, exclude, files, directories);
    } else if (stats.isFile()) files.push(relative);
    else if (stats.isSymbolicLink())
      throw new CoreError("TREE_UNSUPPORTED_ENTRY", `${relative}: symbolic link`);
    else throw new CoreError("TREE_UNSUPPORTED_ENTRY", `${relative}: not a regular file or directory`);
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A directory entry's name, refused (`TREE_UNSUPPORTED_ENTRY`) when it is not UTF-8 (issue 23 item
 * 10). Paths are UTF-8 in svc-tree/v1, and a name read as a string would have its bad bytes
 * replaced by U+FFFD: a path that names no file, so hashing it failed with ENOENT, not a verdict.
 */
function utf8Name(raw: Buffer, prefix: string): string {
  try {
    return STRICT_UTF8.decode(raw);
  } catch {
    const shown = [...raw].map((byte) =>
      byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, "0")}`,
    );
    const path = prefix === "" ? shown.join("") : `${prefix}/${shown.join("")}`;
    throw new CoreError("TREE_UNSUPPORTED_ENTRY", `${path}: a file name that is not UTF-8`);
  }
}

/** UTF-8 byte order, what `LC_ALL=C sort` does. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
