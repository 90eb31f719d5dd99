import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";

// The ledger and the keys are readable by the service's user only (issue 16 item 6: ledger.sqlite
// and its -wal/-shm were 0644, and a pre-created 0755 data directory was left so).

/** What ensurePrivateDirectory found: nothing to do, a mode it tightened, or one it could not. */
export type DirectoryTightening =
  | { readonly outcome: "private" }
  | { readonly outcome: "tightened"; readonly modeWas: number }
  | { readonly outcome: "not_owner"; readonly mode: number };

/**
 * Creates `dir` 0700, or tightens an existing one that others can read or enter. A directory this
 * user does not own cannot be tightened (EPERM): a Kubernetes volume with `fsGroup` is root's,
 * group-shared by design; the caller logs it and goes on rather than refusing to start.
 */
export function ensurePrivateDirectory(dir: string): DirectoryTightening {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return { outcome: "private" };
  try {
    chmodSync(dir, mode & 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
    return { outcome: "not_owner", mode };
  }
  return { outcome: "tightened", modeWas: mode };
}

/**
 * Creates `file` empty with 0600 when missing (SQLite then creates its -wal and -shm files with
 * the same mode, os_unix.c findCreateFileMode), or tightens an existing one; same for `extra` files
 * that exist. Returns the files it tightened.
 */
export function ensurePrivateFiles(file: string, extra: readonly string[] = []): string[] {
  closeSync(openSync(file, "a", 0o600));
  const tightened: string[] = [];
  for (const path of [file, ...extra]) {
    let mode: number;
    try {
      mode = statSync(path).mode & 0o777;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    if ((mode & 0o077) === 0) continue;
    chmodSync(path, mode & 0o600);
    tightened.push(path);
  }
  return tightened;
}
