import type { Dirent } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { PreflightError } from "../errors.ts";
import { checkRelativePath, isInsideRun, resolveInsideRun } from "./safe-path.ts";

/** The well-known top-level directories, in the order the listing puts them first (spec §4.2 rule 4). */
export const WELL_KNOWN_DIRS = ["results", "thresholds", "seal", "repro_pack"] as const;

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
  const index = (WELL_KNOWN_DIRS as readonly string[]).indexOf(name);
  return index === -1 ? WELL_KNOWN_DIRS.length : index;
}

/**
 * Lists a run's outputs recursively, depth first, names sorted. Without a prefix the well-known
 * directories come first. Symlinks are followed only when they stay inside the run (and are never
 * descended into, so a link cannot loop); links leading out of the run are left out.
 */
export async function listOutputs(runRoot: string, options: ListOutputsOptions = {}): Promise<OutputListing> {
  const maxEntries = options.maxEntries ?? 10_000;
  const entries: OutputEntry[] = [];
  let truncated = false;
  const prefix = options.prefix;

  let startDir = runRoot;
  let startRel = "";
  let filter: string | undefined;
  if (prefix !== undefined) {
    const segments = checkRelativePath("prefix", prefix, { allowTrailingSlash: true });
    const target = await resolveInsideRun(runRoot, segments).catch((error: unknown) => {
      // A prefix that is not itself a path ("results/sum") filters its parent directory.
      if (error instanceof PreflightError && error.code === "OUTPUT_NOT_FOUND" && !prefix.endsWith("/"))
        return null;
      throw error;
    });
    if (target !== null && (await stat(target)).isDirectory()) {
      startDir = target;
      startRel = `${segments.join("/")}/`;
    } else {
      const parent = segments.slice(0, -1);
      startDir = parent.length === 0 ? runRoot : await resolveInsideRun(runRoot, parent);
      startRel = parent.length === 0 ? "" : `${parent.join("/")}/`;
      filter = segments.join("/");
    }
  }

  async function walk(dir: string, rel: string, topLevel: boolean): Promise<void> {
    let children: Dirent[];
    try {
      children = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable directory: listed, not descended
    }
    children.sort((a, b) =>
      topLevel && prefix === undefined
        ? rankTopLevel(a.name) - rankTopLevel(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
        : a.name < b.name
          ? -1
          : a.name > b.name
            ? 1
            : 0,
    );
    for (const child of children) {
      if (entries.length >= maxEntries) {
        truncated = true;
        return;
      }
      const full = join(dir, child.name);
      const childRel = `${rel}${child.name}`;
      let info = await lstat(full);
      const isLink = info.isSymbolicLink();
      if (isLink) {
        const target = await realpath(full).catch(() => null);
        if (target === null || !isInsideRun(runRoot, target)) continue;
        info = await stat(target);
      }
      const isDir = info.isDirectory();
      if (!isDir && !info.isFile()) continue;
      const path = isDir ? `${childRel}/` : childRel;
      const matches = filter === undefined || path.startsWith(filter);
      if (matches)
        entries.push({
          path,
          type: isDir ? "directory" : "file",
          size: isDir ? 0 : info.size,
          modified: info.mtime.toISOString(),
        });
      if (isDir && !isLink && (matches || filter?.startsWith(path))) await walk(full, path, false);
    }
  }

  await walk(startDir, startRel, startRel === "");
  let wellKnown: Record<string, boolean> | null = null;
  if (prefix === undefined) {
    wellKnown = {};
    for (const name of WELL_KNOWN_DIRS) {
      const target = await realpath(join(runRoot, name)).catch(() => null);
      wellKnown[`${name}/`] =
        target !== null && isInsideRun(runRoot, target) && (await stat(target)).isDirectory();
    }
  }
  return { prefix: prefix ?? null, wellKnown, entries, truncated };
}
