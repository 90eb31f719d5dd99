import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What owns a temp dir: a test context `t` (removed when the test ends). Not node:test's bare `after`
 * called from a `before` hook: node runs such a hook right after the `before` hook itself.
 */
export interface TempDirOwner {
  after(fn: () => unknown): void;
}

/** A temp dir a harness owns and removes in its own `close()`. */
export interface TempDir {
  readonly path: string;
  /** Removes the dir and everything in it; safe to call twice. */
  remove(): Promise<void>;
}

/**
 * The one way tests make temp dirs (issue 13 item 6: one `npm test` left 80 MB behind):
 * `<os temp dir>/<prefix>XXXXXX`, removed with its contents when `owner` ends.
 */
export async function makeTempDir(prefix: string, owner: TempDirOwner): Promise<string> {
  const dir = await createTempDir(prefix);
  owner.after(() => dir.remove());
  return dir.path;
}

/**
 * A temp dir without an owner, for a harness that removes it in its `close()` (itself called from
 * `t.after` or the suite's `after`), or for dirs made in a `before` hook and removed in `after`.
 */
export async function createTempDir(prefix: string): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  let removed: Promise<void> | undefined;
  return {
    path,
    remove: () => {
      removed ??= rm(path, { recursive: true, force: true, maxRetries: 3 });
      return removed;
    },
  };
}
