import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
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
});
