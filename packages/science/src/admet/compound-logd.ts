import { compoundOnBits } from "../fingerprint/parent-fingerprint.ts";
import { similarityDomainRule } from "../fingerprint/similarity-domain.ts";
import { lastParentCache } from "../parent/last-parent-cache.ts";
import { withParentMol } from "../parent/with-parent-mol.ts";
import type { PreparedCompound } from "../prepare-compound.ts";
import { admetDescriptors } from "./admet-descriptors.ts";
import { logdDescriptorRow } from "./admet-model-features.ts";
import { isAnionic } from "./bioavailability-score.ts";
import { LOGD_MODEL, type LogdEstimate, logdModel, predictLogd } from "./logd-model.ts";

/** A compound's log D7.4 estimate as admet_predictions and uncertainty_quantification report it. */
export interface CompoundLogd extends LogdEstimate {
  readonly model: typeof LOGD_MODEL;
  readonly in_domain: boolean;
  /** The rule that decided `in_domain`, from the model's own training rows (issue 24 item 1). */
  readonly domain_rule: string;
}

const last = lastParentCache<CompoundLogd>();

/**
 * The logD model's estimate for a compound's parent, computed once per parent for both modules
 * (the kernel row against 3,360 training fingerprints is the cost; the shared Morgan bits are
 * reused). `descriptorRow` passes descriptors the caller already has, else they are computed.
 */
export function compoundLogd(
  compound: PreparedCompound & { ok: true },
  descriptorRow?: () => number[],
): CompoundLogd {
  return last(compound.chem.parent_smiles, () => {
    const row =
      descriptorRow?.() ??
      withParentMol(compound, (mol, rdkit) =>
        logdDescriptorRow(admetDescriptors(rdkit, mol), isAnionic(rdkit, mol)),
      );
    const model = logdModel();
    const estimate = predictLogd(model, compoundOnBits(compound), row);
    return {
      ...estimate,
      model: LOGD_MODEL,
      in_domain: estimate.nearest_tanimoto >= model.file.domain.min_tanimoto,
      domain_rule: similarityDomainRule(model.file.domain),
    };
  });
}
