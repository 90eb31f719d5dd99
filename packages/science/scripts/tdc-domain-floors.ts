// Writes data/tdc-domain-floors.json (issue 36 item 5): each TDC model's applicability-domain floor
// from where its error rises on its scaffold-held-out test compounds (src/admet/domain-floor.ts
// states the rule), never below random training pairs' similarity, with the error-vs-similarity
// table and the share of DrugCentral's approved drugs in domain. Reads only checked-in files (the
// model files' split, weights and training bits); admet/tdc-models.validation.test.ts recomputes it.
// Run: node packages/science/scripts/tdc-domain-floors.ts [key …]   (~4 min for all: every test compound is
// featurised; with keys, only those models' entries are recomputed, the others kept from the file)
import { writeFileSync } from "node:fs";
import { TDC_DATASETS } from "../src/admet/tdc-datasets.ts";
import { approvedDrugSmiles, tdcDomainEntry, tdcDomainFileOf } from "../src/admet/tdc-domain.ts";
import { TDC_DOMAIN_FILE, tdcDomainFile } from "../src/admet/tdc-domain-file.ts";
import { type TdcFeatures, tdcFeatures } from "../src/admet/tdc-features.ts";
import { packBits } from "../src/fingerprint/morgan.ts";
import { loadRDKit } from "../src/rdkit.ts";

const rdkit = await loadRDKit();
const cache = new Map<string, TdcFeatures>();
const features = (smiles: string) => {
  let f = cache.get(smiles);
  if (f === undefined) {
    f = tdcFeatures(rdkit, smiles);
    cache.set(smiles, f);
  }
  return f;
};
const approved = approvedDrugSmiles().map((smiles) => {
  const f = features(smiles);
  return f.ok ? packBits(f.bits) : null;
});
const keys = process.argv.slice(2);
const kept = keys.length === 0 ? null : tdcDomainFile();
const entries = TDC_DATASETS.map((d) => {
  const old = kept?.models[d.key];
  if (old !== undefined && !keys.includes(d.key)) return old;
  const entry = tdcDomainEntry(d, features, approved);
  console.log(
    `${d.key}: floor ${entry.min_tanimoto} (error ${entry.error_floor}, random P95 ${entry.random_pair_p95}, ` +
      `old ${entry.old_limit}); approved in domain ${entry.approved.share} (old ${entry.approved.share_old_limit})`,
  );
  for (const b of entry.bins)
    console.log(
      `  [${b.from}, ${b.to}) n ${b.compounds} ${entry.metric} ${b.figure} ${b.within_margin ? "within" : "worse"} (test ${entry.in_domain_figure})`,
    );
  return entry;
});
writeFileSync(
  new URL(`../data/${TDC_DOMAIN_FILE}`, import.meta.url),
  `${JSON.stringify(tdcDomainFileOf(entries), null, 1)}\n`,
);
