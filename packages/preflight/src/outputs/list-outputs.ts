import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { CoreError, WELL_KNOWN_RUN_DIRS, walkTree } from "@svc/core";
import { PreflightError } from "../errors.ts";
import { checkRelativePath, resolveInsideRun } from "./safe-path.ts";

/** The well-known top-level directories, in the order the listing puts them first (spec §4.2 rule 4; core's run-folder contract). */
const WELL_KNOWN_DIRS: readonly string[] = WELL_KNOWN_RUN_DIRS;

/** One listed output: directories end in `/`. */
export interface OutputEntry {
  path: string;
  type: "file" | "directory";
  size: number;
  modified: string;
}

/** Answer of {@link listOutputs}. */
export interface OutputListing {
  prefix: string | null;
  /** Which well-known directories exist (only without a prefix). */
  wellKnown: Record<string, boolean> | null;
  entries: OutputEntry[];
  /** True when the listing stopped at `maxEntries`. */
  truncated: boolean;
}

/** Options of {@link listOutputs}. */
export interface ListOutputsOptions {
  prefix?: string;
  /** Upper bound on entries, so a huge run cannot produce an unbounded response. Default 10000. */
  maxEntries?: number;
}

function rankTopLevel(name: string): number {
  const index = WELL_KNOWN_DIRS.indexOf(name);
  return index === -1 ? WELL_KNOWN_DIRS.length : index;
}

/**
 * Depth-first order, names compared segment by segment (a directory before what it holds);
 * without a prefix the well-known directories come first.
 */
function compareListed(rankTop: boolean) {
  return (a: string, b: string): number => {
    const left = a.replace(/\/$/, "").split("/");
    const right = b.replace(/\/$/, "").split("/");
    if (rankTop) {
      const ranked = rankTopLevel(left[0] ?? "") - rankTopLevel(right[0] ?? "");
      if (ranked !== 0) return ranked;
    }
    for (let i = 0; i < Math.min(left.length, right.length); i++) {
      const l = left[i] ?? "";
      const r = right[i] ?? "";
      if (l !== r) return l < r ? -1 : 1;
    }
    return left.length - right.length;
  };
}

/**
 * Lists a run's outputs recursively, depth first, names sorted; without a prefix the well-known
 * directories come first. The tree is read by core's walkTree, the project's one walker and
 * symlink policy: a symbolic link (or device, FIFO, socket) in what is listed refuses the listing
 * with PATH_REFUSED naming it, as downloads and repro-pack.tgz refuse it, instead of following it
 * or leaving it out. A prefix naming a directory lists what it holds; any other prefix filters its
 * parent directory ("results/sum").
 */
export async function listOutputs(runRoot: string, options: ListOutputsOptions = {}): Promise<OutputListing> {
  const maxEntries = options.maxEntries ?? 10_000;
  const prefix = options.prefix;

  let base: string[] = [];
  let filter: string | null = null;
  if (prefix !== undefined) {
    const segments = checkRelativePath("prefix", prefix, { allowTrailingSlash: true });
    const target = await resolveInsideRun(runRoot, segments).catch((error: unknown) => {
      // A prefix that is not itself a path ("results/sum") filters its parent directory.
      if (error instanceof PreflightError && error.code === "OUTPUT_NOT_FOUND" && !prefix.endsWith("/"))
        return null;
      throw error;
    });
    if (target !== null && (await lstat(target)).isDirectory()) base = segments;
    else {
      base = segments.slice(0, -1);
      if (base.length > 0) await resolveInsideRun(runRoot, base);
      filter = segments.join("/");
    }
  }
  const baseRel = base.length === 0 ? "" : `${base.join("/")}/`;
  const walk = await walkTree(join(runRoot, ...base)).catch((error: unknown) => {
    if (error instanceof CoreError && error.code === "TREE_UNSUPPORTED_ENTRY")
      throw new PreflightError(
        "PATH_REFUSED",
        `${baseRel}${error.message}: run folders hold regular files and directories only`,
      );
    throw error;
  });
  const paths = [...walk.directories, ...walk.files]
    .map((path) => `${baseRel}${path}`)
    .filter((path) => filter === null || path.startsWith(filter))
    .sort(compareListed(prefix === undefined));

  const entries: OutputEntry[] = [];
  for (const path of paths.slice(0, maxEntries)) {
    const isDir = path.endsWith("/");
    const info = await lstat(join(runRoot, path));
    entries.push({
      path,
      type: isDir ? "directory" : "file",
      size: isDir ? 0 : info.size,
      modified: info.mtime.toISOString(),
    });
  }
  let wellKnown: Record<string, boolean> | null = null;
  if (prefix === undefined) {
    const present = new Set(walk.directories);
    wellKnown = Object.fromEntries(WELL_KNOWN_DIRS.map((name) => [`${name}/`, present.has(`${name}/`)]));
  }
  return { prefix: prefix ?? null, wellKnown, entries, truncated: paths.length > maxEntries };
}
