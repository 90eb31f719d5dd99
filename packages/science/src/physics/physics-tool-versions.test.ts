import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { structureToolVersions } from "../structure/tool-versions.ts";

const installed = (command: string, args: string[]) => spawnSync(command, args).status === 0;

test("the repro pack's tool versions name xtb, MOPAC, ParmEd and OpenMM's CPU platform with their Debian packages (issue 40 item 7)", async (t) => {
  if (!installed("xtb", ["--version"]) || !installed("mopac", ["-V"])) {
    t.skip("xtb or mopac not installed (apt-get install xtb mopac python3-parmed libopenmm-plugins)");
    return;
  }
  const versions = await structureToolVersions();
  assert.match(versions.xtb ?? "", /^xtb version 6\.\d+\.\d+/);
  assert.match(versions.mopac ?? "", /^MOPAC version \d+\.\d+\.\d+/);
  for (const name of ["xtb", "mopac", "python3-parmed", "libopenmm-plugins"])
    assert.ok(versions.debianPackages[name], `dpkg-query gave no version of ${name}`);
  assert.match(versions.python?.parmed ?? "", /^\d+\.\d+/);
  assert.match(
    versions.python?.openmm_platforms ?? "",
    /\bCPU\b/,
    "OpenMM's CPU platform (libopenmm-plugins)",
  );
});
