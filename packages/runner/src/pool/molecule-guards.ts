import { parseMolBlock, withoutHydrogens } from "@svc/science/structure";

/** Limits checked on the SMILES text before RDKit sees it (issue 10 item 2). */
export interface MoleculeLimits {
  readonly maxHeavyAtoms: number;
  readonly maxSmilesLength: number;
}

// OpenSMILES §3.1: outside brackets only the organic subset may be written; two-letter symbols
// first so "Cl" is not read as C + l. Inside brackets the element follows an optional isotope.
const ORGANIC = /Cl|Br|[BCNOPSFI]|[bcnops]/y;
const BRACKET_ELEMENT = /^\d*(H)(?![a-z])/;

/**
 * Counts the heavy (non-hydrogen) atoms a SMILES string writes, without parsing chemistry: every
 * organic-subset symbol and every bracket atom except hydrogen (`[H]`, `[2H]`, `[H+]`). Implicit
 * hydrogens are not heavy atoms, so this equals RDKit's NumHeavyAtoms for a valid SMILES.
 */
export function countSmilesHeavyAtoms(smiles: string): number {
  let count = 0;
  let at = 0;
  while (at < smiles.length) {
    const ch = smiles[at] as string;
    if (ch === "[") {
      const end = smiles.indexOf("]", at + 1);
      const inside = smiles.slice(at + 1, end === -1 ? smiles.length : end);
      if (!BRACKET_ELEMENT.test(inside)) count++;
      at = end === -1 ? smiles.length : end + 1;
      continue;
    }
    ORGANIC.lastIndex = at;
    const match = ORGANIC.exec(smiles);
    if (match !== null) {
      count++;
      at += match[0].length;
      continue;
    }
    at++;
  }
  return count;
}

/**
 * Why a molecule is too large to give to RDKit, or null when it is within the limits. RDKit
 * WebAssembly traps ("memory access out of bounds") on a ~1,000-carbon chain or a 900-atom PEG
 * and hangs on a 700-carbon chain (issue 10), taking the whole process with it.
 */
export function exceedsLimits(smiles: string, limits: MoleculeLimits): string | null {
  if (smiles.length > limits.maxSmilesLength) {
    return `SMILES is ${smiles.length} characters, over the limit of ${limits.maxSmilesLength} (--max-smiles-length)`;
  }
  const heavy = countSmilesHeavyAtoms(smiles);
  if (heavy > limits.maxHeavyAtoms) {
    return `${heavy} heavy atoms, over the limit of ${limits.maxHeavyAtoms} (--max-heavy-atoms)`;
  }
  return null;
}

/**
 * Heavy atoms of an MDL molblock without RDKit: science's one SD reader (V2000 or V3000), hydrogen
 * (H, D, T) excluded. A block it cannot read counts 0 and is left to RDKit.
 */
export function countMolblockHeavyAtoms(molblock: string): number {
  try {
    return withoutHydrogens(parseMolBlock(molblock)).atoms.length;
  } catch {
    return 0;
  }
}

/** {@link exceedsLimits} for a molblock: only the heavy-atom limit applies. */
export function molblockExceedsLimits(molblock: string, limits: MoleculeLimits): string | null {
  const heavy = countMolblockHeavyAtoms(molblock);
  return heavy > limits.maxHeavyAtoms
    ? `${heavy} heavy atoms, over the limit of ${limits.maxHeavyAtoms} (--max-heavy-atoms)`
    : null;
}
