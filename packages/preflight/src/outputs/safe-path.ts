import type { Stats } from "node:fs";
import { lstat, realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { ID_RULE, isSafeId } from "@svc/core";
import { PreflightError } from "../errors.ts";

const MAX_PATH_LENGTH = 1024;
// Percent-encoded '/', '\', '.', NUL that survived the one URL decoding the framework does: a
// second decoder further down (a proxy, a browser) would turn them into separators or '..'.
const ENCODED_SEPARATOR = /%(2f|5c|2e|00)/i;

/** Options of {@link checkRelativePath}. */
export interface RelativePathOptions {
  /** A trailing `/` is allowed (a directory prefix). */
  allowTrailingSlash?: boolean;
}

/**
 * Checks that `value` is a plain relative path: no NUL or control characters, no backslash, not
 * absolute, no encoded separators, no empty, `.` or `..` segment. Returns the segments; throws
 * PATH_REFUSED naming `field` otherwise. Issue 5 "Auth and safety".
 */
export function checkRelativePath(field: string, value: string, options: RelativePathOptions = {}): string[] {
  const refuse = (why: string): never => {
    throw new PreflightError("PATH_REFUSED", `${field} refused: ${why}`);
  };
  if (value.length === 0) refuse("it is empty");
  if (value.length > MAX_PATH_LENGTH) refuse(`it is longer than ${MAX_PATH_LENGTH} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL and control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(value)) refuse("it contains NUL or control characters");
  if (value.includes("\\")) refuse("it contains a backslash");
  if (value.startsWith("/")) refuse("it is absolute");
  if (ENCODED_SEPARATOR.test(value)) refuse("it contains an encoded separator, dot or NUL");
  const trimmed = options.allowTrailingSlash && value.endsWith("/") ? value.slice(0, -1) : value;
  const segments = trimmed.split("/");
  for (const segment of segments) {
    if (segment === "") refuse("it contains an empty segment");
    if (segment === "." || segment === "..") refuse(`it contains a '${segment}' segment`);
  }
  return segments;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root + sep);
}

async function realpathOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === "ENOENT" ||
      (error as NodeJS.ErrnoException).code === "ENOTDIR"
    )
      return null;
    throw error;
  }
}

/**
 * Resolves `<outputRoot>/<runId>` to its real path. Throws INVALID_INPUT for a malformed run id,
 * RUN_NOT_FOUND when it does not exist, PATH_REFUSED when a symlink leads it out of the output root.
 */
export async function resolveRunRoot(outputRoot: string, runId: string): Promise<string> {
  // docs/contracts/run-id.md: core's grammar, so every id the runner accepts can be read here.
  if (!isSafeId(runId)) throw new PreflightError("INVALID_INPUT", `runId ${ID_RULE}`);
  const rootReal = await realpathOrNull(outputRoot);
  const runReal = rootReal === null ? null : await realpathOrNull(join(rootReal, runId));
  if (rootReal === null || runReal === null)
    throw new PreflightError("RUN_NOT_FOUND", `no output directory for run ${runId}`);
  if (!isInside(rootReal, runReal) || runReal === rootReal)
    throw new PreflightError("PATH_REFUSED", "the run directory is a link leading outside the output root");
  if (!(await stat(runReal)).isDirectory())
    throw new PreflightError("RUN_NOT_FOUND", `no output directory for run ${runId}`);
  return runReal;
}

/**
 * Resolves a checked relative path inside a run root (already real). Symbolic links are refused
 * on every segment, the project's one policy (core's walkTree): the runner never writes a link, so
 * a link in a run folder is something else's and is neither followed nor served. Throws
 * OUTPUT_NOT_FOUND or PATH_REFUSED naming the link.
 */
export async function resolveInsideRun(runRoot: string, segments: readonly string[]): Promise<string> {
  let path = runRoot;
  for (const [index, segment] of segments.entries()) {
    path = join(path, segment);
    let info: Stats;
    try {
      info = await lstat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR")
        throw new PreflightError("OUTPUT_NOT_FOUND", `no such output: ${segments.join("/")}`);
      throw error;
    }
    if (info.isSymbolicLink())
      throw new PreflightError(
        "PATH_REFUSED",
        `path refused: ${segments.slice(0, index + 1).join("/")} is a symbolic link; run folders hold regular files and directories only`,
      );
  }
  return path;
}
