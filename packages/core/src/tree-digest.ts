import { join } from "node:path";
import { sha256File, sha256Hex } from "./digest.ts";
import { walkTree } from "./walk-tree.ts";

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
 * The tree is read by {@link walkTree}: symbolic links, sockets, devices and FIFOs are refused
 * (`TREE_UNSUPPORTED_ENTRY`) rather than followed or skipped, so a sealed tree means the same bytes
 * to every verifier; paths holding a newline, carriage return or backslash are refused too.
 */
export async function digestTree(root: string, options: DigestTreeOptions = {}): Promise<TreeDigest> {
  const { files } = await walkTree(root, options);
  const entries: TreeEntry[] = [];
  for (const path of files) {
    const { sha256, size } = await sha256File(join(root, path));
    entries.push({ path, sha256, size });
  }
  const listing = entries.map((entry) => `${entry.sha256}  ${entry.path}\n`).join("");
  return { sha256: sha256Hex(listing), entries, listing };
}
