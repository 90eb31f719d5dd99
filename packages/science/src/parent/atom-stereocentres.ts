import type { Mol } from "../rdkit.ts";
import { molDescriptors } from "./mol-memo.ts";

/** Atom stereocentres of a molecule: all of them, and those whose configuration is not given. */
export interface AtomStereocentres {
  readonly total: number;
  readonly unspecified: number;
}

/**
 * The one stereocentre count of every module (issue 24 item 5). It must equal what sascorer.py
 * counts (`len(Chem.FindMolChiralCenters(m, includeUnassigned=True))`, RDKit's legacy stereo
 * perception in 2022.09, Debian's native RDKit): that perception does not flag the ring
 * pseudo-stereocentres of a cis/trans-1,4-disubstituted cyclohexane. RDKit WebAssembly's
 * `get_stereo_tags` uses the newer perception and flags them (2 per ring), which made the SA score
 * differ from native on 20 of 2,000 ChEMBL compounds; its descriptor `NumAtomStereoCenters` equals
 * the legacy count on all 2,000 (`synthesis/sa-score.validation.test.ts`).
 */
export function atomStereocentres(mol: Mol): AtomStereocentres {
  const d = molDescriptors(mol);
  return { total: d.NumAtomStereoCenters ?? 0, unspecified: d.NumUnspecifiedAtomStereoCenters ?? 0 };
}
