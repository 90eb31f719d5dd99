import { lstat, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { RunnerError } from "../runner-error.ts";

/**
 * Resolves a file referenced by sources.json inside `01_sources/` and refuses anything that
 * escapes it: absolute paths, `..`, and symbolic links pointing out (domain notes, input contract:
 * "references files in the same folder").
 */
export async function resolveConfinedFile(
  sourcesDir: string,
  reference: string,
  field: string,
): Promise<string> {
  const where = `01_sources/sources.json field ${field}`;
  if (reference === "" || isAbsolute(reference) || reference.includes("\0")) {
    throw new RunnerError(
      "INPUT_PATH_OUTSIDE",
      `${where}: "${reference}" must be a relative path inside 01_sources/`,
    );
  }
  const candidate = resolve(sourcesDir, reference);
  if (!isInside(sourcesDir, candidate)) {
    throw new RunnerError("INPUT_PATH_OUTSIDE", `${where}: "${reference}" points outside 01_sources/`);
  }
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(candidate);
  } catch {
    throw new RunnerError("INPUT_FILE_MISSING", `${where}: file "${reference}" not found in 01_sources/`);
  }
  if (stats.isSymbolicLink()) {
    throw new RunnerError(
      "INPUT_PATH_OUTSIDE",
      `${where}: "${reference}" is a symbolic link; stage the file itself`,
    );
  }
  if (!stats.isFile()) {
    throw new RunnerError("INPUT_FILE_MISSING", `${where}: "${reference}" is not a regular file`);
  }
  // A directory symlink earlier in the path could still lead out: compare the real paths.
  const real = await realpath(candidate);
  if (!isInside(await realpath(sourcesDir), real)) {
    throw new RunnerError("INPUT_PATH_OUTSIDE", `${where}: "${reference}" resolves outside 01_sources/`);
  }
  return candidate;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}
