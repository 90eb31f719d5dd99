import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { CoreError, compareUtf8, RUN_FILES, runPath, walkTree } from "@svc/core";
import { create as createTar } from "tar";
import { PreflightError } from "../errors.ts";
import { resolveInsideRun } from "./safe-path.ts";

/** The pack directory's name under a run root (spec §2.3). */
export const REPRO_PACK_DIR = runPath("reproPackDir");
/** gzip level of the archive: GNU gzip's default, what `tar czf -` uses. */
export const REPRO_PACK_GZIP_LEVEL = 6;
/** Every entry's mtime: fixed so two downloads of the same pack are byte-identical. */
export const REPRO_PACK_MTIME = new Date("2000-01-01T00:00:00Z");

const FILE_MODE = 0o100644;
const EXEC_MODE = 0o100755;
const DIR_MODE = 0o040755;

/**
 * Streams `repro_pack/` of a run as a deterministic gzip tar (issue 5): entries sorted, mode fixed
 * (0644, 0755 for executables and directories), no owner, fixed mtime, gzip without a timestamp,
 * so the same pack always gives the same bytes. Throws REPRO_PACK_NOT_FOUND before any byte is
 * sent when the directory does not exist (spec §4.2 rule 5).
 */
export async function streamReproPack(runRoot: string): Promise<Readable> {
  const packReal = await resolveInsideRun(runRoot, [REPRO_PACK_DIR]).catch((error: unknown) => {
    if (error instanceof PreflightError && error.code === "OUTPUT_NOT_FOUND")
      throw new PreflightError("REPRO_PACK_NOT_FOUND");
    throw error;
  });
  // resolveInsideRun refuses a link in place of the directory (PATH_REFUSED); a file there is no pack.
  const info = await lstat(packReal);
  if (!info.isDirectory())
    throw new PreflightError("REPRO_PACK_NOT_FOUND", "the run's repro_pack is not a directory");
  // core's one walker and policy: a link (or device) anywhere in the pack refuses the download
  // instead of leaving the entry out, so the archive is exactly the pack on disk or nothing.
  const walk = await walkTree(join(runRoot, REPRO_PACK_DIR)).catch((error: unknown) => {
    if (error instanceof CoreError && error.code === "TREE_UNSUPPORTED_ENTRY")
      throw new PreflightError(
        "PATH_REFUSED",
        `${RUN_FILES.reproPackDir}${error.message}: the pack holds regular files and directories only`,
      );
    throw error;
  });
  const entries = [
    `${REPRO_PACK_DIR}/`,
    ...[...walk.directories, ...walk.files].sort(compareUtf8).map((path) => `${REPRO_PACK_DIR}/${path}`),
  ];

  const pack = createTar(
    {
      cwd: runRoot,
      portable: true, // no uid/gid/uname/gname, atime, ctime
      noDirRecurse: true, // exactly the sorted list above, nothing added behind our back
      mtime: REPRO_PACK_MTIME,
      onWriteEntry(entry) {
        const stat = entry.stat;
        if (!stat) return;
        entry.noMtime = false; // portable mode drops directory mtimes; keep the fixed one everywhere
        entry.mtime = REPRO_PACK_MTIME;
        stat.mode = stat.isDirectory() ? DIR_MODE : stat.mode & 0o111 ? EXEC_MODE : FILE_MODE;
      },
    },
    entries,
  );
  // zlib's gzip header carries MTIME 0 and a fixed OS byte, so the gzip layer is deterministic too.
  const gzip = createGzip({ level: REPRO_PACK_GZIP_LEVEL, chunkSize: 256 * 1024 });
  pack.on("error", (error: unknown) =>
    gzip.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  // A client that goes away destroys the gzip stream; stop reading files for it.
  gzip.on("close", () => {
    if (!pack.emittedEnd) pack.destroy();
  });
  (pack as unknown as NodeJS.ReadableStream).pipe(gzip);
  return gzip;
}
