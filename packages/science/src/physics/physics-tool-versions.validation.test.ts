import assert from "node:assert/strict";
import { test } from "node:test";
import { physicsToolsMissing } from "../../test/support/physics-tools.ts";
import { structureToolVersions } from "../structure/tool-versions.ts";

test("the repro pack's tool versions name xtb, MOPAC, ParmEd and OpenMM's CPU platform with their Debian packages (issue 40 item 7)", async (t) => {
  if (physicsToolsMissing !== null) {
    t.skip(physicsToolsMissing);
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
