import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { assertGeneratedBlock } from "@svc/testing";
import { DEBIAN_CHECKS, UNAVAILABLE_MODULES } from "./unavailable-modules.ts";

const DOCS = new URL("../../../docs/science.md", import.meta.url);
const SOURCE = "packages/science/src/unavailable-modules.e2e.test.ts";

/** "packaged in Debian 12 (a, b)" or "not packaged in Debian 12 (a, b)": the one way a reason speaks of Debian. */
const CLAIM = /(not )?packaged in Debian 12 \(([^)]+)\)/g;

function claims(reason: string): { packaged: boolean; packages: string[] }[] {
  return [...reason.matchAll(CLAIM)].map((match) => ({
    packaged: match[1] === undefined,
    packages: (match[2] ?? "").split(",").map((name) => name.trim()),
  }));
}

test("a reason speaks of Debian only through a checked claim, and every claimed package is checked with the same answer", () => {
  const checked = new Map(DEBIAN_CHECKS.map((entry) => [entry.package, entry.packaged]));
  for (const [id, reason] of Object.entries(UNAVAILABLE_MODULES)) {
    assert.doesNotMatch(
      reason.replace(CLAIM, ""),
      /Debian/,
      `${id}: a Debian claim outside "(not) packaged in Debian 12 (…)"`,
    );
    for (const claim of claims(reason))
      for (const name of claim.packages) {
        assert.ok(checked.has(name), `${id}: ${name} is not in DEBIAN_CHECKS`);
        assert.equal(
          checked.get(name),
          claim.packaged,
          `${id}: says ${name} is ${claim.packaged ? "" : "not "}packaged`,
        );
      }
  }
});

test("no reason repeats the wrong premise that Debian has no ligand parameterisation or no xtb/MOPAC", () => {
  for (const [id, reason] of Object.entries(UNAVAILABLE_MODULES)) {
    assert.doesNotMatch(reason, /no ligand parameteri[sz]ation|no (ambertools\/)?antechamber\/GAFF/i, id);
    for (const tool of ["xtb", "mopac", "parmed", "GAFF", "OpenMM"])
      assert.doesNotMatch(
        reason,
        new RegExp(`\\b(no|without|lacks?)\\b [^.;:]{0,30}\\b${tool}\\b`, "i"),
        `${id}: ${tool}`,
      );
  }
});

/** apt-cache's candidate version of each package; null when apt or its package lists are not on this machine. */
function aptCandidates(names: readonly string[]): Map<string, string | null> | null {
  const run = spawnSync("apt-cache", ["policy", "bash", ...names], { encoding: "utf8" });
  if (run.error !== undefined || run.status !== 0) return null;
  const candidates = new Map<string, string | null>();
  let current: string | null = null;
  for (const line of run.stdout.split("\n")) {
    const head = /^(\S+):$/.exec(line);
    if (head) current = head[1] ?? null;
    const candidate = /^\s+Candidate: (\S+)/.exec(line);
    if (current !== null && candidate)
      candidates.set(current, candidate[1] === "(none)" ? null : (candidate[1] ?? null));
  }
  // No candidate for bash: the package lists were never fetched (apt-get update), nothing can be checked.
  return candidates.get("bash") ? candidates : null;
}

test("each hand-kept Debian check agrees with apt-cache policy on this machine", (t) => {
  const candidates = aptCandidates(DEBIAN_CHECKS.map((entry) => entry.package));
  if (candidates === null) {
    t.skip("apt-cache or its package lists are not on this machine");
    return;
  }
  for (const entry of DEBIAN_CHECKS)
    assert.equal(
      Boolean(candidates.get(entry.package)),
      entry.packaged,
      `${entry.package}: DEBIAN_CHECKS says ${entry.packaged ? "packaged" : "not packaged"} (${entry.check})`,
    );
});

test("docs/science.md lists every unavailable module with its reason as the plan gives it", () => {
  const rows = Object.entries(UNAVAILABLE_MODULES)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([id, reason]) =>
        `| \`${id}\` | not available | ${reason.replace(/^not available: /, "").replace(/\|/g, "\\|")} |`,
    );
  const checks = DEBIAN_CHECKS.map((entry) => `- \`${entry.package}\`: ${entry.check}`);
  assertGeneratedBlock(
    DOCS,
    "unavailable-modules",
    SOURCE,
    [
      "| module | state in this build | why, or what it would need |",
      "|---|---|---|",
      ...rows,
      "",
      "The Debian 12 packages these reasons name, each as checked on the build machine (the test compares each",
      "with `apt-cache policy` where apt is there):",
      "",
      ...checks,
    ].join("\n"),
  );
});
