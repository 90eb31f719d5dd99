import { atomStereocentres } from "../parent/atom-stereocentres.ts";
import { molDescriptors } from "../parent/mol-memo.ts";
import type { Mol, RDKit } from "../rdkit.ts";
import { molJson } from "../rdkit-json.ts";
import { cachedNibrAlerts } from "../toxicity/structural-alerts.ts";
import { metalsIn } from "./metals.ts";
import { ringSystems } from "./ring-topology.ts";

/** Complexity and risk counts of one parent (the agreed manufacturability keys). */
export interface ManufacturabilityProfile {
  readonly stereocentres: number;
  readonly unspecified_stereocentres: number;
  readonly ring_systems: number;
  readonly macrocycles: number;
  readonly spiro_atoms: number;
  readonly bridgehead_atoms: number;
  readonly metals: readonly string[];
  readonly flags: readonly string[];
}

/**
 * Counts from RDKit (atom stereocentres, spiro and bridgehead atoms as RDKit's descriptors define
 * them), ring systems and macrocycles from RDKit's ring perception, metals, and the NIBR filters
 * marked covalent (reactive) as flags, each flag a sentence a chemist can act on.
 */
export function manufacturabilityProfile(rdkit: RDKit, mol: Mol): ManufacturabilityProfile {
  const d = molDescriptors(mol);
  const rings = ringSystems(rdkit, mol);
  const metals = metalsIn(molJson(mol));
  const reactive = cachedNibrAlerts(rdkit, mol).nibr.filter((hit) => hit.covalent);
  const stereo = atomStereocentres(mol);
  const profile = {
    stereocentres: stereo.total,
    unspecified_stereocentres: stereo.unspecified,
    ring_systems: rings.systems.length,
    macrocycles: rings.macrocycles,
    spiro_atoms: d.NumSpiroAtoms ?? 0,
    bridgehead_atoms: d.NumBridgeheadAtoms ?? 0,
    metals,
  };
  const flags: string[] = [];
  if (profile.unspecified_stereocentres > 0)
    flags.push(
      `${profile.unspecified_stereocentres} stereocentre(s) unspecified: the substance is a mixture or undefined`,
    );
  if (profile.stereocentres >= 3)
    flags.push(`${profile.stereocentres} stereocentres: stereoselective synthesis needed`);
  if (profile.macrocycles > 0)
    flags.push(`${profile.macrocycles} macrocyclic ring system(s): ring closure step`);
  if (profile.spiro_atoms > 0 || profile.bridgehead_atoms > 0)
    flags.push(
      `${profile.spiro_atoms} spiro and ${profile.bridgehead_atoms} bridgehead atom(s): complex ring scaffold`,
    );
  for (const metal of metals) flags.push(`contains ${metal}: metal content to control`);
  for (const hit of reactive) flags.push(`reactive motif (NIBR ${hit.severity}, covalent): ${hit.name}`);
  return { ...profile, flags };
}
