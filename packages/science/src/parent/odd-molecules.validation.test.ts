import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { findingsOfEveryModule } from "../../test/support/every-module.ts";
import type { CompoundFinding } from "../analysis-module.ts";
import type { MolecularLogicFinding } from "../molecular-logic.ts";
import type { ReadinessFinding } from "../readiness/wetlab-readiness.ts";
import type { UncertaintyFinding } from "../uncertainty/uncertainty-quantification.ts";
import { valuesOutOfDomain } from "./values-out-of-domain.ts";

/** The odd-molecule corpus (issue 24 item 8), shared with the CLI's end-to-end test. */
export interface OddMolecule {
  readonly name: string;
  readonly category: string;
  readonly smiles: string;
  readonly compound_class: string;
  readonly out_of_domain: "every model estimate" | readonly string[];
  readonly readiness: "not scored; coverage < 1" | "scored; coverage < 1" | "scored" | "scored; coverage 1";
}

const CORPUS = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "test", "fixtures", "odd-molecules.json"), "utf8"),
) as { compounds: OddMolecule[] };

/** Keys of one compound's model estimates that are out of their domain, as `<module>.<key>`. */
function outOfDomainKeys(findings: ReadonlyMap<string, CompoundFinding>): Set<string> {
  const keys = new Set((findings.get("uncertainty_quantification") as UncertaintyFinding).out_of_domain);
  for (const [module, finding] of findings)
    for (const [key, value] of Object.entries(finding))
      if (
        value !== null &&
        typeof value === "object" &&
        (value as { in_domain?: unknown }).in_domain === false
      )
        keys.add(`${module}.${key}`);
  return keys;
}

describe("odd-molecule corpus: each input's honest outcome in every module (issue 24 item 8)", async () => {
  const all = await findingsOfEveryModule(CORPUS.compounds);

  it("holds at least 30 odd inputs across every category the issue names", () => {
    const odd = CORPUS.compounds.filter((c) => c.category !== "drug-like control");
    assert.ok(odd.length >= 30, `${odd.length}`);
    for (const category of [
      "organometallic",
      "inorganic salt",
      "siloxane",
      "borane",
      "peptide > 1,500 Da",
      "macrocycle",
      "permanently charged",
      "radical",
      "isotope",
      "polymer as fragment",
    ])
      assert.ok(
        odd.some((c) => c.category === category),
        category,
      );
  });

  for (const [at, c] of CORPUS.compounds.entries()) {
    it(`${c.name} (${c.category}): ${c.compound_class}; out of domain: ${typeof c.out_of_domain === "string" ? c.out_of_domain : c.out_of_domain.join(", ") || "none required"}; readiness ${c.readiness}`, () => {
      const findings = all[at] as Map<string, CompoundFinding>;
      const logic = findings.get("molecular_logic") as MolecularLogicFinding;
      assert.equal(logic.compound_class, c.compound_class, logic.compound_class_reason ?? "");
      // No module shows a value as a finding where it says it is out of its domain.
      for (const [module, finding] of findings) assert.deepEqual(valuesOutOfDomain(finding), [], module);
      const out = outOfDomainKeys(findings);
      const uq = findings.get("uncertainty_quantification") as UncertaintyFinding;
      if (c.out_of_domain === "every model estimate") {
        assert.equal(uq.estimates, null);
        for (const key of [
          "admet_predictions.pgp",
          "admet_predictions.caco2",
          "toxicity_profile.herg",
          "toxicity_profile.tox21_fingerprint_model",
        ])
          assert.ok(out.has(key), key);
        assert.equal((findings.get("gcn_toxicity") as { in_domain?: unknown }).in_domain, false);
        const cyp = findings.get("cyp_assessment") as unknown as {
          isoforms: Record<string, { in_domain: boolean }>;
        };
        for (const output of Object.values(cyp.isoforms)) assert.equal(output.in_domain, false);
      } else
        for (const key of c.out_of_domain) assert.ok(out.has(key), `${key} (out: ${[...out].join(", ")})`);
      const readiness = findings.get("wetlab_priority_and_readiness_determiner") as ReadinessFinding;
      const coverage = readiness.coverage ?? 0;
      if (c.readiness.startsWith("not scored")) assert.equal(readiness.readiness_score, null);
      else assert.notEqual(readiness.readiness_score, null);
      if (c.readiness.endsWith("coverage < 1")) assert.ok(coverage < 1, `coverage ${coverage}`);
      if (c.readiness.endsWith("coverage 1")) assert.equal(coverage, 1);
    });
  }
});
