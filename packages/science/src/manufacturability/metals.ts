import type { RDKitJson } from "../rdkit-json.ts";

// Element symbols by atomic number (index = Z), up to lawrencium.
const SYMBOLS = (
  "_ H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr " +
  "Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb " +
  "Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr"
).split(" ");

/**
 * Metals by IUPAC's periodic-table classes (alkali, alkaline-earth, transition, lanthanide,
 * actinide and post-transition metals); the metalloids B, Si, Ge, As, Sb and Te are not metals here.
 */
export function isMetal(z: number): boolean {
  return (
    z === 3 ||
    z === 4 ||
    (z >= 11 && z <= 13) ||
    (z >= 19 && z <= 31) ||
    (z >= 37 && z <= 50) ||
    (z >= 55 && z <= 84) ||
    z >= 87
  );
}

export function elementSymbol(z: number): string {
  return SYMBOLS[z] ?? `Z${z}`;
}

/** Distinct metal symbols of a molecule, sorted, read from RDKit's JSON (atoms default to carbon). */
export function metalsIn(parsed: RDKitJson): string[] {
  const fallback = parsed.defaults?.atom?.z ?? 6;
  const found = new Set<string>();
  for (const molecule of parsed.molecules ?? [])
    for (const atom of molecule.atoms ?? []) {
      const z = atom.z ?? fallback;
      if (isMetal(z)) found.add(elementSymbol(z));
    }
  return [...found].sort();
}
