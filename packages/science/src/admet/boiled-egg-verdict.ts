import { type BoiledEggCall, boiledEgg } from "./boiled-egg.ts";
import type { Gated } from "./tdc-compound.ts";
import type { TdcClassification } from "./tdc-model.ts";

/**
 * The egg's calls as the audit states them (issue 36 item 3): the ellipses of Daina & Zoete (2016)
 * place a molecule by TPSA and WLOGP, which model passive permeation only; a permanently charged
 * cation (quaternary ammonium, N-alkyl pyridinium: molecular_logic's `permanent_charge`, the one
 * definition in parent/neutralise-parent.ts) cannot be that passive permeant whatever its two
 * descriptors say: quaternary ammonium drugs such as glycopyrronium and neostigmine are poorly
 * absorbed orally and do not enter the brain, which is why they are used as peripheral
 * anticholinergics and cholinesterase inhibitors. Such a compound is vetoed from the yolk and the
 * white: GI absorption low, BBB permeant no, the reason in `veto`.
 */
export const PERMANENT_CHARGE_VETO =
  "permanent charge: the parent keeps a cation with no proton to lose (quaternary N, N-alkyl pyridinium), " +
  "which does not cross membranes by passive diffusion; the egg models passive permeation only, so its " +
  "ellipses do not apply (GI absorption low, BBB permeant no)";

/**
 * The paper's third layer marks each point P-gp substrate (PGP+, blue) or not (PGP−, red) by an SVM
 * that is not reproduced here. The one P-gp model of this package is TDC's Broccatelli set, P-gp
 * *inhibition*: its call is stated as what it is, never as substrate (efflux) status.
 */
export const EGG_PGP_LAYER =
  "P-gp inhibitor (Broccatelli et al. 2011, TDC; calibrated probability ≥ the model's threshold), not the paper's " +
  "P-gp substrate (PGP+/PGP−) layer: no substrate model is available here, so efflux from the brain is not predicted";

export interface EggPgpLayer {
  /** What the layer is: P-gp inhibition, not substrate status. */
  readonly what: string;
  /**
   * The P-gp model's one call (uncertainty/classifier-call.ts) in the egg's words; unknown: no P-gp
   * model adopted, or the compound is outside its domain.
   */
  readonly call: "inhibitor" | "non_inhibitor" | "uncertain" | "unknown";
  /** The calibrated probability of inhibition when the call is not unknown. */
  readonly probability: number | null;
}

export interface BoiledEggVerdict extends BoiledEggCall {
  /** Where TPSA (with S and P) and WLOGP alone place the molecule, before any veto. */
  readonly passive_region: BoiledEggCall["region"];
  /** Why the ellipses were overruled, or null: a permanent cation (PERMANENT_CHARGE_VETO). */
  readonly veto: string | null;
  readonly pgp: EggPgpLayer;
}

/** The P-gp layer from the admet module's P-gp output (absent when that model is not reported). */
export function eggPgpLayer(pgp: Gated<TdcClassification> | undefined): EggPgpLayer {
  if (pgp === undefined || !("probability" in pgp))
    return { what: EGG_PGP_LAYER, call: "unknown", probability: null };
  return {
    what: EGG_PGP_LAYER,
    call: pgp.call === "positive" ? "inhibitor" : pgp.call === "negative" ? "non_inhibitor" : "uncertain",
    probability: pgp.probability,
  };
}

/** The egg's verdict on one parent: the ellipses' call, overruled for a permanent cation, with the P-gp layer. */
export function boiledEggVerdict(
  tpsaSp: number,
  wlogp: number,
  permanentCharge: boolean,
  pgp: EggPgpLayer,
): BoiledEggVerdict {
  const passive = boiledEgg(tpsaSp, wlogp);
  if (!permanentCharge) return { ...passive, passive_region: passive.region, veto: null, pgp };
  return {
    gi_absorption: "low",
    bbb_permeant: false,
    region: "grey",
    passive_region: passive.region,
    veto: PERMANENT_CHARGE_VETO,
    pgp,
  };
}
