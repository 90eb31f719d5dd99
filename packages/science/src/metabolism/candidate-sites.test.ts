import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadRDKit, type RDKit } from "../rdkit.ts";
import {
  type CandidateSite,
  candidateSites,
  ENUMERATION_BOUNDS,
  ruleTemplateMatches,
} from "./candidate-sites.ts";
import { METABOLISM_RULES } from "./metabolism-rules.ts";
import { METABOLITE_FIXTURE_COUNT } from "./metabolite-prediction.ts";

/**
 * Drugs and a documented human metabolite, each hand-checked against its citation. SMILES are
 * written by hand (the drugs' InChIKeys equal PubChem's); the metabolite is compared by InChIKey,
 * so the comparison does not depend on how either SMILES is written.
 */
const FIXTURES: readonly {
  drug: string;
  smiles: string;
  rule: string;
  metabolite: string;
  metaboliteSmiles: string;
  citation: string;
}[] = [
  {
    drug: "codeine",
    smiles: "CN1CC[C@]23[C@@H]4[C@H]1CC5=C2C(=C(C=C5)OC)O[C@H]3[C@H](C=C4)O",
    rule: "o_dealkylation",
    metabolite: "morphine (CYP2D6 O-demethylation)",
    metaboliteSmiles: "CN1CC[C@]23[C@@H]4[C@H]1CC5=C2C(=C(C=C5)O)O[C@H]3[C@H](C=C4)O",
    citation: "Dayer et al., Biochem. Biophys. Res. Commun. 1988, 152, 411",
  },
  {
    drug: "diazepam",
    smiles: "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc12",
    rule: "n_dealkylation",
    metabolite: "nordazepam (N-desmethyldiazepam; CYP2C19 and CYP3A)",
    metaboliteSmiles: "O=C1CN=C(c2ccccc2)c2cc(Cl)ccc2N1",
    citation: "Andersson et al., Br. J. Clin. Pharmacol. 1994, 38, 131",
  },
  {
    drug: "acetaminophen",
    smiles: "CC(=O)Nc1ccc(O)cc1",
    rule: "o_glucuronidation",
    metabolite: "acetaminophen O-β-D-glucuronide (the major urinary metabolite)",
    metaboliteSmiles: "CC(=O)Nc1ccc(cc1)O[C@@H]1O[C@@H]([C@@H](O)[C@H](O)[C@H]1O)C(O)=O",
    citation: "Mazaleuskaya et al., Pharmacogenet. Genomics 2015, 25, 416",
  },
  {
    drug: "acetaminophen",
    smiles: "CC(=O)Nc1ccc(O)cc1",
    rule: "o_sulfation",
    metabolite: "acetaminophen O-sulfate",
    metaboliteSmiles: "OS(=O)(=O)Oc1ccc(NC(C)=O)cc1",
    citation: "Mazaleuskaya et al., Pharmacogenet. Genomics 2015, 25, 416",
  },
  {
    drug: "acetaminophen",
    smiles: "CC(=O)Nc1ccc(O)cc1",
    rule: "amide_hydrolysis",
    metabolite: "4-aminophenol (deacetylation, precursor of AM404)",
    metaboliteSmiles: "Nc1ccc(O)cc1",
    citation: "Högestätt et al., J. Biol. Chem. 2005, 280, 31405",
  },
  {
    drug: "tolbutamide",
    smiles: "CCCCNC(=O)NS(=O)(=O)c1ccc(C)cc1",
    rule: "benzylic_hydroxylation",
    metabolite: "hydroxytolbutamide (CYP2C9 methyl hydroxylation)",
    metaboliteSmiles: "OCc1ccc(cc1)S(=O)(=O)NC(=O)NCCCC",
    citation: "Miners & Birkett, Br. J. Clin. Pharmacol. 1998, 45, 525",
  },
  {
    drug: "carbamazepine",
    smiles: "NC(=O)N1c2ccccc2C=Cc2ccccc12",
    rule: "alkene_epoxidation",
    metabolite: "carbamazepine-10,11-epoxide (CYP3A4, CYP2C8)",
    metaboliteSmiles: "NC(=O)N1c2ccccc2C2OC2c2ccccc12",
    citation: "Kerr et al., Biochem. Pharmacol. 1994, 47, 1969",
  },
  {
    drug: "albendazole",
    smiles: "CCCSc1ccc2[nH]c(NC(=O)OC)nc2c1",
    rule: "s_oxidation",
    metabolite: "albendazole sulfoxide (FMO and CYP)",
    metaboliteSmiles: "CCC[S](=O)c1ccc2[nH]c(NC(=O)OC)nc2c1",
    citation: "Rawden et al., Br. J. Clin. Pharmacol. 2000, 49, 313",
  },
  {
    drug: "aspirin",
    smiles: "CC(=O)Oc1ccccc1C(=O)O",
    rule: "ester_hydrolysis",
    metabolite: "salicylic acid",
    metaboliteSmiles: "OC(=O)c1ccccc1O",
    citation: "Needs & Brooks, Clin. Pharmacokinet. 1985, 10, 164",
  },
  {
    drug: "lidocaine",
    smiles: "CCN(CC)CC(=O)Nc1c(C)cccc1C",
    rule: "n_dealkylation",
    metabolite: "monoethylglycinexylidide (MEGX; CYP3A4 N-deethylation)",
    metaboliteSmiles: "CCNCC(=O)Nc1c(C)cccc1C",
    citation: "Bargetzi et al., Clin. Pharmacol. Ther. 1989, 46, 521",
  },
  {
    drug: "procainamide",
    smiles: "CCN(CC)CCNC(=O)c1ccc(N)cc1",
    rule: "n_acetylation",
    metabolite: "N-acetylprocainamide (NAT2)",
    metaboliteSmiles: "CC(=O)Nc1ccc(cc1)C(=O)NCCN(CC)CC",
    citation: "Reidenberg et al., Clin. Pharmacol. Ther. 1975, 17, 722",
  },
  // The methylxanthines (issue 24 item 6: caffeine had no site, so its main metabolite was missed).
  {
    drug: "caffeine",
    smiles: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C",
    rule: "aromatic_n_dealkylation",
    metabolite: "paraxanthine (1,7-dimethylxanthine; CYP1A2 N3-demethylation, the main human metabolite)",
    metaboliteSmiles: "CN1C=NC2=C1C(=O)N(C(=O)N2)C",
    citation: "Gu et al., Pharmacogenetics 1992, 2, 73",
  },
  {
    drug: "caffeine",
    smiles: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C",
    rule: "aromatic_n_dealkylation",
    metabolite: "theobromine (3,7-dimethylxanthine; CYP1A2 N1-demethylation)",
    metaboliteSmiles: "CN1C=NC2=C1C(=O)NC(=O)N2C",
    citation: "Gu et al., Pharmacogenetics 1992, 2, 73",
  },
  {
    drug: "caffeine",
    smiles: "CN1C=NC2=C1C(=O)N(C(=O)N2C)C",
    rule: "aromatic_n_dealkylation",
    metabolite: "theophylline (1,3-dimethylxanthine; CYP1A2 N7-demethylation)",
    metaboliteSmiles: "CN1C2=C(C(=O)N(C1=O)C)NC=N2",
    citation: "Gu et al., Pharmacogenetics 1992, 2, 73",
  },
  {
    drug: "theophylline",
    smiles: "CN1C2=C(C(=O)N(C1=O)C)NC=N2",
    rule: "aromatic_n_dealkylation",
    metabolite: "3-methylxanthine (CYP1A2 N1-demethylation)",
    metaboliteSmiles: "CN1C2=C(C(=O)NC1=O)NC=N2",
    citation: "Ha et al., Br. J. Clin. Pharmacol. 1995, 39, 321",
  },
  {
    drug: "theobromine",
    smiles: "CN1C=NC2=C1C(=O)NC(=O)N2C",
    rule: "aromatic_n_dealkylation",
    metabolite: "7-methylxanthine (N3-demethylation, its main human metabolite)",
    metaboliteSmiles: "CN1C=NC2=C1C(=O)NC(=O)N2",
    citation: "Gates & Miners, Br. J. Clin. Pharmacol. 1999, 47, 299",
  },
  {
    drug: "(S)-nicotine",
    smiles: "CN1CCC[C@H]1c1cccnc1",
    rule: "n_oxidation",
    metabolite: "nicotine N1'-oxide (FMO3)",
    metaboliteSmiles: "C[N+]1([O-])CCC[C@H]1c1cccnc1",
    citation: "Cashman et al., Chem. Res. Toxicol. 1992, 5, 639",
  },
];

function inchikey(rdkit: RDKit, smiles: string): string {
  const mol = rdkit.get_mol(smiles);
  assert.ok(mol, `parses: ${smiles}`);
  try {
    return rdkit.get_inchikey_for_inchi(mol.get_inchi());
  } finally {
    mol.delete();
  }
}

function sitesOf(rdkit: RDKit, smiles: string): readonly CandidateSite[] {
  const mol = rdkit.get_mol(smiles);
  assert.ok(mol, `parses: ${smiles}`);
  try {
    return candidateSites(rdkit, mol).sites;
  } finally {
    mol.delete();
  }
}

describe("metabolite_prediction candidate sites", () => {
  it("finds each fixture's documented metabolite among its rule's products", async () => {
    const rdkit = await loadRDKit();
    // The method card states the number of fixtures.
    assert.equal(FIXTURES.length, METABOLITE_FIXTURE_COUNT);
    for (const fixture of FIXTURES) {
      const expected = inchikey(rdkit, fixture.metaboliteSmiles);
      const sites = sitesOf(rdkit, fixture.smiles).filter((site) => site.rule_id === fixture.rule);
      const found = sites.some((site) =>
        site.product_smiles.some((product) => inchikey(rdkit, product) === expected),
      );
      assert.ok(found, `${fixture.drug} → ${fixture.metabolite} (${fixture.citation}) by ${fixture.rule}`);
    }
  });

  it("does not fire where its pattern excludes the site", async () => {
    const rdkit = await loadRDKit();
    const rulesOf = (smiles: string) => new Set(sitesOf(rdkit, smiles).map((site) => site.rule_id));
    // Aspirin's ester oxygen is not an ether: hydrolysis, never O-dealkylation.
    assert.ok(!rulesOf("CC(=O)Oc1ccccc1C(=O)O").has("o_dealkylation"));
    // Benzene has only aromatic CH; toluene adds the benzylic methyl.
    assert.deepEqual([...rulesOf("c1ccccc1")], ["aromatic_hydroxylation"]);
    assert.ok(rulesOf("Cc1ccccc1").has("benzylic_hydroxylation"));
    // An enone's C=C is a Michael acceptor, not an epoxidation site here.
    assert.ok(!rulesOf("CC(=O)C=CC").has("alkene_epoxidation"));
    // Amide nitrogen is not N-oxidised.
    assert.ok(!rulesOf("CC(=O)N(C)C").has("n_oxidation"));
    // Aromatic N-dealkylation needs an alkyl on a ring nitrogen: none on xanthine itself or N-methylaniline.
    assert.ok(!rulesOf("O=C1NC(=O)C2=C(N1)N=CN2").has("aromatic_n_dealkylation"));
    assert.ok(!rulesOf("CNc1ccccc1").has("aromatic_n_dealkylation"));
  });

  it("keeps symmetry-equivalent atoms as one site and names the others", async () => {
    const rdkit = await loadRDKit();
    const aromatic = sitesOf(rdkit, "CC(=O)Nc1ccc(O)cc1").filter(
      (s) => s.rule_id === "aromatic_hydroxylation",
    );
    // Two distinct ring positions (ortho to OH, ortho to NHAc), each with its mirror atom.
    assert.equal(aromatic.length, 2);
    for (const site of aromatic) assert.equal(site.equivalent_atoms.length, 1);
  });

  it("stops at its bounds and says which rules were cut", async () => {
    const rdkit = await loadRDKit();
    // Hexaphenylbenzene: 30 aromatic CH, 30 matches.
    const mol = rdkit.get_mol("c1ccc(cc1)-c1c(-c2ccccc2)c(-c2ccccc2)c(-c2ccccc2)c(-c2ccccc2)c1-c1ccccc1");
    assert.ok(mol);
    try {
      const bounded = candidateSites(rdkit, mol, { perRule: 10, perCompound: 120 });
      assert.deepEqual(bounded.truncated_rules, ["aromatic_hydroxylation"]);
      const full = candidateSites(rdkit, mol, ENUMERATION_BOUNDS);
      assert.deepEqual(full.truncated_rules, []);
      const capped = candidateSites(rdkit, mol, { perRule: 40, perCompound: 2 });
      assert.equal(capped.sites.length, 2);
      assert.ok(capped.truncated_rules.includes("aromatic_hydroxylation"));
    } finally {
      mol.delete();
    }
  });
});

// Issue 42 item 2: the alert catalogs' screens spare the graph search of a rule that cannot match.
describe("candidate sites: screened rules", () => {
  it("toluene: only the rules whose template can match toluene are searched, and the sites are those of the matching rules", async () => {
    const rdkit: RDKit = await loadRDKit();
    const mol = rdkit.get_mol("Cc1ccccc1");
    assert.ok(mol);
    let searches = 0;
    const original = mol.get_substruct_matches.bind(mol);
    Object.defineProperty(mol, "get_substruct_matches", {
      value: (...args: Parameters<typeof original>) => {
        searches++;
        return original(...args);
      },
    });
    try {
      const { sites } = candidateSites(rdkit, mol);
      const searched = searches;
      const matching = METABOLISM_RULES.filter(
        (rule) => ruleTemplateMatches(rdkit, mol, rule.id, ENUMERATION_BOUNDS.perRule).length > 0,
      );
      assert.ok(sites.length > 0, "toluene has a benzylic and aromatic hydroxylation site");
      assert.deepEqual(new Set(sites.map((site) => site.rule_id)), new Set(matching.map((rule) => rule.id)));
      // Fewer searches than rules (each was searched before): an N-, S- or O-rule on a hydrocarbon is screened out.
      assert.ok(
        searched >= matching.length && searched < METABOLISM_RULES.length,
        `${searched} searches of ${METABOLISM_RULES.length} rules`,
      );
    } finally {
      mol.delete();
    }
  });
});
