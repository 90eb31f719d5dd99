import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { CoreError } from "./core-error.ts";
import { sha256File, sha256Hex } from "./digest.ts";

/** One regular file of a digested tree. */
export interface TreeEntry {
  /** POSIX path relative to the tree root, no leading `./`. */
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
}

export interface TreeDigest {
  /** SHA-256 of {@link TreeDigest.listing}: the tree's digest. */
  readonly sha256: string;
  readonly entries: readonly TreeEntry[];
  /** The exact bytes hashed: one `sha256sum`-style line per file. */
  readonly listing: string;
}

export interface DigestTreeOptions {
  /** Relative POSIX paths (files or directories) to leave out, e.g. `seal` for an output set. */
  readonly exclude?: (relativePath: string) => boolean;
}

/**
 * Digest of a directory tree, format `svc-tree/v1`:
 *
 * - every regular file below the root, at any depth, by its POSIX path relative to the root;
 * - sorted by the path's UTF-8 bytes (what `LC_ALL=C sort` does);
 * - one line per file, `<sha256 hex><two spaces><path>\n`, exactly as `sha256sum` prints it;
 * - the digest is SHA-256 of those lines concatenated. Empty directories contribute nothing.
 *
 * A third party recomputes it with standard tools:
 * `cd DIR && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sed 's|  \./|  |' | sha256sum`
 *
 * Symbolic links, sockets, devices and FIFOs are refused (`TREE_UNSUPPORTED_ENTRY`) rather than
 * followed or skipped: a sealed tree must mean the same bytes to every verifier. Paths holding a
 * newline, carriage return or backslash are refused too, since `sha256sum` escapes them.
 */
export async function digestTree(root: string, options: DigestTreeOptions = {}): Promise<TreeDigest> {
  const paths = await listRegularFiles(root, "", options.exclude ?? (() => false));
  paths.sort(compareUtf8);
  const entries: TreeEntry[] = [];
  for (const path of paths) {
    const { sha256, size } = await sha256File(join(root, path));
    entries.push({ path, sha256, size });
  }
  const listing = entries.map((entry) => `${entry.sha256}  ${entry.path}\n`).join("");
  return { sha256: sha256Hex(listing), entries, listing };
}

async function listRegularFiles(
  root: string,
  prefix: string,
  exclude: (relativePath: string) => boolean,
): Promise<string[]> {
  const found: string[] = [];
  const names = await readdir(join(root, prefix));
  for (const name of names) {
    const relative = prefix === "" ? name : `${prefix}/${name}`;
    if (exclude(relative)) continue;
    if (/[\n\r\\]/.test(relative)) {
      throw new CoreError(
        "TREE_UNSUPPORTED_ENTRY",
        `${relative}: newline, carriage return or backslash in a path`,
      );
    }
    const stats = await lstat(join(root, relative));
    if (stats.isDirectory()) found.push(...(await listRegularFiles(root, relative, exclude)));
    else if (stats.isFile()) found.push(relative);
    else if (stats.isSymbolicLink())
      throw new CoreError("TREE_UNSUPPORTED_ENTRY", `${relative}: symbolic link`);
    else throw new CoreError("TREE_UNSUPPORTED_ENTRY", `${relative}: not a regular file or directory`);
  }
  return found;
}

function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
