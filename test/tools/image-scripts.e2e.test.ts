import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "../support/repo-root.ts";

// The image build and smoke scripts (issue 28 item 1) are held to the operator scripts' standard.
const scripts = ["tools/build-images.sh", "tools/smoke-images.sh", "tools/images-env.sh"];

describe("tools/build-images.sh and tools/smoke-images.sh", () => {
  it("are shellcheck-clean", (t) => {
    const probe = spawnSync("shellcheck", ["--version"]);
    if (probe.error) {
      // CI installs shellcheck (.ci/run); there its absence is a failure, not a skip.
      assert.notEqual(process.env.CI, "true", "shellcheck is not installed");
      t.skip("shellcheck is not installed (apt-get install shellcheck)");
      return;
    }
    const result = spawnSync("shellcheck", ["--external-sources", "--severity=style", ...scripts], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });

  it("fail with the reason when the image store was never built", () => {
    const result = spawnSync("bash", ["tools/smoke-images.sh"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, SVC_IMAGES_DIR: "/nonexistent/svc-images" },
    });
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /no image store in \/nonexistent\/svc-images: run tools\/build-images.sh first/,
    );
  });

  // issue 37 item 9: an interrupted build left 11 mounts under its folder that blocked deleting it;
  // build-images.sh's exit trap unmounts whatever is still mounted there (images-env.sh).
  it("release_mounts_under unmounts every mount below a folder, nested ones first, and leaves the folder deletable", (t) => {
    if (process.getuid?.() !== 0) {
      assert.notEqual(process.env.CI, "true", "CI runs as root (the image build needs it)");
      t.skip("mounting needs root");
      return;
    }
    const work = mkdtempSync(join(tmpdir(), "svc-images-mounts-"));
    const outer = join(work, "storage", "overlay");
    t.after(() => {
      // whatever the function under test left mounted, so the test removes what it made
      spawnSync("umount", ["-R", "-l", outer]);
      rmSync(work, { recursive: true, force: true });
    });
    mkdirSync(outer, { recursive: true });
    const mounted = () =>
      readFileSync("/proc/self/mounts", "utf8")
        .split("\n")
        .filter((line) => line.split(" ")[1]?.startsWith(`${work}/`));
    assert.equal(spawnSync("mount", ["-t", "tmpfs", "tmpfs", outer]).status, 0);
    mkdirSync(join(outer, "merged"));
    assert.equal(spawnSync("mount", ["-t", "tmpfs", "tmpfs", join(outer, "merged")]).status, 0);
    assert.equal(mounted().length, 2, "two mounts made");
    const result = spawnSync(
      "bash",
      ["-c", 'source tools/images-env.sh && release_mounts_under "$1"', "release", work],
      { cwd: repoRoot, encoding: "utf8" },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(mounted(), [], "nothing left mounted below the folder");
    rmSync(work, { recursive: true });
  });
});
