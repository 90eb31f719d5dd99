import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ensurePrivateDirectory, ensurePrivateFiles } from "./private-files.ts";

const modeOf = (path: string) => statSync(path).mode & 0o777;
const MODULE = fileURLToPath(new URL("./private-files.ts", import.meta.url));

/**
 * A node binary `user` can start: this one, or a copy in a folder of its own when this one sits
 * where that user may not enter (the Node 24 of a checkout in a 0700 folder, issue 28 item 7).
 */
function nodeRunnableBy(user: { uid: number; gid: number }, copyDir: string): string {
  const probe = spawnSync(process.execPath, ["-e", "0"], { cwd: "/", ...user });
  if (probe.status === 0) return process.execPath;
  const copy = join(copyDir, "node");
  copyFileSync(process.execPath, copy);
  chmodSync(copyDir, 0o755);
  chmodSync(copy, 0o755);
  return copy;
}

describe("private files", () => {
  const root = mkdtempSync(join(tmpdir(), "svc-private-files-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("creates a directory 0700 and tightens a looser one, saying what it was", () => {
    assert.deepEqual(ensurePrivateDirectory(join(root, "new")), { outcome: "private" });
    assert.equal(modeOf(join(root, "new")), 0o700);
    const open = join(root, "open");
    mkdirSync(open);
    chmodSync(open, 0o755);
    assert.deepEqual(ensurePrivateDirectory(open), { outcome: "tightened", modeWas: 0o755 });
    assert.equal(modeOf(open), 0o700);
  });

  it("goes on, and says so, for a directory another user owns (a Kubernetes fsGroup volume)", (t) => {
    // /tmp is root's and 1777; as root, ask as user nobody, who cannot chmod it
    // The module's source goes in on the command line, not by path: user nobody may not read this
    // checkout (a clone in a 0700 folder, issue 28 item 7); it imports only node: builtins.
    const call = `${readFileSync(MODULE, "utf8")}\nconsole.log(JSON.stringify(ensurePrivateDirectory("/tmp")));`;
    const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;
    // its own folder in the temp dir (traversable), not under this suite's 0700 root
    const copyDir = mkdtempSync(join(tmpdir(), "svc-node-copy-"));
    t.after(() => rmSync(copyDir, { recursive: true, force: true }));
    const node = asOther === null ? process.execPath : nodeRunnableBy(asOther, copyDir);
    const child = spawnSync(node, ["--input-type=module-typescript", "-e", call], {
      encoding: "utf8",
      cwd: "/",
      ...asOther,
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { outcome: "not_owner", mode: modeOf("/tmp") });
  });

  it("creates the ledger file 0600 and tightens it and its -wal/-shm when looser", () => {
    const file = join(root, "ledger.sqlite");
    ensurePrivateFiles(file);
    assert.equal(modeOf(file), 0o600);
    chmodSync(file, 0o644);
    writeFileSync(`${file}-wal`, "", { mode: 0o644 });
    chmodSync(`${file}-wal`, 0o664);
    assert.deepEqual(ensurePrivateFiles(file, [`${file}-wal`, `${file}-shm`]), [file, `${file}-wal`]);
    assert.equal(modeOf(file), 0o600);
    assert.equal(modeOf(`${file}-wal`), 0o600);
  });
});
