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
 * return or backslash are refused too, since `sha256sum` listings escape them (svc-tree/v1).
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
  for (const name of await readdir(join(root, prefix))) {
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

/** UTF-8 byte order, what `LC_ALL=C sort` does. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
