import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { buildInterruptedSummary } from "./build-results.ts";
import { readClaimStrength } from "./read-claim-strength.ts";

// Issue 37 item 3: run_complete is sent the claim strength the sealed summary states, so the
// signed value is the one every verifier finds in the folder.
describe("readClaimStrength", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "claim-strength-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  const runWith = async (name: string, summary: string | null) => {
    const runDir = join(root, name);
    await mkdir(join(runDir, "results"), { recursive: true });
    if (summary !== null) await writeFile(join(runDir, "results", "summary.json"), summary);
    return runDir;
  };

  it("reads SUPPORTED and HYPOTHESIS from results/summary.json", async () => {
    for (const claim of ["SUPPORTED", "HYPOTHESIS"]) {
      const runDir = await runWith(
        claim,
        JSON.stringify(
          {
            schema: "svc.summary/v2",
            status: "completed",
            run_id: claim,
            project_id: "demo",
            mode: "standard",
            module_id: "computational",
            category_id: "SMALL_MOLECULE__LIGAND_ONLY__NO_STRUCTURE__NO_ASSAYS",
            generated_at: "2026-12-01T00:00:00Z",
            inputs_sha256: "a".repeat(64),
            compounds: { total: 1, parsed: 1, unparseable: 0, unassessed: 0 },
            claim_strength: claim,
            claim_reasons: [],
            profile: "oral_peripheral",
            coverage_ratio: 1,
            missing_proof: [],
            report: "results/report.html",
          },
          null,
          2,
        ),
      );
      assert.equal(await readClaimStrength(runDir), claim);
    }
  });

  it("is null (the seal carries none) for an interrupted run's summary, a missing or unreadable one, and a value outside core's vocabulary", async () => {
    const interrupted = buildInterruptedSummary({
      run_id: "run_x",
      project_id: "demo",
      mode: "standard",
      signal: "SIGTERM",
      stage: "analyse",
      interrupted_at: "2026-12-01T00:00:00Z",
    });
    assert.equal(await readClaimStrength(await runWith("interrupted", JSON.stringify(interrupted))), null);
    assert.equal(await readClaimStrength(await runWith("missing", null)), null);
    assert.equal(await readClaimStrength(await runWith("not-json", "{")), null);
    assert.equal(await readClaimStrength(await runWith("other", '{"claim_strength":"SCREENING"}')), null);
  });
});
